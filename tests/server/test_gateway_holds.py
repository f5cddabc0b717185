"""A cluster's gateways hold the stakes of bets themselves, for the round whose betting is
open (issue 18; :mod:`croupier.server.tables.window`): the database's part -- the guard of
the betting window, the holds the table did not take returned, each once -- and the whole
path through a two-process cluster: the gateway holds, the owner places or refuses (and
returns), and a hold the owner never heard of is returned when betting closes."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from server_testkit import Seat, Server, table_ws
from sqlalchemy import select, text

from croupier.server.db import Database
from croupier.server.errors import LedgerInvariantError
from croupier.server.tables import rounds, stakes, window
from croupier.server.tables.models import Round, RoundPlayer
from croupier.server.tables.staking import stake_order
from croupier.server.tables.wire import ActMessage
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import LedgerTransaction

pytestmark = pytest.mark.timeout(90)

TABLE = "live"


def _funded(db: Database, make_user: Any, n: int, amount: int = 10_000) -> list[int]:
    users = [make_user(f"holder{i:02d}") for i in range(n)]
    with db.session() as session:
        for user in users:
            wallet.credit(session, user_id=user, amount=amount, idempotency_key=f"d{user}")
    return users


def _stake(user: int, seat: int, amount: int = 200, key: str = "b1") -> rounds.Stake:
    return rounds.Stake(
        user_id=user,
        seat=seat,
        amount=amount,
        idempotency_key=key,
        details={"bets": {"ante": amount // 2}, "seat": seat},
    )


def _open(db: Database, *, betting: bool = True) -> int:
    with db.session() as session:
        row = rounds.open_round(
            session,
            table=TABLE,
            game="uth",
            commitment="c" * 64,
            salt="s",
            deck="d",
            betting_open=betting,
        )
        return row.id


def _balances(db: Database, users: list[int]) -> list[int]:
    with db.session() as session:
        return [int(wallet.player_balance(session, user_id=u)) for u in users]


def _kinds(db: Database, round_id: int) -> list[str]:
    with db.session() as session:
        return list(
            session.scalars(
                select(LedgerTransaction.kind)
                .where(LedgerTransaction.round_id == round_id)
                .order_by(LedgerTransaction.id)
            )
        )


def test_no_hold_without_a_round_whose_betting_is_open(db: Database, make_user: Any) -> None:
    (user,) = _funded(db, make_user, 1)
    assert stakes.hold_in_window(db, table=TABLE, stakes=[_stake(user, 0)]) == (None, [])
    _open(db, betting=False)  # a round in play, its betting closed
    assert stakes.hold_in_window(db, table=TABLE, stakes=[_stake(user, 0)]) == (None, [])
    assert _balances(db, [user]) == [10_000]


def test_the_close_returns_every_hold_the_table_did_not_take_once(
    db: Database, make_user: Any
) -> None:
    users = _funded(db, make_user, 3)
    round_id = _open(db)
    found, answers = stakes.hold_in_window(
        db, table=TABLE, stakes=[_stake(u, i, 200 * (i + 1)) for i, u in enumerate(users)]
    )
    assert found == round_id
    assert all(isinstance(a, wallet.Movement) for a in answers)
    assert _balances(db, users) == [9_800, 9_600, 9_400]
    holds = [a.transaction_id for a in answers if isinstance(a, wallet.Movement)]
    # The table refused the second at once; it placed the first; the third never reached it.
    assert [r.user_id for r in stakes.release(db, round_id=round_id, holds=[holds[1]])] == [
        users[1]
    ]
    released = stakes.close_window(db, round_id=round_id, kept={holds[0]})
    assert [(r.user_id, r.amount) for r in released] == [(users[2], 600)]
    assert _balances(db, users) == [9_800, 10_000, 10_000]
    # Asked again (a retry), nothing more moves; no hold is taken after the close.
    assert stakes.release(db, round_id=round_id, holds=holds[1:]) == []
    assert stakes.close_window(db, round_id=round_id, kept={holds[0]}) == []
    late = stakes.hold_in_window(db, table=TABLE, stakes=[_stake(users[1], 1, key="b2")])
    assert late == (None, [])
    with db.session() as session:
        assert wallet.held_in_round(session, round_id=round_id) == {users[0]: 200}
        players = session.scalars(select(RoundPlayer).where(RoundPlayer.round_id == round_id))
        assert [(p.user_id, p.staked) for p in players] == [(users[0], 200)]
        # The settlement pays what is held; the ledger stays whole.
        rounds.settle_round(
            session, round_id=round_id, returns={users[0]: 400}, record={}, summary={}
        )
    assert _balances(db, users) == [10_200, 10_000, 10_000]
    assert _kinds(db, round_id) == ["hold"] * 3 + ["release"] * 2 + ["settle"]
    with db.session() as session:
        totals = wallet.check_ledger(session)
    assert totals["escrow"] == 0 and totals["player"] == 30_200


def test_a_void_returns_what_is_held_less_what_was_released(db: Database, make_user: Any) -> None:
    users = _funded(db, make_user, 2)
    round_id = _open(db)
    _, answers = stakes.hold_in_window(
        db, table=TABLE, stakes=[_stake(u, i) for i, u in enumerate(users)]
    )
    first = answers[0]
    assert isinstance(first, wallet.Movement)
    stakes.release(db, round_id=round_id, holds=[first.transaction_id])
    stakes.void(db, round_id=round_id, reason="test", record={})
    assert _balances(db, users) == [10_000, 10_000]
    with db.session() as session:
        assert wallet.check_ledger(session)["escrow"] == 0
        row = session.get(Round, round_id)
        assert row is not None and row.betting_open is False  # a closed round takes no bet


def test_a_resent_key_is_the_same_hold_and_a_release_names_only_holds_of_the_round(
    db: Database, make_user: Any
) -> None:
    (user,) = _funded(db, make_user, 1)
    _open(db)
    _, (first,) = stakes.hold_in_window(db, table=TABLE, stakes=[_stake(user, 0)])
    _, (again,) = stakes.hold_in_window(db, table=TABLE, stakes=[_stake(user, 0)])
    assert isinstance(first, wallet.Movement) and isinstance(again, wallet.Movement)
    assert again.replayed and again.transaction_id == first.transaction_id
    assert _balances(db, [user]) == [9_800]
    other = _open(db)
    with pytest.raises(LedgerInvariantError, match="not holds of round"):
        stakes.release(db, round_id=other, holds=[first.transaction_id])
    assert _balances(db, [user]) == [9_800]


@pytest.mark.parametrize(
    "db_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_the_close_waits_for_a_hold_in_flight_and_returns_it(db: Database, make_user: Any) -> None:
    """The race the guard is for: a gateway's hold committed while the owner closes betting
    is either seen by the close (and returned, the table never having placed it) or refused;
    never taken after the close and left in escrow."""
    (user,) = _funded(db, make_user, 1)
    round_id = _open(db)
    locked = threading.Event()
    closed: list[Any] = []

    def hold_slowly() -> None:
        with db.session() as session:
            found, answers = window.hold_in_window(session, table=TABLE, stakes=[_stake(user, 0)])
            assert found == round_id and isinstance(answers[0], wallet.Movement)
            locked.set()
            time.sleep(0.5)  # the close waits for this transaction

    def close() -> None:
        locked.wait(5)
        started = time.monotonic()
        closed.append(stakes.close_window(db, round_id=round_id, kept=set()))
        closed.append(time.monotonic() - started)

    threads = [threading.Thread(target=hold_slowly), threading.Thread(target=close)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    released, waited = closed
    assert [(r.user_id, r.amount) for r in released] == [(user, 200)]
    assert waited > 0.3
    assert _balances(db, [user]) == [10_000]
    with db.session() as session:
        row = session.get(Round, round_id)
        assert row is not None and row.betting_open is False
        assert session.execute(text("SELECT count(*) FROM round_players")).scalar() == 0


@pytest.mark.parametrize(
    "db_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_the_deck_is_recorded_beside_a_hold_in_flight_and_a_void_waits_for_it(
    db: Database, make_user: Any
) -> None:
    """A cluster's next round gets its deck when its first bet is placed, while gateways
    hold the next bets: that write does not wait for their transactions (it once waited
    behind each, 0.7-1.6 s at 3,000 bots); a void does, and returns the hold."""
    (user,) = _funded(db, make_user, 1)
    round_id = stakes.open_for_bets(db, table=TABLE, game="uth")
    locked, finish = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def hold_until_told() -> None:
        with db.session() as session:
            found, answers = window.hold_in_window(session, table=TABLE, stakes=[_stake(user, 0)])
            assert found == round_id and isinstance(answers[0], wallet.Movement)
            locked.set()
            finish.wait(10)  # the transaction stays open until the test says
            seen["deck while holding"] = "deck" in seen

    def record_deck() -> None:
        opening = stakes.Opening(table=TABLE, game="uth", commitment="c" * 64, salt="s", deck="d")
        stakes.commit_deck(db, round_id=round_id, opening=opening)
        seen["deck"] = True

    def void() -> None:
        stakes.void(db, round_id=round_id, reason="test", record={"played": False})
        seen["void"] = True

    holder = threading.Thread(target=hold_until_told)
    holder.start()
    assert locked.wait(10)
    deck = threading.Thread(target=record_deck)
    deck.start()
    deck.join(5)
    voider = threading.Thread(target=void)
    voider.start()
    voider.join(0.5)
    seen["void before the hold's commit"] = "void" in seen
    finish.set()
    for thread in (holder, deck, voider):
        thread.join(10)
    assert seen["deck while holding"] is True
    assert seen["void before the hold's commit"] is False
    assert _commitment(db, round_id) == "c" * 64
    assert _kinds(db, round_id) == ["hold", "void"]
    assert _balances(db, [user]) == [10_000]


# -- through a two-process cluster ------------------------------------------------------


def _prepared(db: Database, table: str, *, wait: float = 10.0) -> int:
    """The id of ``table``'s next round, recorded open for bets with no stake yet (waits
    for its owner to record it)."""
    deadline = time.monotonic() + wait
    while True:
        with db.session() as session:
            found = session.execute(
                select(Round.id, Round.betting_open).where(
                    Round.table_name == table, Round.status == "open"
                )
            ).all()
            players = session.scalars(
                select(RoundPlayer.round_id).where(RoundPlayer.round_id.in_([r for r, _ in found]))
            ).all()
        if len(found) == 1:
            ((round_id, betting),) = found
            assert betting is True and not players, (found, players)
            return int(round_id)
        assert len(found) < 2, f"{table} has two rounds open: {found}"
        assert time.monotonic() < deadline, f"{table} has no next round recorded"
        time.sleep(0.05)


def _commitment(db: Database, round_id: int) -> str:
    with db.session() as session:
        row = session.get(Round, round_id)
        assert row is not None
        return row.commitment


def _gateway_holds(server: Server, kind: str = "bet") -> dict[str, float]:
    """The gateway process's count of the bets (``kind="act"``: the decisions) it handled,
    by outcome."""
    found: dict[str, float] = {}
    for line in server.client.get("/metrics").text.splitlines():
        if line.startswith("croupier_gateway_holds_total{") and f'type="{kind}"' in line:
            labels, value = line.rsplit(" ", 1)
            outcome = labels.split('outcome="')[1].split('"')[0]
            found[outcome] = found.get(outcome, 0) + float(value)
    return found


@pytest.mark.parametrize(
    "db_url", [pytest.param("cluster", marks=pytest.mark.postgres)], indirect=True
)
def test_the_gateway_holds_bets_the_owner_places_refuses_or_never_hears_of(
    server: Server,
) -> None:
    players = [server.player(f"player{i}", credit=5_000) for i in range(5)]
    db: Database = server.app.state.db  # the owner's (the test's) app
    with (
        table_ws(server.client, "live", players[0][1]) as w0,
        table_ws(server.client, "live", players[1][1]) as w1,
        table_ws(server.client, "live", players[2][1]) as w2,
        table_ws(server.client, "live", players[3][1]) as w3,
        table_ws(server.client, "live", players[4][1]) as w4,
    ):
        seats = [Seat(w) for w in (w0, w1, w2, w3, w4)]
        playing = [*seats[:3], seats[4]]
        for i, seat in enumerate(seats):
            seat.welcome()
            assert seat.request({"type": "join"})["result"] == {"seat": i}
        # The table's next round is recorded open for bets before anyone bets, so the
        # first bet is held by the gateway too; the owner places it, and the round is in
        # play under the commitment recorded.
        prepared = _prepared(db, "live")
        opened = seats[0].request({"type": "bet", "key": "k", "bets": {"ante": 100}})
        assert opened["type"] == "ack" and opened["result"]["balance"] == 4_800
        round_id = opened["result"]["round_id"]
        assert round_id == prepared
        assert seats[0].event("round_opened")["commitment"] == _commitment(db, round_id)
        # The next bets are held by the gateway, and placed by the owner.
        for seat in seats[1:3]:
            ack = seat.request({"type": "bet", "key": "k", "bets": {"ante": 200}})
            assert ack["type"] == "ack" and ack["result"]["staked"] == 400, ack
            assert ack["result"]["round_id"] == round_id
        resent = seats[1].request({"type": "bet", "key": "k", "bets": {"ante": 200}})
        assert resent["result"]["replayed"] is True and resent["result"]["balance"] == 4_600
        assert _gateway_holds(server) == {"held": 3, "replayed": 1}
        # A bet the game refuses once held (a second Ante from a seat that has bet): its
        # stake goes back at once.
        refused = seats[2].request({"type": "bet", "key": "k2", "bets": {"ante": 100}})
        assert refused["type"] == "error", refused
        assert server.balance(players[2][1]) == 4_600
        # Sent again under its key, it is not taken as a bet made (its stake was returned).
        again = seats[2].request({"type": "bet", "key": "k2", "bets": {"ante": 100}})
        assert again["type"] == "error" and again["reason"] == "idempotency_conflict", again
        assert server.balance(players[2][1]) == 4_600
        # A hold its owner never hears of (the gateway died between the hold and the
        # message): returned when betting closes.
        with db.session() as session:
            found, (lost,) = window.hold_in_window(
                session, table="live", stakes=[_stake(players[3][0], 3, 300, "lost")]
            )
        assert found == round_id and isinstance(lost, wallet.Movement)
        assert server.balance(players[3][1]) == 4_700
        # The same, but its player sends the bet again under its key: the hold is the one
        # made, and the bet is placed now.
        with db.session() as session:
            window.hold_in_window(
                session, table="live", stakes=[_stake(players[4][0], 4, 300, "found")]
            )
        found_again = seats[4].request({"type": "bet", "key": "found", "bets": {"ante": 150}})
        assert found_again["type"] == "ack", found_again
        assert found_again["result"]["replayed"] is True
        assert server.balance(players[4][1]) == 4_700
        server.clock.advance(10)
        closed = seats[0].event("betting_closed")
        assert closed["boxes"] == 4
        assert server.balance(players[3][1]) == 5_000
        assert server.balance(players[4][1]) == 4_700
        for phase, action in (("pre-flop", "check"), ("flop", "check"), ("river", "fold")):
            for seat in playing:
                seat.after(
                    0,
                    lambda f, phase=phase: (
                        f.get("event", {}).get("kind") == "decisions_open"
                        and f["event"]["phase"] == phase
                    ),
                )
                assert seat.request({"type": "act", "action": action})["type"] == "ack"
        for seat in playing:
            seat.seen("round_closed")
    assert _kinds(db, round_id).count("release") == 2  # the refused bet's, the lost one's
    with db.session() as session:
        staked = dict(session.execute(select(RoundPlayer.user_id, RoundPlayer.staked)).all())
        totals = wallet.check_ledger(session)
    assert staked == {
        players[0][0]: 200,
        players[1][0]: 400,
        players[2][0]: 400,
        players[4][0]: 300,
    }
    assert totals["escrow"] == 0
    assert totals["player"] + totals.get("house", 0) == 25_000


def _turn(seat: Seat, phase: str) -> dict[str, Any]:
    """The seat's ``your_turn`` of ``phase`` (waited for)."""
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


def _stray(
    db: Database, user: int, seat: int, round_id: int, phase: str, extra: int, decision: str
) -> Any:
    """A gateway's hold of a Play bet whose decision never reached the owner (its process
    died between the hold and the message): ``None`` when the phase's window is closed."""
    word = f"{extra // 100}x"
    stake = stake_order(user, seat=seat, amount=extra, decision=decision, word=word)
    with db.session() as session:
        found, answers = window.hold_in_window(
            session, table="live", stakes=[stake], decisions=(round_id, phase)
        )
    return answers[0] if found == round_id else None


@pytest.mark.parametrize(
    "db_url", [pytest.param("cluster", marks=pytest.mark.postgres)], indirect=True
)
def test_the_gateway_holds_play_bets_the_owner_applies_refuses_or_never_hears_of(
    server: Server,
) -> None:
    """Issue 18: at a live table the gateway holds a decision's Play bet itself, at the
    price the seat's ``your_turn`` named, for the round's decision phase open in the
    database; the owner applies it, keeps a resend's hold (it refuses the decision, and
    returns nothing it kept), and returns a hold it never heard of when the phase closes --
    in the last phase at the settlement, which would otherwise pay it to the house."""
    players = [server.player(f"decider{i}", credit=5_000) for i in range(3)]
    (u0, t0), (u1, t1), (u2, t2) = players
    db: Database = server.app.state.db
    with (
        table_ws(server.client, "live", t0) as w0,
        table_ws(server.client, "live", t1) as w1,
        table_ws(server.client, "live", t2) as w2,
    ):
        seats = [Seat(w) for w in (w0, w1, w2)]
        for i, seat in enumerate(seats):
            seat.welcome()
            assert seat.request({"type": "join"})["result"] == {"seat": i}
        acks = [s.request({"type": "bet", "key": "k", "bets": {"ante": 100}}) for s in seats]
        round_id = acks[0]["result"]["round_id"]
        server.clock.advance(10)
        turn = _turn(seats[0], "pre-flop")
        assert turn["round_id"] == round_id and turn["stakes"] == {"4x": 400, "3x": 300}
        decision = turn["decision"]
        assert _stray(db, u0, 0, round_id, "flop", 200, decision) is None  # not the phase open
        play = seats[0].request({"type": "act", "action": "play", "multiple": 4})
        assert play["type"] == "ack" and play["result"]["staked"] == 400, play
        assert play["result"]["balance"] == 4_400
        # Resent: the gateway finds its hold (a replay), the owner refuses the decision made
        # and keeps the hold.
        again = seats[0].request({"type": "act", "action": "play", "multiple": 4})
        assert again["type"] == "error" and again["reason"] == "already_played", again
        assert _gateway_holds(server, "act") == {"held": 1, "replayed": 1}
        assert server.balance(t0) == 4_400
        lost = _stray(db, u1, 1, round_id, "pre-flop", 300, decision)
        assert isinstance(lost, wallet.Movement) and server.balance(t1) == 4_500
        for seat in seats[1:]:
            _turn(seat, "pre-flop")
            assert seat.request({"type": "act", "action": "check"})["type"] == "ack"
        # The flop's window opens once the pre-flop's strays are returned.
        assert _turn(seats[1], "flop")["stakes"] == {"2x": 200}
        assert server.balance(t1) == 4_800
        assert _stray(db, u1, 1, round_id, "pre-flop", 300, decision) is None
        flop = seats[1].request({"type": "act", "action": "2x"})
        assert flop["type"] == "ack" and flop["result"]["staked"] == 200, flop
        assert seats[2].request({"type": "act", "action": "check"})["type"] == "ack"
        river = _turn(seats[2], "river")
        lost = _stray(db, u2, 2, round_id, "river", 100, river["decision"])
        assert isinstance(lost, wallet.Movement) and server.balance(t2) == 4_700
        assert seats[2].request({"type": "act", "action": "fold"})["type"] == "ack"
        for seat in seats:
            seat.seen("round_closed")
    assert _gateway_holds(server, "act") == {"held": 2, "replayed": 1}
    assert server.balance(t2) == 4_800  # the Ante and Blind folded; the stray returned
    assert _kinds(db, round_id).count("release") == 2
    with db.session() as session:
        totals = wallet.check_ledger(session)
        staked = dict(session.execute(select(RoundPlayer.user_id, RoundPlayer.staked)).all())
    assert staked == {u0: 600, u1: 400, u2: 200}
    assert totals["escrow"] == 0
    assert totals["player"] + totals.get("house", 0) == 15_000


def test_a_gateway_names_a_decision_as_the_tables_your_turn_does(server: Server) -> None:
    """The gateway looks a decision's stake up in the seat's ``your_turn`` under the name the
    table gives it there: a Play bet sent as ``play`` with a multiple is the ``"4x"`` of the
    turn; a decision with no such name is left to the owner, which says why."""
    word = server.app.state.tables.decision_word
    assert word("live", ActMessage(action="play", multiple=4)) == "4x"
    assert word("live", ActMessage(action="2x")) == "2x"
    assert word("live", ActMessage(action="check")) == "check"
    assert word("live", ActMessage(action="fold")) == "fold"
    assert word("live", ActMessage(action="play")) is None  # no multiple
    assert word("live", ActMessage(action="raise")) is None
    assert word("nowhere", ActMessage(action="check")) is None


@pytest.mark.parametrize(
    "db_url", [pytest.param("cluster", marks=pytest.mark.postgres)], indirect=True
)
def test_a_next_round_never_played_is_voided_with_every_hold_returned(server: Server) -> None:
    """The round a cluster's table records for the gateways' holds before anyone bets
    (:mod:`croupier.server.tables.nextround`): an operator who closes the table voids it,
    returning the stakes held for it; bets are refused while the table is closed; the table
    opened again records a new one, whose first bet the gateway holds."""
    (user0, token0), (user1, token1) = (server.player(f"bettor{i}", credit=5_000) for i in range(2))
    db: Database = server.app.state.db
    headers = {"Authorization": f"Bearer {server.operator_token()}"}
    with table_ws(server.client, "live", token0) as w0:
        seat = Seat(w0)
        seat.welcome()
        assert seat.request({"type": "join"})["result"] == {"seat": 0}
        first = _prepared(db, "live")
        # A gateway's hold whose bet never reached the owner (its process died).
        with db.session() as session:
            found, (lost,) = window.hold_in_window(
                session, table="live", stakes=[_stake(user1, 1, 300, "lost")]
            )
        assert found == first and isinstance(lost, wallet.Movement)
        assert server.balance(token1) == 4_700
        closing = server.client.patch(
            "/api/operator/tables/live", json={"status": "closed"}, headers=headers
        )
        assert closing.status_code == 200, closing.text
        seat.seen("table_changed")
        deadline = time.monotonic() + 10
        while _status(db, first) == "open":
            assert time.monotonic() < deadline, "the next round was not voided"
            time.sleep(0.05)
        assert _status(db, first) == "voided"
        assert server.balance(token1) == 5_000
        refused = seat.request({"type": "bet", "key": "closed", "bets": {"ante": 100}})
        assert refused["type"] == "error", refused
        assert server.balance(token0) == 5_000
        with db.session() as session:
            assert window.hold_in_window(session, table="live", stakes=[_stake(user0, 0)]) == (
                None,
                [],
            )
        opening = server.client.patch(
            "/api/operator/tables/live", json={"status": "open"}, headers=headers
        )
        assert opening.status_code == 200, opening.text
        second = _prepared(db, "live")
        assert second > first
        before = _gateway_holds(server).get("held", 0)
        ack = seat.request({"type": "bet", "key": "open", "bets": {"ante": 100}})
        assert ack["type"] == "ack" and ack["result"]["round_id"] == second, ack
        assert _gateway_holds(server).get("held", 0) == before + 1
    with db.session() as session:
        assert wallet.check_ledger(session)["player"] == 10_000 - 200


def _status(db: Database, round_id: int) -> str:
    with db.session() as session:
        row = session.get(Round, round_id)
        assert row is not None
        return row.status


def test_a_gateway_prices_a_bet_as_the_table_checks_a_seat_that_has_not_bet(
    server: Server,
) -> None:
    """A gateway holds what the owner would, and nothing for a bet the owner would refuse
    whatever the seat: such a bet goes to the owner, which says why (the limits, not the
    wallet)."""
    manager = server.app.state.tables
    rules = manager.configs["live"].rules
    described = server.client.get("/api/tables").json()
    live = next(t for t in described if t["name"] == "live")
    ante_min, ante_max = live["rules"]["ante_min"], live["rules"]["ante_max"]
    trips = live["rules"]["trips_min"]
    assert manager.bet_stake("live", {"ante": ante_min}) == 2 * ante_min  # and the Blind
    assert manager.bet_stake("live", {"ante": ante_min, "trips": trips}) == 2 * ante_min + trips
    assert manager.bet_stake("live", {"ante": ante_min - 1}) is None  # under the limit
    assert manager.bet_stake("live", {"ante": ante_max}) == 2 * ante_max
    assert manager.bet_stake("live", {"ante": ante_max + 1}) is None  # over the limit
    assert manager.bet_stake("live", {"ante": ante_min, "color": 5}) is None  # no such spot
    assert manager.bet_stake("live", {"trips": trips}) is None  # added after an Ante: the table's
    assert manager.bet_stake("nowhere", {"ante": 100}) is None
    assert rules == manager.configs["live"].rules  # asking changed nothing


def test_a_gateway_holds_two_batches_at_once_never_a_player_in_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A burst at one table: batches of at most ``BATCH_MOST`` stakes, at most ``AT_ONCE``
    transactions in flight, a player's second bet never in flight with their first; every
    bet answered with its own hold."""
    import asyncio

    from croupier.server.cluster import holds as gateway_holds
    from croupier.server.tables.connection import Prepaid
    from croupier.server.tables.wire import BetMessage

    monkeypatch.setattr(gateway_holds, "BATCH_MOST", 50)
    lock = threading.Lock()
    in_flight: list[set[int]] = []
    seen: list[tuple[int, int]] = []  # (transactions in flight, batch size)
    overlaps: list[set[int]] = []

    def hold_in_window(db: Any, *, table: str, stakes: Any, check: Any, decisions: Any) -> Any:
        assert decisions is None  # bets
        users = {s.user_id for s in stakes}
        with lock:
            overlaps.extend(users & other for other in in_flight)
            in_flight.append(users)
            seen.append((len(in_flight), len(stakes)))
        time.sleep(0.05)
        with lock:
            in_flight.remove(users)
        movements = [
            wallet.Movement(transaction_id=1000 + i, kind="hold", amount=s.amount, balance=0)
            for i, s in enumerate(stakes)
        ]
        return 7, movements

    monkeypatch.setattr(gateway_holds.stakes, "hold_in_window", hold_in_window)

    async def burst() -> list[Any]:
        keeper = gateway_holds.GatewayHolds(db=None, price=lambda table, bets: 200)  # type: ignore[arg-type]
        bets = [
            keeper.hold("live", user_id=u, seat=u, bet=BetMessage(key=f"k{n}", bets={"ante": 100}))
            for n, u in enumerate([*range(300), *range(20)])  # 20 players bet twice
        ]
        return list(await asyncio.gather(*bets))

    answers = asyncio.run(burst())
    assert all(isinstance(a, Prepaid) and a.round_id == 7 for a in answers)
    assert max(n for n, _ in seen) == gateway_holds.AT_ONCE
    assert max(size for _, size in seen) == 50 and sum(size for _, size in seen) == 320
    assert not any(overlaps)  # no player in two transactions at once


def test_a_gateway_holds_nothing_while_the_owner_cannot_be_reached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bus down (its ping fails): every bet of the batch is refused ``table_unreachable``
    and no stake is held (before, the stake was held and waited for a close of betting that
    the owner, unreachable, could not start)."""
    import asyncio

    from croupier.errors import CroupierError
    from croupier.server.cluster import holds as gateway_holds
    from croupier.server.cluster.bus import BusUnavailable
    from croupier.server.tables.wire import BetMessage

    called: list[int] = []
    monkeypatch.setattr(
        gateway_holds.stakes, "hold_in_window", lambda *a, **k: called.append(1) or (7, [])
    )
    counted: list[str] = []

    async def down() -> None:
        raise BusUnavailable("Redis at 127.0.0.1 does not answer")

    async def bets() -> list[Any]:
        keeper = gateway_holds.GatewayHolds(
            db=None,  # type: ignore[arg-type]
            price=lambda table, bets: 200,
            reachable=down,
            count=lambda table, outcome, kind: counted.append(outcome),
        )
        message = BetMessage(key="k", bets={"ante": 100})
        return list(
            await asyncio.gather(
                *(keeper.hold("live", user_id=u, seat=u, bet=message) for u in range(3))
            )
        )

    answers = asyncio.run(bets())
    assert called == []
    assert all(isinstance(a, CroupierError) and a.reason == "table_unreachable" for a in answers)
    assert counted == ["refused"] * 3


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_sqlite_holds_a_batch_of_stakes_in_one_transaction(db: Database) -> None:
    many = [_stake(0, i, key=f"k{i}") for i in range(1_000)]
    assert stakes.parts(db, many) == [many]
    assert stakes.parts(db, []) == []


@pytest.mark.parametrize(
    "db_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_a_live_tables_thousand_play_bets_are_held_in_parts_at_once_on_postgres(
    db: Database, make_user: Any
) -> None:
    """The owner holds a phase's Play bets in up to three transactions at once on PostgreSQL
    (SQLite's writers take turns: one); every answer comes back in its stake's order and
    each is held once."""
    users = _funded(db, make_user, 810)
    batch = [_stake(u, i, amount=100 + i % 50, key=f"p{i}") for i, u in enumerate(users)]
    many = [_stake(0, i, key=f"k{i}") for i in range(1_000)]
    split = stakes.parts(db, many)
    assert [len(p) for p in split] == [334, 334, 332]
    assert [s.idempotency_key for p in split for s in p] == [s.idempotency_key for s in many]
    assert [len(p) for p in stakes.parts(db, many[:799])] == [400, 399]
    assert [len(p) for p in stakes.parts(db, batch)] == [270, 270, 270]
    round_id = _open(db)

    async def held() -> list[Any]:  # as the owner holds them: every part in its own thread
        found = await asyncio.gather(
            *(
                asyncio.to_thread(stakes.hold, db, round_id=round_id, stakes=part)
                for part in stakes.parts(db, batch)
            )
        )
        return [a for part in found for a in part]

    answers = asyncio.run(held())
    assert [int(a.amount) for a in answers] == [s.amount for s in batch]
    assert _balances(db, users) == [10_000 - s.amount for s in batch]
    with db.session() as session:
        totals = wallet.check_ledger(session)
    assert totals["escrow"] == sum(s.amount for s in batch)


def test_a_gateways_hold_sends_only_the_statements_it_needs(db: Database, make_user: Any) -> None:
    """A gateway's batch of holds waits for each of its statements in turn (on a loaded
    machine, each a wait for the database and then for the process): the round row read
    once, the players' rows locked once and no savepoint (their balances are checked under
    that lock), one query for who has a limit or an exclusion (nobody here) -- and each
    stake still held right."""
    from sqlalchemy import event

    from croupier.server.responsible.admission import ResponsibleAdmission

    users = _funded(db, make_user, 4)
    round_id = _open(db)
    # The escrow exists from an earlier round, as at any table after its first bet.
    assert stakes.hold_in_window(db, table=TABLE, stakes=[_stake(users[0], 0, key="first")])[0]
    sent: list[str] = []

    def count(*args: Any) -> None:
        sent.append(" ".join(str(args[2]).split()))

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        found, answers = stakes.hold_in_window(
            db,
            table=TABLE,
            stakes=[_stake(u, i + 1) for i, u in enumerate(users[1:])],
            check=ResponsibleAdmission().check_stakes,
        )
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert found == round_id
    assert [int(a.balance) for a in answers] == [9_800] * 3  # type: ignore[union-attr]
    assert _balances(db, users) == [9_800] * 4
    assert not [s for s in sent if "SAVEPOINT" in s.upper()], sent
    assert len([s for s in sent if "FROM rounds" in s]) == 1, sent
    assert len([s for s in sent if "player_limits" in s or "self_exclusions" in s]) == 1, sent
    if db.engine.dialect.name == "postgresql":
        assert len([s for s in sent if s.endswith("FOR UPDATE")]) == 1, sent
    with db.session() as session:
        assert wallet.check_ledger(session)["escrow"] == 800
