"""A Russian Poker decision resent in another spelling of the same decision is answered its
first answer (docs/protocol.md "Decisions": "however the decision is spelt"), and a choice of
the other decision phase is refused as not open now, not as "nothing to decide" (found by
red-teaming, issue 26: an exchange resent with its discards in another order, and a Bet
resent with ``"amount": 0`` or without it -- the same Bet, no insurance -- were refused as
other decisions; a ``buy`` while the box decides said there was nothing to decide)."""

from __future__ import annotations

from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER_SLOW
from server_testkit import Seat, Server, ServerFactory, table_ws

from croupier.server.tables.config import TableConfig

pytestmark = [SQLITE_AND_CLUSTER_SLOW, pytest.mark.timeout(120)]

CREDIT = 100_000
# the box Ah As Ad 7c 2h, the dealer Kh Ks Kd 8h 2c, then the exchange's cards
DECK = "Ah As Ad 7c 2h Kh Ks Kd 8h 2c Qs Qd 9c 5s 3h 4d 6c 7d"


@pytest.fixture
def server(table_server: ServerFactory) -> Server:
    return table_server(
        [TableConfig(name="russian", game="russian", betting_seconds=10, decision_seconds=20)]
    )


def _turn(seat: Seat) -> str:
    """The decision id of the box's turn, once its state offers one."""
    while True:
        state = seat.state()
        decision = state["table"].get("decision")
        if state["view"] is not None and state["view"].get("to_act") == 0 and decision:
            return str(decision)


def _act(seat: Seat, **fields: Any) -> dict[str, Any]:
    return seat.request({"type": "act", **fields})


def test_a_decision_resent_in_another_spelling_is_its_first_answer(server: Server) -> None:
    _, token = server.player("olga", credit=CREDIT)
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        server.shoes.push(DECK)
        assert seat.ok({"type": "bet", "key": "k", "bets": {"ante": 100}})["staked"] == 100
        decision = _turn(seat)
        # buy and decline belong to the buying phase: not open while the box decides
        for action in ("buy", "decline"):
            refused = _act(seat, action=action, decision=decision)
            assert (refused["type"], refused["reason"]) == ("error", "not_this_phase"), refused
        first = _act(seat, action="exchange", cards=["7c", "2h"], decision=decision)
        assert first["type"] == "ack" and first["result"]["staked"] == 100, first
        again = _act(seat, action="exchange", cards=["2h", "7c"], decision=decision)
        assert again["type"] == "ack", again
        assert again["result"] == {**first["result"], "replayed": True}
        bet_turn = _turn(seat)
        assert bet_turn != decision
        bet = _act(seat, action="bet", amount=0, decision=bet_turn)
        assert bet["type"] == "ack" and bet["result"]["staked"] == 200, bet
        plain = _act(seat, action="bet", decision=bet_turn)
        assert plain["type"] == "ack" and plain["result"] == {**bet["result"], "replayed": True}
        seat.seen("round_closed")
    assert server.ledger().get("escrow", 0) == 0
