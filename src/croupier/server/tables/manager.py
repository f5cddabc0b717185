"""The table manager: builds one :class:`Table` per configured table and runs their tasks."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import Any

from croupier.deck import Shoe
from croupier.errors import ConfigError, CroupierError
from croupier.server.db import Database
from croupier.server.errors import NotFoundError
from croupier.server.rng import live_shoe
from croupier.server.tables.admission import NO_CHECKS, Admission
from croupier.server.tables.clock import Clock, MonotonicClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.games import BankedFactory, FactoryBuilder, GameFactory
from croupier.server.tables.protocol import stray_detail
from croupier.server.tables.registry import available_games
from croupier.server.tables.table import Table
from croupier.server.tables.wire import ActMessage

__all__ = ["Forward", "TableManager"]

Forward = Callable[[str, TableConfig, bool, Mapping[str, Any]], Awaitable[None]]
"""Where an operator's change of a table owned by another process goes (a cluster)."""

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
        open_now: bool = True,
    ) -> None:
        """``open_now=False`` (a cluster's process): the tables are listed and checked, and
        each opened only once this process holds its lease (:meth:`adopt`)."""
        self.open_now = open_now
        self.forward: Forward | None = None
        """A cluster's process: how an operator's change reaches the table's owner."""
        self.remote_lobby: dict[str, dict[str, Any]] = {}
        """A cluster's process: the lobby entries of the tables other processes own."""
        self.clock = clock or MonotonicClock()
        self._db = db
        self._shoe_factory = shoe_factory
        self._builders = dict(available_games() if games is None else games)
        self._admission = admission
        self.admission = admission
        """Who may sit and play (a cluster's gateway asks it before holding a stake)."""
        self.tables: dict[str, Table] = {}
        self.unavailable: dict[str, dict[str, Any]] = {}
        self.configs: dict[str, TableConfig] = {}
        """Every table's configuration as it stands, in lobby order (open ones too)."""
        self.closed_names: set[str] = set()
        self._factories: dict[str, GameFactory] = {}
        """Per table of a game this process has, its factory as last configured: what prices
        a bet a cluster's gateway holds (:meth:`bet_stake`)."""
        self._changes = 0
        """How many changes this process has made to its tables' configurations."""
        self._changed_at: dict[str, int] = {}
        """Per table, :attr:`_changes` at its last change made here (:meth:`learn`)."""
        self.lobby_watchers: set[asyncio.Queue[dict[str, Any]]] = set()
        """The lobby sockets (``/ws/lobby``): each gets a changed table's entry at once."""
        for config in configs:
            self._build(config, closed=config.name in closed)

    def _build(
        self, config: TableConfig, *, closed: bool, db: Database | None = None
    ) -> Table | None:
        self.configs[config.name] = config
        self._factories.pop(config.name, None)
        self.closed_names.discard(config.name)
        if closed:
            self.closed_names.add(config.name)
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
        if db is None and not self.open_now:
            return None  # a cluster's process: opened once it holds the lease (adopt)
        # The table's driver follows the game's kind (Hold'em: a cash game with stacks).
        # A cluster's table (``db``: its process holds the lease) is windowed: its gateways
        # hold stakes themselves (:mod:`.window`).
        table = Table(
            config,
            factory,
            db=db or self._db,
            clock=self.clock,
            shoe_factory=self._shoe_factory,
            windowed=db is not None,
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
        self._changes += 1
        self._changed_at[name] = self._changes
        self.configs[name] = config
        self._factories.pop(name, None)
        self.closed_names.discard(name)
        if closed:
            self.closed_names.add(name)
        table = self.tables.get(name)
        if table is not None:
            await table.reconfigure(config, closed=closed, changed=changed)
        elif self.forward is not None and name not in self.unavailable:
            await self.forward(name, config, closed, changed)
        elif name in self.unavailable:
            self.unavailable[name]["title"] = config.title
        self._tell_lobby(name)

    def _tell_lobby(self, name: str) -> None:
        """Push table ``name``'s lobby entry, as it stands now, to every lobby socket."""
        table = self.tables.get(name)
        config = self.configs.get(name)
        if table is not None:
            entry = table.describe()
        elif name in self.unavailable:
            entry = dict(self.unavailable[name])
        elif config is not None:
            entry = self._elsewhere(config)
        else:  # pragma: no cover - a change names a table the manager knows
            return
        for watcher in list(self.lobby_watchers):
            watcher.put_nowait(entry)

    def start(self) -> None:
        """Start every table's task (on the running event loop)."""
        for table in self.tables.values():
            table.start()

    async def stop(self) -> None:
        """Stop every table; a round still in play is voided (every stake returned)."""
        for table in self.tables.values():
            await table.stop()

    def mark(self) -> int:
        """Where this process's changes stand: pass it to :meth:`learn` with what is read from
        the database after it."""
        return self._changes

    def learn(self, config: TableConfig, *, closed: bool, read_after: int | None = None) -> None:
        """A table as the database now says (a cluster's process: opened or changed by an
        operator through another process); applied here to a table not open here.

        ``read_after``: the :meth:`mark` taken before the database was read. A table changed
        here since then keeps its change: what was read may be older (an operator's change
        made through this process while a periodic read was under way; applied, it would put
        back the old limits until the next read, and this process's gateway would price and
        check bets by them).

        Raises:
            ConfigError: a new table whose rules its game refuses.
        """
        if read_after is not None and self._changed_at.get(config.name, 0) > read_after:
            return
        if config.name not in self.configs:
            self.add(config, closed=closed)
            return
        self.configs[config.name] = config
        self._factories.pop(config.name, None)
        self.closed_names.discard(config.name)
        if closed:
            self.closed_names.add(config.name)

    def decision_word(self, name: str, act: ActMessage) -> str | None:
        """The wire name of decision ``act`` at banked table ``name`` (as its ``your_turn``
        names the stakes); ``None`` for a table that is not banked, no such decision, or one
        carrying a detail its action does not take (the table refuses it: a gateway that held
        its stake first would spend the turn's key; found by red-teaming)."""
        factory = self._banked(name)
        if factory is None or stray_detail(act, *factory.details_taken(act.action)):
            return None
        return factory.decision_word(act)

    def bet_stake(self, name: str, bets: Mapping[str, int]) -> int | None:
        """The engine's price of a bet at banked table ``name``, checked as the bet of a seat
        that has not bet in the round (the spots and the table's limits); ``None`` for a
        table that is not banked, or spots its game refuses so (the table says why; Trips
        added after the Ante among them: only the table knows the seat's Ante). A cluster's
        gateway holds that much before the table's owner sees the bet."""
        factory = self._banked(name)
        if factory is None:
            return None
        try:
            return factory.price_bet(bets)
        except CroupierError:
            return None

    def _banked(self, name: str) -> BankedFactory | None:
        """Banked table ``name``'s factory as configured now (built once a configuration)."""
        factory = self._factories.get(name)
        if factory is None:
            config = self.configs.get(name)
            builder = None if config is None else self._builders.get(config.game)
            if config is None or builder is None or name in self.unavailable:
                return None
            factory = self._factories[name] = builder(config)
        if factory.kind != "banked":
            return None
        return factory  # type: ignore[return-value]

    def adopt(self, name: str, *, db: Database) -> Table:
        """Open table ``name`` here, writing through ``db`` (a cluster's process, once it
        holds the table's lease); started by the caller.

        Raises:
            NotFoundError: no such table, or its game is not available.
        """
        self.check(name)
        table = self._build(self.configs[name], closed=name in self.closed_names, db=db)
        assert table is not None
        return table

    def drop(self, name: str) -> None:
        """Forget the open table ``name`` (a cluster's process gave it up; stopped already)."""
        self.tables.pop(name, None)

    def check(self, name: str) -> None:
        """Raises NotFoundError unless table ``name`` exists and its game is available."""
        if name in self.unavailable:
            raise NotFoundError(
                f"table {name!r} is not open: {self.unavailable[name]['reason']}",
                reason="table_closed",
            )
        if name not in self.configs:
            raise NotFoundError(f"table {name!r} does not exist", reason="table_not_found")

    def openable(self) -> list[str]:
        """The tables a process may open (their game available, enabled)."""
        return [name for name in self.configs if name not in self.unavailable]

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
        if self.open_now:
            return [t.describe() for t in self.tables.values()] + list(self.unavailable.values())
        entries = []
        for name, config in self.configs.items():
            if name in self.unavailable:
                continue
            table = self.tables.get(name)
            entries.append(table.describe() if table is not None else self._elsewhere(config))
        return entries + list(self.unavailable.values())

    def run_elsewhere(self, name: str, config: TableConfig | None = None) -> dict[str, Any] | None:
        """The lobby entry of table ``name`` when another process of the cluster runs it
        (``config``: its configuration as just read from the database, if fresher than this
        process's); ``None`` when it runs here, or nowhere (disabled, no engine, unknown)."""
        known = self.configs.get(name)
        if self.open_now or known is None or name in self.unavailable or name in self.tables:
            return None
        return self._elsewhere(config or known)

    def _elsewhere(self, config: TableConfig) -> dict[str, Any]:
        """A table another process runs: its play as its owner last published it (every
        second; ``starting`` before it has), its rules and status as this process knows its
        configuration -- the owner's entry may predate an operator's change made here."""
        name = config.name
        published = self.remote_lobby.get(name, {})
        entry: dict[str, Any] = {
            "name": name,
            "title": config.title,
            "game": config.game,
            "status": published.get("status", "starting"),
            "closed": name in self.closed_names,
            "max_seats": published.get("max_seats"),
            "seats_taken": published.get("seats_taken", 0),
            "rules": published.get("rules", {}),
            "timers": {
                "betting_seconds": config.betting_seconds,
                "decision_seconds": config.decision_seconds,
                "pause_seconds": config.pause_seconds,
            },
            "round_id": published.get("round_id"),
        }
        try:
            factory = self._builders[config.game](config)
        except ConfigError:  # rules this process's engine refuses: as the owner published
            return entry
        rules, seats = dict(factory.describe()), factory.max_seats()
        return {**entry, "rules": rules, "max_seats": seats, "prices": factory.bet_prices()}

    def closed(self, name: str) -> bool:
        """Whether table ``name`` is closed by an operator."""
        table = self.tables.get(name)
        if table is None:
            return name in self.closed_names
        return table.closed
