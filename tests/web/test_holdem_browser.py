"""Hold'em No-Limit in a real browser: a browser player and a websockets bot play one hand.

The browser sits, buys in through the dialog, raises with the amount the server's `options`
bound, the bot folds; the page shows the hand's result and, after the cash-out, the same
balance as ``GET /api/wallet`` (tests/web/conftest.py runs the real server).
"""

from __future__ import annotations

import re
from typing import Any

from web_testkit import Tab, WebServer

CREDIT = 50_000
BUY_IN = 10_000


def _shown_balance(tab: Tab) -> int:
    return int(re.sub(r"[^0-9]", "", tab.page.inner_text("[data-testid=balance]")))


def _wait_balance(tab: Tab, cents: int) -> None:
    euros = f"€{cents // 100:,}.{cents % 100:02d}"
    tab.page.wait_for_selector(f"[data-testid=balance]:text-is('{euros}')")


def _turn(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "event" and frame["event"]["kind"] in ("turn", "round_closed")


def _euros(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _cents(text: str | None) -> int:
    whole, _, frac = (text or "x").partition(".")
    return int(whole) * 100 + int(frac.ljust(2, "0"))


def test_play_a_hand_against_a_bot_and_cash_out(
    tab: Tab, web_server: WebServer, make_bot: Any
) -> None:
    name, _, token = web_server.player("hana", credit=CREDIT)
    _, _, bot_token = web_server.player("hbot", credit=CREDIT)
    tab.login(name)
    tab.open_table("holdem-nl")
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=buyin-dialog]")
    # Amount boxes take euros, like every label on the page (BUY_IN is in cents).
    tab.page.fill("[data-testid=buyin-amount]", _euros(BUY_IN))
    tab.page.click("[data-testid=buyin-submit]")
    tab.page.wait_for_selector(f"[data-testid=my-stack][data-stack='{BUY_IN}']")
    _wait_balance(tab, CREDIT - BUY_IN)
    me = int(tab.page.get_attribute(".hm-seat.mine", "data-seat") or "x")

    bot = make_bot("holdem-nl", bot_token)
    bot_seat = bot.request({"type": "join"})["result"]["seat"]
    ack = bot.request({"type": "buy_in", "key": "hbot-in", "amount": BUY_IN})
    assert ack["type"] == "ack", ack

    # The hand: whoever acts, the browser raises by the page's controls and the bot folds
    # to a raise (it calls the blind when it acts first).
    raised = False
    while True:
        frame = bot.wait_for(_turn, timeout=30)
        event = frame["event"]
        if event["kind"] == "round_closed":
            break
        if event["seat"] == bot_seat:
            answer = bot.request({"type": "act", "action": "fold" if raised else "call"})
            assert answer["type"] == "ack", answer
            continue
        assert event["seat"] == me
        tab.page.wait_for_selector("[data-testid=holdem-table][data-turn=me]")
        assert len(tab.page.query_selector_all("[data-testid=my-hole] [data-testid=card]")) == 2
        hidden = f"[data-testid=seat-{bot_seat}] [data-testid=card-back]"
        assert len(tab.page.query_selector_all(hidden)) == 2
        low = _cents(tab.page.get_attribute("[data-testid=raise-amount]", "min"))
        high = _cents(tab.page.get_attribute("[data-testid=raise-amount]", "max"))
        assert 0 < low <= high <= BUY_IN
        # The page bounds the amount by the server's own options for this decision.
        options = next(
            f["view"]["options"]
            for f in reversed(tab.frames)
            if f.get("type") == "state" and f.get("view") and f["view"].get("options")
        )
        assert (low, high) == (options["min_raise_to"], options["max_raise_to"])
        tab.page.fill("[data-testid=raise-amount]", _euros(low))
        label = (
            tab.page.text_content(
                f"[data-testid=act-{'raise' if tab.page.query_selector('[data-testid=act-raise]') else 'bet'}]"
            )
            or ""
        )
        assert _euros(low) in label.replace(",", ""), label
        tab.shot("holdem-decision")
        word = "raise" if tab.page.query_selector("[data-testid=act-raise]") else "bet"
        tab.page.click(f"[data-testid=act-{word}]:not([disabled])")
        raised = True

    closed = event
    assert closed["status"] == "settled"
    # No second hand: the bot leaves before the pause is over.
    assert bot.request({"type": "leave"})["type"] == "ack"
    tab.page.wait_for_selector("[data-testid=hand-result]")
    net = int(tab.page.get_attribute("[data-testid=hand-result]", "data-net") or "x")
    assert net == closed["summary"]["net"][str(me)]
    assert net > 0  # the bot folded to the raise
    # The result screen keeps your hole cards.
    assert len(tab.page.query_selector_all("[data-testid=my-hole] [data-testid=card]")) == 2
    tab.shot("holdem-result")
    tab.page.click("[data-testid=leave]:not([disabled])")
    _wait_balance(tab, CREDIT + net)
    assert web_server.balance(token) == CREDIT + net == _shown_balance(tab)
    assert web_server.balance(bot_token) == CREDIT - net
    # History: the hand is committed card by card; the browser checks every card this player
    # may see against the commitment, and the bot's folded cards never reached the page.
    tab.page.click("[data-testid=nav-history]")
    tab.page.wait_for_selector("[data-testid=verify][data-ok]")
    assert tab.page.get_attribute("[data-testid=verify]", "data-ok") == "true"
    # The hand's actions in words, with the amounts: your raise, the bot's fold.
    actions = tab.page.inner_text("[data-testid=history-actions]")
    assert re.search(rf"{name} (raises to|bets) €", actions), actions
    assert "folds" in actions, actions
    # Opened: the player's own two cards and the board and burns dealt; closed: the bot's
    # cards and the stub (issue 13: opening the stub would give the folded hand away).
    verified = re.search(
        r"(\d+) cards verified \((\d+) closed",
        tab.page.text_content("[data-testid=verify]") or "",
    )
    assert verified is not None
    opened, closed = int(verified[1]), int(verified[2])
    assert opened + closed == 52 and opened in (2, 6, 8, 10, 12) and closed >= 40
    tab.shot("holdem-history")


def test_pot_limit_offers_no_all_in_the_limit_cannot_reach(
    tab: Tab, web_server: WebServer, make_bot: Any
) -> None:
    """Pot-Limit with 100 big blinds: the most a first raise may reach is far below the
    stack, so the page shows no All-in button (it used to, and the word only called or
    checked), and the slider stops at the server's pot-limit bound."""
    name, _, _ = web_server.player("pola", credit=CREDIT)
    _, _, bot_token = web_server.player("plbot", credit=CREDIT)
    tab.login(name)
    tab.open_table("holdem-pl")
    # The head names the table's betting structure (it said No-Limit at every table).
    assert tab.page.inner_text(".table-page .limits") == "Blinds €1.00/€2.00 · Pot-Limit"
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=buyin-dialog]")
    tab.page.fill("[data-testid=buyin-amount]", _euros(BUY_IN))
    tab.page.click("[data-testid=buyin-submit]")
    tab.page.wait_for_selector(f"[data-testid=my-stack][data-stack='{BUY_IN}']")
    me = int(tab.page.get_attribute(".hm-seat.mine", "data-seat") or "x")

    bot = make_bot("holdem-pl", bot_token)
    bot_seat = bot.request({"type": "join"})["result"]["seat"]
    assert bot.request({"type": "buy_in", "key": "plbot-in", "amount": BUY_IN})["type"] == "ack"
    event = bot.wait_for(_turn, timeout=30)["event"]
    if event["seat"] == bot_seat:  # the bot limps; the browser, in the big blind, decides
        assert bot.request({"type": "act", "action": "call"})["type"] == "ack"
        event = bot.wait_for(_turn, timeout=30)["event"]
    assert event["seat"] == me
    tab.page.wait_for_selector("[data-testid=holdem-table][data-turn=me]")
    options = next(
        f["view"]["options"]
        for f in reversed(tab.frames)
        if f.get("type") == "state" and f.get("view") and f["view"].get("options")
    )
    assert "all_in" not in options["actions"]
    assert options["max_raise_to"] < options["stack"] + options["bet"]
    buttons = [
        b.get_attribute("data-testid") or ""
        for b in tab.page.query_selector_all("[data-testid=decision] .actions button")
    ]
    assert buttons == [f"act-{a}" for a in options["actions"]]
    assert tab.page.query_selector("[data-testid=act-all_in]") is None
    high = _cents(tab.page.get_attribute("[data-testid=raise-amount]", "max"))
    assert high == options["max_raise_to"]
    tab.page.click("[data-testid=act-fold]:not([disabled])")
    closed = bot.wait_for(_turn, timeout=30)["event"]
    assert closed["kind"] == "round_closed" and closed["status"] == "settled"
    assert bot.request({"type": "leave"})["type"] == "ack"
