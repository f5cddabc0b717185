"""Round services: open, stake, settle and void rounds, recover after a crash, recall.

A round is ``open`` from its commitment until it is either ``settled`` (the result recorded
and escrow paid out, in one transaction) or ``voided`` (every stake returned, the void
recorded, in one transaction). The status change is a guarded ``UPDATE ... WHERE status =
'open'``, so a round can never be settled twice, or settled and voided.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import BigInteger, Integer, Table, bindparam, select, true, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.accounts.models import Role, User
from croupier.server.base import utcnow
from croupier.server.db import is_postgres, json_rows
from croupier.server.errors import (
    ConflictError,
    IdempotencyConflict,
    NotFoundError,
    PermissionDeniedError,
    RoundVoided,
)
from croupier.server.rounds.models import Round, RoundPlayer, RoundStatus, RoundVoid
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import IdempotencyKey, LedgerTransaction, TransactionKind

__all__ = [
    "ANY_SEAT",
    "CRASH_REASON",
    "SETTLED_ROUNDS",
    "RecallView",
    "RecallViews",
    "RecalledRound",
    "Stake",
    "commit_deck",
    "earlier_stakes",
    "open_round",
    "open_row",
    "recall",
    "recent_rounds",
    "recover_open_rounds",
    "replayed_stake",
    "replayed_stakes",
    "settle_round",
    "stake",
    "stake_many",
    "void_round",
    "voided_retry",
]

RecallView = Callable[[Mapping[str, Any], Sequence[int]], dict[str, Any]]
"""A game's recall view: a closed round's JSON (:meth:`RecalledRound.to_json`) as a player in
the given seats may see it (the keys ``salt``, ``deck``, ``record``, ``summary``; ``leaves``
and ``openings`` where the game proves each card on its own)."""

RecallViews = Mapping[str, RecallView]
"""Game name -> its recall view; a game without one hides nothing of a closed round."""

CRASH_REASON = "server restarted while the round was in play (malfunction: all bets returned)"


def open_round(
    session: Session,
    *,
    table: str,
    game: str,
    commitment: str,
    salt: str,
    deck: str,
    betting_open: bool = False,
) -> Round:
    """Record a new open round with its commitment (salt and deck stay secret until closed);
    ``betting_open``: it takes bets (a banked game's betting window, see :mod:`.window`)."""
    row = Round(
        table_name=table,
        game=game,
        status=RoundStatus.OPEN.value,
        commitment=commitment,
        salt=salt,
        deck=deck,
        betting_open=betting_open,
    )
    session.add(row)
    session.flush()
    return row


def commit_deck(session: Session, *, round_id: int, commitment: str, salt: str, deck: str) -> Round:
    """Record the deck of open round ``round_id``, recorded before with none (a cluster's next
    round, see :mod:`.nextround`): its commitment, salt and deck (secret until closed).

    Raises:
        NotFoundError: no such round.
        ConflictError: the round is not open, or has its deck already.
    """
    row = _open(session, round_id)
    if row.commitment:
        raise ConflictError(f"round {round_id} has its deck already")
    row.commitment, row.salt, row.deck = commitment, salt, deck
    session.flush()
    return row


def open_row(session: Session, round_id: int, *, lock: bool = False) -> Round:
    """Round ``round_id``, which must be open; ``lock``: its row locked ``FOR UPDATE`` (on
    PostgreSQL) until the transaction ends -- after the gateways' holds in flight for it,
    and before any other (:mod:`.window`).

    Raises:
        NotFoundError: no such round.
        ConflictError: it is closed.
    """
    return _open(session, round_id, lock=lock)


def _open(session: Session, round_id: int, *, lock: bool = False) -> Round:
    if lock:
        query = select(Round).where(Round.id == round_id).with_for_update()
        row = session.scalars(query.execution_options(populate_existing=True)).first()
    else:
        row = session.get(Round, round_id)
    if row is None:
        raise NotFoundError(f"round {round_id} does not exist")
    if row.status != RoundStatus.OPEN.value:
        raise ConflictError(f"round {round_id} is {row.status}, not open")
    return row


@dataclass(frozen=True, slots=True, kw_only=True)
class Stake(wallet.HoldRequest):
    """One stake for an open round (:func:`stake_many`): the wallet's hold request itself
    (user, amount, idempotency key, details), and the seat it is for."""

    seat: int


def stake_many(
    session: Session,
    *,
    round_id: int,
    stakes: Sequence[Stake],
    check: wallet.StakeCheck | None = None,
) -> list[wallet.Movement | CroupierError]:
    """Hold stakes in the table's escrow for an open round, in the caller's one transaction,
    and count them as each player's stake in the round: one stake (a lone bet) or many (a
    live table's bets taken together). Each answer, in order, is the movement or the error
    that refused that stake (which then wrote nothing); see :func:`wallet.hold_many`.

    Raises:
        NotFoundError: no such round.
        ConflictError: the round is not open.
    """
    row = _open(session, round_id)
    answers = wallet.hold_many(
        session,
        table=row.table_name,
        round_id=round_id,
        requests=stakes,
        check=check,
    )
    taken = {
        s.user_id: (s.seat, int(a.amount))
        for s, a in zip(stakes, answers, strict=True)
        if isinstance(a, wallet.Movement) and not a.replayed
    }
    if taken:
        _count_stakes(session, round_id, taken)
    return answers


_PLAYERS = cast(Table, RoundPlayer.__table__)


def _counting(postgres: bool) -> Any:
    """Insert the rows ``stakes`` (user id, seat, amount) as players of round ``round``, a
    player already one adding the amount to their stake (their seat stays the first one)."""
    stakes = json_rows(
        "stakes", postgres=postgres, user_id=Integer(), seat=Integer(), staked=BigInteger()
    )
    # SQLite reads "INSERT ... SELECT ... FROM x ON CONFLICT" as a join without the WHERE.
    rows = select(bindparam("round", type_=Integer()), *stakes.c).where(true())
    statement = (pg_insert if postgres else sqlite_insert)(_PLAYERS).from_select(
        ["round_id", "user_id", "seat", "staked"], rows
    )
    return statement.on_conflict_do_update(
        index_elements=[_PLAYERS.c.round_id, _PLAYERS.c.user_id],
        set_={"staked": _PLAYERS.c.staked + statement.excluded.staked},
    )


_COUNTING = {postgres: _counting(postgres) for postgres in (False, True)}


def _count_stakes(session: Session, round_id: int, taken: Mapping[int, tuple[int, int]]) -> None:
    """Add the stakes just held (user id -> seat and amount) to the round's players, in one
    statement: a new player's row inserted with their seat, a player's next stake (a Play
    bet) added to their row."""
    rows = [
        {"user_id": user, "seat": seat, "staked": amount} for user, (seat, amount) in taken.items()
    ]
    session.execute(_COUNTING[is_postgres(session)], {"round": round_id, "stakes": rows})
    for loaded in session.identity_map.values():
        if (
            isinstance(loaded, RoundPlayer)
            and loaded.__dict__.get("round_id") == round_id
            and loaded.__dict__.get("user_id") in taken
        ):
            session.expire(loaded, ["staked"])  # updated past the ORM


def stake(
    session: Session,
    *,
    round_id: int,
    user_id: int,
    seat: int,
    amount: int,
    idempotency_key: str,
    details: Mapping[str, Any] | None = None,
) -> wallet.Movement:
    """Hold one stake for an open round: :func:`stake_many` of one.

    Raises:
        CroupierError: what refused it (see :func:`wallet.hold_many`); nothing is written.
    """
    one = Stake(
        user_id=user_id, seat=seat, amount=amount, idempotency_key=idempotency_key, details=details
    )
    (answer,) = stake_many(session, round_id=round_id, stakes=[one])
    if isinstance(answer, CroupierError):
        raise answer
    return answer


def replayed_stakes(
    session: Session, *, round_id: int, stakes: Sequence[Stake]
) -> list[wallet.Movement | IdempotencyConflict | None]:
    """For each stake, the answer to it as a resend: its movement replayed when its key was
    applied to the same stake, the conflict when to another, ``None`` if never applied."""
    row = session.get(Round, round_id)
    if row is None:
        raise NotFoundError(f"round {round_id} does not exist")
    keyed = [
        wallet.Keyed(
            f"user:{s.user_id}",
            wallet.check_idempotency_key(s.idempotency_key),
            wallet.hold_request(
                table=row.table_name, round_id=round_id, amount=s.amount, details=s.details
            ),
        )
        for s in stakes
    ]
    return [
        a
        if a is None or isinstance(a, IdempotencyConflict)
        else wallet.Movement.from_json(a, replayed=True)
        for a in wallet.find_replays(session, keyed)
    ]


def replayed_stake(
    session: Session,
    *,
    round_id: int,
    user_id: int,
    amount: int,
    idempotency_key: str,
    details: Mapping[str, Any] | None = None,
) -> wallet.Movement | None:
    """The answer to a resent stake, or ``None`` if ``idempotency_key`` was never applied
    (:func:`replayed_stakes` of one).

    Raises:
        IdempotencyConflict: the key was used for another stake.
    """
    one = Stake(
        user_id=user_id, seat=0, amount=amount, idempotency_key=idempotency_key, details=details
    )
    (answer,) = replayed_stakes(session, round_id=round_id, stakes=[one])
    if isinstance(answer, IdempotencyConflict):
        raise answer
    return answer


def _close(session: Session, round_id: int, status: RoundStatus) -> Round:
    # Locked: a gateway's hold in flight for the round is committed before it closes, and
    # none is taken after (:mod:`.window`).
    row = _open(session, round_id, lock=True)
    changed = session.execute(
        update(Round)
        .where(Round.id == round_id, Round.status == RoundStatus.OPEN.value)
        .values(status=status.value, closed_at=utcnow(), betting_open=False, decision_phase=None)
        .execution_options(synchronize_session=False)
    ).rowcount  # type: ignore[attr-defined]
    if changed != 1:
        raise ConflictError(f"round {round_id} was closed concurrently")
    session.refresh(row)
    return row


SETTLED_ROUNDS = "croupier.settled_rounds"
"""The key, in a session's ``info``, of the ids of the rounds it settled."""


def settle_round(
    session: Session,
    *,
    round_id: int,
    returns: Mapping[int, int],
    record: Mapping[str, Any],
    summary: Mapping[str, Any],
    rake: int = 0,
) -> Round:
    """Record the result and pay escrow out, in the caller's one transaction.

    ``returns`` maps user id to everything paid back to them (stakes included; 0 for a loss).
    The round is named in ``session.info[SETTLED_ROUNDS]`` for whoever watches settlements
    at the commit (the live return monitor and the big-win events, :mod:`croupier.server.monitor`).
    """
    row = _close(session, round_id, RoundStatus.SETTLED)
    session.info.setdefault(SETTLED_ROUNDS, []).append(round_id)
    wallet.settle(session, table=row.table_name, round_id=round_id, returns=returns, rake=rake)
    row.record = dict(record)
    row.summary = dict(summary)
    _record_returns(session, round_id, returns)
    return row


def void_round(
    session: Session,
    *,
    round_id: int,
    reason: str,
    record: Mapping[str, Any] | None = None,
) -> Round:
    """Void a round: every stake back from escrow, and the void recorded (spec/uth.md Faults)."""
    row = _close(session, round_id, RoundStatus.VOIDED)
    txn_id = wallet.void(session, table=row.table_name, round_id=round_id, reason=reason)
    session.add(RoundVoid(round_id=round_id, reason=reason[:255], transaction_id=txn_id))
    if record is not None:
        row.record = dict(record)
    row.summary = {"voided": True, "reason": reason}
    _record_returns(session, round_id, None)
    return row


IN_MOST = 900
"""The most user ids one statement of :func:`_record_returns` names (SQLite's old limit of
999 parameters a statement)."""


def _record_returns(session: Session, round_id: int, returns: Mapping[int, int] | None) -> None:
    """Write what each player of round ``round_id`` got back: ``returns[user]`` (0 for a user
    not in it), or with ``None`` (a void) their stake. A statement per distinct amount, not an
    object per player: a live table's thousands of players mostly share a few amounts (the
    same hand, the same bets), and loading and updating 3,000 rows as objects was two thirds
    of a live round's settlement (issue 18)."""
    session.flush()
    players = update(RoundPlayer).where(RoundPlayer.round_id == round_id)
    quiet = {"synchronize_session": False}
    if returns is None:
        session.execute(players.values(returned=RoundPlayer.staked).execution_options(**quiet))
    else:
        session.execute(players.values(returned=0).execution_options(**quiet))
        paid: dict[int, list[int]] = {}
        for user, amount in returns.items():
            if amount:
                paid.setdefault(int(amount), []).append(user)
        for amount, users in sorted(paid.items()):
            users.sort()
            for at in range(0, len(users), IN_MOST):
                session.execute(
                    players.where(RoundPlayer.user_id.in_(users[at : at + IN_MOST]))
                    .values(returned=amount)
                    .execution_options(**quiet)
                )
    for loaded in session.identity_map.values():
        if isinstance(loaded, RoundPlayer) and loaded.__dict__.get("round_id") == round_id:
            session.expire(loaded, ["returned"])  # written past the ORM


def voided_retry(session: Session, *, user_id: int, key: str) -> RoundVoided | None:
    """Why a stake resent under ``key`` is refused, when its first sending was taken in a round
    since voided (a malfunction, or a restart after a crash): a :class:`RoundVoided` saying so,
    with the wallet's balance now; ``None`` if the key is not one of those."""
    row = session.scalars(
        select(IdempotencyKey).where(
            IdempotencyKey.scope == f"user:{user_id}", IdempotencyKey.key == key
        )
    ).first()
    if row is None or row.transaction_id is None:
        return None
    txn = session.get(LedgerTransaction, row.transaction_id)
    round_row = session.get(Round, txn.round_id) if txn is not None and txn.round_id else None
    if round_row is None or round_row.status != RoundStatus.VOIDED.value:
        return None
    void = session.scalars(select(RoundVoid).where(RoundVoid.round_id == round_row.id)).first()
    balance = int(wallet.player_balance(session, user_id=user_id))
    return RoundVoided(
        f"key {key!r} was taken in round {round_row.id}, which was voided "
        f"({void.reason if void else 'voided'}): its stakes went back to your wallet, which "
        f"holds {balance}; bet again with a new key",
        round_id=round_row.id,
        balance=balance,
        reason="round_voided",
        params={"balance": balance},
    )


ANY_SEAT = -1
"""The seat of a stake looked up by :func:`earlier_stakes` whose player sits nowhere now:
the seat they had in the round it was taken in."""


def earlier_stakes(
    session: Session, *, table: str, stakes: Sequence[Stake]
) -> list[tuple[int, int, wallet.Movement] | IdempotencyConflict | RoundVoided | None]:
    """For each stake, in order: the stake resent after the round it was taken in (at
    ``table``) closed, or while that round plays on past its betting -- that round's id, the
    seat and the stake's first answer, replayed; the conflict when its key was applied to
    another request (another table, other spots); its round's void, when that
    round was voided (:func:`voided_retry`: a restart or a malfunction; found by
    red-teaming: such a resend was told to take a seat, or that bets were closed); ``None``
    when its key was never applied. Its amount is the one held then: the table, the round
    and the details (its spots and seat) make it the same stake, whatever seat its player
    has now: it is from the seat they had in that round (found by red-teaming: one resent
    from the seat taken since was refused). Four statements, whatever the number of stakes."""
    pairs = {(f"user:{s.user_id}", s.idempotency_key) for s in stakes}
    if not pairs:
        return []
    keys = {
        (row.scope, row.key): row
        for row in session.scalars(
            select(IdempotencyKey).where(
                tuple_(IdempotencyKey.scope, IdempotencyKey.key).in_(sorted(pairs))
            )
        )
    }
    if not keys:
        return [None] * len(stakes)
    txns = {
        txn.id: txn
        for txn in session.scalars(
            select(LedgerTransaction).where(
                LedgerTransaction.id.in_(
                    {row.transaction_id for row in keys.values() if row.transaction_id}
                ),
                LedgerTransaction.kind == TransactionKind.HOLD.value,
            )
        )
    }
    rounds = {
        row.id: row
        for row in session.scalars(
            select(Round).where(Round.id.in_({t.round_id for t in txns.values() if t.round_id}))
        )
    }
    played = {
        row.id: row
        for row in rounds.values()
        if row.table_name == table and row.status != RoundStatus.VOIDED.value
    }
    had = _seats_had(session, set(played), stakes)
    found: list[tuple[int, int, wallet.Movement] | IdempotencyConflict | RoundVoided | None] = []
    for stake in stakes:
        key = keys.get((f"user:{stake.user_id}", stake.idempotency_key))
        txn = txns.get(key.transaction_id or 0) if key is not None else None
        then_round = rounds.get(txn.round_id or 0) if txn is not None else None
        if key is None:
            found.append(None)
            continue
        if then_round is not None and then_round.status == RoundStatus.VOIDED.value:
            found.append(voided_retry(session, user_id=stake.user_id, key=stake.idempotency_key))
            continue
        row = played.get(then_round.id) if then_round is not None else None
        seat = stake.seat
        if row is not None:  # the seat the bet was taken at (the player may have moved)
            seat = had.get((row.id, stake.user_id), seat)
        same = False
        if row is not None and seat != ANY_SEAT and key.response:
            details = stake.details
            if details is not None and "seat" in details:
                details = dict(details, seat=seat)
            then = wallet.hold_request(
                table=table, round_id=row.id, amount=int(key.response["amount"]), details=details
            )
            same = wallet.request_hash(then) == key.request_hash
        if same and row is not None and key.response:
            found.append((row.id, seat, wallet.Movement.from_json(key.response, replayed=True)))
        elif stake.seat == ANY_SEAT:
            found.append(None)  # not seated now: that is the answer
        else:
            found.append(_conflict(stake.idempotency_key))
    return found


def _seats_had(
    session: Session, played: set[int], stakes: Sequence[Stake]
) -> dict[tuple[int, int], int]:
    """(round, user) -> the seat the user played from in the rounds ``played`` (one
    statement)."""
    users = {s.user_id for s in stakes}
    if not played or not users:
        return {}
    rows = session.scalars(
        select(RoundPlayer).where(RoundPlayer.round_id.in_(played), RoundPlayer.user_id.in_(users))
    )
    return {(row.round_id, row.user_id): row.seat for row in rows}


def _conflict(key: str) -> IdempotencyConflict:
    return IdempotencyConflict(
        f"idempotency key {key!r} was already used for a different request",
        reason="idempotency_conflict",
    )


def recover_open_rounds(
    session: Session, *, reason: str = CRASH_REASON, table: str | None = None
) -> list[int]:
    """Void every round still open (run at start, before any table opens), or only table
    ``table``'s (a cluster's process taking a table over); return their ids."""
    query = select(Round.id).where(Round.status == RoundStatus.OPEN.value)
    if table is not None:
        query = query.where(Round.table_name == table)
    ids = list(session.scalars(query.order_by(Round.id)))
    for round_id in ids:
        void_round(session, round_id=round_id, reason=reason)
    return ids


@dataclass(frozen=True, slots=True, kw_only=True)
class RecalledRound:
    """A closed round as a player or operator may see it (the deck revealed)."""

    id: int
    table: str
    game: str
    status: str
    commitment: str
    salt: str | None
    deck: str | None
    record: dict[str, Any] | None
    summary: dict[str, Any] | None
    created_at: str
    closed_at: str | None
    players: list[dict[str, Any]]
    void_reason: str | None
    leaves: list[str] | None = None
    """A game between players (Hold'em) recalled by a player: the card commitment's leaves
    and the ``openings`` of the cards that player may see, instead of ``salt`` and ``deck``
    (see :mod:`croupier.server.tables.fairness`)."""
    openings: dict[str, list[str]] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "table": self.table,
            "game": self.game,
            "status": self.status,
            "commitment": self.commitment,
            "salt": self.salt,
            "deck": self.deck,
            "record": self.record,
            "summary": self.summary,
            "created_at": self.created_at,
            "closed_at": self.closed_at,
            "players": self.players,
            "void_reason": self.void_reason,
        }
        if self.leaves is not None:
            data["leaves"], data["openings"] = self.leaves, self.openings
        return data


def _recalled(session: Session, row: Round, *, viewer: User, views: RecallViews) -> RecalledRound:
    closed = row.status != RoundStatus.OPEN.value
    players = [
        {"user_id": p.user_id, "seat": p.seat, "staked": p.staked, "returned": p.returned}
        for p in session.scalars(
            select(RoundPlayer).where(RoundPlayer.round_id == row.id).order_by(RoundPlayer.seat)
        )
    ]
    void = session.scalars(select(RoundVoid).where(RoundVoid.round_id == row.id)).first()
    recalled = RecalledRound(
        id=row.id,
        table=row.table_name,
        game=row.game,
        status=row.status,
        commitment=row.commitment,
        salt=row.salt if closed else None,
        deck=row.deck if closed else None,
        record=row.record if closed else None,
        summary=row.summary if closed else None,
        created_at=row.created_at.isoformat(),
        closed_at=row.closed_at.isoformat() if row.closed_at else None,
        players=players,
        void_reason=void.reason if void else None,
    )
    if viewer.role == Role.OPERATOR.value:
        return recalled
    # A player's recall is about their own play: their rows only (a live round has hundreds).
    own = [p for p in players if p["user_id"] == viewer.id]
    recalled = dataclasses.replace(recalled, players=own)
    mine = [seat for p in own if isinstance(seat := p["seat"], int)]
    view = views.get(row.game)
    if not closed or view is None:
        return recalled
    # What the game hides from a player in a closed round (Hold'em: the folded hands; a live
    # UTH round: the other players' boxes): the game's own recall view decides.
    seen = view(recalled.to_json(), mine)
    return dataclasses.replace(
        recalled,
        salt=seen["salt"],
        deck=seen["deck"],
        record=seen["record"],
        summary=seen["summary"],
        leaves=seen.get("leaves"),
        openings=seen.get("openings"),
    )


def recent_rounds(
    session: Session,
    *,
    user: User,
    views: RecallViews,
    limit: int = 10,
    before: int | None = None,
) -> list[RecalledRound]:
    """The user's last ``limit`` closed rounds, newest first (issue 5: a player recalls 10);
    with ``before``, those with a smaller id (the next page of the history). ``views``: each
    game's recall view (what a player may see of a closed round of that game)."""
    query = _recent(Round, user=user, limit=limit)
    if before is not None:
        query = query.where(Round.id < before)
    rows = session.scalars(query)
    return [_recalled(session, row, viewer=user, views=views) for row in rows]


def _recent(what: Any, *, user: User, limit: int) -> Any:
    """The query of ``what`` (rounds, or their ids) for the user's last ``limit`` closed rounds."""
    return (
        select(what)
        .join(RoundPlayer, RoundPlayer.round_id == Round.id)
        .where(RoundPlayer.user_id == user.id, Round.status != RoundStatus.OPEN.value)
        .order_by(Round.id.desc())
        .limit(limit)
    )


def recall(
    session: Session, *, user: User, round_id: int, views: RecallViews, player_limit: int = 10
) -> RecalledRound:
    """One round: an operator may recall any; a player one of their last ``player_limit``,
    as the round's game lets a player see it (``views``, as for :func:`recent_rounds`).

    Raises:
        NotFoundError: no such round.
        PermissionDeniedError: a player asking for a round that is not among their last ones.
    """
    row = session.get(Round, round_id)
    if row is None:
        raise NotFoundError(f"round {round_id} does not exist", reason="round_not_found")
    if user.role != Role.OPERATOR.value:
        # Only the ids: building the ten recalls (decks, openings) would be wasted work.
        allowed = set(session.scalars(_recent(Round.id, user=user, limit=player_limit)))
        if round_id not in allowed:
            raise PermissionDeniedError(
                f"round {round_id} is not among your last {player_limit} rounds",
                reason="round_not_yours",
            )
    return _recalled(session, row, viewer=user, views=views)
