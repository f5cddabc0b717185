"""Fixtures for the cluster tests (issue 18): a Redis of the suite's own, and whole clusters.

``redis_server`` (session): Debian's ``redis-server`` on a free port in a temporary directory,
no persistence; ``scripts/install-redis.sh`` installs it where it is missing (under the apt
lock the other fixtures take). Yields ``redis://127.0.0.1:PORT/0``.

``cluster`` (per test): a factory; ``cluster(processes=2, tables=TOML, env={...})`` runs
``scripts/cluster-local.sh start`` (PostgreSQL, Redis, ``processes`` croupier processes and
HAProxy in front) in a temporary directory and returns a :class:`Cluster`; every cluster it
made is stopped at teardown. ``tables`` is a tables TOML (text, or a path); ``env`` adds
``CROUPIER_*`` settings (operator, lease seconds...). The test process's own ``CROUPIER_*``
variables are not passed on: a cluster's settings are the test's.

Every test under ``tests/cluster`` carries the ``postgres`` marker. Without the packages and
without root to install them, the fixtures skip, naming what is missing.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# The Redis fixture and the installers are shared with tests/server (the table tests played
# through a cluster): they live next to the server tests' kit.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_cluster import _has_redis, _require, redis_server

__all__ = ["redis_server"]

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "cluster-local.sh"
APT_LOCK = "/tmp/croupier-apt.lock"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this directory ``postgres`` (each needs the PostgreSQL it starts)."""
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.postgres)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _has_postgres() -> bool:
    if any(Path(d, "initdb").exists() for d in glob.glob("/usr/lib/postgresql/*/bin")):
        return True
    return shutil.which("initdb") is not None and shutil.which("pg_ctl") is not None


def _has_haproxy() -> bool:
    return shutil.which("haproxy") is not None or os.access("/usr/sbin/haproxy", os.X_OK)


def _parse_env(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key] = value
    return values


def process_gone(pid: int) -> bool:
    """The process ``pid`` has ended (gone, or a zombie waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@dataclass
class Cluster:
    """A cluster started by ``scripts/cluster-local.sh``; the lists are in node order."""

    dir: Path
    url: str
    """HAProxy, in front of every process."""
    nodes: list[str]
    """Each croupier process's own base URL."""
    pids: list[int]
    node_ids: list[str]
    database_url: str
    redis_url: str
    env: dict[str, str]
    """Everything ``cluster.env`` says (POSTGRES_PID, REDIS_PID, HAPROXY_PID, ...)."""
    stopped: bool = field(default=False)

    def kill(self, i: int, sig: int = signal.SIGKILL, *, wait: float = 10.0) -> None:
        """Send ``sig`` to croupier process ``i`` (0-based); for SIGKILL and SIGTERM, wait up
        to ``wait`` seconds until it has ended."""
        os.kill(self.pids[i], sig)
        if sig in (signal.SIGKILL, signal.SIGTERM):
            deadline = time.monotonic() + wait
            while not process_gone(self.pids[i]):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{self.node_ids[i]} (pid {self.pids[i]}) still runs")
                time.sleep(0.05)

    def log(self, i: int) -> str:
        """What croupier process ``i`` has written so far."""
        return (self.dir / "logs" / f"{self.node_ids[i]}.log").read_text(errors="replace")

    def stop(self) -> None:
        """Stop everything (idempotent)."""
        subprocess.run(
            ["bash", str(SCRIPT), "stop", "--dir", str(self.dir)],
            check=True,
            capture_output=True,
            timeout=120,
        )
        self.stopped = True


ClusterFactory = Callable[..., Cluster]


@pytest.fixture
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterFactory]:
    """``cluster(processes=2, *, tables=None, env=None) -> Cluster``; all stopped at the end."""
    _require({"postgres": _has_postgres, "redis": _has_redis, "haproxy": _has_haproxy})
    made: list[Cluster] = []

    def start(
        processes: int = 2,
        *,
        tables: str | Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Cluster:
        state = tmp_path_factory.mktemp("cluster")
        environment = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
        if tables is not None:
            if isinstance(tables, str):
                path = state.parent / f"{state.name}-tables.toml"
                path.write_text(tables)
                tables = path
            environment["CROUPIER_TABLES_CONFIG"] = str(tables)
        environment.update(env or {})
        command = ["bash", str(SCRIPT), "start", "--processes", str(processes)]
        command += ["--dir", str(state), "--python", sys.executable, "--no-fsync"]
        result = subprocess.run(
            command, env=environment, capture_output=True, text=True, timeout=600
        )
        if result.returncode != 0:
            pytest.fail(f"cluster-local.sh start failed:\n{result.stdout}\n{result.stderr}")
        values = _parse_env((state / "cluster.env").read_text())
        made_cluster = Cluster(
            dir=state,
            url=values["CLUSTER_URL"],
            nodes=values["CLUSTER_NODES"].split(","),
            pids=[int(pid) for pid in values["CLUSTER_PIDS"].split(",")],
            node_ids=values["CLUSTER_NODE_IDS"].split(","),
            database_url=values["DATABASE_URL"],
            redis_url=values["REDIS_URL"],
            env=values,
        )
        made.append(made_cluster)
        return made_cluster

    try:
        yield start
    finally:
        for each in made:
            if not each.stopped:
                each.stop()
