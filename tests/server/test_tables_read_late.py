"""A cluster's process reads the tables' configurations from the database every few seconds
(``Node._refresh_tables``: tables changed through another process). An operator's change made
through this process while such a read is under way is kept: the read may hold the old
limits, and applied it would put them back until the next read, this process's gateway
pricing and checking bets by them (CI saw a bet above the new maximum held at the old one's
price, then refused by the wallet instead of by the limits)."""

from __future__ import annotations

import asyncio
from typing import Any

from server_testkit import test_tables

from croupier.server.cluster import node as node_module
from croupier.server.cluster.node import Node
from croupier.server.db import Database
from croupier.server.floor import store
from croupier.server.tables.manager import TableManager

TABLE = "casino"


def _node(db: Database, manager: TableManager) -> Node:
    """The part of a cluster's process that reads the tables (no bus, no leases)."""
    node = Node.__new__(Node)
    node.db, node.manager, node.hosts = db, manager, {}
    return node


def test_a_change_made_here_during_a_read_is_not_undone_by_it(
    db: Database, monkeypatch: Any
) -> None:
    configs = test_tables()
    with db.session() as session:
        store.load_or_seed(session, configs)
    manager = TableManager(configs, db=db, open_now=False)
    old = manager.configs[TABLE]
    assert manager.bet_stake(TABLE, {"ante": 60_000}) is not None  # within the old limits
    new = old.model_copy(update={"rules": {**old.rules, "ante_max": 40_000}})
    real_read = store.load_or_seed

    async def refresh() -> None:
        loop = asyncio.get_running_loop()

        def read_then_change(session: Any, seed: Any) -> Any:
            rows = real_read(session, seed)  # the old configuration, read...
            # ...and meanwhile an operator changes the table through this process.
            asyncio.run_coroutine_threadsafe(
                manager.change(TABLE, new, closed=False, changed={"ante_max": 40_000}), loop
            ).result()
            return rows

        monkeypatch.setattr(node_module, "load_or_seed", read_then_change)
        await _node(db, manager)._refresh_tables()

    asyncio.run(refresh())
    assert manager.configs[TABLE].rules["ante_max"] == 40_000
    assert manager.bet_stake(TABLE, {"ante": 60_000}) is None  # the new maximum
    # A read that began after the change applies as ever (here: the database's, unchanged).
    monkeypatch.setattr(node_module, "load_or_seed", real_read)
    asyncio.run(_node(db, manager)._refresh_tables())
    assert manager.configs[TABLE] == old
