"""Issue 29, "Hold'em as a poker client": your seat at the bottom centre at every size; the main
pot and each side pot as a stack of its own and a result line of its own; ALL-IN tags; hand
names with the kickers that decide, the winners' five lit; showdown hands named on the final
board; a time bank (a table setting) and keyboard shortcuts; a rebuy offered instead of an
unseat at €0; the history with the blinds, the pot and the winners in the player's language.

The deals are stacked (``serve.py``'s ``CROUPIER_TEST_DECKS``), three players at a table of a
server of the test's own. Each test failed on the client before issue 29 (main at f5d48cb):
your seat sat wherever its number put it, one "Pot" figure, no ALL-IN tag, names without the
deciding kicker, no time bank, no shortcuts, no rebuy offer, a history without blinds or pot.
"""

from __future__ import annotations

import queue
import re
import threading
import uuid
from collections.abc import Callable
from typing import Any

from web_testkit import AXE, OwnServer, SeatBot, Tab, WebServer, axe_violations, plain, tables_toml

TABLE = "hm-stack"
_TABLES = """
[[tables]]
name = "hm-stack"
game = "holdem"
title = "Hold'em stacked"
decision_seconds = 60
pause_seconds = 15
"""
# Three players in position order (small blind, big blind, button) for the first hand: the
# button is the lowest seat (0, "ann"), then seat 1 ("bea"), then seat 3 (the page). Hole
# cards one at a time from the small blind, then a burn and the flop, a burn and the turn, a
# burn and the river (croupier.games.holdem.dealing).
#   bea A♦8♠, page K♣5♦, ann A♣9♥; board Q♠ Q♦ 7♦ / 3♣ / 2♥: ann's Queens with Ace-Nine beat
#   bea's Ace-Eight (the second kicker decides) and the page's King.
HAND_1 = "Ad Kc Ac 8s 5d 9h 4s Qs Qd 7d 4h 3c 4d 2h"
# The second hand (the button on seat 1): page, ann, bea. The page's seven-deuce goes all in
# against ann's Aces and bea's Kings and loses: its stack is empty. The river pairs the board:
# ann's hand is "Aces and Fours" on the final board, only "Pair of Aces" on the flop.
HAND_2 = "7c As Kd 2d Ah Kh 8s Qc 9d 5s 8h 4h 8d 4d"

Plan = Callable[[int, str, dict[str, Any]], dict[str, Any]]


class ScriptedBot:
    """A seat that answers each of its turns with ``plan(hand number, street, options)``."""

    def __init__(self, bot: SeatBot, plan: Plan) -> None:
        self.bot, self.plan = bot, plan
        self.hands: list[int] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        acted: set[tuple[int, str, int]] = set()
        while not self.stop.is_set():
            try:
                frame = self.bot.frames.get(timeout=0.1)
            except queue.Empty:
                continue
            if frame.get("type") == "event" and frame["event"]["kind"] == "round_opened":
                self.hands.append(frame["event"]["round_id"])
            if frame.get("type") != "state":
                continue
            view = frame.get("view") or {}
            options = view.get("options")
            decision = frame["table"].get("decision")
            if not options or not self.hands or decision is None:
                continue
            key = (len(self.hands), view.get("street", ""), hash(decision))
            if key in acted:
                continue
            acted.add(key)
            message = self.plan(len(self.hands), view["street"], options)
            self.bot.request({"type": "act", "decision": decision, **message})

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)


def _passive(options: dict[str, Any]) -> dict[str, Any]:
    return {"action": "check" if "check" in options["actions"] else "call"}


def ann(hand: int, street: str, options: dict[str, Any]) -> dict[str, Any]:
    if hand == 1 and street == "pre-flop":
        return {"action": "all_in"}
    return _passive(options)


def bea(hand: int, street: str, options: dict[str, Any]) -> dict[str, Any]:
    if hand == 1 and street == "flop" and "bet" in options["actions"]:
        return {"action": "bet", "amount": 2_000}
    return _passive(options)


def _seat_bots(web: WebServer, players: list[tuple[str, int, int, Plan]]) -> list[ScriptedBot]:
    """Seat the bots, then buy each in, one right after the other (the first hand deals to
    every seat with chips when the table's pause runs out)."""
    seated = []
    for name, seat, amount, plan in players:
        _, _, token = web.player(name, credit=100_000)
        bot = SeatBot(web, TABLE, token)
        assert bot.request({"type": "join", "seat": seat})["type"] == "ack"
        seated.append((bot, amount, plan))
    for bot, amount, _ in seated:
        bought = bot.request({"type": "buy_in", "key": uuid.uuid4().hex, "amount": amount})
        assert bought["type"] == "ack", bought
    return [ScriptedBot(bot, plan) for bot, _, plan in seated]


def _geometry(page: Any, seat: int) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        """(seat) => {
            const felt = document.querySelector('.hm-felt').getBoundingClientRect();
            const me = document.querySelector(`[data-testid=seat-${seat}]`).getBoundingClientRect();
            const others = [...document.querySelectorAll('.hm-seat')].filter(
              (el) => el.dataset.seat !== String(seat)).map((el) => el.getBoundingClientRect());
            return {centre: felt.left + felt.width / 2, mine: me.left + me.width / 2,
                    width: felt.width, low: Math.max(...others.map((r) => r.top + r.height / 2)),
                    myy: me.top + me.height / 2};
        }""",
        seat,
    )
    return box


def _covered_by_result(page: Any) -> list[str]:
    """What of the seats' cards and plates and of the board the hand's result covers."""
    covered: list[str] = page.evaluate(
        """() => {
            const r = document.querySelector('[data-testid=hand-result]').getBoundingClientRect();
            const hit = (b) => b.width > 0 && b.left < r.right - 1 && b.right > r.left + 1
              && b.top < r.bottom - 1 && b.bottom > r.top + 1;
            return [...document.querySelectorAll('.hm-seat .card, .hm-plate, [data-testid=board] .card')]
              .filter((el) => hit(el.getBoundingClientRect()))
              .map((el) => el.dataset.card || el.textContent.trim());
        }"""
    )
    return covered


def test_side_pots_all_in_kickers_and_a_rebuy_at_a_stacked_table(
    own_server: Any, page_for: Any
) -> None:
    server: OwnServer = own_server(tables_toml() + _TABLES, decks=[HAND_1, HAND_2])
    web = server.server
    name, _, token = web.player("page", credit=100_000)
    tab: Tab = page_for(web, "en-GB", 1366, 768)
    tab.login(name)
    page = tab.page
    page.goto(f"{web.url}/#/table/{TABLE}")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit-3]")
    page.wait_for_selector("[data-testid=buyin-dialog]")
    page.fill("[data-testid=buyin-amount]", "200")
    page.click("[data-testid=buyin-submit]")
    page.wait_for_selector("[data-testid=my-stack][data-stack='20000']")
    bots = _seat_bots(web, [("ann", 0, 8_000, ann), ("bea", 1, 12_000, bea)])
    try:
        # Your seat (3) at the bottom centre, whatever its number, at every size.
        for width, height in ((1366, 768), (390, 844), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            g = _geometry(page, 3)
            assert abs(g["mine"] - g["centre"]) < g["width"] * 0.05, (width, g)
            assert g["myy"] > g["low"], (width, g)
        page.set_viewport_size({"width": 1366, "height": 768})

        # Hand 1: ann all in pre-flop; the page calls; bea bets the flop, the page calls.
        page.click("[data-testid=act-call]:not([disabled])", timeout=60_000)
        page.click("[data-testid=act-call]:not([disabled])", timeout=30_000)
        # The turn: ann's chips are in the main pot, the flop's bets in a side pot.
        page.wait_for_selector("[data-testid=act-check]:not([disabled])", timeout=30_000)
        main = page.get_attribute("[data-testid=main-pot]", "data-amount")
        side = page.get_attribute("[data-testid=side-pot]", "data-amount")
        assert (main, side) == ("24000", "4000"), (main, side)
        assert page.query_selector("[data-testid=seat-0] [data-testid=all-in]")
        tab.shot("trust-holdem-side-pot-1366")
        if AXE.exists():
            assert not axe_violations(page)
        page.click("[data-testid=act-check]:not([disabled])")
        page.click("[data-testid=act-check]:not([disabled])", timeout=30_000)
        result = page.wait_for_selector("[data-testid=pot-lines]")
        assert result is not None
        lines = page.query_selector_all("[data-testid=pot-lines] li")
        texts = [plain(li.inner_text()) for li in lines]
        assert len(texts) == 2, texts
        assert "Main pot €240.00" in texts[0] and "ann" in texts[0], texts
        assert "Side pot 1 €40.00" in texts[1] and "bea" in texts[1], texts
        # The kickers that decide: ann's Ace-Nine beats bea's Ace-Eight.
        assert "Pair of Queens, Ace-Nine kickers" in texts[0], texts
        assert "Pair of Queens, Ace-Eight kickers" in texts[1], texts
        # The page's hand could win no pot against those shown: mucked, named for it alone.
        mine = plain(page.inner_text("[data-testid=my-hand]"))
        assert mine == "Your hand: Pair of Queens, King kicker", mine
        ann_hand = plain(page.inner_text("[data-testid=seat-0] [data-testid=seat-hand]"))
        assert ann_hand == "Pair of Queens, Ace-Nine kickers", ann_hand
        # The winners' five lit: both Queens and the Seven on the board, not the Three or Two.
        lit = {
            el.get_attribute("data-card")
            for el in page.query_selector_all("[data-testid=board] .card.best")
        }
        assert lit == {"Qs", "Qd", "7d"}, lit
        tab.shot("trust-holdem-result-1366")
        # The result covers no card and no player's plate, at every size.
        for width, height in ((1366, 768), (390, 844), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            assert not _covered_by_result(page), (width, _covered_by_result(page))
        page.set_viewport_size({"width": 1366, "height": 768})

        # Hand 2: the page goes all in with seven-deuce and loses everything: a rebuy is
        # offered, the seat is kept.
        page.wait_for_selector("[data-testid=act-all_in]:not([disabled])", timeout=60_000)
        page.keyboard.press("a")  # the all-in's key
        rebuy = page.wait_for_selector("[data-testid=rebuy-dialog]", timeout=60_000)
        assert rebuy is not None
        # All in before the flop: the hands shown are named on the final board.
        log = page.evaluate("() => document.querySelector('[data-testid=log]').textContent")
        assert re.search(r"ann-\w+ shows Aces and Fours, Queen kicker", log), log
        ann_hand = plain(page.inner_text("[data-testid=seat-0] [data-testid=seat-hand]"))
        assert ann_hand == "Aces and Fours, Queen kicker", ann_hand
        assert "kept" in page.inner_text("[data-testid=rebuy-text]")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(200)
        tab.shot("trust-holdem-rebuy-390")
        assert not _covered_by_result(page), _covered_by_result(page)
        page.fill("[data-testid=buyin-amount]", "100")
        page.click("[data-testid=buyin-submit]")
        page.wait_for_selector("[data-testid=my-stack][data-stack='10000']")
        assert not page.query_selector("[data-testid=rebuy-dialog]")
    finally:
        for bot in bots:
            bot.close()
            bot.bot.close()

    # The history, in Italian: the blinds, the pot and who won it with what.
    page.evaluate(
        "() => { localStorage.setItem('croupier.settings', JSON.stringify({locale: 'it'})); }"
    )
    page.goto(f"{web.url}/#/history")
    page.reload()
    page.wait_for_selector("[data-testid=history-summary]")
    summaries = [
        plain(s.inner_text()) for s in page.query_selector_all("[data-testid=history-summary]")
    ]
    first = summaries[-1]
    assert "Bui 1,00 €/2,00 €" in first and "Piatto 280,00 €" in first, first
    assert re.search(r"ann-\w+ vince 240,00 € con Coppia di Donne, kicker Asso e Nove", first), (
        first
    )
    # Leaving the table for the history cashed the rebought stack out: lost 200 €, no more.
    tab.wait_until(lambda: web.balance(token) == 100_000 - 20_000)


def test_a_time_bank_and_keyboard_shortcuts(tab: Tab, web_server: WebServer, make_bot: Any) -> None:
    """A table with a 2-second decision and a 6-second time bank: the page's turn runs out,
    its time bank takes over (the timer says so, the seat shows what is left), and the key
    "C" checks or calls within it."""
    from test_trust_decisions import CallingBot

    table = "trust-hm-bank"
    name, _, _ = web_server.player("banker", credit=100_000)
    _, _, bot_token = web_server.player("quick", credit=100_000)
    tab.login(name)
    tab.open_table(table)
    page = tab.page
    page.click("[data-testid=sit]")
    page.wait_for_selector("[data-testid=buyin-dialog]")
    page.click("[data-testid=buyin-submit]")
    page.wait_for_selector("[data-testid=my-stack]:not([data-stack='0'])")
    bank = page.wait_for_selector("[data-testid=seat-0] [data-testid=time-bank]")
    assert bank is not None and "6" in bank.inner_text()
    bot = make_bot(table, bot_token)
    assert bot.request({"type": "join"})["type"] == "ack"
    assert bot.request({"type": "buy_in", "key": uuid.uuid4().hex, "amount": 20_000})["type"] == (
        "ack"
    )
    caller = CallingBot(bot)
    try:
        page.wait_for_selector("[data-testid=holdem-table][data-turn=me]", timeout=30_000)
        # The page does nothing: its 2 seconds run out, the time bank starts.
        page.wait_for_selector("[data-testid=timer][data-kind=bank]", timeout=10_000)
        assert tab.events("turn")[-1].get("time_bank") is True
        tab.shot("trust-holdem-time-bank")
        before = len([f for f in tab.sent if f.get("type") == "act"])
        page.keyboard.press("c")
        tab.wait_until(lambda: len([f for f in tab.sent if f.get("type") == "act"]) > before)
        act = [f for f in tab.sent if f.get("type") == "act"][-1]
        assert act["action"] in ("check", "call"), act
        tab.wait_frame(lambda f: f.get("type") == "ack" and f.get("ref") == act["id"])
        assert not tab.events("timed_out")
        # What the turn drew from the bank is gone; the rest is kept.
        page.wait_for_selector("[data-testid=seat-0] [data-testid=time-bank]")
        left = int(
            re.sub(r"\D", "", page.inner_text("[data-testid=seat-0] [data-testid=time-bank]"))
        )
        assert 0 < left < 6, left
    finally:
        caller.close()
