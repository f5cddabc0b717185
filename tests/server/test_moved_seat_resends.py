"""A bet or a decision resent by its player after they took another seat of the table (found
by red-teaming, issue 26's attacks of the same kinds).

The server recognised a resend by the seat the player has now: a decision answered at seat 0
and resent from seat 3 -- the natural retry at a live table, where the ack was lost with the
socket, the seat freed as the round ended and its number taken by a newcomer, and the client
came back and joined again -- was refused ``stale_decision``; a bet resent under its key,
``idempotency_conflict``. Both are answered their first answer now, and nothing moves.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER_SLOW
from server_testkit import Seat, Server, ServerFactory, table_ws

from croupier.server.tables.config import TableConfig

pytestmark = [pytest.mark.timeout(120), SQLITE_AND_CLUSTER_SLOW]

CREDIT = 100_000


def _uth(name: str, **rules: Any) -> TableConfig:
    return TableConfig(
        name=name,
        game="uth",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules=rules,
    )


HOLDEM = TableConfig(
    name="holdem",
    game="holdem",
    decision_seconds=30,
    pause_seconds=5,
    rules={"small_blind": 50, "big_blind": 100, "max_seats": 6, "min_buy_in": 2_000},
)


def _sit(server: Server, stack: ExitStack, table: str, name: str) -> tuple[Seat, str]:
    _, token = server.player(name, credit=CREDIT)
    seat = Seat(stack.enter_context(table_ws(server.client, table, token)))
    seat.welcome()
    return seat, token


def _ok(seat: Seat, message: dict[str, Any]) -> dict[str, Any]:
    frame = seat.request(message)
    assert frame["type"] == "ack", (message, frame)
    return dict(frame["result"])


@pytest.fixture
def casino(table_server: ServerFactory) -> Iterator[tuple[Server, Seat, str, Seat]]:
    """A casino UTH table; a player at seat 0 bet and played 4x one round, then left and
    sat at seat 3; another player at the table."""
    server = table_server([_uth("casino", max_seats=6)])
    with ExitStack() as stack:
        a, token = _sit(server, stack, "casino", "mova")
        b, _ = _sit(server, stack, "casino", "movb")
        assert _ok(a, {"type": "join", "seat": 0}) == {"seat": 0}
        yield server, a, token, b


def test_a_decision_resent_from_the_seat_taken_since_gets_its_first_answer(
    casino: tuple[Server, Seat, str, Seat],
) -> None:
    server, a, token, _ = casino
    _ok(a, {"type": "bet", "key": "k1", "bets": {"ante": 100}})
    decision = a.event("decisions_open")["decision"]
    first = _ok(a, {"type": "act", "action": "4x", "decision": decision})
    assert first["staked"] == 400
    a.event("round_closed")
    balance = server.balance(token)
    assert _ok(a, {"type": "leave"})["seat"] is None
    assert _ok(a, {"type": "join", "seat": 3}) == {"seat": 3}
    again = a.request({"type": "act", "action": "4x", "decision": decision})
    assert again["type"] == "ack" and again["result"] == {**first, "replayed": True}, again
    other = a.request({"type": "act", "action": "3x", "decision": decision})
    assert other["type"] == "error" and other["reason"] == "stale_decision", other
    assert server.balance(token) == balance


@pytest.mark.parametrize("when", ["idle", "another_round_betting"])
def test_a_bet_resent_from_the_seat_taken_since_gets_its_first_answer(
    casino: tuple[Server, Seat, str, Seat], when: str
) -> None:
    server, a, token, b = casino
    first = _ok(a, {"type": "bet", "key": "k1", "bets": {"ante": 100}})
    decision = a.event("decisions_open")["decision"]
    _ok(a, {"type": "act", "action": "4x", "decision": decision})
    a.event("round_closed")
    assert _ok(a, {"type": "leave"})["seat"] is None
    assert _ok(a, {"type": "join", "seat": 3}) == {"seat": 3}
    if when == "another_round_betting":
        assert _ok(b, {"type": "join", "seat": 1}) == {"seat": 1}
        _ok(b, {"type": "bet", "key": "kb", "bets": {"ante": 100}})
    balance = server.balance(token)
    again = a.request({"type": "bet", "key": "k1", "bets": {"ante": 100}})
    assert again["type"] == "ack" and again["result"] == {**first, "replayed": True}, again
    assert again["result"]["seat"] == 0
    other = a.request({"type": "bet", "key": "k1", "bets": {"ante": 200}})
    assert other["type"] == "error" and other["reason"] == "idempotency_conflict", other
    assert server.balance(token) == balance
    totals = server.ledger()
    assert sum(totals.values()) == 0, totals


def test_a_hold_em_decision_resent_from_the_seat_taken_since_gets_its_first_answer(
    table_server: ServerFactory,
) -> None:
    server = table_server([HOLDEM])
    # seat 0 As Ah, seat 1 Ks Kh: heads-up, seat 0 (the button) posts the small blind, first
    server.shoes.push("As Ks Ah Kh 3s Qd 9h 4s 5c Jc 6d 8d")
    with ExitStack() as stack:
        a, token = _sit(server, stack, "holdem", "hal")
        b, _ = _sit(server, stack, "holdem", "hugo")
        assert _ok(a, {"type": "join", "seat": 0}) == {"seat": 0}
        _ok(a, {"type": "buy_in", "key": "in-a", "amount": 5_000})
        assert _ok(b, {"type": "join", "seat": 1}) == {"seat": 1}
        _ok(b, {"type": "buy_in", "key": "in-b", "amount": 5_000})
        server.clock.advance(5)
        turn = a.until(
            lambda f: (
                f["type"] == "event" and f["event"]["kind"] == "turn" and f["event"]["seat"] == 0
            )
        )["event"]
        first = _ok(a, {"type": "act", "action": "fold", "decision": turn["decision"]})
        assert a.event("round_closed")["status"] == "settled"
        assert _ok(a, {"type": "leave"})["seat"] is None
        balance = server.balance(token)
        assert _ok(a, {"type": "join", "seat": 4}) == {"seat": 4}
        again = a.request({"type": "act", "action": "fold", "decision": turn["decision"]})
        assert again["type"] == "ack" and again["result"] == {**first, "replayed": True}, again
        assert server.balance(token) == balance
