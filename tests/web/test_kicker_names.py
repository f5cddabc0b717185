"""Hands named down to the kicker that decides, as UTH's and Hold'em's are, at Caribbean Stud
and Russian Poker: a stacked deal gives the box and the dealer a pair of Aces with a King, the
third kicker (Nine against Eight) deciding. Each hand's name on the felt says it ("Pair of
Aces, King-Nine kickers"); before, both read "Pair of Aces, King kicker", the same words for
a hand that won and one that lost."""

from __future__ import annotations

from typing import Any

from web_testkit import OwnServer, Tab, plain

# one box dealt five, then the dealer five, the dealer's up card last (Caribbean's
# ``dealing = "hands"``; Russian Poker deals so too)
BOX = "Ah Ad Kc 9d 3s"
DEALER = "As Ac Kh 8c 4h"
TABLES = """
[[tables]]
name = "kick-cs"
game = "caribbean"
title = "Caribbean kickers"
betting_seconds = 1
decision_seconds = 60
pause_seconds = 30
[tables.rules]
dealing = "hands"

[[tables]]
name = "kick-ru"
game = "russian"
title = "Russian kickers"
betting_seconds = 1
decision_seconds = 60
pause_seconds = 30
"""


def _bet(tab: Tab, url: str, table: str) -> None:
    page = tab.page
    page.goto(f"{url}/#/table/{table}")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit]")
    page.wait_for_selector("[data-testid=bet-form]")
    page.click("[data-testid=chip-100]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")


# each table: its decision that plays the hand, where the page names your hand, the dealer's
PLAYS = {
    "kick-cs": ("raise", "[data-testid=my-hand]", "[data-testid=dealer-hand]"),
    "kick-ru": ("bet", "[data-testid=my-box] [data-testid=box-hand]", "[data-testid=dealer-hand]"),
}


def test_caribbean_and_russian_hands_are_named_to_the_deciding_kicker(
    own_server: Any, page_for: Any
) -> None:
    own: OwnServer = own_server(TABLES, env={"CROUPIER_TEST_DECK": f"{BOX} {DEALER}"})
    web = own.server
    name, _, _ = web.player("kicker", credit=100_000)
    tab: Tab = page_for(web, "en-GB", 390, 844)
    tab.login(name)
    page = tab.page
    for table, (action, yours, dealers) in PLAYS.items():
        _bet(tab, web.url, table)
        page.click(f"[data-testid=act-{action}]:not([disabled])")
        page.wait_for_selector("[data-testid=result]")
        mine, dealer = plain(page.inner_text(yours)), plain(page.inner_text(dealers))
        assert mine == "Pair of Aces, King-Nine kickers", (table, mine)
        assert dealer == "Pair of Aces, King-Eight kickers", (table, dealer)
        tab.shot(f"{table}-kickers")
    # Russian Poker's result line names each box's hand against the dealer's it met
    summary = plain(page.inner_text("[data-testid=result] .hands"))
    assert "Pair of Aces, King-Nine kickers" in summary, summary
