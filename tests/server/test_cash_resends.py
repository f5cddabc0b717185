"""A cash table's retries after a lost ack from a player seated nowhere now -- they left the
seat since -- get what docs/protocol.md promises, not ``not_seated`` (found by red-teaming,
issue 26): a ``buy_in`` resent after its chips went back to the wallet is ``round_voided``
with the wallet's ``balance`` and ``stack`` 0; a decision resent with its id gets its first
answer again. Nothing moves either way."""

from __future__ import annotations

from contextlib import ExitStack

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


def test_a_buy_in_resent_after_the_seat_was_left_is_round_voided(holdem: Server) -> None:
    with ExitStack() as stack:
        ada, token = _sit(holdem, stack, "ada", 0)
        left = ada.request({"type": "leave"})
        assert left["type"] == "ack" and left["result"]["cashed_out"] == BUY_IN, left
        assert holdem.balance(token) == CREDIT
        resent = ada.request({"type": "buy_in", "key": "in-ada", "amount": BUY_IN})
        assert resent["type"] == "error" and resent["code"] == "round_voided", resent
        assert resent["details"] == {"balance": CREDIT, "stack": 0}, resent
        # A buy-in never taken is still "take a seat first".
        new = ada.request({"type": "buy_in", "key": "new", "amount": BUY_IN})
        assert new["type"] == "error" and new["reason"] == "not_seated", new
        assert holdem.balance(token) == CREDIT


def test_a_decision_resent_after_the_seat_was_left_is_answered_again(holdem: Server) -> None:
    with ExitStack() as stack:
        button, token = _sit(holdem, stack, "button", 0)
        _sit(holdem, stack, "blind", 1)
        holdem.clock.advance(5)
        turn = button.event("turn")
        assert turn["seat"] == 0 and turn["decision"]
        fold = {"type": "act", "action": "fold", "decision": turn["decision"]}
        first = button.request(fold)
        assert first["type"] == "ack", first
        button.event("round_closed")
        left = button.request({"type": "leave"})
        assert left["type"] == "ack", left
        wallet = holdem.balance(token)
        assert wallet == CREDIT - 50  # the small blind, folded
        again = button.request(fold)
        assert again["type"] == "ack", again
        assert again["result"] == {**first["result"], "replayed": True}
        other = button.request({"type": "act", "action": "call", "decision": turn["decision"]})
        assert other["type"] == "error" and other["reason"] == "not_seated", other
        assert holdem.balance(token) == wallet
