"""A table's database work, each call one transaction (run in a worker thread by the table).

The table holds the round in memory; these functions write what must outlive it: the round
opened with its commitment and first stakes, stakes held in escrow, the settlement and the
void. See :mod:`.rounds` and the wallet.

Stakes have one path, whatever their number: :func:`hold` (and :func:`open_and_stake`
for the stakes that open a round) hold every stake it is given in one transaction, each still
its own ledger transaction, idempotency record and answer; :func:`hold_one` is the batch of one.
A batch that fails as a whole (a key applied concurrently elsewhere, say) rolled back, and its
stakes are then held one by one, each in its own transaction. A key already used for a stake
of a round voided since is answered ``round_voided`` (:func:`rounds.voided_retry`).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.errors import CroupierError
from croupier.server.db import Database
from croupier.server.errors import IdempotencyConflict, RoundVoided
from croupier.server.rounds import store as rounds
from croupier.server.tables import window
from croupier.server.wallet.service import Movement, Released, StakeCheck

__all__ = [
    "Opening",
    "close_window",
    "commit_deck",
    "earlier_stakes",
    "hold",
    "hold_in_window",
    "hold_one",
    "open_and_stake",
    "open_for_bets",
    "parts",
    "release",
    "replayed_stakes",
    "settle",
    "verify_holds",
    "void",
]

log = logging.getLogger(__name__)

Answer = Movement | CroupierError


@dataclass(frozen=True, slots=True, kw_only=True)
class Opening:
    """A round to open with its first stakes: its table, game and deck commitment."""

    table: str
    game: str
    commitment: str
    salt: str
    deck: str

    def recorded(self) -> dict[str, str]:
        """What a round's row records of its deck: the commitment, the salt and the deck."""
        return {"commitment": self.commitment, "salt": self.salt, "deck": self.deck}


class _NothingTaken(Exception):
    """Every stake that was to open a round was refused: roll the round back."""

    def __init__(self, answers: list[Answer]) -> None:
        super().__init__("no stake taken")
        self.answers = answers


def _explained(db: Database, stakes: Sequence[rounds.Stake], answers: list[Answer]) -> list[Answer]:
    """Each key conflict explained: if the key was taken for a stake of a round voided since
    (a restart after a crash, say), ``round_voided`` with the balance now; else as it is."""
    if not any(isinstance(a, IdempotencyConflict) for a in answers):
        return answers
    with db.session() as session:
        return [
            (rounds.voided_retry(session, user_id=one.user_id, key=one.idempotency_key) or answer)
            if isinstance(answer, IdempotencyConflict)
            else answer
            for one, answer in zip(stakes, answers, strict=True)
        ]


def _held(
    db: Database, round_id: int, stakes: Sequence[rounds.Stake], check: StakeCheck | None
) -> list[Answer]:
    """The stakes held in one transaction (no fallback)."""
    with db.session() as session:
        answers = rounds.stake_many(session, round_id=round_id, stakes=stakes, check=check)
    return _explained(db, stakes, answers)


def hold(
    db: Database,
    *,
    round_id: int,
    stakes: Sequence[rounds.Stake],
    check: StakeCheck | None = None,
) -> list[Answer]:
    """Hold stakes for an open round in one transaction; each answer, in order, is its
    movement or its refusal (``check``: the players' limits, see :func:`wallet.hold_many`).

    A batch that fails as a whole rolled back: its stakes are then held one by one, each in
    its own transaction (a single stake is tried once more so)."""
    if not stakes:
        return []
    try:
        return _held(db, round_id, stakes, check)
    except CroupierError:
        raise
    except Exception:
        log.warning("stakes of round %s failed together; one by one", round_id, exc_info=True)
    answers: list[Answer] = []
    for one in stakes:
        try:
            answers.extend(_held(db, round_id, [one], check))
        except CroupierError as exc:
            answers.append(exc)
    return answers


PARTS_AT_ONCE = 3
"""The most transactions one batch of stakes is held in at once (PostgreSQL)."""
PART_LEAST = 400
"""The fewest stakes worth a transaction of their own."""


def parts(db: Database, batch: Sequence[rounds.Stake]) -> list[Sequence[rounds.Stake]]:
    """``batch`` in consecutive parts, each for a :func:`hold` of its own, all held at
    once: on PostgreSQL up to :data:`PARTS_AT_ONCE` of :data:`PART_LEAST` stakes or more (a
    live table's thousands of Play bets; the stakes are of different players, so the parts
    wait for each other only at the escrow's commit, :mod:`croupier.server.wallet.ledger`);
    on SQLite, whose writers take turns, one."""
    if not batch:
        return []
    count = 1
    if db.engine.dialect.name == "postgresql":
        count = min(PARTS_AT_ONCE, -(-len(batch) // PART_LEAST))
    size = -(-len(batch) // count)
    return [batch[at : at + size] for at in range(0, len(batch), size)]


def hold_one(db: Database, *, round_id: int, one: rounds.Stake) -> Movement:
    """Hold one stake: :func:`hold` of one.

    Raises:
        CroupierError: what refused it; nothing was held.
    """
    (answer,) = hold(db, round_id=round_id, stakes=[one])
    if isinstance(answer, CroupierError):
        raise answer
    return answer


def open_and_stake(
    db: Database,
    *,
    opening: Opening,
    stakes: Sequence[rounds.Stake],
    check: StakeCheck | None = None,
    recorded: int | None = None,
) -> tuple[int | None, list[Answer]]:
    """Open a round with the stakes that open it, in one transaction: the round's id (``None``
    when every stake was refused: then no round was opened) and each stake's answer.
    ``recorded``: the round was recorded before with no deck (:func:`open_for_bets`); its
    deck's commitment is recorded with the stakes.

    If the batch fails as a whole, the stakes are tried one at a time as the opening stake
    until one opens the round; the rest are then held by :func:`hold`.
    """
    try:
        return _opened(db, opening, stakes, check, recorded)
    except CroupierError:
        raise
    except Exception:
        if len(stakes) == 1:
            raise
        log.warning("stakes opening a round failed together; one by one", exc_info=True)
    answers: list[Answer] = []
    for i, one in enumerate(stakes):
        round_id, first = _opened(db, opening, [one], check, recorded)
        answers.extend(first)
        if round_id is not None:
            rest = hold(db, round_id=round_id, stakes=stakes[i + 1 :], check=check)
            return round_id, answers + rest
    return None, answers


def open_for_bets(db: Database, *, table: str, game: str) -> int:
    """Record a round open, its betting window open, with no deck yet and nothing held (a
    cluster's next round, :mod:`.nextround`): its id."""
    with db.session() as session:
        return rounds.open_round(
            session, table=table, game=game, commitment="", salt="", deck="", betting_open=True
        ).id


def commit_deck(db: Database, *, round_id: int, opening: Opening) -> None:
    """Record the deck's commitment of round ``round_id``, recorded before with none (its
    first bet is placed now: :mod:`.nextround`)."""
    with db.session() as session:
        rounds.commit_deck(session, round_id=round_id, **opening.recorded())


def _opened(
    db: Database,
    opening: Opening,
    stakes: Sequence[rounds.Stake],
    check: StakeCheck | None,
    recorded: int | None,
) -> tuple[int | None, list[Answer]]:
    """A round opened (or ``recorded`` given its deck) and ``stakes`` held, in one
    transaction rolled back (no round, no deck) unless one stake at least is taken."""
    answers: list[Answer]
    deck = opening.recorded()
    try:
        with db.session() as session:
            if recorded is None:
                row = rounds.open_round(
                    session, table=opening.table, game=opening.game, betting_open=True, **deck
                )
            else:
                row = rounds.commit_deck(session, round_id=recorded, **deck)
            answers = rounds.stake_many(session, round_id=row.id, stakes=stakes, check=check)
            if not any(isinstance(a, Movement) for a in answers):
                raise _NothingTaken(answers)
            round_id: int | None = row.id
    except _NothingTaken as nothing:
        round_id, answers = None, nothing.answers
    return round_id, _explained(db, stakes, answers)


def replayed_stakes(
    db: Database, *, round_id: int, stakes: Sequence[rounds.Stake]
) -> list[Movement | CroupierError | None]:
    """For each stake resent, its answer: the movement replayed, ``None`` if its key was never
    applied, or the conflict (explained as ``round_voided`` where that is the truth)."""
    if not stakes:
        return []
    with db.session() as session:
        found = rounds.replayed_stakes(session, round_id=round_id, stakes=stakes)
    conflicts = [(i, a) for i, a in enumerate(found) if isinstance(a, IdempotencyConflict)]
    if not conflicts:
        return list(found)
    answers: list[Movement | CroupierError | None] = list(found)
    explained = _explained(db, [stakes[i] for i, _ in conflicts], [a for _, a in conflicts])
    for (i, _), answer in zip(conflicts, explained, strict=True):
        answers[i] = answer
    return answers


def earlier_stakes(
    db: Database, *, table: str, stakes: Sequence[rounds.Stake]
) -> list[tuple[int, int, Movement] | IdempotencyConflict | RoundVoided | None]:
    """For each bet resent that this round cannot take (its betting closed, its key taken in
    a round before, or its player seated nowhere now), the round it was taken in, the seat
    and its first answer, replayed; its round's void where that round was voided; ``None``
    where it is not a resend (:func:`rounds.earlier_stakes`)."""
    if not stakes:
        return []
    with db.session() as session:
        return rounds.earlier_stakes(session, table=table, stakes=stakes)


def settle(
    db: Database,
    *,
    round_id: int,
    returns: Mapping[int, int],
    record: Mapping[str, Any],
    summary: Mapping[str, Any],
    kept: Collection[int] | None = None,
) -> None:
    """Record the result and pay escrow out. ``kept``: the round's decision window was open
    (a cluster's live table, :mod:`.window`): it is closed first, in the same transaction,
    and the holds not in ``kept`` returned (a decision the table never applied)."""
    with db.session() as session:
        if kept is not None:
            window.close_window(session, round_id=round_id, kept=kept)
        rounds.settle_round(
            session, round_id=round_id, returns=returns, record=record, summary=summary
        )


def void(db: Database, *, round_id: int, reason: str, record: Mapping[str, Any]) -> None:
    """Void the round: every stake back."""
    with db.session() as session:
        rounds.void_round(session, round_id=round_id, reason=reason, record=record)


# -- a betting window's holds (issue 18: a cluster's gateways hold stakes themselves) -------


def hold_in_window(
    db: Database,
    *,
    table: str,
    stakes: Sequence[rounds.Stake],
    check: StakeCheck | None = None,
    decisions: tuple[int, str] | None = None,
) -> tuple[int | None, list[Answer]]:
    """Hold stakes for table ``table``'s round whose betting is open, or with ``decisions``
    for that round's decision phase (a gateway's batch, see :func:`.window.hold_in_window`):
    that round's id and the answers of the first stakes, in order -- all of them, unless the
    window closed meanwhile: the stakes past the answers were not held -- or ``(None, [])``
    when the window is not open. A batch that fails as a whole is tried one stake at a
    time, as :func:`hold` does."""
    if not stakes:
        return None, []
    try:
        return _in_window(db, table, stakes, check, decisions)
    except CroupierError:
        raise
    except Exception:
        log.warning("holds at %s failed together; one by one", table, exc_info=True)
    round_id: int | None = None
    answers: list[Answer] = []
    for one in stakes:
        try:
            found, answer = _in_window(db, table, [one], check, decisions)
        except CroupierError as exc:
            answers.append(exc)
            continue
        if found is None or (round_id is not None and found != round_id):
            break  # betting closed: the rest were not held
        round_id = found
        answers.extend(answer)
    return (round_id, answers) if round_id is not None else (None, [])


def _in_window(
    db: Database,
    table: str,
    stakes: Sequence[rounds.Stake],
    check: StakeCheck | None,
    decisions: tuple[int, str] | None,
) -> tuple[int | None, list[Answer]]:
    with db.session() as session:
        round_id, answers = window.hold_in_window(
            session, table=table, stakes=stakes, check=check, decisions=decisions
        )
    return round_id, _explained(db, stakes, answers) if round_id is not None else []


def verify_holds(
    db: Database, claims: Sequence[window.Claim], *, table: str
) -> list[window.Verdict]:
    """Whether each hold a gateway says it took for table ``table`` is what it says
    (:func:`.window.verified_holds`)."""
    if not claims:
        return []
    with db.statement() as session:  # one statement
        return window.verified_holds(session, claims, table=table)


def release(db: Database, *, round_id: int, holds: Sequence[int]) -> list[Released]:
    """Return the stakes of holds the table refused (:func:`.window.release`)."""
    with db.session() as session:
        return window.release(session, round_id=round_id, holds=holds)


def close_window(
    db: Database, *, round_id: int, kept: Collection[int], decisions: str | None = None
) -> list[Released]:
    """Close the round's betting or decision phase, open ``decisions``' (if given); return
    the holds the table did not take (:func:`.window.close_window`)."""
    with db.session() as session:
        return window.close_window(session, round_id=round_id, kept=kept, decisions=decisions)
