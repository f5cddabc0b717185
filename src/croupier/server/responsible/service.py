"""A player's responsible-gaming choices: set limits, exclude themselves, the reality check.

Every change is appended to the audit log in the same transaction (actor: the player). The
rules that apply them to bets, seats and deposits are in :mod:`.limits`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.server.accounts.models import User
from croupier.server.audit import service as audit
from croupier.server.base import utcnow
from croupier.server.errors import ConflictError, InvalidRequestError
from croupier.server.responsible.limits import (
    PERIODS,
    RAISE_DELAY,
    EffectiveLimit,
    active_exclusion,
    effective,
    limits_of,
    usage,
)
from croupier.server.responsible.models import (
    LimitKind,
    Period,
    PlayerLimit,
    RealityCheck,
    SelfExclusion,
)
from croupier.server.rounds.models import Round, RoundPlayer, RoundStatus

__all__ = [
    "MAX_EXCLUSION_DAYS",
    "acknowledge_reality_check",
    "exclusion_public",
    "limits_view",
    "reality_check_view",
    "self_exclude",
    "set_limits",
    "set_reality_check",
]

MAX_EXCLUSION_DAYS = 3650
"""The longest self-exclusion by days (ten years); longer is ``permanent``."""


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _change(row: PlayerLimit, new: int | None, *, now: dt.datetime) -> dict[str, Any] | None:
    """Apply one asked-for limit to ``row``; what changed (for the answer and the audit)."""
    current = effective(row, now=now)
    if row.pending_at is not None and row.pending_at <= now:
        # A raise whose 24 hours have passed is in force: write it down first.
        row.amount, row.pending_amount, row.pending_remove, row.pending_at = (
            current.amount,
            None,
            False,
            None,
        )
    had = current.amount
    change: dict[str, Any] = {"kind": row.kind, "period": row.period, "from": had, "to": new}
    if new is not None and (had is None or new < had):
        # Lowering a limit (or setting a first one) protects the player: at once.
        row.amount, row.pending_amount, row.pending_remove, row.pending_at = new, None, False, None
        change["effective"] = "now"
    elif new == had:
        if row.pending_at is None:
            return None
        row.pending_amount, row.pending_remove, row.pending_at = None, False, None
        change["effective"] = "now"
        change["raise_cancelled"] = True
    else:
        # A raise (or a removal) takes effect only after RAISE_DELAY; asking the same raise
        # again keeps its time, asking another starts the wait again.
        same = row.pending_at is not None and (
            (new is None and row.pending_remove) or (new is not None and row.pending_amount == new)
        )
        if not same:
            row.pending_amount, row.pending_remove = new, new is None
            row.pending_at = now + RAISE_DELAY
        change["effective"] = _iso(row.pending_at)
    row.updated_at = now
    return change


def set_limits(
    session: Session,
    *,
    user: User,
    limits: Mapping[LimitKind, Mapping[Period, int | None]],
    now: dt.datetime | None = None,
) -> list[dict[str, Any]]:
    """Set any of the player's limits (``None`` removes one); return what changed.

    Lowering applies at once; raising or removing after :data:`RAISE_DELAY`.

    Raises:
        InvalidRequestError: no limit given, or a negative amount.
    """
    now = now or utcnow()
    asked = [(k, p, v) for k, periods in limits.items() for p, v in periods.items()]
    if not asked:
        raise InvalidRequestError("limits: give at least one limit (deposit, loss or wager)")
    for kind, period, value in asked:
        if value is not None and value < 0:
            raise InvalidRequestError(f"{kind.value}.{period.value}: {value} is negative")
    rows = {
        (r.kind, r.period): r
        for r in session.scalars(
            select(PlayerLimit).where(PlayerLimit.user_id == user.id).with_for_update()
        )
    }
    changes = []
    for kind, period, value in asked:
        row = rows.get((kind.value, period.value))
        if row is None:
            if value is None:
                continue  # removing a limit that does not exist
            row = PlayerLimit(
                user_id=user.id, kind=kind.value, period=period.value, amount=None,
                pending_remove=False, updated_at=now,
            )  # fmt: skip
            session.add(row)
        change = _change(row, value, now=now)
        if change is not None:
            changes.append(change)
    session.flush()
    if changes:
        audit.append(
            session,
            actor=user.username,
            action="limits.set",
            subject=f"user:{user.id}",
            details={"changes": changes},
        )
    return changes


def _limit_public(limit: EffectiveLimit | None, *, used: int, at_risk: int = 0) -> dict[str, Any]:
    amount = limit.amount if limit is not None else None
    pending = None
    if limit is not None and limit.pending_at is not None:
        pending = {
            "limit": None if limit.pending_remove else limit.pending,
            "from": _iso(limit.pending_at),
        }
    return {
        "limit": amount,
        "used": used,
        "left": None if amount is None else max(0, amount - used - at_risk),
        "pending": pending,
    }


def limits_view(session: Session, *, user: User, now: dt.datetime | None = None) -> dict[str, Any]:
    """The player's limits, pending raises and what is used (GET /api/me/limits)."""
    now = now or utcnow()
    mine = {
        (lim.kind, lim.period): lim
        for lim in limits_of(session, [user.id], now=now).get(user.id, [])
    }
    used = usage(session, user_id=user.id, now=now)
    view: dict[str, Any] = {}
    for kind in LimitKind:
        view[kind.value] = {
            period.value: _limit_public(
                mine.get((kind, period)),
                used=used.lost[period] if kind is LimitKind.LOSS else used.used(kind, period),
                at_risk=used.at_risk if kind is LimitKind.LOSS else 0,
            )
            for period in Period
        }
    check = session.get(RealityCheck, user.id)
    return {
        "limits": view,
        "at_risk": used.at_risk,
        "periods": {p.value: int(PERIODS[p].total_seconds()) for p in Period},
        "raise_delay_seconds": int(RAISE_DELAY.total_seconds()),
        "self_exclusion": exclusion_public(session, user_id=user.id, now=now),
        "reality_check": {"interval_minutes": check.interval_minutes if check else None},
    }


def exclusion_public(
    session: Session, *, user_id: int, now: dt.datetime | None = None
) -> dict[str, Any] | None:
    """The player's self-exclusion in force, as the login answer and the limits show it."""
    row = active_exclusion(session, [user_id], now=now or utcnow()).get(user_id)
    if row is None:
        return None
    return {
        "started_at": _iso(row.started_at),
        "until": _iso(row.until),
        "permanent": row.permanent,
    }


def self_exclude(
    session: Session,
    *,
    user: User,
    days: int | None = None,
    permanent: bool = False,
    now: dt.datetime | None = None,
) -> SelfExclusion:
    """Exclude the player from betting, sitting and depositing for ``days`` or for good.

    Nobody can end an exclusion early, an operator included: a new one may only end later.

    Raises:
        InvalidRequestError: neither or both of ``days`` and ``permanent``, or days out of
            1..:data:`MAX_EXCLUSION_DAYS`.
        ConflictError: an exclusion in force already ends as late or later.
    """
    now = now or utcnow()
    if permanent == (days is not None):
        raise InvalidRequestError("self-exclusion: give either days or permanent: true")
    if days is not None and not 1 <= days <= MAX_EXCLUSION_DAYS:
        raise InvalidRequestError(
            f"days: {days} is not between 1 and {MAX_EXCLUSION_DAYS} (longer: permanent)"
        )
    until = None if permanent else now + dt.timedelta(days=days or 0)
    current = active_exclusion(session, [user.id], now=now).get(user.id)
    if current is not None and (
        current.permanent
        or (until is not None and current.until is not None and until <= current.until)
    ):
        raise ConflictError(
            "you are excluded already "
            + ("permanently" if current.permanent else f"until {_iso(current.until)}")
            + ": an exclusion cannot be shortened",
            reason="self_exclusion_in_force",
            params={"until": _iso(current.until), "permanent": current.permanent},
        )
    row = SelfExclusion(
        user_id=user.id, started_at=now, until=until, permanent=permanent, days=days
    )
    session.add(row)
    session.flush()
    audit.append(
        session,
        actor=user.username,
        action="self_exclusion.start",
        subject=f"user:{user.id}",
        details={"days": days, "permanent": permanent, "until": _iso(until)},
    )
    return row


def set_reality_check(
    session: Session, *, user: User, minutes: int | None, now: dt.datetime | None = None
) -> RealityCheck:
    """Every ``minutes`` of a session a reminder (``None``: none)."""
    now = now or utcnow()
    row = session.get(RealityCheck, user.id)
    before = row.interval_minutes if row is not None else None
    if row is None:
        row = RealityCheck(user_id=user.id, interval_minutes=minutes, updated_at=now)
        session.add(row)
    row.interval_minutes, row.updated_at = minutes, now
    session.flush()
    if before != minutes:
        audit.append(
            session,
            actor=user.username,
            action="reality_check.set",
            subject=f"user:{user.id}",
            details={"from": before, "to": minutes},
        )
    return row


def reality_check_view(
    session: Session, *, user: User, session_start: dt.datetime, now: dt.datetime | None = None
) -> dict[str, Any]:
    """Time played and net result of the session (since ``session_start``, the login), and
    whether a reminder is due: an interval after the later of the login and the last
    acknowledged reminder."""
    now = now or utcnow()
    row = session.get(RealityCheck, user.id)
    minutes = row.interval_minutes if row is not None else None
    played = session.execute(
        select(
            func.count(RoundPlayer.id),
            func.coalesce(func.sum(RoundPlayer.staked), 0),
            func.coalesce(func.sum(func.coalesce(RoundPlayer.returned, 0) - RoundPlayer.staked), 0),
        )
        .join(Round, Round.id == RoundPlayer.round_id)
        .where(
            RoundPlayer.user_id == user.id,
            Round.status == RoundStatus.SETTLED.value,
            Round.closed_at >= session_start,
        )
    ).one()
    since = session_start
    if row is not None and row.acknowledged_at is not None and row.acknowledged_at > since:
        since = row.acknowledged_at
    next_at = None if minutes is None else since + dt.timedelta(minutes=minutes)
    return {
        "interval_minutes": minutes,
        "session_started_at": _iso(session_start),
        "elapsed_seconds": int((now - session_start).total_seconds()),
        "rounds": int(played[0]),
        "wagered": int(played[1]),
        "net": int(played[2]),
        "due": next_at is not None and now >= next_at,
        "next_at": _iso(next_at),
        "acknowledged_at": _iso(row.acknowledged_at if row is not None else None),
    }


def acknowledge_reality_check(
    session: Session, *, user: User, now: dt.datetime | None = None
) -> None:
    """The player saw the reminder: the next is due one interval from now."""
    now = now or utcnow()
    row = session.get(RealityCheck, user.id)
    if row is None:
        row = RealityCheck(user_id=user.id, interval_minutes=None, updated_at=now)
        session.add(row)
    row.acknowledged_at = now
    session.flush()
