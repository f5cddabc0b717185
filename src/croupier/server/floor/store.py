"""The floor's tables in the database: seeded once from ``tables.toml``, then as operators
leave them. Each function takes the caller's session and appends its audit entry there, so
a change and its entry commit together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.errors import ConfigError
from croupier.server.audit import service as audit
from croupier.server.base import utcnow
from croupier.server.errors import ConflictError, NotFoundError
from croupier.server.floor.models import TableRow, TableStatus
from croupier.server.tables.config import TableConfig

__all__ = ["StoredTable", "config_json", "create", "get", "load_or_seed", "stored", "update"]


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredTable:
    """A table as the database holds it."""

    config: TableConfig
    status: TableStatus
    version: int
    updated_at: str
    updated_by: str

    @property
    def closed(self) -> bool:
        return self.status is TableStatus.CLOSED


def config_json(config: TableConfig) -> dict[str, Any]:
    """A table's configuration as JSON, shaped like its ``tables.toml`` entry."""
    return config.model_dump(mode="json")


def stored(row: TableRow) -> StoredTable:
    """A row as a :class:`StoredTable`.

    Raises:
        ConfigError: a stored configuration this version no longer accepts.
    """
    try:
        config = TableConfig.model_validate(row.config)
    except ValueError as exc:
        raise ConfigError(f"stored table {row.name!r} is not valid: {exc}") from None
    return StoredTable(
        config=config,
        status=TableStatus(row.status),
        version=row.version,
        updated_at=row.updated_at.isoformat(),
        updated_by=row.updated_by,
    )


def load_or_seed(session: Session, seed: Sequence[TableConfig]) -> list[StoredTable]:
    """Every stored table in lobby order; an empty database is seeded from ``seed`` first
    (``tables.toml``: it seeds an empty database only, afterwards the database is the truth)."""
    rows = list(session.scalars(select(TableRow).order_by(TableRow.position, TableRow.name)))
    if not rows:
        now = utcnow()
        for position, config in enumerate(seed):
            row = TableRow(
                name=config.name, game=config.game, config=config_json(config),
                status=TableStatus.OPEN.value, position=position, version=1,
                created_at=now, updated_at=now, updated_by=audit.SYSTEM,
            )  # fmt: skip
            session.add(row)
            rows.append(row)
        session.flush()
        for config in seed:
            audit.append(
                session,
                actor=audit.SYSTEM,
                action="table.seed",
                subject=f"table:{config.name}",
                details={"config": config_json(config)},
            )
    return [stored(row) for row in rows]


def get(session: Session, name: str, *, lock: bool = False) -> TableRow:
    """The row of table ``name`` (locked for an update when ``lock``).

    Raises:
        NotFoundError: no such table.
    """
    query = select(TableRow).where(TableRow.name == name)
    row = session.scalars(query.with_for_update() if lock else query).first()
    if row is None:
        raise NotFoundError(f"table {name!r} does not exist")
    return row


def create(
    session: Session, *, config: TableConfig, status: TableStatus, actor: str
) -> StoredTable:
    """Store a new table (after the tables already there) and audit it.

    Raises:
        ConflictError: the name is taken (``reason`` ``table_exists``).
    """
    if session.get(TableRow, config.name) is not None:
        raise ConflictError(
            f"table {config.name!r} exists already",
            reason="table_exists",
            params={"table": config.name},
        )
    position = session.scalar(select(func.coalesce(func.max(TableRow.position), -1))) or 0
    now = utcnow()
    row = TableRow(
        name=config.name, game=config.game, config=config_json(config), status=status.value,
        position=int(position) + 1, version=1, created_at=now, updated_at=now, updated_by=actor,
    )  # fmt: skip
    session.add(row)
    session.flush()
    audit.append(
        session,
        actor=actor,
        action="table.open",
        subject=f"table:{config.name}",
        details={"config": config_json(config), "status": status.value},
    )
    return stored(row)


def update(
    session: Session,
    row: TableRow,
    *,
    config: TableConfig,
    status: TableStatus,
    actor: str,
    changed: Mapping[str, Any],
) -> StoredTable:
    """Store a table's new configuration or status and audit what changed (``changed``: the
    request's fields with their old and new values) with the whole new configuration (what
    the integrity check and the return monitor take as approved, issue 30)."""
    before = TableStatus(row.status)
    row.config, row.status = config_json(config), status.value
    row.version += 1
    row.updated_at, row.updated_by = utcnow(), actor
    session.flush()
    action = "table.update"
    if status is not before:
        action = "table.close" if status is TableStatus.CLOSED else "table.reopen"
    audit.append(
        session,
        actor=actor,
        action=action,
        subject=f"table:{row.name}",
        details={"changed": dict(changed), "version": row.version, "config": row.config},
    )
    return stored(row)
