"""A reply type per request kind (issue 26, "the wire is typed end to end"): every ack's
``result`` is exactly its kind's type of the schema (its fields only, the required ones all
there), over a real socket at a UTH and a Hold'em table; the JSON is what it was."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER
from server_testkit import Seat, ServerFactory, table_ws

from croupier.server.tables.config import TableConfig
from croupier.server.tables.wire import RESULTS
from croupier.server.tables.wire_docs import schema

pytestmark = pytest.mark.timeout(90)

HOLDEM = TableConfig(
    name="holdem",
    game="holdem",
    decision_seconds=30,
    pause_seconds=5,
    rules={"small_blind": 50, "big_blind": 100, "min_buy_in": 2_000, "max_buy_in": 10_000},
)
UTH = TableConfig(
    name="casino",
    game="uth",
    betting_seconds=10,
    decision_seconds=20,
    pause_seconds=0,
    rules={"max_seats": 6},
)


_JSON = {"integer": int, "string": str, "boolean": bool, "null": type(None)}


def _fits(value: Any, prop: dict[str, Any]) -> bool:
    """Whether ``value`` is of the JSON type ``prop`` (a field of the schema) names."""
    kinds = [p["type"] for p in prop.get("anyOf", [prop])]
    return any(
        isinstance(value, _JSON[k]) and (k != "integer" or not isinstance(value, bool))
        for k in kinds
    )


def _kinds(result: dict[str, Any]) -> list[str]:
    """The result types of the schema ``result`` fits: its fields are the type's, of its
    types, and every field the type requires is there."""
    defs = schema()["$defs"]
    members = [
        ref["$ref"].rsplit("/", 1)[-1] for ref in defs["Ack"]["properties"]["result"]["anyOf"]
    ]
    assert members == [t.__name__ for t in RESULTS]
    return [
        name
        for name in members
        if set(result) <= set(defs[name]["properties"])
        and set(defs[name].get("required", ())) <= set(result)
        and all(_fits(v, defs[name]["properties"][k]) for k, v in result.items())
    ]


def _ack(seat: Seat, message: dict[str, Any], kind: str) -> dict[str, Any]:
    frame = seat.request(message)
    assert frame["type"] == "ack", frame
    result: dict[str, Any] = frame["result"]
    assert _kinds(result) == [kind], (message, result)
    return result


@SQLITE_AND_CLUSTER
def test_every_ack_is_its_kinds_type(table_server: ServerFactory) -> None:
    server = table_server([UTH, HOLDEM])
    _, token = server.player("ann", credit=20_000)
    with ExitStack() as stack:
        uth = Seat(stack.enter_context(table_ws(server.client, "casino", token)))
        uth.welcome()
        assert _ack(uth, {"type": "join"}, "JoinResult") == {"seat": 0}
        bet = _ack(uth, {"type": "bet", "key": "b", "bets": {"ante": 100}}, "BetResult")
        assert bet["staked"] == 200 and bet["replayed"] is False
        uth.state()  # the only seat has bet: the deal
        act = _ack(uth, {"type": "act", "action": "check"}, "ActResult")
        assert act["action"] == "check" and act["staked"] == 0 and "decision" in act

        cash = Seat(stack.enter_context(table_ws(server.client, "holdem", token)))
        cash.welcome()
        assert _ack(cash, {"type": "join"}, "JoinResult") == {"seat": 0}
        bought = _ack(cash, {"type": "buy_in", "key": "in", "amount": 3_000}, "BuyInResult")
        assert bought["stack"] == 3_000 and bought["replayed"] is False
        out = _ack(cash, {"type": "sit_out"}, "SitResult")
        assert out == {"seat": 0, "sitting_out": True}
        assert _ack(cash, {"type": "sit_in"}, "SitResult") == {"seat": 0, "sitting_out": False}
        marked = _ack(cash, {"type": "leave", "after_hand": False}, "LeavingResult")
        assert marked == {"seat": 0, "leaving": False}
        left = _ack(cash, {"type": "leave"}, "LeaveResult")
        assert left["seat"] is None and left["cashed_out"] == 3_000
