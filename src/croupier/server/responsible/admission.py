"""The tables' side of responsible gaming: who may sit, buy in and be dealt in (see
:class:`croupier.server.tables.admission.Admission`). Bets are checked where they are staked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.base import utcnow
from croupier.server.db import Database
from croupier.server.responsible import limits, wagers
from croupier.server.responsible.models import LimitKind

__all__ = ["ResponsibleAdmission"]


class ResponsibleAdmission:
    """A self-excluded player gets no seat, stake or hand; a stake must fit the loss and
    wager limits, a buy-in the loss limits (the chips at a table count as at risk), the
    chips a cash-game player puts into the pots the wager limits (:mod:`.wagers`); a player
    whose wager limit leaves less than the forced bets, or whose loss limit was lowered
    below what they have at risk, sits out."""

    def refused_seats(self, db: Database, user_ids: Sequence[int]) -> dict[int, CroupierError]:
        # Reads only, each statement (a thousand players) whole on its own: no transaction.
        with db.statement() as session:
            found = limits.active_exclusion(session, user_ids, now=utcnow())
        return {user: limits.exclusion_error(exclusion) for user, exclusion in found.items()}

    def check_buy_in(self, session: Session, user_id: int, amount: int) -> None:
        limits.check_stake(
            session, user_id=user_id, amount=amount, counted=True, kinds=(LimitKind.LOSS,)
        )

    def check_stakes(
        self, session: Session, stakes: Sequence[tuple[int, int]]
    ) -> list[CroupierError | None]:
        found = limits.allowances(session, [user for user, _ in stakes])
        return [found[user].refusal(amount) if user in found else None for user, amount in stakes]

    def blocked(
        self, db: Database, user_ids: Sequence[int], *, need: int = 1
    ) -> dict[int, CroupierError]:
        with db.session() as session:
            return limits.blocked(session, user_ids, need=need)

    def check_wagers(
        self, session: Session, *, round_id: int, totals: Mapping[int, int]
    ) -> dict[int, int | CroupierError]:
        return wagers.check_wagers(session, round_id=round_id, totals=totals)
