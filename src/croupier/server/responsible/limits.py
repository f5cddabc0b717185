"""The rules of responsible gaming, as the wallet and the tables apply them.

Definitions (docs/responsible-gaming.md says the same for players and operators):

- Periods are rolling windows ending now: a *day* is the last 24 hours, a *week* the last 7
  days, a *month* the last 30 days. A rolling window has no midnight at which a limit
  refills all at once.
- *Deposits* in a period: the money paid into the player's wallet from outside (credits
  through the cage or the cashier) in that window.
- *Wagered* in a period: every stake of the player's rounds opened in that window (bets,
  Play bets, fees, insurance; at a Hold'em table the chips the player put into the pots),
  except rounds voided (their stakes came back). Stakes of a round still in play count.
- *Loss* in a period: the net result of the player's rounds settled in that window, as
  stakes minus everything paid back (stakes returned included); a net win counts as a
  negative loss. Voided rounds are excluded. A check also counts what is *at risk* now as
  lost: the stakes of rounds still in play and the chips the player has on Hold'em tables.
  So a bet is refused when ``loss + at risk + bet`` would pass the limit: whatever happens
  afterwards, the player cannot lose more than the limit in the period.

A bet (or a buy-in) that would pass a loss or wager limit is refused whole, naming the limit
(``reason`` ``loss_limit`` / ``wager_limit``, ``params`` ``period``, ``limit``, ``left``,
``amount``); a self-excluded player is refused every bet, seat and deposit (``reason``
``self_excluded``, ``params`` ``until`` or ``permanent``). Lowering a limit applies at once;
raising or removing one only after :data:`RAISE_DELAY`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, case, func, literal, select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError, IllegalActionError
from croupier.server.base import utcnow
from croupier.server.errors import PermissionDeniedError
from croupier.server.responsible.models import LimitKind, Period, PlayerLimit, SelfExclusion
from croupier.server.rounds.models import Round, RoundPlayer, RoundStatus
from croupier.server.wallet.models import LedgerAccount, LedgerTransaction, Posting, TransactionKind

__all__ = [
    "PERIODS",
    "RAISE_DELAY",
    "Allowance",
    "EffectiveLimit",
    "Usage",
    "active_exclusion",
    "allowances",
    "blocked",
    "check_deposit",
    "check_stake",
    "effective",
    "exclusion_error",
    "limits_of",
    "usage",
]

PERIODS: Mapping[Period, dt.timedelta] = {
    Period.DAY: dt.timedelta(hours=24),
    Period.WEEK: dt.timedelta(days=7),
    Period.MONTH: dt.timedelta(days=30),
}
RAISE_DELAY = dt.timedelta(hours=24)
"""A raised or removed limit takes effect this long after it was asked for."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectiveLimit:
    """A limit as it stands at one moment: in force, and a raise waiting."""

    kind: LimitKind
    period: Period
    amount: int | None
    """In force now (minor units); ``None``: no limit."""
    pending: int | None = None
    """The raised amount waiting (``None`` with ``pending_remove``: the limit goes)."""
    pending_remove: bool = False
    pending_at: dt.datetime | None = None


def effective(row: PlayerLimit, *, now: dt.datetime) -> EffectiveLimit:
    """``row`` at ``now``: a pending raise whose time has come is in force."""
    kind, period = LimitKind(row.kind), Period(row.period)
    if row.pending_at is not None and row.pending_at <= now:
        amount = None if row.pending_remove else row.pending_amount
        return EffectiveLimit(kind=kind, period=period, amount=amount)
    return EffectiveLimit(
        kind=kind,
        period=period,
        amount=row.amount,
        pending=row.pending_amount,
        pending_remove=row.pending_remove,
        pending_at=row.pending_at,
    )


def limits_of(
    session: Session, user_ids: Iterable[int], *, now: dt.datetime
) -> dict[int, list[EffectiveLimit]]:
    """Every limit row of these users, as it stands at ``now``."""
    found: dict[int, list[EffectiveLimit]] = {}
    users = sorted(set(user_ids))
    for start in range(0, len(users), 1000):
        chunk = users[start : start + 1000]
        for row in session.scalars(select(PlayerLimit).where(PlayerLimit.user_id.in_(chunk))):
            found.setdefault(row.user_id, []).append(effective(row, now=now))
    return found


def active_exclusion(
    session: Session, user_ids: Iterable[int], *, now: dt.datetime
) -> dict[int, SelfExclusion]:
    """The self-exclusion in force for each of these users (the one that ends last)."""
    users = sorted(set(user_ids))
    found: dict[int, SelfExclusion] = {}
    for start in range(0, len(users), 1000):
        chunk = users[start : start + 1000]
        rows = session.scalars(
            select(SelfExclusion).where(
                SelfExclusion.user_id.in_(chunk),
                SelfExclusion.started_at <= now,
                (SelfExclusion.permanent.is_(True)) | (SelfExclusion.until > now),
            )
        )
        for row in rows:
            have = found.get(row.user_id)
            if have is None or _ends_later(row, have):
                found[row.user_id] = row
    return found


def _ends_later(a: SelfExclusion, b: SelfExclusion) -> bool:
    if b.permanent:
        return False
    return a.permanent or (a.until is not None and b.until is not None and a.until > b.until)


def exclusion_error(row: SelfExclusion) -> PermissionDeniedError:
    """The refusal of anything a self-excluded player may not do."""
    if row.permanent:
        return PermissionDeniedError(
            "you excluded yourself permanently: no bets, seats or deposits",
            reason="self_excluded",
            params={"permanent": True, "until": None},
        )
    assert row.until is not None
    until = row.until.isoformat()
    return PermissionDeniedError(
        f"you excluded yourself until {until}: no bets, seats or deposits until then",
        reason="self_excluded",
        params={"permanent": False, "until": until},
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """What a player has used of each kind of limit, per period (minor units)."""

    deposits: dict[Period, int] = field(default_factory=dict)
    wagered: dict[Period, int] = field(default_factory=dict)
    lost: dict[Period, int] = field(default_factory=dict)
    """Net loss of settled rounds (negative: a net win)."""
    at_risk: int = 0
    """Stakes of rounds in play and chips on Hold'em tables: counted as lost by a check."""

    def used(self, kind: LimitKind, period: Period) -> int:
        """What a check counts against a limit of ``kind`` over ``period``."""
        if kind is LimitKind.DEPOSIT:
            return self.deposits.get(period, 0)
        if kind is LimitKind.WAGER:
            return self.wagered.get(period, 0)
        return self.lost.get(period, 0) + self.at_risk


def _windows(column: Any, amount: Any, now: dt.datetime) -> list[Any]:
    """The sums of ``amount`` over the rows whose ``column`` falls in each period."""
    return [
        func.coalesce(func.sum(case((column >= now - PERIODS[p], amount), else_=literal(0))), 0)
        for p in Period
    ]


def usage(session: Session, *, user_id: int, now: dt.datetime) -> Usage:
    """Deposits, wagers, losses and money at risk of ``user_id`` (see the module docstring)."""
    since = now - PERIODS[Period.MONTH]
    mine = and_(RoundPlayer.round_id == Round.id, RoundPlayer.user_id == user_id)
    wagered = session.execute(
        select(*_windows(Round.created_at, RoundPlayer.staked, now))
        .select_from(Round)
        .join(RoundPlayer, mine)
        .where(Round.status != RoundStatus.VOIDED.value, Round.created_at >= since)
    ).one()
    net = RoundPlayer.staked - func.coalesce(RoundPlayer.returned, 0)
    lost = session.execute(
        select(*_windows(Round.closed_at, net, now))
        .select_from(Round)
        .join(RoundPlayer, mine)
        .where(Round.status == RoundStatus.SETTLED.value, Round.closed_at >= since)
    ).one()
    # A hand in play at a cash table records what it wagers, but its chips are the stack,
    # counted below: a round at a table where the player has a stack (a cash table's seat
    # account, which a table against the house never opens) is not counted twice.
    at_cash_table = (
        select(LedgerAccount.id)
        .where(
            LedgerAccount.code == literal("escrow:") + Round.table_name + literal(f":u{user_id}")
        )
        .exists()
    )
    in_play = session.scalar(
        select(func.coalesce(func.sum(RoundPlayer.staked), 0))
        .select_from(Round)
        .join(RoundPlayer, mine)
        .where(Round.status == RoundStatus.OPEN.value, ~at_cash_table)
    )
    # A Hold'em stack is the escrow account "escrow:<table>:u<id>" (tables/cash.py); table
    # names have no colon, so the pattern names this user's stacks only.
    stacks = session.scalar(
        select(func.coalesce(func.sum(LedgerAccount.balance), 0)).where(
            LedgerAccount.code.like(f"escrow:%:u{user_id}")
        )
    )
    wallet = select(LedgerAccount.id).where(LedgerAccount.code == f"player:{user_id}")
    deposits = session.execute(
        select(*_windows(LedgerTransaction.created_at, Posting.amount, now))
        .select_from(LedgerTransaction)
        .join(Posting, Posting.transaction_id == LedgerTransaction.id)
        .where(
            LedgerTransaction.kind == TransactionKind.CREDIT.value,
            LedgerTransaction.user_id == user_id,
            LedgerTransaction.created_at >= since,
            Posting.account_id.in_(wallet.scalar_subquery()),
        )
    ).one()
    periods = list(Period)
    return Usage(
        deposits={p: int(v) for p, v in zip(periods, deposits, strict=True)},
        wagered={p: int(v) for p, v in zip(periods, wagered, strict=True)},
        lost={p: int(v) for p, v in zip(periods, lost, strict=True)},
        at_risk=int(in_play or 0) + int(stacks or 0),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Allowance:
    """What one player may still stake now: their exclusion, and each limit's room left."""

    user_id: int
    exclusion: SelfExclusion | None = None
    left: tuple[tuple[LimitKind, Period, int, int], ...] = ()
    """(kind, period, limit, left) of every loss and wager limit in force."""

    def refusal(
        self,
        amount: int,
        *,
        counted: bool = False,
        kinds: Collection[LimitKind] = (LimitKind.LOSS, LimitKind.WAGER),
    ) -> CroupierError | None:
        """Why a stake of ``amount`` is refused, or ``None`` when it may be taken.

        ``counted``: the stake is already among what the allowance counted (checked after it
        was posted, in its transaction). ``kinds``: the limits that apply (a buy-in is no
        wager: loss only)."""
        if self.exclusion is not None:
            return exclusion_error(self.exclusion)
        extra = 0 if counted else amount
        passed = [e for e in self.left if e[0] in kinds and extra > e[3]]
        if not passed:
            return None
        kind, period, limit, left = min(passed, key=lambda e: e[3])
        return _limit_error(kind, period, limit, left + amount - extra, amount=amount)


def _limit_error(
    kind: LimitKind, period: Period, limit: int, left: int, *, amount: int | None
) -> IllegalActionError:
    what = "loss" if kind is LimitKind.LOSS else "wager"
    if amount is None:
        message = f"your {period.value} {what} limit of {limit} is used up"
    else:
        message = (
            f"a stake of {amount} would pass your {period.value} {what} limit of {limit}: "
            f"{max(0, left)} left"
        )
    return IllegalActionError(
        message,
        reason=f"{what}_limit",
        params={"period": period.value, "limit": limit, "left": max(0, left), "amount": amount},
    )


def allowances(
    session: Session, user_ids: Sequence[int], *, now: dt.datetime | None = None
) -> dict[int, Allowance]:
    """The allowance of each of these users that has a loss or wager limit or an exclusion
    (users without any are free to stake and are left out: one query for a whole batch, and
    the limits and exclusions read only for the users it finds -- at a live table, where a
    gateway's hold of 500 bets waits for each of its statements in turn, usually none)."""
    now = now or utcnow()
    having = _with_rules(session, user_ids)
    if not having:
        return {}
    limits = limits_of(session, having, now=now)
    excluded = active_exclusion(session, having, now=now)
    found: dict[int, Allowance] = {}
    for user in sorted(set(limits) | set(excluded)):
        staking = [
            lim
            for lim in limits.get(user, [])
            if lim.amount is not None and lim.kind is not LimitKind.DEPOSIT
        ]
        if not staking and user not in excluded:
            continue
        used = usage(session, user_id=user, now=now) if staking else Usage()
        left = tuple(
            (lim.kind, lim.period, int(lim.amount or 0), _room(lim, used)) for lim in staking
        )
        found[user] = Allowance(user_id=user, exclusion=excluded.get(user), left=left)
    return found


def _with_rules(session: Session, user_ids: Iterable[int]) -> list[int]:
    """Those of these users with a limit row or a self-exclusion row, in force or not."""
    users = sorted(set(user_ids))
    found: set[int] = set()
    for start in range(0, len(users), 1000):
        chunk = users[start : start + 1000]
        limited = select(PlayerLimit.user_id).where(PlayerLimit.user_id.in_(chunk))
        excluded = select(SelfExclusion.user_id).where(SelfExclusion.user_id.in_(chunk))
        found.update(session.scalars(limited.union(excluded)))
    return sorted(found)


def _room(limit: EffectiveLimit, used: Usage) -> int:
    return int(limit.amount or 0) - used.used(limit.kind, limit.period)


def check_stake(
    session: Session,
    *,
    user_id: int,
    amount: int,
    now: dt.datetime | None = None,
    counted: bool = False,
    kinds: Collection[LimitKind] = (LimitKind.LOSS, LimitKind.WAGER),
) -> None:
    """Refuse a stake (a bet, a Play bet, a fee; a buy-in with ``kinds`` loss only) that the
    player's self-exclusion or limits forbid. ``counted``: called after the stake was posted
    in the caller's transaction (then a concurrent stake of the same player, which waits for
    the lock on the wallet's row, is counted too).

    Raises:
        PermissionDeniedError: the player is self-excluded (``reason`` ``self_excluded``).
        IllegalActionError: the stake would pass a limit (``loss_limit``, ``wager_limit``).
    """
    allowance = allowances(session, [user_id], now=now).get(user_id)
    refusal = (
        allowance.refusal(amount, counted=counted, kinds=kinds) if allowance is not None else None
    )
    if refusal is not None:
        raise refusal


def check_deposit(
    session: Session,
    *,
    user_id: int,
    amount: int,
    now: dt.datetime | None = None,
    counted: bool = False,
) -> None:
    """Refuse a deposit the player's self-exclusion or deposit limits forbid; ``counted``:
    called after the credit was posted in the caller's transaction.

    Raises:
        PermissionDeniedError: the player is self-excluded.
        IllegalActionError: the deposit would pass a deposit limit (``deposit_limit``).
    """
    now = now or utcnow()
    excluded = active_exclusion(session, [user_id], now=now).get(user_id)
    if excluded is not None:
        raise exclusion_error(excluded)
    limits = [
        lim
        for lim in limits_of(session, [user_id], now=now).get(user_id, [])
        if lim.kind is LimitKind.DEPOSIT and lim.amount is not None
    ]
    if not limits:
        return
    used = usage(session, user_id=user_id, now=now)
    room = [(_room(lim, used) + (amount if counted else 0), lim) for lim in limits]
    left, lim = min(room, key=lambda r: r[0])
    if amount > left:
        raise IllegalActionError(
            f"a deposit of {amount} would pass the {lim.period.value} deposit limit of "
            f"{lim.amount}: {max(0, left)} left",
            reason="deposit_limit",
            params={
                "period": lim.period.value,
                "limit": int(lim.amount or 0),
                "left": max(0, left),
                "amount": amount,
            },
        )


def blocked(
    session: Session,
    user_ids: Sequence[int],
    *,
    need: int = 1,
    now: dt.datetime | None = None,
) -> dict[int, CroupierError]:
    """The players who may not be dealt in a new hand at a cash table: self-excluded, a
    wager limit that leaves less than ``need`` (the most a seat posts before it acts: the
    big blind and the ante, issue 27), or a loss limit already passed (lowered below what
    they have at risk). Their refusal names why."""
    found: dict[int, CroupierError] = {}
    for user, allowance in allowances(session, user_ids, now=now).items():
        if allowance.exclusion is not None:
            found[user] = exclusion_error(allowance.exclusion)
            continue
        spent = [
            entry
            for entry in allowance.left
            if (entry[0] is LimitKind.WAGER and entry[3] < max(1, need))
            or (entry[0] is LimitKind.LOSS and entry[3] < 0)
        ]
        if spent:
            kind, period, limit, left = min(spent, key=lambda e: e[3])
            amount = need if kind is LimitKind.WAGER and left > 0 else None
            found[user] = _limit_error(kind, period, limit, left, amount=amount)
    return found
