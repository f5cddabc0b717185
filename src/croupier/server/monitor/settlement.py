"""What happens at each settlement's commit: big wins recorded, the monitor told.

:func:`watch_settlements` hooks a database's sessions (SQLAlchemy session events): a session
that settled rounds (:data:`croupier.server.rounds.store.SETTLED_ROUNDS`) records, before it
commits and in its own transaction, a significant event for each player whose win in the
round reached the table's threshold, so the event and the settlement commit together or not
at all; once it has committed, the monitor is told which tables have new rounds. A failure
here never undoes a settlement: the events are written in a savepoint, logged if it fails.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from croupier.server.accounts.models import User
from croupier.server.db import Database
from croupier.server.rounds.models import Round, RoundPlayer
from croupier.server.rounds.store import SETTLED_ROUNDS
from croupier.server.significant import service as significant
from croupier.server.significant.kinds import Kind

__all__ = ["big_wins", "watch_settlements"]

log = logging.getLogger(__name__)

_TABLES = "croupier.settled_tables"


def big_wins(
    session: Session,
    round_ids: Iterable[int],
    threshold: Callable[[str], int | None],
    *,
    tables: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """Record a ``big_win`` event for each player whose win (paid back less staked) in one
    of ``round_ids`` (at ``tables``, if known) reached ``threshold(table)``; the events'
    details. Only the players over the lowest of those thresholds are read (a live round
    has a thousand)."""
    ids, known = list(round_ids), list(tables)
    levels = [level for level in map(threshold, known) if level is not None]
    if known and not levels:
        return []
    query = (
        select(
            Round.id,
            Round.table_name,
            Round.game,
            RoundPlayer.user_id,
            RoundPlayer.seat,
            RoundPlayer.staked,
            RoundPlayer.returned,
            User.username,
        )
        .join(RoundPlayer, RoundPlayer.round_id == Round.id)
        .join(User, User.id == RoundPlayer.user_id)
        .where(Round.id.in_(ids))
        .order_by(Round.id, RoundPlayer.seat)
    )
    if levels:
        net = func.coalesce(RoundPlayer.returned, 0) - func.coalesce(RoundPlayer.staked, 0)
        query = query.where(net >= min(levels))
    rows = session.execute(query)
    recorded = []
    for round_id, table, game, user_id, seat, staked, returned, username in rows:
        won = int(returned or 0) - int(staked or 0)
        level = threshold(table)
        if level is None or won < level:
            continue
        details = {
            "round_id": round_id, "game": game, "user_id": user_id, "username": username,
            "seat": seat, "staked": int(staked or 0), "returned": int(returned or 0),
            "won": won, "threshold": level,
        }  # fmt: skip
        significant.record(session, Kind.BIG_WIN, subject=f"table:{table}", details=details)
        recorded.append(details)
    return recorded


def watch_settlements(
    db: Database,
    *,
    threshold: Callable[[str], int | None],
    settled: Callable[[set[str]], None],
) -> Callable[[], None]:
    """Hook ``db``'s sessions; returns the way to unhook them."""

    def before_commit(session: Session) -> None:
        if session.in_nested_transaction():
            return  # a savepoint's release also calls this: only the commit counts
        ids = session.info.pop(SETTLED_ROUNDS, None)
        if not ids:
            return
        tables = set(session.scalars(select(Round.table_name).where(Round.id.in_(ids))).all())
        session.info[_TABLES] = session.info.get(_TABLES, set()) | tables
        try:
            with session.begin_nested():
                big_wins(session, ids, threshold, tables=tables)
        except Exception:
            log.exception("big-win events of rounds %s were not recorded", ids)

    def after_commit(session: Session) -> None:
        tables = session.info.pop(_TABLES, None)
        if tables:
            settled(tables)

    def after_rollback(session: Session, *_: Any) -> None:
        session.info.pop(SETTLED_ROUNDS, None)
        session.info.pop(_TABLES, None)

    hooks = (
        ("before_commit", before_commit),
        ("after_commit", after_commit),
        ("after_soft_rollback", after_rollback),
    )
    for name, fn in hooks:
        event.listen(db.sessions, name, fn)

    def remove() -> None:
        for name, fn in hooks:
            if event.contains(db.sessions, name, fn):
                event.remove(db.sessions, name, fn)

    return remove
