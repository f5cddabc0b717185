"""A stake a cluster's gateway says it held is verified in the database before the owner
places the bet or applies the decision (issue 26, defect 3).

The owner used to take a gateway's "prepaid" bet after checking its round, seat and amount,
but not that the hold exists, is a hold of that user, for that round, that bet or decision
and that amount. These tests put such messages on the table's stream as a process of the
cluster would (through the owner's own bus), naming a hold that does not exist, another
player's hold, and a player's own hold made for another bet, and check that nothing is
placed or applied, no hold is returned that the table did not refuse, and the ledger holds.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from cluster_claims import CREDIT, forge, open_round, seated, socket_of
from server_testkit import Seat, Server
from sqlalchemy import select

from croupier.server.cluster import messages as m
from croupier.server.db import Database
from croupier.server.tables.connection import Prepaid
from croupier.server.tables.models import RoundPlayer
from croupier.server.wallet import service as wallet

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.parametrize(
        "db_url", [pytest.param("cluster", marks=pytest.mark.postgres)], indirect=True
    ),
]


def _staked(db: Database, round_id: int) -> dict[int, int]:
    with db.session() as session:
        rows = session.execute(
            select(RoundPlayer.user_id, RoundPlayer.staked).where(RoundPlayer.round_id == round_id)
        ).all()
    return {int(user): int(staked) for user, staked in rows}


def _answer(seat: Seat, ref: str) -> dict[str, Any]:
    return seat.after(0, lambda f: f.get("ref") == ref)


def _submit(gateway: str, cid: int, message: dict[str, Any], prepaid: Prepaid) -> m.Submit:
    return m.Submit(gateway, cid, 10**6 + cid, json.dumps(message), prepaid)


def test_a_bet_whose_hold_does_not_exist_is_refused(server: Server) -> None:
    db: Database = server.app.state.db
    with seated(server, "casino", ["ann"]) as [(user, token, seat)]:
        round_id = open_round(db, "casino")
        gateway, cid = socket_of(server, "casino", user)
        forged = Prepaid(
            round_id=round_id,
            transaction_id=987_654,
            amount=200,
            balance=CREDIT - 200,
            replayed=False,
            seat=0,
        )
        bet = {"type": "bet", "key": "free", "bets": {"ante": 100}, "id": "forged"}
        forge(server, "casino", _submit(gateway, cid, bet, forged))
        answer = _answer(seat, "forged")
        assert answer["type"] == "error" and answer["reason"] == "hold_unverified", answer
        assert server.balance(token) == CREDIT
        assert _staked(db, round_id) == {}
        # The player's own bet, sent as usual, is held and placed.
        real = seat.request({"type": "bet", "key": "real", "bets": {"ante": 100}})
        assert real["type"] == "ack" and real["result"]["balance"] == CREDIT - 200, real
    totals = server.ledger()
    assert totals["escrow"] >= 0 and sum(totals.values()) == 0


def test_a_bet_naming_another_players_hold_is_refused_and_that_hold_stands(
    server: Server,
) -> None:
    db: Database = server.app.state.db
    with seated(server, "casino", ["bea", "cid"]) as [
        (thief, t_token, t_seat),
        (_, v_token, v_seat),
    ]:
        held = v_seat.request({"type": "bet", "key": "mine", "bets": {"ante": 100}})
        assert held["type"] == "ack", held
        round_id = held["result"]["round_id"]
        with db.session() as session:
            (hold,) = wallet.round_holds(session, round_id=round_id)
        gateway, cid = socket_of(server, "casino", thief)
        forged = Prepaid(
            round_id=round_id,
            transaction_id=hold,
            amount=200,
            balance=CREDIT,
            replayed=False,
            seat=0,
        )
        bet = {"type": "bet", "key": "mine", "bets": {"ante": 100}, "id": "forged"}
        forge(server, "casino", _submit(gateway, cid, bet, forged))
        answer = _answer(t_seat, "forged")
        assert answer["type"] == "error" and answer["reason"] == "hold_unverified", answer
        assert server.balance(t_token) == CREDIT
        assert server.balance(v_token) == CREDIT - 200
        assert thief not in _staked(db, round_id)
        server.clock.advance(10)  # betting closes: the victim's bet plays, its hold kept
        v_seat.event("decisions_open")
        assert server.balance(v_token) == CREDIT - 200


def test_a_bet_naming_the_players_own_hold_of_another_bet_is_refused(server: Server) -> None:
    """A UTH seat that has bet may add Trips: a forged Trips bet naming the hold of the
    seat's own Ante (an amount that matches) is not a hold of that bet."""
    db: Database = server.app.state.db
    with seated(server, "casino", ["dan"]) as [(user, token, seat)]:
        held = seat.request({"type": "bet", "key": "ante", "bets": {"ante": 100}})
        round_id = held["result"]["round_id"]
        with db.session() as session:
            (hold,) = wallet.round_holds(session, round_id=round_id)
        gateway, cid = socket_of(server, "casino", user)
        forged = Prepaid(
            round_id=round_id,
            transaction_id=hold,
            amount=200,
            balance=CREDIT - 200,
            replayed=False,
            seat=0,
        )
        trips = {"type": "bet", "key": "trips", "bets": {"trips": 200}, "id": "forged"}
        forge(server, "casino", _submit(gateway, cid, trips, forged))
        answer = _answer(seat, "forged")
        assert answer["type"] == "error" and answer["reason"] == "hold_unverified", answer
        assert _staked(db, round_id) == {user: 200}
        assert server.balance(token) == CREDIT - 200


def test_a_decision_whose_hold_does_not_exist_is_refused(server: Server) -> None:
    """A live table's Play bet the gateway would hold: forged with a hold that does not
    exist, the decision is not applied and the seat still has its turn."""
    db: Database = server.app.state.db
    with seated(server, "live", ["eve"]) as [(user, token, seat)]:
        assert seat.request({"type": "bet", "key": "b", "bets": {"ante": 100}})["type"] == "ack"
        server.clock.advance(10)
        turn = seat.after(
            0, lambda f: f["type"] == "seat_event" and f["event"]["kind"] == "your_turn"
        )["event"]
        gateway, cid = socket_of(server, "live", user)
        forged = Prepaid(
            round_id=turn["round_id"],
            transaction_id=876_543,
            amount=400,
            balance=CREDIT - 600,
            replayed=False,
            seat=0,
            phase="pre-flop",
        )
        play = {"type": "act", "action": "4x", "id": "forged"}
        forge(server, "live", _submit(gateway, cid, play, forged))
        answer = _answer(seat, "forged")
        assert answer["type"] == "error" and answer["reason"] == "hold_unverified", answer
        assert server.balance(token) == CREDIT - 200
        assert _staked(db, turn["round_id"]) == {user: 200}
        real = seat.request({"type": "act", "action": "4x"})
        assert real["type"] == "ack" and real["result"]["staked"] == 400, real
        assert real["result"]["balance"] == CREDIT - 600
        seat.seen("round_closed")
    totals = server.ledger()
    assert totals["escrow"] == 0 and sum(totals.values()) == 0
