"""A player who excludes themselves while sitting out at a Hold'em table is cashed out before
the next hand like one who plays (docs/protocol.md "Responsible gaming"), and may not sit in
again. Found by red-teaming: the check before a hand asked only about the seats ready to be
dealt in, so a player sitting out kept the seat and the chips, and could sit in again."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from server_testkit import Seat, Server, ServerFactory, table_ws, test_tables

from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(60)

HOLDEM = TableConfig(
    name="holdem",
    game="holdem",
    decision_seconds=30,
    pause_seconds=5,
    rules={
        "small_blind": 50,
        "big_blind": 100,
        "max_seats": 6,
        "min_buy_in": 2_000,
        "max_buy_in": 10_000,
    },
)
CREDIT = 20_000
BUY_IN = 5_000


@pytest.fixture
def holdem(table_server: ServerFactory) -> Server:
    return table_server([*test_tables(), HOLDEM])


def _sit(server: Server, stack: ExitStack, name: str, seat: int) -> tuple[Seat, str]:
    _, token = server.player(name, credit=CREDIT)
    ws = Seat(stack.enter_context(table_ws(server.client, "holdem", token)))
    ws.welcome()
    assert ws.request({"type": "join", "seat": seat})["type"] == "ack"
    ack = ws.request({"type": "buy_in", "key": f"in-{name}", "amount": BUY_IN})
    assert ack["type"] == "ack", ack
    return ws, token


def _exclude(server: Server, token: str) -> None:
    answer = server.client.post(
        "/api/me/self-exclusion", json={"days": 1}, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 201, answer.text


def _seats(seat: Seat) -> dict[int, dict[str, Any]]:
    seat.request({"type": "ping"})
    state = next(f for f in reversed(seat.frames) if f["type"] == "state")
    return {s["seat"]: s for s in state["table"]["seats"]}


def test_a_player_sitting_out_who_excludes_themselves_is_cashed_out(holdem: Server) -> None:
    with ExitStack() as stack:
        alice, _ = _sit(holdem, stack, "alice", 0)
        _sit(holdem, stack, "bob", 1)
        carol, carol_token = _sit(holdem, stack, "carol", 2)
        assert carol.request({"type": "sit_out"})["type"] == "ack"
        _exclude(holdem, carol_token)
        holdem.clock.advance(5)  # the pause runs out: the next hand
        left = alice.event("left")
        assert (left["seat"], left["reason"]) == (2, "self_excluded"), left
        assert alice.event("round_opened")["seats"] == [1, 0]
        assert 2 not in _seats(alice)
    assert holdem.balance(carol_token) == CREDIT  # every chip back in the wallet


def test_an_excluded_player_sitting_out_may_not_sit_in(holdem: Server) -> None:
    with ExitStack() as stack:
        _sit(holdem, stack, "dan", 0)
        eve, eve_token = _sit(holdem, stack, "eve", 1)
        assert eve.request({"type": "sit_out"})["type"] == "ack"
        _exclude(holdem, eve_token)
        back = eve.request({"type": "sit_in"})
        assert back["type"] == "error" and back["reason"] == "self_excluded", back
        assert _seats(eve)[1]["sitting_out"] is True
