"""A cluster's gateway holds stakes before its table's owner sees the request: what the
owner then answers, and what becomes of the stake, must be what one process does (found by
red-teaming, issue 26's attacks of the same kinds).

- A decision refused for a detail its action does not take was held first: the owner
  returned that hold, and the decision's key was spent, so the player's correct decision for
  the same turn was refused ("cannot be made again"). The gateway now holds nothing for it.
- A stake held for the round a table records for the gateways' holds, whose bet never came
  (the bus lost it, or a new owner refused it ``table_moved``), stayed in escrow for as long
  as nobody bet at the table. The round is now voided and recorded anew.
- A bet delivered again after its round settled was told "its stake is returned": it had
  been played. It now gets its first answer, as a client's resend does.
- A hold of another amount than the table's price was refused without a ``reason``.
- A decision whose hold its turn's close returned before it arrived (sent as the timer ran
  out) was told it had been refused before (``idempotency_conflict``): now ``stale_decision``.
- A Play spelt ``play`` with ``multiple`` arriving after its round settled was checked under
  the word ``play`` against the ``4x`` held, and told its stake was not held: now its first
  answer, as ``4x`` gets.
"""

from __future__ import annotations

import json
import time
from typing import Any
from unittest import mock

import pytest
from cluster_claims import (
    CREDIT,
    answer,
    forge,
    gateway_bet_hold,
    gateway_decision_hold,
    genuine,
    ledger_settled,
    open_round,
    resend,
    seated,
    socket_of,
    your_turn,
)
from server_testkit import Seat, Server

from croupier.server.cluster import host as host_module
from croupier.server.cluster import messages as m
from croupier.server.tables import nextround

CLUSTER = pytest.param("cluster", marks=pytest.mark.postgres)

pytestmark = pytest.mark.timeout(150)


def _dealt(server: Server, *seats: Seat) -> dict[str, Any]:
    """Each of ``seats`` bets an Ante of 100 at the live table, the cards are dealt: the
    first seat's pre-flop ``your_turn``."""
    for seat in seats:
        assert seat.request({"type": "bet", "key": "a", "bets": {"ante": 100}})["type"] == "ack"
    server.clock.advance(10)
    return your_turn(seats[0], "pre-flop")


_DETAILS = [{"multiple": 4}, {"amount": 400}, {"cards": ["As"]}]


# Each detail on SQLite in `make test`, and the first through the cluster (the gateway's path
# is the same for every detail its action does not take); the other two through the cluster
# in `make test-all`.
@pytest.mark.parametrize(
    ("detail", "db_url"),
    [
        pytest.param(
            detail,
            backend,
            id=f"detail{i}-{backend}",
            marks=[]
            if backend == "sqlite"
            else [pytest.mark.postgres, *[pytest.mark.slow] * (i > 0)],
        )
        for backend in ("sqlite", "cluster")
        for i, detail in enumerate(_DETAILS)
    ],
    indirect=["db_url"],
)
def test_a_decision_refused_for_a_stray_detail_can_be_made_right_after(
    server: Server, detail: dict[str, Any]
) -> None:
    with seated(server, "live", ["max", "ned"]) as [(_, t1, s1), (_, _, s2)]:
        turn = _dealt(server, s1, s2)
        your_turn(s2, "pre-flop")
        bad = s1.request({"type": "act", "action": "4x", **detail})
        assert bad["type"] == "error" and bad["reason"] == "detail_not_for_action", bad
        assert server.balance(t1) == CREDIT - 200
        good = s1.request({"type": "act", "action": "4x", "decision": turn["decision"]})
        assert good["type"] == "ack" and good["result"]["staked"] == 400, (bad, good)
        assert server.balance(t1) == CREDIT - 600
        assert s2.request({"type": "act", "action": "4x"})["type"] == "ack"
        s1.seen("round_closed")
    ledger_settled(server)


def _idle_for(server: Server, seconds: float, done: Any) -> None:
    """The table's clock moves on ``seconds`` while the owner looks for unclaimed holds (each
    second here), until ``done()``."""
    server.clock.advance(seconds)
    deadline = time.monotonic() + 15
    while not done():
        assert time.monotonic() < deadline, "the stake was not returned"
        time.sleep(0.2)


@pytest.mark.parametrize("db_url", [CLUSTER], indirect=True)
@pytest.mark.parametrize("why", ["lost", "table_moved"])
def test_a_stake_held_for_a_bet_that_never_came_is_returned_at_an_idle_table(
    server: Server, why: str
) -> None:
    db = server.app.state.db
    with (
        mock.patch.object(host_module, "_LOOK_SECONDS", 0.0),
        seated(server, "casino", ["ivy"]) as [(user, token, seat)],
    ):
        ready = open_round(db, "casino")
        paid = gateway_bet_hold(
            server, "casino", user, seat=0, amount=200, key="k-lost", bets={"ante": 100}
        )
        assert paid.round_id == ready and server.balance(token) == CREDIT - 200
        if why == "table_moved":  # from a socket the owner never saw (a takeover's)
            gateway, _ = socket_of(server, "casino", user)
            bet = {"type": "bet", "key": "k-lost", "bets": {"ante": 100}, "id": "moved"}
            forge(
                server,
                "casino",
                m.Submit(gateway, 987_654, 4242, json.dumps(bet), paid, user, "ivy"),
            )
        assert seat.request({"type": "ping"})["type"] == "pong"
        time.sleep(1.5)  # the owner's look finds it held
        server.clock.advance(nextround.UNCLAIMED_SECONDS - 1)
        time.sleep(1.5)
        assert server.balance(token) == CREDIT - 200  # not before its time
        _idle_for(server, 1, lambda: server.balance(token) == CREDIT)
        again = open_round(db, "casino")
        assert again != ready  # the round voided, another recorded for the next bets
        # The bet arriving late after all: told its round was voided, nothing taken.
        if why == "lost":
            gateway, cid = socket_of(server, "casino", user)
            bet = {"type": "bet", "key": "k-lost", "bets": {"ante": 100}, "id": "late"}
            forge(
                server, "casino", m.Submit(gateway, cid, 4343, json.dumps(bet), paid, user, "ivy")
            )
            late = answer(seat, "late")
            assert late["type"] == "error" and late["reason"] == "round_voided", late
        assert server.balance(token) == CREDIT
        # The table plays on: a bet now opens the round recorded again.
        ack = seat.request({"type": "bet", "key": "k-new", "bets": {"ante": 100}})
        assert ack["type"] == "ack" and ack["result"]["round_id"] == again, ack
    assert server.ledger().get("escrow", 0) in (0, 200)


@pytest.mark.parametrize("db_url", [CLUSTER], indirect=True)
def test_a_bet_delivered_again_after_its_round_settled_gets_its_first_answer(
    server: Server,
) -> None:
    db = server.app.state.db
    with seated(server, "casino", ["bob"]) as [(_, token, seat)]:
        open_round(db, "casino")
        seat.send({"type": "bet", "key": "k1", "bets": {"ante": 100}, "id": "b1"})
        first = answer(seat, "b1")
        assert first["type"] == "ack", first
        sub = genuine(server, "casino", "b1")
        assert sub.prepaid is not None, "the gateway did not hold the bet"
        server.clock.advance(10)
        seat.event("decisions_open")
        for _ in range(2):
            assert seat.request({"type": "act", "action": "check"})["type"] == "ack"
        assert seat.request({"type": "act", "action": "fold"})["type"] == "ack"
        seat.seen("round_closed")
        after = server.balance(token)
        assert after == CREDIT - 200
        resend(server, "casino", sub, ref="late")
        late = answer(seat, "late")
        assert late["type"] == "ack" and late["result"]["replayed"], late
        assert late["result"]["round_id"] == first["result"]["round_id"], (first, late)
        assert late["result"]["staked"] == first["result"]["staked"] == 200
        assert server.balance(token) == after
    ledger_settled(server)


@pytest.mark.parametrize("db_url", [CLUSTER], indirect=True)
def test_a_hold_of_another_price_is_refused_price_changed_and_returned(server: Server) -> None:
    db = server.app.state.db
    with seated(server, "casino", ["lou"]) as [(user, token, seat)]:
        open_round(db, "casino")
        bets = {"ante": 100}
        paid = gateway_bet_hold(server, "casino", user, seat=0, amount=150, key="k", bets=bets)
        assert server.balance(token) == CREDIT - 150
        gateway, cid = socket_of(server, "casino", user)
        bet = {"type": "bet", "key": "k", "bets": bets, "id": "c"}
        forge(
            server, "casino", m.Submit(gateway, cid, 5_000_001, json.dumps(bet), paid, user, "lou")
        )
        got = answer(seat, "c")
        assert got["type"] == "error" and got["reason"] == "price_changed", got
        assert server.balance(token) == CREDIT
    with seated(server, "live", ["hal", "ida"]) as [(u1, t1, s1), (_, _, s2)]:
        turn = _dealt(server, s1, s2)
        paid = gateway_decision_hold(server, "live", u1, seat=0, turn=turn, word="4x", amount=100)
        assert server.balance(t1) == CREDIT - 300
        gateway, cid = socket_of(server, "live", u1)
        act = {"type": "act", "action": "4x", "id": "cheap"}
        forge(server, "live", m.Submit(gateway, cid, 5_000_002, json.dumps(act), paid, u1, "hal"))
        got = answer(s1, "cheap")
        assert got["type"] == "error" and got["reason"] == "price_changed", got
        assert server.balance(t1) == CREDIT - 200
        # (A hold of the turn's own price, the decision's key, would now be answered as
        # returned: a turn's price cannot change, as the round keeps its rules.)
        assert s1.request({"type": "act", "action": "check"})["type"] == "ack"
        assert s2.request({"type": "act", "action": "4x"})["type"] == "ack"
        for phase in ("flop", "river"):
            your_turn(s1, phase)
            assert (
                s1.request({"type": "act", "action": "check" if phase == "flop" else "fold"})[
                    "type"
                ]
                == "ack"
            )
        s1.seen("round_closed")
    ledger_settled(server)


@pytest.mark.parametrize("db_url", [CLUSTER], indirect=True)
def test_a_decision_whose_turn_closed_on_its_way_is_stale(server: Server) -> None:
    with seated(server, "live", ["una", "vic"]) as [(u1, t1, s1), (_, _, s2)]:
        turn = _dealt(server, s1, s2)
        paid = gateway_decision_hold(
            server, "live", u1, seat=0, turn=turn, word="4x", amount=turn["stakes"]["4x"]
        )
        assert server.balance(t1) == CREDIT - 600
        server.clock.advance(20)  # the turn times out: both check, the hold is returned
        your_turn(s1, "flop")
        assert server.balance(t1) == CREDIT - 200
        gateway, cid = socket_of(server, "live", u1)
        act = {"type": "act", "action": "4x", "decision": turn["decision"], "id": "late"}
        forge(server, "live", m.Submit(gateway, cid, 5_000_003, json.dumps(act), paid, u1, "una"))
        late = answer(s1, "late")
        assert late["type"] == "error" and late["reason"] == "stale_decision", late
        assert server.balance(t1) == CREDIT - 200
        for action in ("check", "fold"):
            for one in (s1, s2):
                assert one.request({"type": "act", "action": action})["type"] == "ack"
        s1.seen("round_closed")
    ledger_settled(server)


@pytest.mark.parametrize("db_url", [CLUSTER], indirect=True)
def test_a_play_in_another_spelling_after_its_round_settled_gets_its_first_answer(
    server: Server,
) -> None:
    with seated(server, "live", ["wes", "xia"]) as [(_, t1, s1), (_, _, s2)]:
        turn = _dealt(server, s1, s2)
        s1.send({"type": "act", "action": "4x", "decision": turn["decision"], "id": "p"})
        first = answer(s1, "p")
        assert first["type"] == "ack" and first["result"]["staked"] == 400, first
        sub = genuine(server, "live", "p")
        assert sub.prepaid is not None, "the gateway did not hold the Play"
        assert s2.request({"type": "act", "action": "4x"})["type"] == "ack"
        s1.seen("round_closed")
        after = server.balance(t1)
        spelt = {"type": "act", "action": "play", "multiple": 4, "decision": turn["decision"]}
        resend(server, "live", sub, ref="again", message=spelt)
        again = answer(s1, "again")
        assert again["type"] == "ack" and again["result"]["replayed"], again
        assert again["result"]["staked"] == 400
        assert server.balance(t1) == after
    ledger_settled(server)
