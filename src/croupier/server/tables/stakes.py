"""A table's database work, each call one transaction (run in a worker thread by the table).

The table holds the round in memory; these functions write what must outlive it: the round
opened with its commitment and first stake, stakes held in escrow (one, or a batch taken
together at a live table), the settlement and the void. See :mod:`.rounds` and the wallet.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from croupier.errors import CroupierError
from croupier.server.db import Database
from croupier.server.errors import IdempotencyConflict
from croupier.server.tables import rounds
from croupier.server.wallet.service import Movement

__all__ = ["open_and_stake", "replayed_stake", "settle", "stake", "stake_many", "void"]

log = logging.getLogger(__name__)


def open_and_stake(
    db: Database,
    *,
    table: str,
    game: str,
    commitment: str,
    salt: str,
    deck: str,
    first: rounds.Stake,
) -> tuple[int, Movement]:
    """Open a round with its commitment together with the bet that opens it."""
    try:
        with db.session() as session:
            row = rounds.open_round(
                session, table=table, game=game, commitment=commitment, salt=salt, deck=deck
            )
            return row.id, _stake(session, row.id, first)
    except IdempotencyConflict as exc:
        raise _explained(db, first, exc) from None


def stake(db: Database, *, round_id: int, one: rounds.Stake) -> Movement:
    """Hold one stake in escrow."""
    try:
        with db.session() as session:
            return _stake(session, round_id, one)
    except IdempotencyConflict as exc:
        raise _explained(db, one, exc) from None


def _explained(db: Database, one: rounds.Stake, exc: CroupierError) -> CroupierError:
    """A key already used: if for a stake of a round voided since (a restart after a crash,
    say), say so with the balance now (``round_voided``); else the conflict as it is."""
    with db.session() as session:
        voided = rounds.voided_retry(session, user_id=one.user_id, key=one.idempotency_key)
    return voided or exc


def _stake(session: Any, round_id: int, one: rounds.Stake) -> Movement:
    return rounds.stake(
        session,
        round_id=round_id,
        user_id=one.user_id,
        seat=one.seat,
        amount=one.amount,
        idempotency_key=one.idempotency_key,
        details=one.details,
    )


def stake_many(
    db: Database, *, round_id: int, stakes: Sequence[rounds.Stake]
) -> list[Movement | CroupierError]:
    """Hold many stakes in one transaction; each answer is its movement or its refusal.

    A batch that fails as a whole (a key applied concurrently elsewhere, say) rolled back:
    the stakes are then held one by one, each in its own transaction."""
    try:
        with db.session() as session:
            taken = rounds.stake_many(session, round_id=round_id, stakes=stakes)
        return [
            _explained(db, one, answer) if isinstance(answer, IdempotencyConflict) else answer
            for one, answer in zip(stakes, taken, strict=True)
        ]
    except CroupierError:
        raise
    except Exception:
        log.warning("batched stakes of round %s failed; one by one", round_id, exc_info=True)
    answers: list[Movement | CroupierError] = []
    for one in stakes:
        try:
            answers.append(stake(db, round_id=round_id, one=one))
        except CroupierError as exc:
            answers.append(exc)
    return answers


def replayed_stake(
    db: Database, *, round_id: int, user_id: int, amount: int, key: str, details: Mapping[str, Any]
) -> Movement | None:
    """The answer to a resent stake, or ``None`` if its key was never applied."""
    try:
        with db.session() as session:
            return rounds.replayed_stake(
                session,
                round_id=round_id,
                user_id=user_id,
                amount=amount,
                idempotency_key=key,
                details=details,
            )
    except IdempotencyConflict as exc:
        one = rounds.Stake(user_id=user_id, seat=0, amount=amount, idempotency_key=key)
        raise _explained(db, one, exc) from None


def settle(
    db: Database,
    *,
    round_id: int,
    returns: Mapping[int, int],
    record: Mapping[str, Any],
    summary: Mapping[str, Any],
) -> None:
    """Record the result and pay escrow out."""
    with db.session() as session:
        rounds.settle_round(
            session, round_id=round_id, returns=returns, record=record, summary=summary
        )


def void(db: Database, *, round_id: int, reason: str, record: Mapping[str, Any]) -> None:
    """Void the round: every stake back."""
    with db.session() as session:
        rounds.void_round(session, round_id=round_id, reason=reason, record=record)
