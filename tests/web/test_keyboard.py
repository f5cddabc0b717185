"""A UTH round played with the keyboard alone, on a phone and a laptop (issue 15): every
control is reached with Tab and used with Enter or Space, and the focus stays where it was
while the table updates around it (the page is updated in place, not redrawn)."""

from __future__ import annotations

import pytest
from web_testkit import Tab, WebServer, euros, plain, tab_to

SCREENS = [("en-GB", 390, 844), ("it-IT", 1366, 650)]
# `make test` plays the round on the laptop (a UTH table on a phone: test_screens.py,
# test_uth_antes_browser.py); `make test-all` on both.
SLOW = {SCREENS[0]}


def _focused(tab: Tab) -> str | None:
    found: str | None = tab.page.evaluate(
        "() => document.activeElement && document.activeElement.dataset.testid"
    )
    return found


@pytest.mark.parametrize(
    "screen",
    [
        pytest.param(s, id=f"{s[1]}x{s[2]}", marks=pytest.mark.slow if s in SLOW else ())
        for s in SCREENS
    ],
)
def test_a_uth_round_with_the_keyboard_alone(
    screen: tuple[str, int, int], screen_tab: object, web_server: WebServer
) -> None:
    locale, width, height = screen
    table = f"casino-keys-{SCREENS.index(screen)}"
    name, _, token = web_server.player("keys", credit=100_000)
    tab: Tab = screen_tab(locale, width, height)  # type: ignore[operator]
    tab.login(name)
    page = tab.page
    page.goto(f"{web_server.url}/#/table/{table}")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    tab_to(page, "sit")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=chip-tray]")
    tab_to(page, "chip-500")
    page.keyboard.press("Enter")
    assert page.get_attribute("[data-testid=chip-500]", "aria-pressed") == "true"
    assert _focused(tab) == "chip-500"  # still focused after the page updated
    tab_to(page, "spot-ante")
    page.keyboard.press("Enter")
    page.keyboard.press(" ")  # two €5 chips on the Ante, Space works as well as Enter
    assert _focused(tab) == "spot-ante"
    assert euros(1000, locale) in plain(page.inner_text("[data-testid=spot-ante]"))
    tab_to(page, "undo")
    page.keyboard.press("Enter")
    assert euros(500, locale) in plain(page.inner_text("[data-testid=spot-ante]"))
    tab_to(page, "bet-button")
    page.keyboard.press("Enter")
    for action in ("check", "check", "1x"):
        page.wait_for_selector(f"[data-testid=act-{action}]:not([disabled])")
        tab_to(page, f"act-{action}")
        page.keyboard.press("Enter")
        page.wait_for_timeout(100)
    result = page.wait_for_selector("[data-testid=result-net]")
    assert result is not None
    net = int(result.get_attribute("data-net") or "x")
    assert web_server.balance(token) == 100_000 + net
    tab.shot(f"uth-keyboard-{width}x{height}")
