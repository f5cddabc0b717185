"""The console's "Game" select of a new table shows each game's whole title (issue 31): on a
laptop (1366x768) it clipped "Caribbean Stud Poker"; on a phone (390x844) too, in it/en/sl,
and the page does not scroll sideways."""

from __future__ import annotations

from typing import Any

import pytest
from web_testkit import ARTIFACTS, LOCALES, OPERATOR, Tab, WebServer, horizontal_overflow

SIZES = ((390, 844), (1366, 768))
SCREENS = tuple((loc, w, h) for loc in LOCALES for w, h in SIZES)
# `make test` measures the select on a phone in Italian and on a laptop in Slovenian;
# `make test-all` in every language at both sizes.
FAST = {("it-IT", 390, 844), ("sl-SI", 1366, 768)}

# The room the select leaves for its option's text (its width less its padding and the drop
# arrow, about 20 CSS pixels in Chromium) less the widest option's text, in the select's font.
_SPARE = """(sel) => {
  const s = document.querySelector(sel);
  const cs = getComputedStyle(s);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const widest = Math.max(...Array.from(s.options, (o) => ctx.measureText(o.text).width));
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  return { spare: room - widest, titles: Array.from(s.options, (o) => o.text) };
}"""


@pytest.mark.parametrize(
    "screen",
    [
        pytest.param(s, id=f"{s[0]}-{s[1]}x{s[2]}", marks=() if s in FAST else pytest.mark.slow)
        for s in SCREENS
    ],
)
def test_the_game_select_shows_every_title_whole(
    screen: tuple[str, int, int], screen_tab: Any, web_server: WebServer
) -> None:
    locale, width, height = screen
    tab: Tab = screen_tab(locale, width, height)
    tab.login(*OPERATOR)
    page = tab.page
    page.goto(f"{web_server.url}/#/operator/tables")
    page.wait_for_selector("[data-testid=new-table] [data-testid=nt-game]")
    page.select_option("[data-testid=nt-game]", "caribbean")
    measured = page.evaluate(_SPARE, "[data-testid=nt-game]")
    assert len(measured["titles"]) >= 4
    assert measured["spare"] >= 0, measured
    assert horizontal_overflow(page) <= 0
    if locale == "en-GB":
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / f"operator-game-select-{width}x{height}.png"
        page.locator("[data-testid=new-table]").screenshot(path=str(shot))
