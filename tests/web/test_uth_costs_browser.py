"""UTH's decision costs in the round history, in the player's language (issue 32): pocket
Aces checked pre-flop, then a 2x on the flop; the history names each option with the words of
the table's buttons and Hint (``action.<name>``) and writes the values per Ante with the
language's decimal mark -- at a phone's and a laptop's size, with axe-core finding nothing."""

from __future__ import annotations

from typing import Any

import pytest
from web_testkit import (
    AXE,
    OwnServer,
    axe_violations,
    euros,
    horizontal_overflow,
    plain,
    tables_toml,
)

# The box holds A♠ A♥ (the box is dealt the first and third cards, the dealer the second and
# fourth).
ACES = "As 2c Ah 7d 3s Ad Kc 9h 4s Jc"
WORDS = {
    "en-GB": {"check": "Check", "4x": "Bet 4×", "2x": "Bet 2×", "3x": "Bet 3×", "best": "best"},
    "it-IT": {"check": "Check", "4x": "Punta 4×", "2x": "Punta 2×", "3x": "Punta 3×", "best": "migliore"},
    "sl-SI": {"check": "Check", "4x": "Stavi 4×", "2x": "Stavi 2×", "3x": "Stavi 3×", "best": "najboljše"},
}  # fmt: skip
SIZES = ((390, 844), (1366, 768))


def figure(x: float, locale: str, *, sign: bool = True) -> str:
    """A value per Ante as the page writes it: three places, the language's decimal mark
    (a comma in Italian and Slovenian), a minus sign (U+2212)."""
    text = (f"{x:+.3f}" if sign else f"{x:.3f}").replace("-", "\u2212")
    return text if locale.startswith("en") else text.replace(".", ",")


# `make test` reads the history on the laptop in English (UTH in Italian on a phone:
# test_screens.py); `make test-all` in Italian on a phone too.
@pytest.mark.parametrize(
    ("locale", "width", "height"),
    [pytest.param("it-IT", 390, 844, marks=pytest.mark.slow), ("en-GB", 1366, 768)],
)
def test_the_history_words_uths_decision_costs(
    own_server: Any, page_for: Any, locale: str, width: int, height: int
) -> None:
    server: OwnServer = own_server(tables_toml(), decks=[ACES])
    web = server.server
    name, _, token = web.player("aces", credit=100_000)
    tab = page_for(web, locale, width, height)
    tab.login(name)
    page = tab.page
    page.goto(f"{web.url}/#/table/casino-play")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-2x]:not([disabled])")
    page.wait_for_selector("[data-testid=result]")
    page.evaluate("location.hash = '#/history'")
    page.click("[data-testid=costs-ask]")
    page.wait_for_selector("[data-testid=costs] li:nth-child(2)")
    lines = [plain(li.inner_text()) for li in page.query_selector_all("[data-testid=costs] li")]
    auth = {"Authorization": f"Bearer {token}"}
    (mine,) = web.http.get("/api/rounds", headers=auth).json()
    costs = web.http.get(f"/api/rounds/{mine['id']}/costs", headers=auth).json()["costs"]
    pre, flop = costs
    assert pre["taken_option"]["action"] == "check" and pre["best_option"]["action"] == "4x"
    assert flop["taken_option"]["action"] == "2x"
    words = WORDS[locale]
    for cost, text in zip(costs, lines, strict=True):
        taken, best = words[cost["taken_option"]["action"]], words[cost["best_option"]["action"]]
        assert f"{taken} ({figure(cost['taken_ev'], locale)} Ante)" in text, text
        assert f"{words['best']} {best} ({figure(cost['best_ev'], locale)})" in text, text
        spent = figure(cost["cost"], locale, sign=False)
        assert f"{euros(cost['cost_money'], locale)} ({spent} Ante)" in text, text
        assert "4x" not in text and "2x" not in text, text  # not the server's labels
    for w, h in sorted(SIZES, key=lambda s: s[0] != width):  # its own size first
        page.set_viewport_size({"width": w, "height": h})
        assert horizontal_overflow(page) == 0
        if AXE.exists():
            assert axe_violations(page) == []
        tab.shot(f"uth-history-costs-{locale}-{w}")
