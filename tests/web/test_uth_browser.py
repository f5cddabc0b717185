"""Ultimate Texas Hold'em in a real browser: register, log in, sit, bet, play to the end.

Each test drives headless Chromium against the real server (tests/web/conftest.py) and checks
what the page shows against the server's own figures (the wallet, the round recall) and,
for the deck commitment, against Python's hashlib.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from web_testkit import OPERATOR, PASSWORD, Tab, WebServer

ANTE_CHIP = 500
TRIPS_CHIP = 100


def _phase(tab: Tab, phase: str) -> None:
    tab.page.wait_for_selector(f"[data-testid=uth-table][data-phase='{phase}']")


def _sit_and_bet(tab: Tab, table: str) -> None:
    tab.open_table(table)
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=chip-tray]")
    tab.page.click(f"[data-testid=chip-{ANTE_CHIP}]")
    tab.page.click("[data-testid=spot-ante]")
    tab.page.click(f"[data-testid=chip-{TRIPS_CHIP}]")
    tab.page.click("[data-testid=spot-trips]")
    assert tab.page.inner_text("[data-testid=spot-blind]").endswith("€5.00")
    tab.page.click("[data-testid=bet-button]")


def _act(tab: Tab, action: str) -> None:
    button = f"[data-testid=act-{action}]:not([disabled])"
    tab.page.wait_for_selector(button)
    tab.page.click(button)


def _result_net(tab: Tab) -> int:
    tab.page.wait_for_selector("[data-testid=result]")
    return int(tab.page.get_attribute("[data-testid=result-net]", "data-net") or "x")


def _shown_balance(tab: Tab) -> int:
    text = tab.page.inner_text("[data-testid=balance]")
    return int(re.sub(r"[^0-9]", "", text))


def _wait_balance(tab: Tab, cents: int) -> None:
    euros = f"€{cents // 100:,}.{cents % 100:02d}"
    tab.page.wait_for_selector(f"[data-testid=balance]:text-is('{euros}')")


def _round_id(tab: Tab) -> int:
    opened = tab.wait_frame(
        lambda f: f.get("type") == "event" and f["event"]["kind"] == "round_opened"
    )
    round_id: int = opened["event"]["round_id"]
    return round_id


def test_register_log_out_and_log_in(tab: Tab, web_server: WebServer) -> None:
    page = tab.page
    page.goto(f"{web_server.url}/#/login")
    page.click("[data-testid=auth-switch]")
    name = f"newbie-{tab.sockets}{id(page) % 10000}"
    page.fill("[data-testid=username-input]", name)
    page.fill("[data-testid=password-input]", PASSWORD)
    page.click("[data-testid=auth-submit]")
    page.wait_for_selector("[data-testid=lobby] article")
    assert page.inner_text("[data-testid=username]") == name
    assert page.inner_text("[data-testid=balance]") == "€0.00"
    # The lobby: limits and seats of an open table, the reason a table is closed.
    casino = page.inner_text("[data-testid=table-casino-play]")
    assert "Ante €1.00–€1,000.00" in casino and "seats taken" in casino
    holdem = page.inner_text("[data-testid=table-holdem-nl]")
    listed = {t["name"]: t for t in web_server.http.get("/api/tables").json()}
    if listed["holdem-nl"]["status"] == "unavailable":
        assert listed["holdem-nl"]["reason"] in holdem
    tab.shot("lobby")
    page.click("[data-testid=logout]")
    page.wait_for_selector("[data-testid=auth-form]")
    page.fill("[data-testid=username-input]", name)
    page.fill("[data-testid=password-input]", "wrong-password")
    page.click("[data-testid=auth-submit]")
    page.wait_for_selector("[data-testid=auth-error]:not(:empty)")
    page.fill("[data-testid=password-input]", PASSWORD)
    page.click("[data-testid=auth-submit]")
    page.wait_for_selector("[data-testid=lobby] article")
    assert page.inner_text("[data-testid=username]") == name


def test_play_a_round_to_the_end_and_check_the_balance(tab: Tab, web_server: WebServer) -> None:
    name, _, token = web_server.player("alice", credit=100_000)
    tab.login(name)
    _wait_balance(tab, 100_000)
    _sit_and_bet(tab, "casino-play")
    _phase(tab, "pre-flop")
    _wait_balance(tab, 100_000 - 2 * ANTE_CHIP - TRIPS_CHIP)
    assert len(tab.page.query_selector_all("[data-testid=my-hole] [data-testid=card]")) == 2
    assert len(tab.page.query_selector_all("[data-testid=dealer] [data-testid=card-back]")) == 2
    tab.shot("uth-preflop")
    # The hint asks the server's strategy advisor about the seat's own cards.
    hole = "".join(
        c.get_attribute("data-card") or ""
        for c in tab.page.query_selector_all("[data-testid=my-hole] [data-testid=card]")
    )
    advice = web_server.http.get(
        "/api/uth/advice", params={"hole": hole}, headers={"Authorization": f"Bearer {token}"}
    )
    if advice.status_code != 404:  # a server without the advisor: the page says so instead
        tab.page.click("[data-testid=hint]")
        hint = tab.page.wait_for_selector("[data-testid=hint-text]:has-text('Best play:')")
        best = advice.json()["best"]
        assert hint is not None and "Best play:" in hint.inner_text()
        # The advisor's best move is marked on its button.
        assert tab.page.query_selector(f"[data-testid=act-{best}].hinted")
    _act(tab, "check")
    _phase(tab, "flop")
    assert len(tab.page.query_selector_all("[data-testid=board] [data-testid=card]")) == 3
    _act(tab, "check")
    _phase(tab, "river")
    assert len(tab.page.query_selector_all("[data-testid=board] [data-testid=card]")) == 5
    _act(tab, "1x")
    net = _result_net(tab)
    tab.shot("uth-result")
    recalled = web_server.recall(_round_id(tab))
    (player,) = recalled["players"]
    assert player["staked"] == 3 * ANTE_CHIP + TRIPS_CHIP  # Ante, Blind, Play 1x, Trips
    assert player["returned"] - player["staked"] == net
    assert recalled["status"] == "settled"
    _wait_balance(tab, 100_000 + net)
    assert web_server.balance(token) == 100_000 + net == _shown_balance(tab)

    # Round history: the browser's SHA-256 check agrees with hashlib, and catches a forgery.
    tab.page.click("[data-testid=nav-history]")
    tab.page.wait_for_selector("[data-testid=verify][data-ok]")
    assert tab.page.get_attribute("[data-testid=verify]", "data-ok") == "true"
    digest = hashlib.sha256(f"{recalled['salt']}:{recalled['deck']}".encode()).hexdigest()
    assert digest == recalled["commitment"]
    assert tab.page.inner_text(f"[data-testid=round-{recalled['id']}] [data-testid=round-net]")

    def forge(route: Any) -> None:
        rounds = route.fetch().json()
        cards = rounds[0]["deck"].split(" ")
        cards[0], cards[1] = cards[1], cards[0]
        rounds[0]["deck"] = " ".join(cards)
        route.fulfill(json=rounds)

    tab.page.route("**/api/rounds?limit=10", forge)
    tab.page.reload()
    tab.page.wait_for_selector("[data-testid=verify][data-ok]")
    assert tab.page.get_attribute("[data-testid=verify]", "data-ok") == "false"
    tab.shot("history-forged")


def test_live_table_shared_hand(tab: Tab, web_server: WebServer, make_bot: Any) -> None:
    name, _, token = web_server.player("lena", credit=50_000)
    _, _, bot_token = web_server.player("livebot", credit=50_000)
    bot = make_bot("live", bot_token)
    bot_seat = bot.request({"type": "join"})["result"]["seat"]
    tab.login(name)
    _sit_and_bet(tab, "live")
    # The second player bets as soon as the browser's bet has opened the round, which closes
    # betting at once (everyone seated has bet).
    bot.wait_for(lambda f: f.get("type") == "event" and f["event"]["kind"] == "round_opened")
    assert bot.request({"type": "bet", "key": "live-1", "bets": {"ante": 500}})["type"] == "ack"
    _phase(tab, "pre-flop")
    shared = tab.page.query_selector_all(".shared-hand [data-testid=card]")
    assert len(shared) == 2
    assert bot.request({"type": "act", "action": "4x"})["type"] == "ack"
    # A live table counts its players for everyone (the tally) instead of listing each box.
    # (A selector, not wait_for_function: the page's CSP forbids evaluating strings.)
    tab.page.wait_for_selector("[data-testid=players]:has-text('2 in play')")
    assert tab.page.text_content("[data-testid=players]").startswith("2 players")
    _act(tab, "4x")
    net = _result_net(tab)
    _wait_balance(tab, 50_000 + net)
    assert web_server.balance(token) == 50_000 + net
    tab.shot("uth-live-result")
    # Nothing about the other player's box reached this page: its bets, its 4x and its
    # result went to its own connection only.
    about_bot = [
        f
        for f in tab.frames
        if f.get("type") in ("event", "seat_event") and f["event"].get("seat") == bot_seat
    ]
    assert about_bot == []
    own = [f["event"]["kind"] for f in tab.frames if f.get("type") == "seat_event"]
    assert {"seated", "bets_placed", "your_turn", "play_bet", "seat_settled"} <= set(own)
    # The table goes idle with no `state` (the page follows a live table's events), and the
    # page takes the next round's bet, which the server places.
    tab.wait_until(lambda: bool(tab.events("table_idle")))
    _sit_and_bet_only(tab)

    def placed() -> int:
        return sum(
            1
            for f in tab.frames
            if f.get("type") == "seat_event" and f["event"]["kind"] == "bets_placed"
        )

    tab.wait_until(lambda: placed() == 2)
    frames = list(tab.frames)
    opened = next(
        i for i, f in enumerate(frames) if f.get("event", {}).get("kind") == "round_opened"
    )
    assert [f for f in frames[opened:] if f.get("type") == "state"] == []


def test_reload_in_the_middle_of_a_round(tab: Tab, web_server: WebServer) -> None:
    name, _, token = web_server.player("rita", credit=100_000)
    tab.login(name)
    _sit_and_bet(tab, "casino-reload")
    _phase(tab, "pre-flop")
    _act(tab, "check")
    _phase(tab, "flop")
    hole = [
        c.get_attribute("data-card")
        for c in tab.page.query_selector_all("[data-testid=my-hole] [data-testid=card]")
    ]
    board = [
        c.get_attribute("data-card")
        for c in tab.page.query_selector_all("[data-testid=board] [data-testid=card]")
    ]
    tab.page.reload()
    _phase(tab, "flop")
    tab.wait_until(lambda: tab.sockets == 2)
    after = [
        c.get_attribute("data-card")
        for c in tab.page.query_selector_all("[data-testid=my-hole] [data-testid=card]")
    ]
    assert after == hole and len(hole) == 2
    assert [
        c.get_attribute("data-card")
        for c in tab.page.query_selector_all("[data-testid=board] [data-testid=card]")
    ] == board
    tab.shot("uth-after-reload")
    _act(tab, "2x")
    net = _result_net(tab)
    _wait_balance(tab, 100_000 + net)
    assert web_server.balance(token) == 100_000 + net


def test_socket_drop_resyncs_missed_events(tab: Tab, web_server: WebServer, make_bot: Any) -> None:
    name, _, token = web_server.player("carl", credit=100_000)
    _, _, bot_token = web_server.player("bot", credit=100_000)
    tab.login(name)
    tab.open_table("casino-reconnect")
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=chip-tray]")
    bot = make_bot("casino-reconnect", bot_token)
    bot_seat = bot.request({"type": "join"})["result"]["seat"]
    _sit_and_bet_only(tab)
    assert bot.request({"type": "bet", "key": "b1", "bets": {"ante": 200}})["type"] == "ack"
    _phase(tab, "pre-flop")
    tab.page.wait_for_selector("[data-testid=act-check]:not([disabled])")

    # Drop the socket and hold the reconnection while the other seat acts.
    tab.page.evaluate(
        """() => { const t = window.croupier.table; t.heldConnect = t.connect.bind(t);
                   t.connect = () => {}; t.ws.close(); }"""
    )
    tab.page.wait_for_selector("[data-testid=connection]:has-text('reconnecting')")
    seen_before = max(f["seq"] for f in tab.frames if f.get("type") == "event")
    assert bot.request({"type": "act", "action": "check"})["type"] == "ack"
    tab.page.evaluate(
        "() => { const t = window.croupier.table; t.connect = t.heldConnect; t.connect(); }"
    )
    tab.page.wait_for_selector("[data-testid=connection][data-state=open]")
    tab.page.wait_for_selector("[data-testid=log] li:has-text('checks')")
    tab.wait_until(lambda: tab.sockets == 2)
    resynced = tab.wait_frame(lambda f: f.get("type") == "state" and bool(f.get("resynced")))
    assert resynced["complete"] is True
    missed = tab.wait_frame(
        lambda f: (
            f.get("type") == "event" and f["seq"] > seen_before and f["event"]["kind"] == "checked"
        )
    )
    assert missed["event"]["seat"] == bot_seat
    tab.shot("uth-after-resync")

    _act(tab, "check")
    bot.wait_for(lambda f: f.get("type") == "event" and f["event"].get("phase") == "flop")
    assert bot.request({"type": "act", "action": "check"})["type"] == "ack"
    _phase(tab, "flop")
    _act(tab, "check")
    bot.wait_for(lambda f: f.get("type") == "event" and f["event"].get("phase") == "river")
    assert bot.request({"type": "act", "action": "fold"})["type"] == "ack"
    _act(tab, "1x")
    net = _result_net(tab)
    _wait_balance(tab, 100_000 + net)
    assert web_server.balance(token) == 100_000 + net


def _sit_and_bet_only(tab: Tab) -> None:
    tab.page.click(f"[data-testid=chip-{ANTE_CHIP}]")
    tab.page.click("[data-testid=spot-ante]")
    tab.page.click("[data-testid=bet-button]")


def test_operator_page_figures(tab: Tab, web_server: WebServer, make_bot: Any) -> None:
    _, _, bot_token = web_server.player("opsbot", credit=100_000)
    bot = make_bot("casino-ops", bot_token)
    bot.request({"type": "join"})
    ack = bot.request({"type": "bet", "key": "ops-1", "bets": {"ante": 1000, "trips": 500}})
    round_id = ack["result"]["round_id"]
    bot.wait_for(lambda f: f.get("type") == "event" and f["event"].get("phase") == "pre-flop")
    bot.request({"type": "act", "action": "play", "multiple": 4})
    bot.wait_for(lambda f: f.get("type") == "event" and f["event"]["kind"] == "round_closed")
    recalled = web_server.recall(round_id)
    staked = sum(p["staked"] for p in recalled["players"])
    returned = sum(p["returned"] for p in recalled["players"])

    tab.login(*OPERATOR)
    tab.page.click("[data-testid=nav-operator]")
    tab.page.click("[data-testid=op-nav-reports]")
    row = tab.page.wait_for_selector("[data-testid=stats-tables] tr[data-key=casino-ops]")
    cells = [c.inner_text() for c in row.query_selector_all("td")]
    assert cells[0] == "1"  # rounds
    assert cells[1] == "0"  # voided
    assert cells[2] == _euros(staked)
    assert cells[3] == _euros(staked - returned)
    assert tab.page.query_selector("[data-testid=convergence-plot] path.actual")
    tab.page.wait_for_selector("[data-testid=ledger]:has-text('balances')")
    tab.shot("operator")


def _euros(cents: int) -> str:
    sign = "−" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}€{cents // 100:,}.{cents % 100:02d}"
