"""A decision's money is held once, for that decision (issue 26, defects 1 and 2).

Every decision the server asks for has an id issued with the turn (``decisions_open``,
``your_turn``, a cash table's ``turn``, and the ``state``'s ``table.decision``); ``act`` may
carry it. The decision's stake is held under that id, so two open boxes of one player never
share a stake, and a decision resent is answered with its first answer and changes nothing,
however the round moved on meanwhile; a decision for a turn that has passed is refused
(``stale_decision``).

Each test checks the money as a player sees it: every ack's balance is the one before less its
``staked``, the wallet at the end is what was deposited less the stakes acknowledged plus what
came back, and the round's recall counts what the acks say was staked.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from server_cluster import (
    SQLITE_AND_CLUSTER,
    SQLITE_AND_CLUSTER_SLOW,
    THROUGH_CLUSTER,
    THROUGH_CLUSTER_SLOW,
)
from server_testkit import Seat, Server, ServerFactory, table_ws, test_tables

from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(120)

CREDIT = 100_000

# box 0 Ah As Ad 7c 2h (trips), box 1 Kh Ks Kd 8h 2c (trips); the dealer Qs Qd 9c 5s 3h
# qualifies; then the cards a sixth card or an exchange draws
TWO_BOXES = "Ah As Ad 7c 2h Kh Ks Kd 8h 2c Qs Qd 9c 5s 3h 4d 6c 7d"
# the same boxes against a dealer Qh Jd 9c 5s 3h who does not qualify (no pair, no A-K):
# each box that stood may buy the dealer's game
NO_DEALER = "Ah As Ad 7c 2h Kh Ks Kd 8h 2c Qh Jd 9c 5s 3h 4d 6c 7d 8c"


class Ledger:
    """A player's money as their acks tell it: each ack's balance must be the one before less
    its ``staked`` (a replayed ack repeats an answer given before and moves nothing)."""

    def __init__(self, balance: int) -> None:
        self.balance = balance
        self.staked = 0

    def ok(self, seat: Seat, message: dict[str, Any]) -> dict[str, Any]:
        frame = seat.request(message)
        assert frame["type"] == "ack", frame
        return self.take(frame["result"])

    def take(self, result: dict[str, Any]) -> dict[str, Any]:
        if result.get("replayed"):
            return result
        staked = result.get("staked", 0)
        if staked:
            assert result["balance"] == self.balance - staked, (result, self.balance)
            self.balance = result["balance"]
            self.staked += staked
        return result


def _recalled_stake(server: Server, token: str, round_id: int) -> int:
    recalled = server.client.get(
        f"/api/rounds/{round_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    return int(sum(p["staked"] for p in recalled["players"]))


def _russian(**rules: Any) -> TableConfig:
    return TableConfig(
        name="russian",
        game="russian",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules=rules,
    )


@contextmanager
def _two_open_boxes(server: Server, deck: str) -> Iterator[tuple[Seat, str, Ledger, int]]:
    """A player at a table of two open boxes each, both bet (Ante 100 each), box 0's turn
    open: their socket, token, ledger of acks and the round's id."""
    _, token = server.player("olga", credit=CREDIT)
    ledger = Ledger(CREDIT)
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        ledger.ok(seat, {"type": "join"})
        server.shoes.push(deck)
        bet = ledger.ok(seat, {"type": "bet", "key": "k", "bets": {"ante": 100, "open_boxes": 2}})
        assert bet["staked"] == 200
        yield seat, token, ledger, bet["round_id"]


def _box_turn(seat: Seat, box: int) -> str | None:
    """Wait for ``box``'s turn (its ``state``); the decision id the state names."""
    while True:
        state = seat.state()
        view = state["view"]
        if view is not None and view.get("to_act") == box:
            decision: str | None = state["table"].get("decision")
            return decision


def _last_card(seat: Seat, box: int) -> str:
    """The last card of ``box`` as the latest state shows it (one to exchange)."""
    view = _last_state(seat)["view"]
    card: str = next(b for b in view["boxes"] if b["box"] == box)["cards"][-1]
    return card


RUSSIAN_OPTIONS = [
    # (first decision, its stake) then the Bet with its insurance; the same on both boxes
    pytest.param(("sixth_card", {}, 100), ("bet", {}, 200), id="sixth_card"),
    pytest.param(("exchange", {"cards": "last"}, 100), ("bet", {}, 200), id="exchange"),
    pytest.param(None, ("bet", {"amount": 100}, 300), id="insurance"),
]


@SQLITE_AND_CLUSTER_SLOW
@pytest.mark.parametrize(("first", "then"), RUSSIAN_OPTIONS)
def test_a_second_open_box_pays_for_its_own_decisions(
    table_server: ServerFactory, first: Any, then: Any
) -> None:
    """Issue 26, defect 1: box 1's decisions, the same as box 0's, used to be answered with
    box 0's holds (one key for both boxes: the seat and the phase) and nothing was taken: the
    player ended 300 richer than the acks said, and the recall counted 500 staked of 800."""
    server = table_server([_russian(open_boxes_per_player=2)])
    with _two_open_boxes(server, TWO_BOXES) as (seat, token, ledger, round_id):
        for box in (0, 1):
            decision = _box_turn(seat, box)
            if first is not None:
                action, fields, cost = first
                if fields.get("cards") == "last":
                    fields = {"cards": [_last_card(seat, box)]}
                done = ledger.ok(
                    seat, {"type": "act", "action": action, "decision": decision, **fields}
                )
                assert (done["staked"], done.get("replayed")) == (cost, None), done
                decision = _box_turn(seat, box)
            action, fields, cost = then
            done = ledger.ok(
                seat, {"type": "act", "action": action, "decision": decision, **fields}
            )
            assert (done["staked"], done.get("replayed")) == (cost, None), done
        closed = seat.seen("round_closed")
    per_box = (first[2] if first else 0) + then[2]
    assert ledger.staked == 200 + 2 * per_box
    assert server.balance(token) == CREDIT - ledger.staked + closed["returns"]["0"]
    assert _recalled_stake(server, token, round_id) == ledger.staked
    totals = server.ledger()
    assert totals["escrow"] == 0 and sum(totals.values()) == 0


@SQLITE_AND_CLUSTER_SLOW
def test_buying_the_dealers_game_costs_each_box_its_fee(table_server: ServerFactory) -> None:
    """Defect 1 in the buying phase: box 1's buy shared box 0's key and was free."""
    server = table_server([_russian(open_boxes_per_player=2)])
    with _two_open_boxes(server, NO_DEALER) as (seat, token, ledger, round_id):
        for box in (0, 1):
            decision = _box_turn(seat, box)
            assert (
                ledger.ok(seat, {"type": "act", "action": "bet", "decision": decision})["staked"]
                == 200
            )
        for box in (0, 1):
            decision = _box_turn(seat, box)
            bought = ledger.ok(seat, {"type": "act", "action": "buy", "decision": decision})
            assert bought["staked"] == 100 and not bought.get("replayed"), bought
        closed = seat.seen("round_closed")
    assert ledger.staked == 200 + 2 * (200 + 100)
    assert server.balance(token) == CREDIT - ledger.staked + closed["returns"]["0"]
    assert _recalled_stake(server, token, round_id) == ledger.staked


@SQLITE_AND_CLUSTER
def test_decisions_without_their_id_still_pay_for_each_box(table_server: ServerFactory) -> None:
    """An ``act`` that names no decision is the one its seat is asked for now: box 1's Bet
    is box 1's own stake, not an answer of box 0's."""
    server = table_server([_russian(open_boxes_per_player=2)])
    with _two_open_boxes(server, TWO_BOXES) as (seat, token, ledger, round_id):
        for box in (0, 1):
            _box_turn(seat, box)
            assert ledger.ok(seat, {"type": "act", "action": "sixth_card"})["staked"] == 100
            assert ledger.ok(seat, {"type": "act", "action": "bet"})["staked"] == 200
        closed = seat.seen("round_closed")
    assert server.balance(token) == CREDIT - 800 + closed["returns"]["0"]
    assert _recalled_stake(server, token, round_id) == 800


def _twice(seat: Seat, message: dict[str, Any], ref: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Send the same frame twice (a client's retry); the two answers."""
    frame = {**message, "id": ref}
    seat.send(frame)
    seat.send(frame)
    start = len(seat.frames)
    first = seat.after(start, lambda f: f.get("ref") == ref)
    second = seat.after(seat.frames.index(first) + 1, lambda f: f.get("ref") == ref)
    return first, second


def _last_state(seat: Seat) -> dict[str, Any]:
    """The latest ``state`` the seat has had (a ``pong`` orders it after what came before)."""
    seat.request({"type": "ping"})
    state: dict[str, Any] = next(f for f in reversed(seat.frames) if f["type"] == "state")
    return state


def _decisions_open(seat: Seat, phase: str) -> str:
    event = seat.after(
        0,
        lambda f: (
            f["type"] == "event"
            and f["event"]["kind"] == "decisions_open"
            and f["event"]["phase"] == phase
        ),
    )["event"]
    decision: str = event["decision"]
    return decision


@THROUGH_CLUSTER
def test_a_resent_decision_is_answered_once_and_never_lands_on_the_next_phase(
    server: Server,
) -> None:
    """Issue 26, defect 2: a UTH pre-flop ``check`` sent twice (a client's retry) also
    checked the flop, once the first had closed the pre-flop. Now the resend names the
    pre-flop's decision: it gets the first answer again, and the flop waits for its own."""
    _, token = server.player("rita", credit=CREDIT)
    ledger = Ledger(CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        ledger.ok(seat, {"type": "join"})
        ledger.ok(seat, {"type": "bet", "key": "b", "bets": {"ante": 100}})
        preflop = _decisions_open(seat, "pre-flop")
        first, second = _twice(seat, {"type": "act", "action": "check", "decision": preflop}, "c")
        assert first["type"] == "ack" and second["type"] == "ack", (first, second)
        assert second["result"] == {**first["result"], "replayed": True}
        flop = _decisions_open(seat, "flop")
        assert flop != preflop
        state = _last_state(seat)
        assert state["view"]["phase"] == "flop" and state["view"]["pending_seats"] == [0]
        assert state["table"]["decision"] == flop
        # A delayed 2x made for the pre-flop's turn is refused, whatever it carries.
        late = seat.request({"type": "act", "action": "2x", "decision": preflop})
        assert late["type"] == "error" and late["reason"] == "stale_decision", late
        assert server.balance(token) == CREDIT - 200
        play, again = _twice(seat, {"type": "act", "action": "2x", "decision": flop}, "p")
        assert ledger.take(play["result"])["staked"] == 200
        assert again["result"] == {**play["result"], "replayed": True}
        closed = seat.seen("round_closed")
        # Resent once more after the round closed: the same first answer, nothing moves.
        after = seat.request({"type": "act", "action": "2x", "decision": flop})
        assert after["type"] == "ack" and after["result"] == {**play["result"], "replayed": True}
    assert ledger.staked == 400
    assert server.balance(token) == CREDIT - 400 + closed["returns"]["0"]
    assert _recalled_stake(server, token, closed["round_id"]) == 400


@THROUGH_CLUSTER_SLOW
def test_a_decision_after_its_turn_timed_out_is_stale(server: Server) -> None:
    """A Play bet that arrives after its phase's timer gave the seat the default (check) is
    refused, and no money moves; the flop's decision is the player's to make."""
    _, token = server.player("tom", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        seat.request({"type": "bet", "key": "b", "bets": {"ante": 100}})
        preflop = _decisions_open(seat, "pre-flop")
        server.clock.advance(20)
        flop = _decisions_open(seat, "flop")
        late = seat.request({"type": "act", "action": "4x", "decision": preflop})
        assert late["type"] == "error" and late["reason"] == "stale_decision", late
        unknown = seat.request({"type": "act", "action": "check", "decision": "1-999"})
        assert unknown["type"] == "error" and unknown["reason"] == "stale_decision", unknown
        assert server.balance(token) == CREDIT - 200
        ok = seat.request({"type": "act", "action": "2x", "decision": flop})
        assert ok["type"] == "ack" and ok["result"]["staked"] == 200, ok
        assert ok["result"]["balance"] == CREDIT - 400


@THROUGH_CLUSTER
def test_a_live_tables_resent_decision_is_answered_once(server: Server) -> None:
    """The same at a live table, where decisions are taken together and each seat's turn is
    its ``your_turn``: a resent Play bet is held once and answered with its first answer."""
    players = [server.player(f"live{i}", credit=CREDIT) for i in range(2)]
    with ExitStack() as stack:
        seats = []
        for _, token in players:
            seat = Seat(stack.enter_context(table_ws(server.client, "live", token)))
            seat.welcome()
            seat.request({"type": "join"})
            seats.append(seat)
        for seat in seats:
            assert seat.request({"type": "bet", "key": "b", "bets": {"ante": 100}})["type"] == "ack"
        server.clock.advance(10)
        turns = []
        for seat in seats:
            frame = seat.after(
                0,
                lambda f: f["type"] == "seat_event" and f["event"]["kind"] == "your_turn",
            )
            turns.append(frame["event"])
        assert turns[0]["decision"] == turns[1]["decision"]
        first, second = _twice(
            seats[0], {"type": "act", "action": "4x", "decision": turns[0]["decision"]}, "x"
        )
        assert first["type"] == "ack" and first["result"]["staked"] == 400, first
        assert second["result"] == {**first["result"], "replayed": True}
        assert server.balance(players[0][1]) == CREDIT - 600
        assert (
            seats[1].request({"type": "act", "action": "check", "decision": turns[1]["decision"]})[
                "type"
            ]
            == "ack"
        )
        # seat 0 played pre-flop: its later phases are not its to decide; seat 1 goes on
        flop = _decisions_open(seats[1], "flop")
        ack = seats[1].request({"type": "act", "action": "check", "decision": flop})
        assert ack["type"] == "ack", ack
        river = _decisions_open(seats[1], "river")
        assert (
            seats[1].request({"type": "act", "action": "fold", "decision": river})["type"] == "ack"
        )
        closed = seats[0].seen("round_closed")
    assert _recalled_stake(server, players[0][1], closed["round_id"]) == 600
    totals = server.ledger()
    assert totals["escrow"] == 0 and sum(totals.values()) == 0


HOLDEM = TableConfig(
    name="holdem",
    game="holdem",
    decision_seconds=30,
    pause_seconds=5,
    rules={"small_blind": 50, "big_blind": 100, "max_seats": 6},
)


@THROUGH_CLUSTER
def test_a_big_blinds_resent_check_does_not_check_the_flop(table_server: ServerFactory) -> None:
    """Defect 2 at a cash table: heads-up, the big blind's ``check`` closes the pre-flop and
    the big blind is first to act on the flop; the same ``check`` resent used to check the
    flop too. It gets its first answer again; the flop's turn (a new decision) stays open."""
    server = table_server([*test_tables(), HOLDEM])
    with ExitStack() as stack:
        seats = []
        for index, name in enumerate(("button", "blind")):
            _, token = server.player(name, credit=CREDIT)
            seat = Seat(stack.enter_context(table_ws(server.client, "holdem", token)))
            seat.welcome()
            seat.request({"type": "join", "seat": index})
            ack = seat.request({"type": "buy_in", "key": f"in-{name}", "amount": 5_000})
            assert ack["type"] == "ack", ack
            seats.append(seat)
        button, blind = seats
        server.clock.advance(5)
        first_turn = button.event("turn")
        assert first_turn["seat"] == 0 and first_turn["decision"]
        assert (
            button.request({"type": "act", "action": "call", "decision": first_turn["decision"]})[
                "type"
            ]
            == "ack"
        )
        turn = blind.after(
            0,
            lambda f: (
                f["type"] == "event" and f["event"]["kind"] == "turn" and f["event"]["seat"] == 1
            ),
        )["event"]
        first, second = _twice(
            blind, {"type": "act", "action": "check", "decision": turn["decision"]}, "bb"
        )
        assert first["type"] == "ack" and second["type"] == "ack", (first, second)
        assert second["result"] == {**first["result"], "replayed": True}
        seen = {first_turn["decision"], turn["decision"]}
        flop = blind.after(
            0,
            lambda f: (
                f["type"] == "event"
                and f["event"]["kind"] == "turn"
                and f["event"].get("decision") not in seen
            ),
        )["event"]
        assert flop["seat"] == 1
        last = _last_state(blind)
        assert last["table"]["decision"] == flop["decision"]
        assert last["view"]["options"] is not None  # still the big blind's to act
        assert len(last["view"]["board"]) == 3


@SQLITE_AND_CLUSTER
def test_a_decision_resent_by_the_seats_next_player_is_stale(server: Server) -> None:
    """A decision's first answer is its player's: resent under its id by whoever sits at that
    seat next (ids are public, in ``decisions_open``), it is refused ``stale_decision`` and
    tells them nothing of the first player's wallet (the first player's own resend is
    answered while they sit there). Before, the seat's next player was answered the first one's ack, their
    ``balance`` in it."""
    _, first_token = server.player("ada", credit=CREDIT)
    _, next_token = server.player("ben", credit=2 * CREDIT)
    with table_ws(server.client, "casino", first_token) as ws:
        ada = Seat(ws)
        ada.welcome()
        ada.request({"type": "join", "seat": 0})
        ada.request({"type": "bet", "key": "a", "bets": {"ante": 100}})
        preflop = _decisions_open(ada, "pre-flop")
        play = ada.request({"type": "act", "action": "4x", "decision": preflop})
        assert play["type"] == "ack" and play["result"]["balance"] == CREDIT - 600, play
        ada.seen("round_closed")
        again = ada.request({"type": "act", "action": "4x", "decision": preflop})
        assert again["type"] == "ack", again
        assert again["result"] == {**play["result"], "replayed": True}
        left = ada.request({"type": "leave"})
        assert left["type"] == "ack", left
    with table_ws(server.client, "casino", next_token) as ws:
        ben = Seat(ws)
        ben.welcome()
        joined = ben.request({"type": "join", "seat": 0})
        assert joined["type"] == "ack", joined
        resent = ben.request({"type": "act", "action": "4x", "decision": preflop})
        assert resent["type"] == "error" and resent["reason"] == "stale_decision", resent
        assert str(CREDIT - 600) not in str(resent)
    assert server.balance(next_token) == 2 * CREDIT
