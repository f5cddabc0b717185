"""A refused request changes nothing, also at a cluster's table where a gateway holds a
decision's stake before the owner sees it; a decision is the same decision however it is
spelt; a bet's key cannot take a decision's. Found by red-teaming (issue 26).

- A Play sent with another seat's number was held by the gateway under the seat's turn, then
  refused by the owner and its stake returned: the seat's own Play after it found that
  returned hold and was refused ("it cannot be made again") for the rest of the turn. In one
  process the same two requests are a refusal and then the Play.
- ``play`` with ``multiple`` 4 and ``"4x"`` are one decision (docs/protocol.md): resent under
  its id in the other spelling it was refused "answered already, with another decision"
  instead of answered again.
- A bet whose key was ``decision:<id>:seat:<seat>`` (decision ids are ``<round>-<turn>``) took
  the key under which that seat's decision stake is held: the Play was refused
  ``idempotency_conflict``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER, SQLITE_AND_CLUSTER_SLOW
from server_testkit import Seat, Server, table_ws

pytestmark = pytest.mark.timeout(180)

CREDIT = 5_000


def _turn(seat: Seat, phase: str) -> dict[str, Any]:
    frame = seat.after(
        0,
        lambda f: (
            f["type"] == "seat_event"
            and f["event"]["kind"] == "your_turn"
            and f["event"]["phase"] == phase
        ),
    )
    event: dict[str, Any] = frame["event"]
    return event


@contextmanager
def _two_seated(server: Server, *, bet: bool = True) -> Iterator[tuple[Seat, Seat, str]]:
    """Ann and Bob seated at the live table (each with an Ante bet: the round dealt unless
    ``bet`` is false); Ann's socket, Bob's and Ann's token."""
    (_, ann), (_, bob) = (server.player(n, credit=CREDIT) for n in ("ann", "bob"))
    with table_ws(server.client, "live", ann) as wa, table_ws(server.client, "live", bob) as wb:
        a, b = Seat(wa), Seat(wb)
        for seat in (a, b):
            seat.welcome()
            assert seat.request({"type": "join"})["type"] == "ack"
        time.sleep(1)  # a cluster's owner prepares the round its gateways hold bets for
        if bet:
            for seat in (a, b):
                assert (
                    seat.request({"type": "bet", "key": "k", "bets": {"ante": 100}})["type"]
                    == "ack"
                )
        yield a, b, ann


@SQLITE_AND_CLUSTER
@pytest.mark.parametrize("with_id", [False, True], ids=["no id", "with id"])
def test_a_decision_refused_for_another_seat_can_be_made_by_the_seat(
    server: Server, with_id: bool
) -> None:
    with _two_seated(server) as (a, _, ann):
        turn = _turn(a, "pre-flop")
        extra = {"decision": turn["decision"]} if with_id else {}
        mine = a.request({"type": "join"})["result"]["seat"]
        wrong = a.request({"type": "act", "action": "4x", "seat": mine + 1, **extra})
        assert wrong["type"] == "error" and wrong["code"] == "forbidden", wrong
        assert server.balance(ann) == CREDIT - 200  # the refusal moved nothing
        right = a.request({"type": "act", "action": "3x", **extra})
        assert right["type"] == "ack", right
        assert right["result"]["staked"] == 300
        assert right["result"]["balance"] == server.balance(ann) == CREDIT - 500


@SQLITE_AND_CLUSTER_SLOW
def test_a_decision_resent_in_its_other_spelling_is_answered_again(server: Server) -> None:
    with _two_seated(server) as (a, _, ann):
        decision = _turn(a, "pre-flop")["decision"]
        first = a.request({"type": "act", "action": "play", "multiple": 4, "decision": decision})
        assert first["type"] == "ack" and first["result"]["staked"] == 400, first
        for again in (
            {"action": "4x"},
            {"action": "4x", "multiple": 4},
            {"action": "play", "multiple": 4},
        ):
            answer = a.request({"type": "act", "decision": decision, **again})
            assert answer["type"] == "ack", (again, answer)
            assert answer["result"]["replayed"] is True
            assert answer["result"]["balance"] == first["result"]["balance"]
        other = a.request({"type": "act", "action": "3x", "decision": decision})
        assert other["type"] == "error" and other["reason"] == "stale_decision", other
        assert server.balance(ann) == CREDIT - 600


@SQLITE_AND_CLUSTER_SLOW
def test_a_bet_may_not_take_a_decisions_key(server: Server) -> None:
    with _two_seated(server, bet=False) as (a, b, ann):
        mine = a.request({"type": "join"})["result"]["seat"]
        taken = a.request(
            {"type": "bet", "key": f"decision:1-1:seat:{mine}", "bets": {"ante": 100}}
        )
        assert taken["type"] == "error", taken
        assert "decision:" in taken["message"] and "key" in taken["message"], taken
        assert server.balance(ann) == CREDIT  # nothing held
        assert a.request({"type": "bet", "key": "k", "bets": {"ante": 100}})["type"] == "ack"
        assert b.request({"type": "bet", "key": "k", "bets": {"ante": 100}})["type"] == "ack"
        decision = _turn(a, "pre-flop")["decision"]
        play = a.request({"type": "act", "action": "4x", "decision": decision})
        assert play["type"] == "ack" and play["result"]["staked"] == 400, play
