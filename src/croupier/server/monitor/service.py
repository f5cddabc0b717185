"""The monitor's work in the database: follow each table's settled rounds, update the
streams' detectors, raise alerts, record investigations.

A table's stream remembers the last round it took (``last_round``); :func:`process_table`
takes the rounds settled after it, in order, in the caller's transaction, so a crash loses
nothing and counts nothing twice: the next start resumes there (the rounds are the outbox).
It stops at a round still open (a round is numbered when it opens) and at one whose theory is
still being computed (a new pay table's exact run), to take it later. Each alert is a row
of its own and a significant event in the audit chain, in the same transaction.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.analysis.monitoring import Detector, Side
from croupier.server.base import utcnow
from croupier.server.errors import InvalidRequestError, NotFoundError
from croupier.server.monitor.models import AlertStatus, Outcome, RtpAlert, RtpStream, UserChannel
from croupier.server.monitor.streams import Aggregate, Policy, Stream, round_streams
from croupier.server.rounds.models import Round, RoundPlayer, RoundStatus
from croupier.server.rounds.theory import GameTheory, MonitorRound
from croupier.server.significant import service as significant
from croupier.server.significant.kinds import Kind

__all__ = [
    "Batch",
    "Processed",
    "Setup",
    "alert_json",
    "ensure_tables",
    "fetch",
    "investigate",
    "process_table",
    "record",
    "stream_json",
    "value",
]

_NOTE_MAX = 2000


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """What the monitor needs besides the database."""

    policy: Policy
    threshold: float
    """The alarm level ``A`` (not its log)."""
    theories: Mapping[str, GameTheory]
    book: Any
    """The server's theory cache."""
    rules_of: Callable[[Session, str], Mapping[str, Any] | None] = lambda _s, _t: None
    """A table's approved rules (``None``: each round's own record)."""


@dataclass(slots=True)
class Processed:
    """What one call did."""

    rounds: int = 0
    alerts: list[dict[str, Any]] = field(default_factory=list)
    waiting: str = ""
    """Why it stopped before the last round settled (a theory computing), if it did."""
    more: bool = False
    """It stopped at ``limit`` rounds: there are more to take."""


def _row(session: Session, stream: Stream, *, lock: bool) -> RtpStream:
    query = select(RtpStream).where(RtpStream.key == stream.key)
    row = session.scalars(query.with_for_update() if lock else query).first()
    if row is None:
        row = RtpStream(
            key=stream.key, kind=stream.kind, table_name=stream.table, label=stream.label,
            rounds=0, boxes=0, base=0, net=0, mean=0.0, variance=0.0, uncovered=0,
            last_round=0, detector=Detector.new().to_json(), evidence_high=0.0,
            evidence_low=0.0, started_at=utcnow(), updated_at=utcnow(),
        )  # fmt: skip
        session.add(row)
        session.flush()
    return row


def ensure_tables(session: Session, tables: Iterable[str]) -> None:
    """A stream for each table that has none, starting after its rounds so far (a monitor
    added to a casino with history watches from now on)."""
    for table in tables:
        stream = Stream(f"table:{table}", "table", table, table)
        if session.get(RtpStream, stream.key) is not None:
            continue
        last = session.scalar(select(func.max(Round.id)).where(Round.table_name == table))
        try:
            with session.begin_nested():  # another process of a cluster may add it too
                _row(session, stream, lock=False).last_round = int(last or 0)
        except IntegrityError:
            pass


def _channels(session: Session, round_id: int) -> dict[int, str]:
    rows = session.execute(
        select(RoundPlayer.seat, UserChannel.channel)
        .join(UserChannel, UserChannel.user_id == RoundPlayer.user_id, isouter=True)
        .where(RoundPlayer.round_id == round_id)
    )
    return {int(seat): channel or "unknown" for seat, channel in rows}


def _returns(row: RtpStream) -> tuple[float | None, float | None]:
    if row.base <= 0:
        return None, None
    return 1 + row.net / row.base, 1 + row.mean / row.base


def _alert(
    session: Session, row: RtpStream, side: str, *, round_id: int, evidence: float, level: float
) -> dict[str, Any] | None:
    """A new alert (a significant event), or, while one of the stream's on that side is still
    open, that one brought up to date (its ``crossings`` counted): one alert to investigate,
    not one a round; ``None`` then."""
    actual, theory = _returns(row)
    open_one = session.scalars(
        select(RtpAlert).where(
            RtpAlert.stream == row.key,
            RtpAlert.side == side,
            RtpAlert.status == AlertStatus.OPEN.value,
        )
    ).first()
    if open_one is not None:
        open_one.crossings += 1
        open_one.round_id, open_one.rounds, open_one.base = round_id, row.rounds, row.base
        open_one.actual_return, open_one.theoretical_return = actual, theory
        open_one.evidence = evidence
        return None
    alert = RtpAlert(
        stream=row.key, kind=row.kind, table_name=row.table_name, label=row.label, side=side,
        round_id=round_id, rounds=row.rounds, base=row.base, actual_return=actual,
        theoretical_return=theory, evidence=evidence, threshold=level, raised_at=utcnow(),
        status=AlertStatus.OPEN.value, notes=[], crossings=1,
    )  # fmt: skip
    session.add(alert)
    session.flush()
    data = alert_json(alert)
    subject = f"table:{row.table_name}" if row.table_name else row.key
    significant.record(session, Kind.RTP_ALERT, subject=subject, details=_event_details(data))
    return data


def _event_details(alert: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("id", "stream", "kind", "label", "side", "round_id", "rounds", "base")
    details = {k: alert[k] for k in keys}
    for name in ("actual_return", "theoretical_return", "evidence", "threshold"):
        value = alert[name]
        details[name] = None if value is None else round(float(value), 9)
    return {"alert_id": details.pop("id"), **details}


def _feed(
    session: Session, stream: Stream, share: Aggregate, setup: Setup, round_id: int
) -> list[dict[str, Any]]:
    row = _row(session, stream, lock=True)
    detector = Detector.from_json(row.detector)
    detector.update(share.observation(setup.policy))
    row.rounds += 1
    row.boxes += share.boxes
    row.base += share.base
    row.net += share.net
    row.mean += share.mean
    row.variance += share.sd * share.sd
    level = math.log(setup.threshold)
    raised = []
    for side in Side.ALL:
        evidence = detector.evidence(side)
        if evidence >= level:
            alert = _alert(session, row, side, round_id=round_id, evidence=evidence, level=level)
            if alert is not None:
                raised.append(alert)
            detector.restart(side)
    row.evidence_high, row.evidence_low = detector.evidence(Side.HIGH), detector.evidence(Side.LOW)
    row.detector = detector.to_json()
    row.updated_at = utcnow()
    return raised


def _theory(
    setup: Setup, game: str, record: Any, rules: Mapping[str, Any] | None
) -> MonitorRound | None:
    theory = setup.theories.get(game)
    if theory is None or not record:
        return None
    return theory.monitor_round(record, setup.book, rules=rules)


@dataclass(slots=True)
class Batch:
    """A table's rounds after its stream's last, read in one short transaction, then valued
    outside any (:func:`fetch`, :func:`value`, :func:`record`): a live round's thousand
    boxes are valued while the settlements of the next round write (SQLite has one writer)."""

    table: str
    after: int
    rows: list[tuple[int, str, str, Any, str | None]]
    rules: Mapping[str, Any] | None
    channels: dict[int, dict[int, str]]
    more: bool = False
    valued: dict[int, MonitorRound | None] = field(default_factory=dict)
    shares: dict[int, dict[Stream, Aggregate]] = field(default_factory=dict)


def _taken(status: str, commitment: str | None) -> bool:
    return status == RoundStatus.SETTLED.value and bool(commitment)


def fetch(session: Session, table: str, setup: Setup, *, limit: int = 50) -> Batch:
    """``table``'s rounds settled since its stream's last, up to ``limit``, with what valuing
    them needs (the approved rules, each round's players' channels); it writes nothing
    (:meth:`.Database.reading`)."""
    head = session.get(RtpStream, f"table:{table}")  # read only: none yet is 0
    after = 0 if head is None else int(head.last_round)
    rows = [
        (int(r[0]), str(r[1]), str(r[2]), r[3], r[4])
        for r in session.execute(
            select(Round.id, Round.game, Round.status, Round.record, Round.commitment)
            .where(Round.table_name == table, Round.id > after)
            .order_by(Round.id)
            .limit(limit + 1)
        )
    ]
    more = len(rows) > limit
    rows = rows[:limit]
    closed = []
    for row in rows:
        if row[2] == RoundStatus.OPEN.value:
            break
        closed.append(row)
    rules = setup.rules_of(session, table) if closed else None
    channels = {r[0]: _channels(session, r[0]) for r in closed if _taken(r[2], r[4])}
    return Batch(table, after, closed, rules, channels, more and len(closed) == limit)


def value(batch: Batch, setup: Setup) -> Batch:
    """Each settled round's boxes against its theory (no database: the CPU's part), up to
    the first whose theory is still computing."""
    for round_id, game, status, record, commitment in batch.rows:
        if not _taken(status, commitment):
            continue
        theory = _theory(setup, game, record, batch.rules)
        batch.valued[round_id] = theory
        if theory is not None and theory.status == "computing":
            break
        if theory is not None and theory.status == "ready":
            batch.shares[round_id] = round_streams(
                batch.table, theory.boxes, channels=batch.channels[round_id], policy=setup.policy
            )
    return batch


def record(session: Session, batch: Batch, setup: Setup) -> Processed:
    """Feed the valued rounds to the streams, in order, and move the table's stream past
    them; nothing when another process took them meanwhile (``more``: read again)."""
    done = Processed()
    table = batch.table
    head = _row(session, Stream(f"table:{table}", "table", table, table), lock=True)
    if head.last_round != batch.after:
        done.more = True
        return done
    done.more = batch.more
    for round_id, _game, status, _record, commitment in batch.rows:
        if _taken(status, commitment):
            theory = batch.valued.get(round_id)
            if theory is not None and theory.status == "computing":
                done.waiting = theory.reason or "the theory of the table's pay tables is computing"
                done.more = False
                break
            if theory is not None and theory.status != "ready":
                head.uncovered += 1
            elif theory is not None:
                head.uncovered += theory.uncovered
                shares = batch.shares[round_id]
                for stream in sorted(shares, key=lambda s: (s.kind != "table", s.key)):
                    done.alerts += _feed(session, stream, shares[stream], setup, round_id)
                done.rounds += 1
        head.last_round = round_id
    return done


def process_table(session: Session, table: str, setup: Setup, *, limit: int = 50) -> Processed:
    """Take ``table``'s rounds settled since its stream's last, up to ``limit``, in the
    caller's transaction."""
    return record(session, value(fetch(session, table, setup, limit=limit), setup), setup)


def investigate(
    session: Session, alert_id: int, *, by: str, outcome: str, note: str
) -> dict[str, Any]:
    """Record an investigation of an alert: a note and what was found (any outcome but
    ``in_progress`` closes it); a significant event.

    Raises:
        NotFoundError: no such alert.
        InvalidRequestError: an unknown outcome, an empty or over-long note, a closed alert.
    """
    try:
        found = Outcome(outcome)
    except ValueError:
        raise InvalidRequestError(
            f"outcome: {outcome!r} is not one of {[o.value for o in Outcome]}",
            reason="investigation_outcome",
            params={"outcome": outcome},
        ) from None
    text = note.strip() if isinstance(note, str) else ""
    if not text or len(text) > _NOTE_MAX:
        raise InvalidRequestError(
            f"note: 1 to {_NOTE_MAX} characters, not {len(text)}",
            reason="investigation_note",
            params={"max": _NOTE_MAX},
        )
    alert = session.get(RtpAlert, alert_id, with_for_update=True)
    if alert is None:
        raise NotFoundError(f"alert {alert_id} does not exist")
    if alert.status == AlertStatus.CLOSED.value:
        raise InvalidRequestError(
            f"alert {alert_id} is closed ({alert.outcome})",
            reason="alert_closed",
            params={"alert": alert_id, "outcome": alert.outcome},
        )
    now = utcnow()
    entry = {"at": now.isoformat(), "by": by, "outcome": found.value, "note": text}
    alert.notes = [*alert.notes, entry]
    if found is not Outcome.IN_PROGRESS:
        alert.status, alert.outcome, alert.closed_at = AlertStatus.CLOSED.value, found.value, now
    subject = f"table:{alert.table_name}" if alert.table_name else alert.stream
    significant.record(
        session,
        Kind.RTP_INVESTIGATION,
        actor=by,
        subject=subject,
        details={
            "alert_id": alert.id,
            "stream": alert.stream,
            "outcome": found.value,
            "note": text,
        },
    )
    session.flush()
    return alert_json(alert)


def alert_json(alert: RtpAlert) -> dict[str, Any]:
    return {
        "id": alert.id,
        "stream": alert.stream,
        "kind": alert.kind,
        "table": alert.table_name,
        "label": alert.label,
        "side": alert.side,
        "round_id": alert.round_id,
        "crossings": alert.crossings,
        "rounds": alert.rounds,
        "base": alert.base,
        "actual_return": alert.actual_return,
        "theoretical_return": alert.theoretical_return,
        "evidence": alert.evidence,
        "threshold": alert.threshold,
        "raised_at": alert.raised_at.isoformat(),
        "status": alert.status,
        "outcome": alert.outcome,
        "notes": list(alert.notes or []),
        "closed_at": alert.closed_at.isoformat() if alert.closed_at else None,
    }


def stream_json(row: RtpStream, *, threshold: float) -> dict[str, Any]:
    actual, theory = _returns(row)
    sd = math.sqrt(row.variance) / row.base if row.base > 0 else None
    return {
        "key": row.key,
        "kind": row.kind,
        "table": row.table_name,
        "label": row.label,
        "rounds": row.rounds,
        "boxes": row.boxes,
        "base": row.base,
        "net": row.net,
        "actual_return": actual,
        "theoretical_return": theory,
        "sd_return": sd,
        "uncovered": row.uncovered,
        "evidence": {"high": row.evidence_high, "low": row.evidence_low},
        "level": math.log(threshold),
        "updated_at": row.updated_at.isoformat(),
    }
