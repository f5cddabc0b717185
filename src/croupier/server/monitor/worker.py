"""The monitor's loop (a thread): it takes each table's new rounds as they settle. It runs in a
process of its own beside the server (:mod:`.process`), or, on an in-memory SQLite database,
in the server's.

The settlement hook (:mod:`.settlement`) tells it which tables have new rounds; it also looks
at every table this process runs each ``sweep_seconds``, and at start (a crash leaves rounds
not yet monitored: they are taken then). Valuing a UTH box's decisions enumerates up to a
million deals (the strategy advisor's flop), so the work happens here, off the event loop
and off the settlement's transaction. Each alert is posted to the webhook, if one is set,
after its transaction has committed.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from collections.abc import Callable, Iterable
from typing import Any

from croupier.server.db import Database
from croupier.server.monitor import service
from croupier.server.monitor.service import Setup

__all__ = ["Monitor"]

log = logging.getLogger(__name__)


class Monitor:
    """One process's monitor (a thread), over the tables ``owned()`` names."""

    def __init__(
        self,
        db: Database,
        setup: Setup,
        *,
        owned: Callable[[], Iterable[str]],
        webhook: str | None = None,
        sweep_seconds: float = 30.0,
        post: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> None:
        self.db = db
        self.setup = setup
        self.owned = owned
        self.webhook = webhook
        self.sweep_seconds = sweep_seconds
        self._post = post or _post_json
        self._pending: set[str] = set()
        self._wake = threading.Condition()
        self._stopping = False
        self._busy = False
        self._thread: threading.Thread | None = None
        self.alerts_posted = 0
        self.webhook_failures = 0
        self.rounds = 0
        self.waiting: dict[str, str] = {}
        """Tables whose next round waits for its theory (why)."""

    @property
    def level(self) -> float:
        return math.log(self.setup.threshold)

    def status(self) -> dict[str, Any]:
        """What the operator's page and the metrics show of a monitor running as a thread
        (the same fields as :meth:`.process.MonitorProcess.status`)."""
        return {
            "mode": "thread", "alive": True, "pid": os.getpid(), "starts": 1, "crashes": 0,
            "last_crash": None, "rounds": self.rounds, "waiting": dict(self.waiting),
        }  # fmt: skip

    def start(self, tables: Iterable[str] = ()) -> None:
        """Streams for ``tables`` (every table configured: their rounds so far are not
        monitored), then the thread."""
        with self.db.session() as session:
            service.ensure_tables(session, list(tables))
        self._thread = threading.Thread(target=self._run, name="rtp-monitor", daemon=True)
        self._thread.start()
        self.notify(self.owned())

    def notify(self, tables: Iterable[str]) -> None:
        """``tables`` have new rounds (from any thread)."""
        with self._wake:
            self._pending.update(tables)
            self._wake.notify()

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until nothing is pending (tests); whether it got there."""
        with self._wake:
            return self._wake.wait_for(lambda: not self._pending and not self._busy, timeout)

    def drain(self, tables: Iterable[str] | None = None) -> int:
        """Take every round settled so far at ``tables`` (all owned) in the caller's thread;
        the rounds taken."""
        taken = 0
        for table in list(self.owned() if tables is None else tables):
            taken += self._table(table)
        return taken

    def _run(self) -> None:
        self._prepare()
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending or self._stopping, self.sweep_seconds)
                if self._stopping:
                    return
                tables = self._pending or set(self.owned())
                self._pending = set()
                self._busy = True
            try:
                for table in sorted(tables):
                    self._table(table)
            except Exception:  # the monitor must go on: a bad round is logged, not fatal
                log.exception("the return monitor failed")
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()

    def _prepare(self) -> None:
        """Each game's valuation loaded before the first round settles (on a live table's
        settlement it held the interpreter for seconds while the next round's bets came in)."""
        for game, theory in sorted(self.setup.theories.items()):
            try:
                theory.prepare_monitor()
            except Exception:  # the monitor goes on: the round's valuation says what is wrong
                log.exception("preparing the monitor of %s failed", game)

    def _table(self, table: str) -> int:
        taken = 0
        while True:
            with self.db.reading() as session:
                batch = service.fetch(session, table, self.setup)
            if batch.rows:
                service.value(batch, self.setup)  # outside a transaction: SQLite has one writer
                with self.db.session() as session:
                    done = service.record(session, batch, self.setup)
            else:
                done = service.Processed()
            taken += done.rounds
            self.rounds += done.rounds
            if done.waiting:
                self.waiting[table] = done.waiting
            else:
                self.waiting.pop(table, None)
            for alert in done.alerts:
                log.warning(
                    "return alert %s: %s %s after %s rounds",
                    alert["id"], alert["stream"], alert["side"], alert["rounds"],
                )  # fmt: skip
                self._send(alert)
            if not done.more:
                return taken

    def _send(self, alert: dict[str, Any]) -> None:
        if not self.webhook:
            return
        try:
            self._post(self.webhook, {"type": "rtp_alert", "alert": alert})
            self.alerts_posted += 1
        except Exception as exc:
            self.webhook_failures += 1
            log.warning("the alert webhook failed: %s", type(exc).__name__)


def _post_json(url: str, body: dict[str, Any]) -> None:
    import httpx

    response = httpx.post(url, json=body, timeout=5.0)
    response.raise_for_status()
