"""The Antes returned first, as a player sees them (issue 28, seed 003): when the dealer does not
qualify the table says so and returns the seat's Ante before settling its box, and the round
history recalls it. A server of its own deals every round from one deck in which the dealer's
hand (2c 7d on Ah Kd 9s 5c 3h) has no pair."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_testkit import (
    PASSWORD,
    Tab,
    WebServer,
    axe_violations,
    horizontal_overflow,
    serve,
)

from croupier.cards import DECK, parse_cards

# one box: its card, the dealer's, its card, the dealer's; a burn; flop, turn and river
_TOP = parse_cards("Qs 2c Jh 7d 6c Ah Kd 9s 5c 3h")
FIXED_DECK = " ".join(str(c) for c in (*_TOP, *(c for c in DECK if c not in _TOP)))

_TABLE = """
[[tables]]
name = "{name}"
game = "uth"
title = "UTH {name}"
betting_seconds = 30
decision_seconds = 60
pause_seconds = 0.5
[tables.rules]
max_seats = 6
"""
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


@pytest.fixture(scope="module")
def fixed_server() -> Iterator[WebServer]:
    tables = "".join(_TABLE.format(name=f"antes-{size}") for size in SIZES)
    with serve(tables, CROUPIER_TEST_DECK=FIXED_DECK) as server:
        yield server


# `make test` on the phone (UTH on a laptop: test_keyboard.py, test_uth_costs_browser.py);
# `make test-all` on both.
@pytest.mark.parametrize(
    "size", [pytest.param(s, marks=pytest.mark.slow if s == "laptop" else ()) for s in SIZES]
)
def test_the_ante_comes_back_first_and_the_history_recalls_it(
    chromium: Any, fixed_server: WebServer, size: str
) -> None:
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    tab = Tab(page=page, server=fixed_server)
    page.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    try:
        name, _, _ = fixed_server.player(f"antes-{size}", credit=100_000)
        tab.login(name, PASSWORD)
        tab.open_table(f"antes-{size}")
        page.click("[data-testid=sit]")
        page.wait_for_selector("[data-testid=chip-tray]")
        page.click("[data-testid=chip-500]")
        page.click("[data-testid=spot-ante]")
        page.click("[data-testid=bet-button]")
        for action in ("check", "check", "1x"):
            button = f"[data-testid=act-{action}]:not([disabled])"
            page.wait_for_selector(button)
            page.click(button)
        # Qs Jh (ace-king-queen high) beats the dealer's ace-king-nine, which does not qualify
        shown = page.wait_for_selector("[data-testid=ante-returned]")
        assert shown is not None and "Your Ante of €5.00 is returned" in shown.inner_text()
        # Ante returned, Blind pushes (below a straight), Play 1x wins 1:1
        assert page.get_attribute("[data-testid=result-net]", "data-net") == "500"
        # the log lists the newest first: the Antes went back before the box was settled
        log = page.text_content("[data-testid=log]") or ""
        assert log.index("Your result") < log.index("every Ante still in play is returned first")
        assert horizontal_overflow(page) == 0
        assert axe_violations(page) == []
        tab.shot(f"uth-antes-returned-{size}")
        page.click("[data-testid=nav-history]")
        recalled = page.wait_for_selector("[data-testid=history-antes-returned]")
        assert recalled is not None and "Box 1 €5.00" in recalled.inner_text()
        tab.shot(f"uth-antes-history-{size}")
    finally:
        context.close()
    assert not tab.errors, f"javascript errors on the page: {tab.errors}"
