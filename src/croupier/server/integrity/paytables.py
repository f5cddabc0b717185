"""Each table's pay tables: as shipped, as approved in the audit chain, as running.

A table's *pay tables* are what decides what it pays: UTH's Blind and Trips tables, Russian
Poker's Bet and Bonus tables, Hold'em's rake policy (the house's only take). Their canonical
JSON's SHA-256 is in the manifest for the shipped tables. The *approved* configuration of a
table is the last one the hash-chained audit log recorded for it (``table.seed``,
``table.open``, ``table.update``): what an operator set through the console. A table whose
configuration in the database differs from it was changed behind the log's back.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.audit.chain import canonical_json
from croupier.server.audit.models import AuditEntry
from croupier.server.tables.config import TableConfig, load_tables
from croupier.server.tables.registry import available_games, operator_settings, theories

__all__ = [
    "Approval",
    "approved_config",
    "approved_configs",
    "differences",
    "paytables_of",
    "paytables_sha256",
    "shipped_tables",
]

_TABLE_ACTIONS = ("table.seed", "table.open", "table.update", "table.close", "table.reopen")


def paytables_of(config: TableConfig) -> dict[str, Any]:
    """The pay tables a table with ``config`` runs (every line, defaults included).

    Raises:
        ConfigError: rules its game refuses (or no such game).
    """
    builder = available_games().get(config.game)
    if builder is None:
        return {}
    described = builder(config).describe()
    rules = described.get("rules", described)
    names = operator_settings(config.game).paytables
    if names:
        return {name: rules.get(rule) for name, rule in sorted(names.items())}
    theory = theories().get(config.game)
    shown = theory.shown_rules if theory is not None else ()
    return {rule: rules.get(rule) for rule in shown}


def paytables_sha256(view: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(view)).encode()).hexdigest()


def shipped_tables() -> dict[str, dict[str, Any]]:
    """The package's own tables (``default_tables.toml``): game, pay tables, digest."""
    out: dict[str, dict[str, Any]] = {}
    for config in load_tables():
        try:
            view = paytables_of(config)
        except CroupierError:
            continue
        out[config.name] = {
            "game": config.game,
            "paytables": view,
            "sha256": paytables_sha256(view),
        }
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Approval:
    """What the audit log approved of one table."""

    config: TableConfig | None
    """The configuration last recorded; ``None``: a change recorded without it (before
    issue 30), so the table cannot be checked."""
    seq: int
    """The audit entry that approved it."""


def _approval(seq: int, details: str) -> Approval:
    data = json.loads(details).get("config")
    if data is None:
        return Approval(config=None, seq=seq)
    try:
        return Approval(config=TableConfig.model_validate(data), seq=seq)
    except ValueError:
        return Approval(config=None, seq=seq)


def approved_configs(session: Session) -> dict[str, Approval]:
    """Every table's approved configuration, read from the audit log in order."""
    approved: dict[str, Approval] = {}
    rows = session.execute(
        select(AuditEntry.seq, AuditEntry.subject, AuditEntry.details)
        .where(AuditEntry.action.in_(_TABLE_ACTIONS))
        .order_by(AuditEntry.seq)
    )
    for seq, subject, details in rows:
        if subject.startswith("table:"):
            approved[subject[len("table:") :]] = _approval(seq, details)
    return approved


def approved_config(session: Session, table: str) -> Approval | None:
    """``table``'s approved configuration (the last entry about it), or ``None``: none."""
    row = session.execute(
        select(AuditEntry.seq, AuditEntry.details)
        .where(AuditEntry.subject == f"table:{table}", AuditEntry.action.in_(_TABLE_ACTIONS))
        .order_by(AuditEntry.seq.desc())
        .limit(1)
    ).first()
    return None if row is None else _approval(row.seq, row.details)


def _lines(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {"": value}


@dataclass(slots=True)
class _Diff:
    lines: list[str] = field(default_factory=list)


def differences(approved: Mapping[str, Any], running: Mapping[str, Any]) -> list[str]:
    """What differs between two pay-table views, line by line.

    >>> differences({"blind": {"straight": "1:1"}}, {"blind": {"straight": "5:1"}})
    ['blind.straight: approved 1:1, running 5:1']
    """
    out = _Diff()
    for name in sorted(set(approved) | set(running)):
        a, r = _lines(approved.get(name)), _lines(running.get(name))
        for line in sorted(set(a) | set(r), key=str):
            if a.get(line) != r.get(line):
                where = f"{name}.{line}" if line != "" else name
                out.lines.append(f"{where}: approved {a.get(line)}, running {r.get(line)}")
    return out.lines
