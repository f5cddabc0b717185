"""Issue 29, "Live betting": at a live UTH table the betting has a visible countdown from the
round's own deadline with a warning in its last seconds; chips on the layout are said not to
be in play until "Confirm bet" (the button's word), are bet by themselves when time runs out
only if the player chose "confirm automatically" (a setting, off by default), and are said
not played otherwise; Trips can be added after the Ante while betting is open (seed 001).

Each test failed on the client before issue 29 (main at f5d48cb): no betting timer at a live
table, no warning, the button said "Deal", no setting, no way to add Trips after the Ante.
"""

from __future__ import annotations

import uuid
from typing import Any

from web_testkit import AXE, Tab, WebServer, axe_violations, euros, plain

CONFIRM = {"it-IT": "Conferma puntata", "en-GB": "Confirm bet", "sl-SI": "Potrdi stavo"}


def _open(tab: Tab, table: str, name: str) -> None:
    tab.login(name)
    tab.page.goto(f"{tab.server.url}/#/table/{table}")
    tab.page.wait_for_selector("[data-testid=connection][data-state=open]")
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=chip-tray]")


def _bot_opens_round(web_server: WebServer, make_bot: Any, table: str) -> Any:
    """Another player bets first: the round (and its betting countdown) opens."""
    _, _, token = web_server.player("opener", credit=100_000)
    bot = make_bot(table, token)
    assert bot.request({"type": "join"})["type"] == "ack"
    assert bot.request({"type": "bet", "key": uuid.uuid4().hex, "bets": {"ante": 100}})["type"] == (
        "ack"
    )
    return bot


def _my_events(tab: Tab, kind: str) -> list[dict[str, Any]]:
    return [
        f["event"]
        for f in tab.frames
        if f.get("type") == "seat_event" and f["event"].get("kind") == kind
    ]


def test_the_betting_countdown_warns_and_unconfirmed_chips_are_not_played(
    screen_tab: Any, web_server: WebServer, make_bot: Any
) -> None:
    table = "trust-live-timer"
    name, _, token = web_server.player("timer", credit=100_000)
    tab: Tab = screen_tab("it-IT", 390, 844)
    _open(tab, table, name)
    page = tab.page
    _bot_opens_round(web_server, make_bot, table)
    timer = page.wait_for_selector("[data-testid=timer][data-kind=betting]")
    assert timer is not None
    first = int(timer.get_attribute("data-left") or 0)
    assert 5 < first <= 9, first
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    # The chips are not a bet yet, and the page says so; the button says what it does.
    warning = page.wait_for_selector("[data-testid=unconfirmed][data-last=false]")
    assert warning is not None and "Conferma puntata" in warning.inner_text()
    assert plain(page.inner_text("[data-testid=bet-button]")) == CONFIRM["it-IT"]
    tab.shot("trust-betting-unconfirmed-390")
    if AXE.exists():
        assert not axe_violations(page)
    # The last seconds: the countdown runs on and the warning turns urgent.
    page.wait_for_selector("[data-testid=unconfirmed][data-last=true]", timeout=10_000)
    left = int(page.get_attribute("[data-testid=timer][data-kind=betting]", "data-left") or 99)
    assert left <= 5 and left < first
    tab.shot("trust-betting-last-seconds-390")
    # Betting closes: the chips were never played, and the player is told so.
    page.wait_for_selector(
        "[data-testid=log] li:has-text('non sono state giocate')", state="attached"
    )
    assert not _my_events(tab, "bets_placed")
    assert web_server.balance(token) == 100_000


def test_confirm_automatically_bets_the_chips_when_time_runs_out(
    screen_tab: Any, web_server: WebServer, make_bot: Any
) -> None:
    table = "trust-live-auto"
    name, _, token = web_server.player("auto", credit=100_000)
    tab: Tab = screen_tab("en-GB", 1366, 768)
    _open(tab, table, name)
    page = tab.page
    # The setting is off by default; the player turns it on.
    page.click("[data-testid=settings] summary")
    box = page.wait_for_selector("[data-testid=auto-confirm]")
    assert box is not None and not box.is_checked()
    box.check()
    page.click("[data-testid=settings] summary")
    _bot_opens_round(web_server, make_bot, table)
    page.wait_for_selector("[data-testid=timer][data-kind=betting]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    note = page.wait_for_selector("[data-testid=unconfirmed]")
    assert note is not None and "by themselves" in note.inner_text()
    tab.wait_until(lambda: bool(_my_events(tab, "bets_placed")), timeout=15)
    (placed,) = _my_events(tab, "bets_placed")
    assert placed["ante"] == 500
    page.wait_for_selector(
        "[data-testid=log] li:has-text('confirmed automatically')", state="attached"
    )
    assert web_server.balance(token) == 100_000 - 1_000
    tab.shot("trust-betting-auto-1366")


def test_trips_are_added_after_the_ante(
    screen_tab: Any, web_server: WebServer, make_bot: Any
) -> None:
    table = "trust-live-trips"
    name, _, token = web_server.player("trips", credit=100_000)
    tab: Tab = screen_tab("sl-SI", 1920, 1080)
    _open(tab, table, name)
    page = tab.page
    # A third player sits and has not bet: betting stays open after the page's Ante.
    _, _, idle_token = web_server.player("idle", credit=100_000)
    idle = make_bot(table, idle_token)
    assert idle.request({"type": "join"})["type"] == "ack"
    _bot_opens_round(web_server, make_bot, table)
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    tab.wait_until(lambda: bool(_my_events(tab, "bets_placed")))
    # The Ante is in; betting is still open: Trips may be added (seed 001).
    page.wait_for_selector("[data-testid=trips-after]")
    page.click("[data-testid=chip-100]")
    page.click("[data-testid=spot-trips]")
    page.click("[data-testid=spot-trips]")
    confirm = page.wait_for_selector("[data-testid=trips-confirm]:not([disabled])")
    assert confirm is not None and euros(200, "sl-SI") in plain(confirm.inner_text())
    tab.shot("trust-betting-trips-1920")
    confirm.click()
    tab.wait_until(lambda: bool(_my_events(tab, "trips_placed")))
    (trips,) = _my_events(tab, "trips_placed")
    assert trips["trips"] == 200
    assert web_server.balance(token) == 100_000 - 1_000 - 200
    if AXE.exists():
        assert not axe_violations(page)
