"""A live UTH table driven directly (no sockets): hundreds of players on one dealer hand."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select

from croupier.server.db import Database
from croupier.server.rng import live_shoe
from croupier.server.tables import stakes
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.models import Round, RoundPlayer
from croupier.server.tables.protocol import ActMessage, BetMessage, JoinMessage
from croupier.server.tables.table import Connection, Table
from croupier.server.tables.uth import UthFactory
from croupier.server.tables.uth_wire import UthSpots
from croupier.server.tables.wire import as_json, read_spots
from croupier.server.wallet import service as wallet

UserFactory = Callable[..., int]
PLAYERS = 240


def _drain(conn: Connection) -> list[dict[str, Any]]:
    frames = []
    while not conn.outbox.empty():
        frame = conn.outbox.get_nowait()
        if frame is not None:
            frames.append(as_json(frame))
    return frames


def _live(
    db: Database, funds: dict[int, int], *, seconds: float
) -> tuple[TableConfig, ManualClock]:
    """Credit each user, and a live table (betting and decisions of ``seconds``) on a clock
    the test moves."""
    with db.session() as session:
        for user, amount in funds.items():
            wallet.credit(session, user_id=user, amount=amount, idempotency_key=f"d{user}")
    config = TableConfig(
        name="live",
        game="uth",
        betting_seconds=seconds,
        decision_seconds=seconds,
        pause_seconds=0,
        rules={"shared_hand": True},
    )
    return config, ManualClock()


async def _seated(
    db: Database, config: TableConfig, clock: ManualClock, users: list[int]
) -> tuple[Table, list[Connection]]:
    """The table started with every user connected and seated, in order (seat i = user i)."""
    table = Table(config, UthFactory(config), db=db, clock=clock, shoe_factory=live_shoe)
    table.start()
    conns = [table.connect(user_id=u, username=f"u{u}") for u in users]
    for conn in conns:
        await table.submit(conn, JoinMessage())
    return table, conns


async def _settle_down(table: Table, *, rounds: int) -> None:
    for _ in range(2_000):
        if table.rounds_played >= rounds and table.status == "idle":
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"table stuck in {table.status}")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_hundreds_of_players_share_one_dealer_hand(db: Database, make_user: UserFactory) -> None:
    users = [make_user(f"player{i:03d}") for i in range(PLAYERS)]
    config, clock = _live(db, dict.fromkeys(users, 10_000), seconds=20)

    async def scenario() -> list[list[dict[str, Any]]]:
        table, conns = await _seated(db, config, clock, users)
        for i, conn in enumerate(conns):
            bets = {"ante": 100} if i % 3 else {"ante": 100, "trips": 100}
            await table.submit(conn, BetMessage(key="b", bets=bets))
        assert table.status == "playing"
        for conn in conns[::2]:
            await table.submit(conn, ActMessage(action="4x"))
        # The odd seats never act: each decision phase times out (check, check, fold).
        for _ in range(3):
            clock.advance(config.decision_seconds)
            await asyncio.sleep(0.05)
        await _settle_down(table, rounds=1)
        frames = [_drain(conn) for conn in conns]
        await table.stop()
        return frames

    frames = asyncio.run(scenario())
    with db.session() as session:
        totals = wallet.check_ledger(session)
        seated = session.scalar(select(func.count()).select_from(RoundPlayer))
    assert seated == PLAYERS
    assert totals["escrow"] == 0
    assert totals["player"] + totals.get("house", 0) == 10_000 * PLAYERS
    for seat_frames in frames[:5] + frames[-5:]:
        text = [json.dumps(f) for f in seat_frames]
        revealed = next(i for i, t in enumerate(text) if '"dealer_revealed"' in t)
        dealer = json.loads(text[revealed])["event"]["cards"]
        assert not any(f'"{card}"' in t for t in text[:revealed] for card in dealer)
    for i, seat_frames in enumerate(frames):
        # What concerns one seat goes to that seat only: an odd seat sees its own three
        # timeouts (check, check, fold), an even seat its own 4x, and nobody anyone else's.
        own = [f["event"] for f in seat_frames if f["type"] == "seat_event"]
        assert {e["seat"] for e in own if "seat" in e} <= {i}
        timeouts = [e for e in own if e.get("timeout") is True]
        assert [e["kind"] for e in timeouts] == ([] if i % 2 == 0 else ["checked"] * 2 + ["folded"])
        leaked = [
            f["event"]
            for f in seat_frames
            if f["type"] == "event" and f["event"].get("seat", -1) >= 0
        ]
        assert not leaked, leaked[:3]
        results = [e["result"] for e in own if e["kind"] == "seat_settled"]
        assert len(results) == 1 and results[0]["seat"] == i
        # So a player's traffic does not grow with the crowd: a few dozen frames a round,
        # where every seat's events to everyone would be more than 240 x 4.
        assert len(seat_frames) < 60, len(seat_frames)


@pytest.mark.parametrize(
    "db_url", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_requests_waiting_together_are_staked_together(
    db: Database, make_user: UserFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bets and decisions that arrive together at a live table are staked in one transaction,
    yet each is answered on its own: refusals take nothing, a resend is a replay."""
    from croupier.server.tables import rounds

    batches: list[int] = []
    stake_many = rounds.stake_many

    def counting(session: Any, **kwargs: Any) -> Any:
        batches.append(len(kwargs["stakes"]))
        return stake_many(session, **kwargs)

    monkeypatch.setattr(rounds, "stake_many", counting)
    n = 40
    users = [make_user(f"crowd{i:02d}") for i in range(n)]
    funds = dict.fromkeys(users, 10_000)
    funds[users[1]] = 150  # cannot pay Ante + Blind of 200: refused
    funds[users[2]] = 200  # pays the bets but not a 4x Play of 400
    config, clock = _live(db, funds, seconds=30)

    async def scenario() -> list[list[dict[str, Any]]]:
        table, conns = await _seated(db, config, clock, users)
        bets = [
            table.submit(conn, BetMessage(id=f"bet{i}", key=f"k{i}", bets={"ante": 100}))
            for i, conn in enumerate(conns)
        ]
        # Seat 3 resends its bet (same key); seat 4 tries a second, different bet.
        bets.append(table.submit(conns[3], BetMessage(id="again3", key="k3", bets={"ante": 100})))
        bets.append(table.submit(conns[4], BetMessage(id="other4", key="x4", bets={"ante": 200})))
        await asyncio.gather(*bets)
        # Seat 1's bet was refused, so betting closes when its time is up.
        clock.advance(config.betting_seconds)
        for _ in range(200):
            if table.status == "playing":
                break
            await asyncio.sleep(0.005)
        assert table.status == "playing"
        in_play = [c for i, c in enumerate(conns) if i != 1]
        await asyncio.gather(
            *(
                table.submit(
                    c,
                    ActMessage(
                        id="pre",
                        action="4x" if k % 2 == 0 or c is conns[2] else "check",
                    ),
                )
                for k, c in enumerate(in_play)
            )
        )
        # Seat 2 could not pay its 4x: it is still to decide, and checks.
        await table.submit(conns[2], ActMessage(id="pre2", action="check"))
        checkers = [c for k, c in enumerate(in_play) if k % 2 == 1 or c is conns[2]]
        await asyncio.gather(
            *(table.submit(c, ActMessage(id="flop", action="check")) for c in checkers)
        )
        await asyncio.gather(
            *(table.submit(c, ActMessage(id="river", action="fold")) for c in checkers)
        )
        await _settle_down(table, rounds=1)
        frames = [_drain(conn) for conn in conns]
        await table.stop()
        return frames

    frames = asyncio.run(scenario())
    assert max(batches) > 10, batches  # the bets and the 4x were staked in batches

    def answers(i: int, ref: str) -> list[dict[str, Any]]:
        return [f for f in frames[i] if f.get("ref") == ref and f["type"] in ("ack", "error")]

    for i in range(n):
        (bet,) = answers(i, f"bet{i}")
        if i == 1:
            assert bet["type"] == "error" and bet["code"] == "insufficient_funds"
        else:
            assert bet["type"] == "ack" and bet["result"]["staked"] == 200
    (again,) = answers(3, "again3")
    assert again["type"] == "ack" and again["result"]["replayed"] is True
    (other,) = answers(4, "other4")
    assert other["type"] == "error" and "already bet" in other["message"]
    refused = answers(2, "pre")
    assert [f["type"] for f in refused] == ["error"] and refused[0]["code"] == "insufficient_funds"
    with db.session() as session:
        totals = wallet.check_ledger(session)
        balances = {u: int(wallet.player_balance(session, user_id=u)) for u in users}
        staked = dict(session.execute(select(RoundPlayer.user_id, RoundPlayer.staked)).all())
    assert totals["escrow"] == 0
    assert balances[users[1]] == 150 and users[1] not in staked
    for k, user in enumerate(u for i, u in enumerate(users) if i != 1):
        assert staked[user] == (600 if k % 2 == 0 and user != users[2] else 200)
    nets = {}
    for i, seat_frames in enumerate(frames):
        for f in seat_frames:
            if f["type"] == "seat_event" and f["event"]["kind"] == "seat_settled":
                nets[users[i]] = f["event"]["result"]["net"]
    assert sum(balances.values()) + totals.get("house", 0) == sum(funds.values())
    for user, net in nets.items():
        assert balances[user] == funds[user] + net


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_own_bet_and_decision_are_told_by_events_not_state(
    db: Database, make_user: UserFactory
) -> None:
    """Issue 18: at a live table no ``state`` (a view built and encoded per seat) is sent
    during a round: a seat's own bet or decision sends it its ``seat_event`` and the ack; when
    a decision phase opens everyone gets ``decisions_open`` and each seat to decide its
    ``your_turn`` with its legal actions (one frame, the same text for every seat); a seated
    player without a box gets no ``your_turn``."""
    users = [make_user(f"quiet{i}") for i in range(4)]
    config, clock = _live(db, dict.fromkeys(users, 10_000), seconds=20)

    async def scenario() -> list[list[list[dict[str, Any]]]]:
        table, conns = await _seated(db, config, clock, users)
        for conn in conns:
            _drain(conn)
        steps = []
        await table.submit(conns[0], BetMessage(id="b0", key="b", bets={"ante": 100}))
        steps.append([_drain(c) for c in conns])
        await asyncio.gather(
            *(table.submit(c, BetMessage(id="b", key="b", bets={"ante": 100})) for c in conns[1:3])
        )
        clock.advance(20)  # the fourth player does not bet: betting closes on its timer
        for _ in range(200):
            if table.status == "playing":
                break
            await asyncio.sleep(0.005)
        steps.append([_drain(c) for c in conns])
        await table.submit(conns[0], ActMessage(id="a0", action="check"))
        steps.append([_drain(c) for c in conns])
        await table.stop()
        return steps

    bet, closing, check = asyncio.run(scenario())
    kinds = [f["type"] if f["type"] != "seat_event" else f["event"]["kind"] for f in bet[0]]
    assert kinds == ["event", "bets_placed", "ack"], kinds  # round_opened, own bet, ack
    turns = []
    for i, frames in enumerate(closing):
        assert [f for f in frames if f["type"] == "state"] == []
        events = [f["event"] for f in frames if f["type"] in ("event", "seat_event")]
        (opened,) = [e for e in events if e["kind"] == "decisions_open"]
        assert opened["pending"] == 3 and opened["phase"] == "pre-flop"
        mine = [f["event"] for f in frames if f["type"] == "seat_event"]
        mine = [e for e in mine if e["kind"] == "your_turn"]
        if i < 3:
            (turn,) = mine
            assert turn["phase"] == "pre-flop" and turn["legal"][0] == "check"
            assert set(turn["legal"][1:]) == {"3x", "4x"}
            turns.append(turn)
        else:
            assert mine == []
    assert turns[0] == turns[1] == turns[2]
    kinds = [f["type"] if f["type"] != "seat_event" else f["event"]["kind"] for f in check[0]]
    assert kinds == ["checked", "ack"], kinds
    assert check[1] == [] or all(f["type"] == "event" for f in check[1])


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_tally_counts_the_seats_the_boxes_and_the_decisions_left(
    db: Database, make_user: UserFactory
) -> None:
    """A live table's ``tally`` (at most every ``TALLY_SECONDS``, from the round's counts, not
    its lists of seats): 12 seated, 9 boxes, and after 4 of them play 4x pre-flop, 5 still to
    decide; once the phase times out the flop opens for those 5 (a 4x has decided the round),
    and after 2 of them bet 2x, 3 are left."""
    users = [make_user(f"count{i}") for i in range(12)]
    config, clock = _live(db, dict.fromkeys(users, 10_000), seconds=20)

    def tallies(conn: Connection) -> list[dict[str, Any]]:
        return [
            f["event"]
            for f in _drain(conn)
            if f["type"] == "event" and f["event"]["kind"] == "tally"
        ]

    async def until(check: Callable[[], bool]) -> None:
        for _ in range(400):
            if check():
                return
            await asyncio.sleep(0.005)
        raise AssertionError("the table did not get there")

    async def scenario() -> list[list[dict[str, Any]]]:
        table, conns = await _seated(db, config, clock, users)
        watcher = conns[-1]  # seated, never bets
        seen = []
        await asyncio.gather(
            *(table.submit(c, BetMessage(key="b", bets={"ante": 100})) for c in conns[:9])
        )
        clock.advance(20)  # three seated players do not bet: betting closes on its timer
        await until(lambda: table.status == "playing")
        await asyncio.gather(*(table.submit(c, ActMessage(action="4x")) for c in conns[:4]))
        clock.advance(1)  # the next tally's wait
        await asyncio.sleep(0.05)
        seen.append(tallies(watcher))
        clock.advance(20)  # pre-flop times out for the other five: they check; the flop
        await until(lambda: table.core.round is not None and table.core.round.phase == "flop")
        await asyncio.gather(*(table.submit(c, ActMessage(action="2x")) for c in conns[4:6]))
        clock.advance(1)
        await asyncio.sleep(0.05)
        seen.append(tallies(watcher))
        await table.stop()
        return seen

    preflop, flop = asyncio.run(scenario())
    assert preflop, "no tally during the pre-flop"
    assert (preflop[-1]["seats_taken"], preflop[-1]["boxes_in_play"]) == (12, 9), preflop[-1]
    assert preflop[-1]["pending"] == 5, preflop
    assert flop and (flop[-1]["boxes_in_play"], flop[-1]["pending"]) == (9, 3), flop


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_live_round_sends_no_state_to_its_end(db: Database, make_user: UserFactory) -> None:
    """Issue 18: from the first bet to ``table_idle`` a live table sends no ``state`` (a view
    and a table built and encoded per connection): a seated player without a box and a
    player with one both get ``round_closed`` and ``table_idle``, and nothing else carries a
    per-connection snapshot; a new connection still gets its whole ``state``."""
    users = [make_user(f"whole{i}") for i in range(3)]
    config, clock = _live(db, dict.fromkeys(users, 10_000), seconds=20)

    async def scenario() -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]]]:
        table, conns = await _seated(db, config, clock, users)
        for conn in conns:
            _drain(conn)
        await asyncio.gather(
            *(table.submit(c, BetMessage(id="b", key="b", bets={"ante": 100})) for c in conns[:2])
        )
        clock.advance(20)
        for _ in range(200):
            if table.status == "playing":
                break
            await asyncio.sleep(0.005)
        await asyncio.gather(*(table.submit(c, ActMessage(id="a", action="4x")) for c in conns[:2]))
        await _settle_down(table, rounds=1)
        frames = [_drain(c) for c in conns]
        late = table.connect(user_id=users[2], username="late")
        await asyncio.sleep(0)
        fresh = _drain(late)
        await table.stop()
        return frames, fresh

    frames, fresh = asyncio.run(scenario())
    for mine in frames:
        assert [f for f in mine if f["type"] == "state"] == []
        kinds = [f["event"]["kind"] for f in mine if f["type"] == "event"]
        assert kinds[-2:] == ["round_closed", "table_idle"], kinds
    assert [f["type"] for f in fresh] == ["welcome", "state"]
    assert fresh[1]["table"]["status"] == "idle"


@pytest.mark.parametrize("shared", [True, False])
def test_views_written_once_per_round_equal_the_generic_form(shared: bool) -> None:
    """The views a table sends (card lists written once a round) are what the generic
    ``to_json`` gives, with the result as ``result_to_dict`` writes it, in every phase."""
    from croupier.games.uth import Check, Play
    from croupier.history.records import to_json
    from croupier.history.uth import result_to_dict

    rules: dict[str, Any] = {"shared_hand": True} if shared else {"max_seats": 7}
    config = TableConfig(name="t", game="uth", rules=rules)
    game_round = UthFactory(config).new_round(live_shoe())

    def generic(seat: int | None) -> dict[str, Any]:
        view = game_round.engine.view(seat)
        data: dict[str, Any] = to_json(view)
        if view.result is not None:
            data["result"] = result_to_dict(view.result)
        return data

    def check_views() -> None:
        for seat in (None, 0, 1, 2):
            fast = game_round._view_json(game_round.engine.view(seat))
            assert fast == generic(seat)

    check_views()
    for seat in (0, 1):
        game_round.place_bets(seat, read_spots({"ante": 100, "trips": 100 * seat}, UthSpots))
    check_views()
    game_round.close_betting()
    check_views()
    game_round.apply(Play(seat=0, multiple=4))
    game_round.apply(Check(seat=1))
    check_views()
    game_round.apply(Check(seat=1))
    check_views()
    game_round.apply_timeout(1)
    assert game_round.finished
    check_views()
    # Every event as each seat sees it is the generic form (the bets and decisions written
    # straight from their fields); the summary read from the record equals a fresh one.
    for event in game_round.engine.events:
        for seat in (None, 0, 1):
            fast = game_round.project_event(event, seat)
            slow: dict[str, Any] = to_json(event.seen_by(seat))
            if event.kind == "seat_settled":
                slow["result"] = result_to_dict(event.result)
            slow["kind"] = event.kind
            if shared and event.kind == "betting_closed":
                slow["boxes"] = len(slow.pop("seats"))
            if shared and event.kind == "antes_returned":
                # a live table counts the Antes returned and shows each seat its own
                slow["boxes"] = len(slow["antes"])
                slow["antes"] = [a for a in slow["antes"] if a[0] == seat]
            assert fast == slow, event.kind
    kinds = {event.kind for event in game_round.engine.events}
    assert {"bets_placed", "play_bet", "checked", "folded", "seat_settled"} <= kinds
    game_round.record(1)
    summary = game_round.summary()
    game_round._recorded = None
    assert summary == game_round.summary()


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_players_sitting_down_together_are_checked_in_one_query(
    db: Database, make_user: UserFactory
) -> None:
    """A live table's opening (a thousand joins at once, issue 18): the joins waiting together
    ask responsible gaming once for all of them; a self-excluded player among them is still
    refused, with the reason, and the others sit."""
    from croupier.server.accounts.models import User
    from croupier.server.responsible.admission import ResponsibleAdmission
    from croupier.server.responsible.service import self_exclude

    users = [make_user(f"sit{i:02d}") for i in range(30)]
    with db.session() as session:
        self_exclude(session, user=session.get(User, users[7]), days=30, permanent=False)
    config, clock = _live(db, dict.fromkeys(users, 10_000), seconds=30)
    asked: list[list[int]] = []

    class Counting(ResponsibleAdmission):
        def refused_seats(self, db: Database, user_ids: Any) -> Any:
            asked.append(list(user_ids))
            return super().refused_seats(db, user_ids)

    async def scenario() -> list[dict[str, Any]]:
        table = Table(config, UthFactory(config), db=db, clock=clock, shoe_factory=live_shoe)
        table.admission = Counting()
        table.start()
        conns = [table.connect(user_id=u, username=f"u{u}") for u in users]
        await asyncio.gather(
            *(table.submit(c, JoinMessage(id=f"j{i}")) for i, c in enumerate(conns))
        )
        answers = []
        for i, conn in enumerate(conns):
            answers.append(
                next(
                    f
                    for f in _drain(conn)
                    if f.get("ref") == f"j{i}" and f["type"] in ("ack", "error")
                )
            )
        await table.stop()
        return answers

    answers = asyncio.run(scenario())
    assert len(asked) < 5 and max(len(a) for a in asked) > 10, asked  # together, not one by one
    assert answers[7]["type"] == "error" and answers[7]["reason"] == "self_excluded"
    seated = [a["result"]["seat"] for i, a in enumerate(answers) if i != 7]
    assert all(a["type"] == "ack" for i, a in enumerate(answers) if i != 7)
    assert len(set(seated)) == len(users) - 1


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_players_who_go_keep_their_seat_only_while_their_bets_play(
    db: Database, make_user: UserFactory
) -> None:
    """Everyone disconnects in the middle of a round (a cluster's gateway died, say): a seat
    with no bets is free at once, a seat whose bets are in play stays until its round ends,
    and a player who comes back in time keeps theirs. Each disconnect looks at its own
    player's seat (a dead gateway's thousand sockets were a thousand scans of every seat)."""
    users = [make_user(f"gone{i:02d}") for i in range(12)]
    config, clock = _live(db, dict.fromkeys(users, 10_000), seconds=20)

    async def scenario() -> tuple[set[int], set[int], set[int], int]:
        table, conns = await _seated(db, config, clock, users)
        for conn in conns[:6]:
            await table.submit(conn, BetMessage(key="b", bets={"ante": 100}))
        clock.advance(20)
        for _ in range(200):
            if table.status == "playing":
                break
            await asyncio.sleep(0.005)
        assert table.status == "playing"
        for conn in conns[1:]:
            table.disconnect(conn)
        back = table.connect(user_id=users[1], username="gone01")  # user 1 returns in time
        await asyncio.sleep(0.05)
        during = set(table.core.seat_of)
        for _ in range(3):
            clock.advance(config.decision_seconds)
            await asyncio.sleep(0.05)
        await _settle_down(table, rounds=1)
        after = set(table.core.seat_of)
        table.disconnect(back)
        await asyncio.sleep(0.05)
        idle = set(table.core.seat_of)
        played = table.rounds_played
        await table.stop()
        return during, after, idle, played

    during, after, idle, played = asyncio.run(scenario())
    assert played == 1
    assert during == set(users[:6])  # the bettors' seats wait for their round's end
    assert after == set(users[:2])  # then only those still connected keep one
    assert idle == {users[0]}


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_windowed_live_table_opens_each_phase_in_the_database_and_voids_if_it_cannot(
    db: Database, make_user: UserFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: a cluster's live table, whose gateways hold the Play bets, records each
    decision phase as the round's open window before its ``your_turn`` (with the round and
    each Play bet's price) goes out; when that write fails the round is voided, every stake
    back, and nobody is asked to decide in the phase."""
    users = [make_user(f"window{i}") for i in range(3)]
    config, clock = _live(db, dict.fromkeys(users, 10_000), seconds=20)
    moves: list[str | None] = []
    real = stakes.close_window

    def close_window(
        db: Database, *, round_id: int, kept: Any, decisions: str | None = None
    ) -> Any:
        moves.append(decisions)
        if decisions == "flop":
            raise RuntimeError("the database went away")
        return real(db, round_id=round_id, kept=kept, decisions=decisions)

    monkeypatch.setattr(stakes, "close_window", close_window)

    async def scenario() -> tuple[int, str | None, list[list[dict[str, Any]]]]:
        table = Table(  # as a cluster's owner runs it
            config, UthFactory(config), db=db, clock=clock, shoe_factory=live_shoe, windowed=True
        )
        table.start()
        conns = [table.connect(user_id=u, username=f"u{u}") for u in users]
        for conn in conns:
            await table.submit(conn, JoinMessage())
        for conn in conns:
            await table.submit(conn, BetMessage(key="b", bets={"ante": 100}))
        assert table.status == "playing"  # everyone bet: betting closed
        round_id = table.core.round_id
        assert round_id is not None
        with db.session() as session:
            row = session.get(Round, round_id)
            assert row is not None
            phase = row.decision_phase
        for conn in conns:
            await table.submit(conn, ActMessage(action="check"))
        await _settle_down(table, rounds=1)
        frames = [_drain(conn) for conn in conns]
        await table.stop()
        return round_id, phase, frames

    round_id, phase, frames = asyncio.run(scenario())
    assert phase == "pre-flop" and moves == ["pre-flop", "flop"]
    for seat_frames in frames:
        turns = [
            f["event"]
            for f in seat_frames
            if f["type"] == "seat_event" and f["event"]["kind"] == "your_turn"
        ]
        assert [(t["phase"], t["round_id"], t["stakes"]) for t in turns] == [
            ("pre-flop", round_id, {"4x": 400, "3x": 300})
        ]
        (closed,) = [
            f["event"]
            for f in seat_frames
            if f["type"] == "event" and f["event"]["kind"] == "round_closed"
        ]
        assert closed["status"] == "voided"
    with db.session() as session:
        row = session.get(Round, round_id)
        assert row is not None and row.status == "voided" and row.decision_phase is None
        totals = wallet.check_ledger(session)
    assert totals["escrow"] == 0 and totals["player"] == 30_000
