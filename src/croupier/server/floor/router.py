"""HTTP routes of the floor: every table with its limits, pay tables, status and theoretical
return; open a table; change one at run time (docs/protocol.md "Tables at run time").

A change is checked whole (:mod:`.changes`), stored and audited in one transaction, then handed
to the running table, which applies it between two of its commands: from the next round on
(the round in play keeps what it opened with), and everyone at the table gets a
``table_changed`` event. Changes are applied one at a time per server, in the order stored.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any, Literal

import anyio.from_thread
from fastapi import APIRouter, Path, Request
from sqlalchemy import select

from croupier.errors import ConfigError
from croupier.server.deps import OperatorUser, SessionDep
from croupier.server.floor import changes, store
from croupier.server.floor.models import TableRow, TableStatus
from croupier.server.floor.returns import theoretical_return
from croupier.server.tables.config import TableConfig
from croupier.server.tables.manager import TableManager

__all__ = ["router"]

router = APIRouter(prefix="/api/operator/tables", tags=["floor"])

TableName = Annotated[str, Path(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$", description="a table's name")]


class NewTable(TableConfig):
    """A table to open: a ``tables.toml`` entry, and whether it opens closed."""

    status: Literal["open", "closed"] = "open"


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.tables
    return manager


def _lock(request: Request) -> threading.Lock:
    lock: threading.Lock = request.app.state.floor_lock
    return lock


def _entry(request: Request, table: store.StoredTable) -> dict[str, Any]:
    """One table as the operator's console shows it."""
    config, manager = table.config, _manager(request)
    running = manager.tables.get(config.name)
    # A cluster's table run by another process: as its owner last published it, with the
    # rules of the configuration stored now.
    lobby = manager.run_elsewhere(config.name, config) if running is None else running.describe()
    entry: dict[str, Any] = {
        "name": config.name,
        "title": config.title,
        "game": config.game,
        "status": table.status.value,
        "version": table.version,
        "updated_at": table.updated_at,
        "updated_by": table.updated_by,
        "config": store.config_json(config),
    }
    if lobby is None:
        reason = manager.unavailable.get(config.name, {}).get("reason", "not running")
        return {
            **entry,
            "status": "unavailable",
            "reason": reason,
            "rules": dict(config.rules),
            "theoretical_return": {"status": "unavailable", "reason": reason},
        }
    described = lobby["rules"]
    paytables = changes.paytables(config.game, described)
    return {
        **entry,
        "play": lobby["status"],
        "round_id": lobby["round_id"],
        "seats_taken": lobby["seats_taken"],
        "max_seats": lobby["max_seats"],
        "timers": lobby["timers"],
        "limits": changes.limits(config.game, described),
        "paytables": paytables,
        "rules": described,
        "theoretical_return": theoretical_return(
            config.game, described, book=request.app.state.theory
        ),
    }


def _all(session: Any) -> list[store.StoredTable]:
    rows = session.scalars(select(TableRow).order_by(TableRow.position, TableRow.name))
    return [store.stored(row) for row in rows]


@router.get("")
def list_tables(
    request: Request, operator: OperatorUser, session: SessionDep
) -> list[dict[str, Any]]:
    """Every table: game, rules, limits, pay tables, status and theoretical return (UTH
    ``computing`` while the exact analysis of a new pay table runs)."""
    return [_entry(request, table) for table in _all(session)]


@router.get("/{name}")
def get_table(
    request: Request, name: TableName, operator: OperatorUser, session: SessionDep
) -> dict[str, Any]:
    return _entry(request, store.stored(store.get(session, name)))


@router.post("", status_code=201)
def open_table(
    request: Request, body: NewTable, operator: OperatorUser, session: SessionDep
) -> dict[str, Any]:
    """Open a new table from a ``tables.toml`` entry (``status: "closed"`` opens it closed)."""
    config = TableConfig.model_validate(body.model_dump(exclude={"status"}))
    status = TableStatus(body.status)
    manager = _manager(request)
    changes.check_rules(config.game, config.rules)
    with _lock(request):
        if config.enabled:
            changes.build(config)
        table = store.create(session, config=config, status=status, actor=operator.username)
        session.commit()
        try:
            anyio.from_thread.run_sync(
                lambda: manager.add(config, closed=status is TableStatus.CLOSED)
            )
        except ConfigError:  # pragma: no cover - checked by build() above
            raise
        request.app.state.table_configs = list(manager.configs.values())
    return _entry(request, table)


@router.patch("/{name}")
def change_table(
    request: Request,
    name: TableName,
    body: changes.TablePatch,
    operator: OperatorUser,
    session: SessionDep,
) -> dict[str, Any]:
    """Change limits, pay tables or status (minor units): from the next round on; closing
    lets the round in play finish and refuses new bets, seats and hands."""
    manager = _manager(request)
    with _lock(request):
        row = store.get(session, name, lock=True)
        current = store.stored(row)
        described = changes.build(current.config).describe()
        patch = changes.patched(current.config, body, status=current.status, described=described)
        if not patch.changed:
            return _entry(request, current)  # closing a closed table: nothing to do
        table = store.update(
            session,
            row,
            config=patch.config,
            status=patch.status,
            actor=operator.username,
            changed=patch.changed,
        )
        session.commit()
        anyio.from_thread.run(
            lambda: manager.change(
                name,
                patch.config,
                closed=patch.status is TableStatus.CLOSED,
                changed=patch.changed,
            )
        )
        request.app.state.table_configs = list(manager.configs.values())
    return _entry(request, table)
