"""Caribbean Stud Poker's decisions have an identity (issue 26, the attacks of defect 2 tried
on the fourth game): a Raise resent is held once and answered with its first answer, also
after the round closed; another action under a decision already made, or a decision whose
turn has passed (a timeout's fold), is refused and moves no money."""

from __future__ import annotations

from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER
from server_testkit import Seat, Server, ServerFactory, table_ws

from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(90)

CREDIT = 10_000
# dealt as hands: seat 0 two pair, seat 1 nine high, the dealer Ace-King (qualifies)
DECK = "Ah Ad Kc Kd 3s 2c 5d 7h 9s Jc As Kh Qd 8c 4h"


def _table() -> TableConfig:
    return TableConfig(
        name="caribbean",
        game="caribbean",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules={"dealing": "hands"},
    )


def _ok(seat: Seat, message: dict[str, Any]) -> dict[str, Any]:
    frame = seat.request(message)
    assert frame["type"] == "ack", frame
    result: dict[str, Any] = frame["result"]
    return result


def _deciding(seat: Seat) -> dict[str, Any]:
    """The seat's latest ``state`` once it is asked to decide (its id in ``table.decision``)."""
    while True:
        state = seat.state()
        view = state["view"]
        if view is not None and view.get("phase") == "deciding" and state["table"].get("decision"):
            return state


@SQLITE_AND_CLUSTER
def test_a_resent_raise_is_held_once_and_a_passed_turn_is_stale(
    table_server: ServerFactory,
) -> None:
    server: Server = table_server([_table()])
    _, ta = server.player("ana", credit=CREDIT)
    _, tb = server.player("ben", credit=CREDIT)
    server.shoes.push(DECK)
    with (
        table_ws(server.client, "caribbean", ta) as wa,
        table_ws(server.client, "caribbean", tb) as wb,
    ):
        a, b = Seat(wa), Seat(wb)
        a.welcome()
        b.welcome()
        _ok(a, {"type": "join", "seat": 0})
        _ok(b, {"type": "join", "seat": 1})
        _ok(a, {"type": "bet", "key": "a", "bets": {"ante": 100}})
        _ok(b, {"type": "bet", "key": "b", "bets": {"ante": 100}})
        mine = _deciding(a)["table"]["decision"]
        raise_ = {"type": "act", "action": "raise", "decision": mine}
        first = _ok(a, raise_)
        assert first["staked"] == 200 and first["balance"] == CREDIT - 300
        again = _ok(a, raise_)  # a client's retry: the first answer, nothing held twice
        assert again == {**first, "replayed": True}
        assert server.balance(ta) == CREDIT - 300
        # Another action under the decision already made is refused, and changes nothing.
        other = a.request({"type": "act", "action": "fold", "decision": mine})
        assert other["type"] == "error", other
        assert server.balance(ta) == CREDIT - 300
        # Ben lets his turn pass: the timer folds him; his Raise then is stale.
        his = _deciding(b)["table"]["decision"]
        server.clock.advance(21)
        closed = a.seen("round_closed")
        late = b.request({"type": "act", "action": "raise", "decision": his})
        assert late["type"] == "error" and late["reason"] == "stale_decision", late
        # Resent once more after the round closed: the same first answer, nothing moves.
        after = _ok(a, raise_)
        assert after == {**first, "replayed": True}
    assert closed["status"] == "settled"
    assert closed["returns"] == {"0": 100 + 100 + 200 + 400, "1": 0}
    assert server.balance(ta) == CREDIT + 500 and server.balance(tb) == CREDIT - 100
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and sum(ledger.values()) == 0
