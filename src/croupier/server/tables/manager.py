"""The table manager: builds one :class:`Table` per configured table and runs their tasks."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from croupier.deck import Shoe
from croupier.errors import ConfigError
from croupier.server.db import Database
from croupier.server.errors import NotFoundError
from croupier.server.rng import live_shoe
from croupier.server.tables.admission import NO_CHECKS, Admission
from croupier.server.tables.clock import Clock, MonotonicClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.games import FactoryBuilder
from croupier.server.tables.registry import available_games
from croupier.server.tables.table import Table

__all__ = ["TableManager"]

log = logging.getLogger(__name__)


class TableManager:
    """Every table of the server. Tables whose game has no engine yet are listed, not opened.

    Raises:
        ConfigError: a table whose rules its game refuses.
    """

    def __init__(
        self,
        configs: Sequence[TableConfig],
        *,
        db: Database,
        clock: Clock | None = None,
        shoe_factory: Callable[[], Shoe] = live_shoe,
        games: Mapping[str, FactoryBuilder] | None = None,
        closed: Collection[str] = (),
        admission: Admission = NO_CHECKS,
    ) -> None:
        self.clock = clock or MonotonicClock()
        self._db = db
        self._shoe_factory = shoe_factory
        self._builders = dict(available_games() if games is None else games)
        self._admission = admission
        self.tables: dict[str, Table] = {}
        self.unavailable: dict[str, dict[str, Any]] = {}
        self.configs: dict[str, TableConfig] = {}
        """Every table's configuration as it stands, in lobby order (open ones too)."""
        for config in configs:
            self._build(config, closed=config.name in closed)

    def _build(self, config: TableConfig, *, closed: bool) -> Table | None:
        self.configs[config.name] = config
        builder = self._builders.get(config.game)
        if not config.enabled or builder is None:
            reason = "disabled" if not config.enabled else f"no {config.game!r} engine yet"
            self.unavailable[config.name] = {
                "name": config.name,
                "title": config.title,
                "game": config.game,
                "status": "unavailable",
                "reason": reason,
            }
            return None
        try:
            factory = builder(config)
        except ConfigError as exc:
            raise ConfigError(f"table {config.name!r}: {exc}") from None
        # The table's driver follows the game's kind (Hold'em: a cash game with stacks).
        table = Table(
            config, factory, db=self._db, clock=self.clock, shoe_factory=self._shoe_factory
        )
        table.closed = closed
        table.admission = self._admission
        self.tables[config.name] = table
        return table

    def add(self, config: TableConfig, *, closed: bool = False) -> Table | None:
        """Open a new table now (on the running event loop); ``None`` when its game has no
        engine or it is disabled (listed, not opened).

        Raises:
            ConfigError: rules its game refuses (nothing is added).
        """
        if config.name in self.configs:
            raise ConfigError(f"table {config.name!r} exists already")
        table = self._build(config, closed=closed)
        if table is not None:
            table.start()
        return table

    async def change(
        self, name: str, config: TableConfig, *, closed: bool, changed: Mapping[str, Any]
    ) -> None:
        """An operator's change: the table applies it between two of its commands, from the
        next round on (a table not running only keeps the new configuration)."""
        self.configs[name] = config
        table = self.tables.get(name)
        if table is not None:
            await table.reconfigure(config, closed=closed, changed=changed)
        elif name in self.unavailable:
            self.unavailable[name]["title"] = config.title

    def start(self) -> None:
        """Start every table's task (on the running event loop)."""
        for table in self.tables.values():
            table.start()

    async def stop(self) -> None:
        """Stop every table; a round still in play is voided (every stake returned)."""
        for table in self.tables.values():
            await table.stop()

    def get(self, name: str) -> Table:
        """The open table ``name``.

        Raises:
            NotFoundError: no such table, or its game is not available.
        """
        table = self.tables.get(name)
        if table is None:
            if name in self.unavailable:
                raise NotFoundError(
                    f"table {name!r} is not open: {self.unavailable[name]['reason']}",
                    reason="table_closed",
                )
            raise NotFoundError(f"table {name!r} does not exist", reason="table_not_found")
        return table

    def running(self) -> dict[str, bool]:
        """Whether each open table's task is alive."""
        return {name: table.running for name, table in self.tables.items()}

    def lobby(self) -> list[dict[str, Any]]:
        """Every table, open ones first, as the lobby lists them."""
        return [t.describe() for t in self.tables.values()] + list(self.unavailable.values())

    def closed(self, name: str) -> bool:
        """Whether table ``name`` is closed by an operator."""
        table = self.tables.get(name)
        return table is not None and table.closed
