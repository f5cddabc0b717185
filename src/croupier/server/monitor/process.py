"""The live return monitor in a process of its own, at a lower priority.

Valuing a settled round is Python work (a live UTH round: a thousand boxes). In the server's
process it held the interpreter (the GIL) the event loop needs while the next round's bets
came in (issue 26's load benchmark: bets' acknowledgements half as fast again). Here a child
process (``spawn``: no copy of the server's threads and sockets) runs a :class:`.Monitor`
with its own database connection, niced so that the server wins the CPU; the server tells it
which tables have new rounds, with the tables it runs and their configured rules (the
approved ones it reads from the database itself), and learns when it has taken them.

The child is started when there is something to take (a settlement, or rounds left behind
by a crash), and started again when it dies: the death is logged, counted
(:meth:`MonitorProcess.status`: the operator's page and the metrics) and loses nothing,
since the rounds are the outbox (the streams resume after the last round they took). A child
that stops answering is killed and counted the same way: it says it is there every
:data:`BEAT_SECONDS`, working or not, and one silent for ``hang_seconds`` (stopped, stuck in
a call that holds the interpreter, deadlocked) would otherwise leave the casino unwatched with
an alarm that never rings.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.server.db import Database
from croupier.server.logs import install_redaction
from croupier.server.monitor import service
from croupier.server.monitor.models import RtpStream
from croupier.server.monitor.streams import Policy
from croupier.server.rounds.models import Round, RoundStatus

__all__ = ["ChildConfig", "MonitorProcess"]

log = logging.getLogger(__name__)

NICE = 10
"""How much lower the child's priority is than the server's (``os.nice``)."""

_RESTART_SECONDS = (0.5, 2.0, 5.0, 15.0, 30.0)
"""The wait before each restart after a crash (the last repeats)."""

BEAT_SECONDS = 1.0
"""How often the child says it is there (with its figures), working or not."""

START_SECONDS = 60.0
"""Besides ``hang_seconds``, what a new child has to say its first word (a fresh interpreter
importing the server's modules at a lower priority, on a loaded machine)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChildConfig:
    """What the child needs to build its monitor (sent to it: plain data)."""

    database_url: str
    policy: Policy
    threshold: float
    tables: tuple[str, ...]
    """Every configured table (each gets its stream)."""
    webhook: str | None = None
    sweep_seconds: float = 30.0
    hang_seconds: float = 120.0
    """A child silent this long is killed and another started (counted as a crash)."""
    nice: int = NICE
    """The child's nice value (the server's plus :data:`NICE`)."""
    book: Callable[[], Any] | None = None
    """Makes the child's theory cache (the server's kind: a class, sent by reference)."""
    approved: Approved | None = None
    """The approved rules' reader (a module-level function: it is sent by reference); the
    tables' configured rules where it finds none."""


Approved = Callable[[Session, str], Mapping[str, Any] | None]
"""A table's rules as the audit log last approved them (``None``: no approval recorded)."""


def _rules_of(
    approved: Approved | None, rules: Callable[[], Mapping[str, Mapping[str, Any] | None]]
) -> Callable[[Session, str], Mapping[str, Any] | None]:
    def rules_of(session: Session, table: str) -> Mapping[str, Any] | None:
        found = None if approved is None else approved(session, table)
        return rules().get(table) if found is None else found

    return rules_of


def _lower_priority(target: int) -> None:
    """This process's (on Linux: this thread's) nice value raised to ``target``."""
    with contextlib.suppress(OSError, AttributeError):
        who = threading.get_native_id() if sys.platform == "linux" else 0
        now = os.getpriority(os.PRIO_PROCESS, who)
        if now < target:
            os.setpriority(os.PRIO_PROCESS, who, min(target, 19))


def _child(conn: Any, config: ChildConfig) -> None:
    """The child's main: a monitor, told of new rounds through ``conn``; each batch of
    notices answered once it has been taken."""
    _lower_priority(config.nice)  # already, when started by a niced watcher (Linux)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    install_redaction()  # as the server's logs: no token or password in a line
    from croupier.server.monitor.worker import Monitor
    from croupier.server.tables.registry import theories

    db = Database(config.database_url)
    book = config.book() if config.book is not None else None
    owned: list[str] = []
    rules_now: list[dict[str, Mapping[str, Any] | None]] = [{}]
    setup = service.Setup(
        policy=config.policy, threshold=config.threshold, theories=theories(), book=book,
        rules_of=_rules_of(config.approved, lambda: rules_now[0]),
    )  # fmt: skip
    monitor = Monitor(
        db, setup, owned=lambda: list(owned), webhook=config.webhook,
        sweep_seconds=config.sweep_seconds,
    )  # fmt: skip
    monitor.start(config.tables)
    asked = answered = 0
    told: set[str] = set()
    checks = 0
    beat = time.monotonic()
    try:
        while True:
            if conn.poll(0.02 if asked > answered else BEAT_SECONDS / 2):
                message = conn.recv()
                if message[0] == "stop":
                    return
                _, asked, tables, now_owned, now_rules = message
                owned[:] = now_owned
                # one assignment: the monitor's thread reads the rules meanwhile (a clear and
                # an update let it find none between them)
                rules_now[0] = dict(now_rules)
                told.update(tables)
                monitor.notify(tables)
            elif asked > answered and monitor.idle(0):
                late = _late(db, told, monitor) if checks < _CHECKS else []
                if late:  # a round settled that the streams have not passed: once more
                    checks += 1
                    monitor.notify(late)
                    continue
                answered, checks = asked, 0
                told.clear()
                conn.send(("done", answered, _stats(monitor)))
                beat = time.monotonic()
            if time.monotonic() - beat >= BEAT_SECONDS:
                conn.send(("beat", answered, _stats(monitor)))
                beat = time.monotonic()
    except (EOFError, OSError):
        return  # the server is gone
    finally:
        monitor.stop()
        if book is not None:
            book.close()
        db.dispose()


_CHECKS = 3
"""How many times the child takes a table again before it answers, when the table's
stream has not passed a round settled before the notice (a notice it answered too early)."""


def _late(db: Database, tables: Iterable[str], monitor: Any) -> list[str]:
    """Which of ``tables`` have a closed round after their stream's last, not waiting for
    a theory: the child answers "done" only once every round it was told of is taken."""
    waiting = set(monitor.waiting)
    try:
        with db.reading() as session:
            return [t for t in behind(session, tables, closed=True) if t not in waiting]
    except Exception:
        log.exception("the return monitor could not read its streams")
        return []


def _stats(monitor: Any) -> dict[str, Any]:
    return {
        "rounds": monitor.rounds,
        "waiting": dict(monitor.waiting),
        "alerts_posted": monitor.alerts_posted,
        "webhook_failures": monitor.webhook_failures,
    }


def behind(session: Session, tables: Iterable[str], *, closed: bool = False) -> list[str]:
    """Which of ``tables`` have rounds (``closed``: settled or voided ones) after their
    stream's last (or no stream yet)."""
    out = []
    for table in tables:
        stream = session.get(RtpStream, f"table:{table}")
        last = 0 if stream is None else stream.last_round
        query = select(func.max(Round.id)).where(Round.table_name == table)
        if closed:
            query = query.where(Round.status != RoundStatus.OPEN.value)
        newest = session.scalar(query)
        if newest is not None and newest > last:
            out.append(table)
    return out


class MonitorProcess:
    """The server's side: the child started, told, watched, restarted, stopped.

    :meth:`notify`, :meth:`idle`, :meth:`drain`, :attr:`rounds`, :attr:`waiting` as
    :class:`.Monitor`'s (the figures as of the child's last answer)."""

    def __init__(
        self,
        db: Database,
        config: ChildConfig,
        *,
        owned: Callable[[], Iterable[str]],
        rules: Callable[[], Mapping[str, Mapping[str, Any] | None]],
    ) -> None:
        self.db, self.config, self.owned, self.rules = db, config, owned, rules
        self._context = multiprocessing.get_context("spawn")
        self._cond = threading.Condition()
        self._process: Any = None
        self._conn: Any = None
        self._asked = 0
        self._answered = 0
        self._stopping = False
        self._watcher: threading.Thread | None = None
        self.rounds = 0
        self.waiting: dict[str, str] = {}
        self.alerts_posted = 0
        self.webhook_failures = 0
        self.starts = 0
        self.crashes = 0
        self.last_crash: str | None = None
        self._base = self._posted = self._failed = 0
        """The rounds, alerts posted, webhook failures of the children before this one."""
        self._resume_at = 0.0
        """No child started before this (``time.monotonic``), after a crash."""
        self._pending: set[str] = set()
        """Tables with new rounds the child has not been told of."""
        self._heard = 0.0
        """When the child last said anything (``time.monotonic``)."""
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)

    @property
    def pid(self) -> int | None:
        process = self._process
        return None if process is None else process.pid

    @property
    def alive(self) -> bool:
        process = self._process
        return process is not None and process.is_alive()

    def status(self) -> dict[str, Any]:
        """What the operator's page and the metrics show of the child."""
        return {
            "mode": "process",
            "alive": self.alive,
            "pid": self.pid,
            "starts": self.starts,
            "crashes": self.crashes,
            "last_crash": self.last_crash,
            "rounds": self.rounds,
            "waiting": dict(self.waiting),
        }

    def start(self, tables: Iterable[str] = ()) -> None:
        """Streams for ``tables`` (every table configured); the child if some table this
        process runs has rounds not yet taken; the watcher."""
        with self.db.session() as session:
            service.ensure_tables(session, list(tables))
            late = behind(session, self.owned())
        self._watcher = threading.Thread(target=self._watch, name="rtp-monitor-watch", daemon=True)
        self._watcher.start()
        if late:
            self.notify(late)

    def notify(self, tables: Iterable[str]) -> None:
        """``tables`` have new rounds (from any thread; it never waits for the child: the
        watcher thread tells it)."""
        names = set(tables)
        if not names:
            return
        with self._cond:
            if self._stopping:
                return
            self._asked += 1
            self._pending.update(names)
        with contextlib.suppress(OSError):  # BlockingIOError: already woken
            os.write(self._wake_w, b"!")

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until the child has taken every round it was told of; whether it did."""
        with self._cond:
            return self._cond.wait_for(lambda: self._answered >= self._asked, timeout)

    def drain(self, tables: Iterable[str] | None = None, timeout: float = 60.0) -> int:
        """Have the child take every round settled so far at ``tables`` (all owned); the
        rounds taken."""
        before = self.rounds
        self.notify(list(self.owned() if tables is None else tables))
        self.idle(timeout)
        return self.rounds - before

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"!")
        if self._watcher is not None:
            self._watcher.join(timeout=5)
        process, conn = self._process, self._conn
        if process is not None:
            if self._watcher is None or not self._watcher.is_alive():
                with contextlib.suppress(Exception):
                    conn.send(("stop",))
                process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)
        if conn is not None:
            conn.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _spawn(self) -> None:
        """A new child (the caller holds ``_cond``)."""
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=_child, args=(theirs, self.config), name="rtp-monitor", daemon=True
        )
        process.start()
        theirs.close()
        self._process, self._conn = process, ours
        self._heard = time.monotonic() + START_SECONDS
        self._base, self._posted, self._failed = (
            self.rounds,
            self.alerts_posted,
            self.webhook_failures,
        )
        self.starts += 1
        self._cond.notify_all()

    def _watch(self) -> None:
        """The only thread that talks to the child: starts it when there is work (after a
        crash, once its wait is over), tells it of the tables with new rounds, reads its
        answers, notices its death; every ``sweep_seconds`` it looks at every owned table
        (a cluster's tables taken over from another node; rounds a crash left)."""
        if sys.platform == "linux":  # a thread's own nice value: the child inherits it
            _lower_priority(self.config.nice)
        swept = time.monotonic()
        while True:
            with self._cond:
                if self._stopping:
                    return
                now = time.monotonic()
                if self._process is None and self._pending and now >= self._resume_at:
                    self._spawn()
                conn, process, tables, asked = self._conn, self._process, self._pending, self._asked
                if conn is not None:
                    self._pending = set()
            if conn is not None and tables:
                message = ("work", asked, sorted(tables), list(self.owned()), self.rules())
                with contextlib.suppress(OSError, ValueError):  # dead: noticed below
                    conn.send(message)
            waited = [self._wake_r] if conn is None else [conn, self._wake_r]
            ready = wait(waited, timeout=0.5)
            if self._wake_r in ready:
                with contextlib.suppress(OSError):
                    os.read(self._wake_r, 4096)
            if conn is not None and conn in ready:
                with contextlib.suppress(EOFError, OSError):  # dead: noticed below
                    self._answer(conn.recv())
            if process is not None and not process.is_alive():
                self._crashed(process)
            elif process is not None and time.monotonic() - self._heard > self.config.hang_seconds:
                self._hung(process)
            elif time.monotonic() - swept >= self.config.sweep_seconds:
                swept = time.monotonic()
                self._sweep(alive=process is not None)

    def _sweep(self, *, alive: bool) -> None:
        """Every owned table to the child; with no child, those with rounds to take."""
        if alive:
            self.notify(self.owned())
            return
        try:
            with self.db.session() as session:
                late = behind(session, self.owned())
        except Exception:
            log.exception("the return monitor's sweep failed")
            return
        self.notify(late)

    def _answer(self, message: tuple[Any, ...]) -> None:
        """A child's ``done`` (every round it was told of taken) or ``beat``: its figures."""
        _, answered, stats = message
        self._heard = time.monotonic()
        with self._cond:
            self._answered = max(self._answered, answered)
            self.rounds = self._base + int(stats["rounds"])
            self.waiting = dict(stats["waiting"])
            self.alerts_posted = self._posted + int(stats["alerts_posted"])
            self.webhook_failures = self._failed + int(stats["webhook_failures"])
            self._cond.notify_all()

    def _hung(self, process: Any) -> None:
        """The child said nothing for ``hang_seconds``: killed (a stopped process too), and
        counted as a crash whose cause says so."""
        silent = time.monotonic() - self._heard
        log.error(
            "the return monitor's process %s said nothing for %.0f s; killing it",
            process.pid, silent,
        )  # fmt: skip
        with contextlib.suppress(Exception):
            process.kill()
        process.join(timeout=5)
        self._crashed(process, why=f"hung: no answer for {silent:.0f} s, killed")

    def _crashed(self, process: Any, *, why: str | None = None) -> None:
        """The child died without being told to stop (``why``: it was killed as hung): log
        it, count it; another starts after a wait that grows with the crashes, and is told
        of every owned table (the rounds it had not taken are taken then)."""
        process.join(timeout=1)
        with self._cond:
            if self._stopping:
                return
            self.crashes += 1
            at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            cause = why or f"exit code {process.exitcode}"
            self.last_crash = f"{cause} at {at}"
            log.error(
                "the return monitor's process %s ended (%s); starting another",
                process.pid, cause,
            )  # fmt: skip
            with contextlib.suppress(Exception):
                self._conn.close()
            self._process = self._conn = None
            pause = _RESTART_SECONDS[min(self.crashes, len(_RESTART_SECONDS)) - 1]
            self._resume_at = time.monotonic() + pause
            self._asked += 1  # what the next child answers
            self._pending.update(self.owned())
