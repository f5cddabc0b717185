"""Fixtures for the security tests: a shared ``croupier serve`` for the whole module set, and
a factory for servers with settings of their own (short session lifetimes, say)."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

# The helpers live next to this file and in tests/server (--import-mode=importlib does not put
# test directories on sys.path); their module names are unique.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "server"))

from sec_testkit import SecServer, ServerFactory, close_sockets

TABLES = """
[[tables]]
name = "sec-holdem"
game = "holdem"
decision_seconds = 20
pause_seconds = 0.2
[tables.rules]
small_blind = 50
big_blind = 100
max_seats = 2
min_buy_in = 2000
max_buy_in = 10000

[[tables]]
name = "sec-holdem-flop"
game = "holdem"
decision_seconds = 20
pause_seconds = 0.2
[tables.rules]
small_blind = 50
big_blind = 100
max_seats = 2
min_buy_in = 2000
max_buy_in = 10000

[[tables]]
name = "sec-cash"
game = "holdem"
decision_seconds = 20
pause_seconds = 0.2
[tables.rules]
small_blind = 50
big_blind = 100
max_seats = 6
min_buy_in = 2000
max_buy_in = 10000

[[tables]]
name = "sec-uth"
game = "uth"
betting_seconds = 30
decision_seconds = 30
pause_seconds = 0
[tables.rules]
max_seats = 6

[[tables]]
name = "sec-russian"
game = "russian"
betting_seconds = 30
decision_seconds = 30
pause_seconds = 0
[tables.rules]
ante_min = 100
ante_max = 10000
bonus_min = 100
bonus_max = 2500

[[tables]]
name = "sec-squat-uth"
game = "uth"
betting_seconds = 1
decision_seconds = 1
pause_seconds = 0
idle_rounds = 2
[tables.rules]
max_seats = 6

[[tables]]
name = "sec-squat-russian"
game = "russian"
betting_seconds = 1
decision_seconds = 1
pause_seconds = 0
idle_rounds = 2
[tables.rules]
ante_min = 100
ante_max = 10000
bonus_min = 100
bonus_max = 2500

[[tables]]
name = "sec-squat-cash"
game = "holdem"
betting_seconds = 1
decision_seconds = 1
pause_seconds = 0.2
idle_rounds = 2
[tables.rules]
small_blind = 50
big_blind = 100
max_seats = 6
min_buy_in = 2000
max_buy_in = 10000

[[tables]]
name = "sec-uth-2"
game = "uth"
betting_seconds = 30
decision_seconds = 30
pause_seconds = 0
[tables.rules]
max_seats = 6
"""


@pytest.fixture(autouse=True)
def _close_sockets() -> Iterator[None]:
    """Every table socket a test opened is closed after it (the shared server outlives it)."""
    yield
    close_sockets()


@pytest.fixture(scope="session")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecServer]:
    """One server for the tests that need no settings of their own (each uses its own
    players, and its own table where seats matter)."""
    server = SecServer(tmp_path_factory.mktemp("security"), tables=TABLES)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[ServerFactory]:
    """``make_server(env={...}, tables=...)``: a server of the test's own, stopped after it."""
    started: list[SecServer] = []

    def factory(
        *, env: Mapping[str, str] | None = None, tables: str = TABLES, url: str | None = None
    ) -> SecServer:
        server = SecServer(tmp_path / f"s{len(started)}", tables=tables, env=env, url=url)
        started.append(server)
        return server

    try:
        yield factory
    finally:
        for server in started:
            server.stop()
