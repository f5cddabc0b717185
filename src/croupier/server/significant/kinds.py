"""What counts as a significant event, read off the audit log (GLI-19 §2.8.8).

Every significant event is an entry of the hash-chained audit log (:mod:`..audit`): the new
ones are appended as ``event.<kind>`` (:data:`RECORDED`), and the operators' changes to
tables already there are classified by what they changed (a pay table, a limit, the status).
:func:`classify` names the kind of an entry, or ``None`` for an entry that is not one.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

__all__ = ["ACTION_PREFIX", "CANDIDATE_ACTIONS", "RECORDED", "Kind", "classify", "table_of"]


class Kind(StrEnum):
    """The kinds of significant events, by their wire names."""

    BIG_WIN = "big_win"
    """A player's win in one round at or above the table's threshold."""
    TABLE_CHANGE = "table_change"
    """A table opened or seeded, or a setting changed that is neither a limit nor a pay table."""
    PAYTABLE_CHANGE = "paytable_change"
    LIMITS_CHANGE = "limits_change"
    TABLE_CLOSED = "table_closed"
    """Closed by an operator, or by the server (an integrity mismatch)."""
    TABLE_REOPENED = "table_reopened"
    RNG_AUDIT_FAILED = "rng_audit_failed"
    RTP_ALERT = "rtp_alert"
    RTP_INVESTIGATION = "rtp_investigation"
    SERVER_START = "server_start"
    SERVER_STOP = "server_stop"
    CRASH_RECOVERY = "crash_recovery"
    """Rounds a crash left open, voided at the next start."""
    CLOCK_STEP = "clock_step"
    INTEGRITY = "integrity"
    """A check of the installed files and the tables' pay tables: a mismatch, or the result
    of a scheduled check."""


ACTION_PREFIX = "event."
RECORDED = frozenset(
    {
        Kind.BIG_WIN,
        Kind.RNG_AUDIT_FAILED,
        Kind.RTP_ALERT,
        Kind.RTP_INVESTIGATION,
        Kind.SERVER_START,
        Kind.SERVER_STOP,
        Kind.CLOCK_STEP,
        Kind.INTEGRITY,
        Kind.TABLE_CLOSED,
    }
)
"""Kinds appended as ``event.<kind>`` entries (the others are existing actions)."""

_TABLE_ACTIONS = {
    "table.seed": Kind.TABLE_CHANGE,
    "table.open": Kind.TABLE_CHANGE,
    "table.close": Kind.TABLE_CLOSED,
    "table.reopen": Kind.TABLE_REOPENED,
    "rounds.void_after_crash": Kind.CRASH_RECOVERY,
}
CANDIDATE_ACTIONS = (*_TABLE_ACTIONS, "table.update", *(ACTION_PREFIX + k for k in RECORDED))
"""Every audit action that may be a significant event."""

_LIMITS = frozenset(
    {"min_bet", "max_bet", "trips_min", "trips_max", "bonus_min", "bonus_max", "max_payout"}
)


def _update_kind(details: Mapping[str, Any]) -> Kind:
    changed = details.get("changed") or {}
    fields = set(changed) if isinstance(changed, Mapping) else set()
    if any(str(f).startswith("paytables") for f in fields):
        return Kind.PAYTABLE_CHANGE
    if fields & _LIMITS:
        return Kind.LIMITS_CHANGE
    return Kind.TABLE_CHANGE


def classify(action: str, details: Mapping[str, Any]) -> Kind | None:
    """The kind of an audit entry, or ``None`` when it is not a significant event.

    >>> classify("event.big_win", {}), classify("account.credit", {})
    (<Kind.BIG_WIN: 'big_win'>, None)
    >>> classify("table.update", {"changed": {"paytables.blind": {}}})
    <Kind.PAYTABLE_CHANGE: 'paytable_change'>
    """
    if action.startswith(ACTION_PREFIX):
        try:
            return Kind(action[len(ACTION_PREFIX) :])
        except ValueError:
            return None
    if action == "table.update":
        return _update_kind(details)
    return _TABLE_ACTIONS.get(action)


def table_of(subject: str) -> str | None:
    """The table an entry is about (``table:<name>``), if any."""
    return subject[len("table:") :] if subject.startswith("table:") else None
