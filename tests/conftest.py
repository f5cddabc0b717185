"""Shared test configuration."""

from __future__ import annotations

import io
import re
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pytest
from hypothesis import HealthCheck, settings

# Tests never assert on wall-clock time: the machine is shared and noisy.
settings.register_profile(
    "croupier", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.load_profile("croupier")


def _websocket_threads() -> set[threading.Thread]:
    """The threads of every open ``websockets`` sync client (its reader and its pinger)."""
    return {
        t
        for t in threading.enumerate()
        if t.name.endswith(("(keepalive)", "(recv_events)")) and t.is_alive()
    }


@pytest.fixture(autouse=True)
def _no_websocket_outlives_its_test() -> Iterator[None]:
    """A test closes the WebSocket clients it opens. One left open keeps pinging the server
    from its own thread, drawing each ping's payload from the global ``random`` module, and a
    Hypothesis test that a worker runs later then sees the global random state change under
    one of its draws (it refuses that: the draw would not replay)."""
    before = _websocket_threads()
    yield
    left = _websocket_threads() - before
    for thread in left:
        thread.join(timeout=5)  # a socket closed under the client ends its threads soon after
    left = {t for t in left if t.is_alive()}
    if left:
        pytest.fail(f"the test left {len(left)} WebSocket client thread(s) open: close them")


REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def pytest_sessionstart(session: pytest.Session) -> None:
    """In a source checkout (an editable install), the manifest the servers check their
    files against (issue 30) is made again from the code under test, as ``make test`` does:
    a file edited since the last ``make`` is the test run's code, not a tampered install.
    Once, by the controller (xdist workers start after it)."""
    import os

    from croupier.server.integrity import manifest

    root = manifest.package_root()
    if os.environ.get("PYTEST_XDIST_WORKER") or root.parent != REPO / "src":
        return
    from croupier.server.integrity.paytables import shipped_tables

    manifest.write(manifest.build(root, tables=shipped_tables()), root / manifest.MANIFEST_NAME)


def _default_interrupt() -> None:
    """Ctrl-C interrupts the session, as in a person's terminal: a test run started in the
    background of a non-interactive shell (``make test &``, a CI runner) inherits SIGINT
    ignored, the session's Python then never raises KeyboardInterrupt, and each Ctrl-C test
    waited out pexpect's 60 s and failed."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


class TerminalTable:
    """A ``croupier <game> play`` session in a real pseudo-terminal, as a person sees it."""

    _ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

    def __init__(self, game: str, *args: str) -> None:
        self.transcript = io.StringIO()
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "croupier.cli.__main__", game, "play", *args],
            encoding="utf-8",
            timeout=60,
            dimensions=(50, 160),
            preexec_fn=_default_interrupt,
        )
        self.child.logfile_read = self.transcript

    def text(self, *, flat: bool = False) -> str:
        """What the player read, colour codes removed; ``flat`` also joins wrapped lines."""
        text = self._ANSI.sub("", self.transcript.getvalue())
        return re.sub(r"\s+", " ", text) if flat else text

    def leave(self, how: str) -> None:
        """Leave the table: ``"q"``, ``"eof"`` (Ctrl-D) or ``"ctrl-c"``."""
        if how == "q":
            self.child.sendline("q")
        elif how == "eof":
            self.child.sendeof()
        else:
            self.child.sendintr()

    def end(self, status: int = 0) -> None:
        """Wait for the session to end and check it ended with ``status``."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == status and self.child.signalstatus is None
        assert "Traceback" not in self.transcript.getvalue()


@pytest.fixture
def terminal() -> Callable[..., TerminalTable]:
    """Open a terminal table: ``terminal("russian", "--seed", "3")``."""
    return TerminalTable
