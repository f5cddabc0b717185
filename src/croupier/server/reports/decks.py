"""The shuffles the server actually dealt, read back from the rounds' records for the RNG
audit (:mod:`croupier.analysis.rng`).

Every round stores its whole deck order (``rounds.deck``: the committed order, revealed after
the round; the same for every game). Only closed rounds are read: an open round's deck is
still secret. A deck that is not a permutation of the 52 cards is counted as skipped (a
round from an old or foreign record), never silently tested.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.cards import DECK
from croupier.server.rounds.models import Round, RoundStatus

__all__ = ["DeckSample", "read_decks"]

_IDS = {str(card): index for index, card in enumerate(DECK)}
_BATCH = 2000


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckSample:
    """The decks read, in round order, as card ids (top card first)."""

    decks: npt.NDArray[np.int64]
    rounds: int
    """Closed rounds matched (decks read plus skipped)."""
    skipped: int
    """Rounds whose stored deck is not a whole 52-card deck."""
    first_round: int | None
    last_round: int | None


def _ids(deck: str) -> list[int] | None:
    try:
        ids = [_IDS[token] for token in deck.split()]
    except KeyError:
        return None
    return ids if len(ids) == 52 and len(set(ids)) == 52 else None


def read_decks(
    session: Session,
    *,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    table: str | None = None,
    game: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> DeckSample:
    """The decks of the closed rounds created in ``[since, until)``, optionally of one table
    or one game; ``on_progress(read, total)`` after each batch."""
    conditions = [Round.status != RoundStatus.OPEN.value]
    if since is not None:
        conditions.append(Round.created_at >= since)
    if until is not None:
        conditions.append(Round.created_at < until)
    if table is not None:
        conditions.append(Round.table_name == table)
    if game is not None:
        conditions.append(Round.game == game)
    total = session.scalar(select(func.count()).select_from(Round).where(*conditions)) or 0
    decks: list[list[int]] = []
    skipped, read, after = 0, 0, 0
    first: int | None = None
    last: int | None = None
    while True:
        rows = session.execute(
            select(Round.id, Round.deck)
            .where(*conditions, Round.id > after)
            .order_by(Round.id)
            .limit(_BATCH)
        ).all()
        if not rows:
            break
        for round_id, deck in rows:
            ids = _ids(deck)
            if ids is None:
                skipped += 1
            else:
                decks.append(ids)
            first = round_id if first is None else first
            last = round_id
        read += len(rows)
        after = rows[-1].id
        if on_progress is not None:
            on_progress(read, total)
    array = np.array(decks, dtype=np.int64).reshape(len(decks), 52)
    return DeckSample(decks=array, rounds=read, skipped=skipped, first_round=first, last_round=last)
