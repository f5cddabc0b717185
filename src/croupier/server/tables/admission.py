"""Who may sit and play at a table (issue 16, responsible gaming): the :class:`Admission`
a table asks, and :data:`NO_CHECKS` for tables built without the server's checks (the
server's own is :class:`croupier.server.responsible.admission.ResponsibleAdmission`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from croupier.errors import CroupierError
from croupier.server.db import Database

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = ["NO_CHECKS", "Admission"]


class Admission(Protocol):
    """Who may sit and play: the table asks before a seat, in a buy-in's transaction, in a
    staking transaction and before dealing a cash-game hand. Each call runs in a worker
    thread; a refusal is raised (or returned) as a :class:`CroupierError` naming why."""

    def refused_seats(self, db: Database, user_ids: Sequence[int]) -> dict[int, CroupierError]:
        """The players among ``user_ids`` who may not take a seat (self-excluded), and why:
        one query for the many who sit down together at a live table, or for one."""
        ...

    def check_buy_in(self, session: Session, user_id: int, amount: int) -> None:
        """Refuse a buy-in, in its transaction, after it was posted."""
        ...

    def check_stakes(
        self, session: Session, stakes: Sequence[tuple[int, int]]
    ) -> list[CroupierError | None]:
        """For each (user id, amount) about to be staked, in the staking transaction once the
        players' wallet rows are locked: the refusal, or ``None`` to take it."""
        ...

    def blocked(
        self, db: Database, user_ids: Sequence[int], *, need: int = 1
    ) -> dict[int, CroupierError]:
        """The players who may not be dealt the next hand (``need``: the most a seat posts
        before it acts), and why."""
        ...

    def check_wagers(
        self, session: Session, *, round_id: int, totals: Mapping[int, int]
    ) -> dict[int, int | CroupierError]:
        """Chips about to go into the pots of cash hand ``round_id`` (user id -> what they
        will have put in): for each user with a wager limit, the refusal, or the room that
        limit leaves once the total is recorded (issue 27)."""
        ...


class _NoChecks:
    def refused_seats(self, db: Database, user_ids: Sequence[int]) -> dict[int, CroupierError]:
        return {}

    def check_buy_in(self, session: Session, user_id: int, amount: int) -> None:
        return None

    def check_stakes(
        self, session: Session, stakes: Sequence[tuple[int, int]]
    ) -> list[CroupierError | None]:
        return [None] * len(stakes)

    def blocked(
        self, db: Database, user_ids: Sequence[int], *, need: int = 1
    ) -> dict[int, CroupierError]:
        return {}

    def check_wagers(
        self, session: Session, *, round_id: int, totals: Mapping[int, int]
    ) -> dict[int, int | CroupierError]:
        return {}


NO_CHECKS: Admission = _NoChecks()
"""Everyone may play (tables built without the server's responsible-gaming checks)."""
