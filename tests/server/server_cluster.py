"""The cluster's parts for the server tests (issue 18): a Redis of the suite's own, and the
existing table tests played through a two-process cluster.

``redis_server`` (session): Debian's ``redis-server`` on a free port in a temporary directory,
no persistence, with a password (``requirepass`` in its configuration file, issue 27: the bus
is the cluster's alone); ``scripts/install-redis.sh`` installs it where it is missing (under
the apt lock the other fixtures take). Yields ``redis://:PASSWORD@127.0.0.1:PORT/0``. The
processes of the test's cluster share :data:`BUS_KEY`.

:func:`cluster_server`: the app of the tests (manual clock, stacked shoes) as the owner of
every table, joined to a cluster on PostgreSQL and Redis, and a second process,
``croupier serve --redis``, as the gateway every request and socket of the test goes through
(:class:`RemoteClient`): a bet travels from the test's socket to the gateway process, over
the table's Redis Stream to the owner, and its answer and the table's events back over the
gateway's channel.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
from pydantic import SecretStr

from croupier.server.cluster import node as node_module

REPO = Path(__file__).resolve().parents[2]
APT_LOCK = "/tmp/croupier-apt.lock"
BUS_KEY = "the-test-clusters-bus-key-0123456789abcdef"
"""The key the processes of a test's cluster seal the bus's messages with."""


def backends(*, postgres: bool = True, slow_cluster: bool = False) -> pytest.MarkDecorator:
    """Parametrize a test's ``db_url`` (and so its ``server`` / ``table_server``): SQLite,
    PostgreSQL unless ``postgres=False``, and ``cluster``, through a two-process cluster
    (about 4 s more a test: a gateway process, a lease), marked ``slow`` (``make test-all``)
    when ``slow_cluster``. The fast suite keeps one cluster case or two per behaviour."""
    cluster = [pytest.mark.postgres, *([pytest.mark.slow] if slow_cluster else [])]
    params: list[Any] = ["sqlite"]
    if postgres:
        params.append(pytest.param("postgres", marks=pytest.mark.postgres))
    params.append(pytest.param("cluster", marks=cluster))
    return pytest.mark.parametrize("db_url", params, indirect=True)


THROUGH_CLUSTER = backends()
"""SQLite, PostgreSQL, and through a two-process cluster."""
THROUGH_CLUSTER_SLOW = backends(slow_cluster=True)
"""The same, the cluster's case in ``make test-all`` only."""
SQLITE_AND_CLUSTER = backends(postgres=False)
"""SQLite and through a two-process cluster (a test that was on SQLite only)."""
SQLITE_AND_CLUSTER_SLOW = backends(postgres=False, slow_cluster=True)
"""The same, the cluster's case in ``make test-all`` only."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _has_redis() -> bool:
    return shutil.which("redis-server") is not None


def _install(name: str) -> None:
    """Run ``scripts/install-NAME.sh`` under the apt lock (other workers may install too)."""
    subprocess.run(
        ["flock", APT_LOCK, "sh", str(REPO / "scripts" / f"install-{name}.sh")],
        check=True,
        capture_output=True,
    )


def _require(packages: Mapping[str, Callable[[], bool]]) -> None:
    """Install what is missing as root; skip, naming it, when that is impossible."""
    missing = [name for name, present in packages.items() if not present()]
    if not missing:
        return
    if os.geteuid() != 0:
        scripts = ", ".join(f"scripts/install-{name}.sh" for name in missing)
        pytest.skip(f"{', '.join(missing)} not installed and not root to install ({scripts})")
    for name in missing:
        _install(name)
        if not packages[name]():
            pytest.fail(f"{name} is still missing after scripts/install-{name}.sh")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """A redis-server of our own for the whole session; yields its URL."""
    with redis_process() as url:
        yield url


@contextmanager
def redis_process() -> Iterator[str]:
    """A redis-server on a free port in a temporary directory, no persistence, stopped on
    exit; yields its URL (a test that needs a second cluster besides the session's)."""
    _require({"redis": _has_redis})
    import redis

    base = tempfile.mkdtemp(prefix="croupier-redis-")
    port = _free_port()
    password = secrets.token_hex(16)
    conf = Path(base, "redis.conf")
    # The password in a file only its owner reads, not on the command line (ps shows that).
    conf.touch(mode=0o600)
    conf.write_text(
        f'bind 127.0.0.1\nport {port}\ndir {base}\nsave ""\nappendonly no\nrequirepass {password}\n'
    )
    log = open(os.path.join(base, "redis.log"), "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(["redis-server", str(conf)], stdout=log, stderr=subprocess.STDOUT)
    url = f"redis://:{password}@127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    output = Path(base, "redis.log").read_text(errors="replace")
                    pytest.fail(f"redis-server did not start on port {port}:\n{output}")
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.rmtree(base, ignore_errors=True)


class _Socket:
    """A real WebSocket with the calls the tests make on a TestClient's."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    def send_json(self, data: Any) -> None:
        self.send_text(json.dumps(data))

    def send_text(self, text: str) -> None:
        # As a TestClient's: a frame sent to a socket the server has closed already (it
        # refused the table before the auth frame) is lost, not an error; what the server
        # sent before closing is still there to receive.
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            self.ws.send(text)

    def receive_text(self) -> str:
        raw = self.ws.recv(timeout=30)
        return raw if isinstance(raw, str) else raw.decode()

    def receive_json(self) -> Any:
        return json.loads(self.receive_text())

    def close(self, code: int = 1000) -> None:
        self.ws.close(code)


class RemoteClient:
    """HTTP and WebSockets to a server in another process, with a TestClient's calls."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=60)

    def __getattr__(self, name: str) -> Callable[..., httpx.Response]:
        if name in ("get", "post", "put", "patch", "delete", "request"):
            method: Callable[..., httpx.Response] = getattr(self.http, name)
            return method
        raise AttributeError(name)

    @contextmanager
    def websocket_connect(self, path: str) -> Iterator[_Socket]:
        from websockets.sync.client import connect

        # No flow control (max_queue=None), as a TestClient's socket: a test leaves many
        # frames unread on a socket it does not follow (a spectator, a seat waiting its turn);
        # with websockets' default high-water mark of 16 frames the client stops reading, never
        # sees the server's close frame and closing waits out its 10 s close timeout.
        url = "ws" + self.base.removeprefix("http") + path
        with connect(url, max_size=2**22, max_queue=None) as ws:
            yield _Socket(ws)

    def close(self) -> None:
        self.http.close()


@contextmanager
def cluster_server(
    db_url: str,
    redis_url: str,
    tmp_path: Path,
    *,
    make_owner: Callable[[Any], Any],
    start_gateway: Callable[..., subprocess.Popen[bytes]],
    wait: float = 30.0,
) -> Iterator[tuple[Any, RemoteClient]]:
    """The test's app (``make_owner(settings_changes)``, entered as a TestClient) owning
    every table of a cluster, and a gateway process every request goes through; yields
    (the owner's app, a client of the gateway)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushall()  # the last test's streams, lobby and heartbeats
    client.close()
    cluster = {
        "redis_url": redis_url,
        "node_id": "owner",
        "lease_seconds": 10.0,
        "bus_key": SecretStr(BUS_KEY),
    }
    # The owner is alone until the gateway starts: it takes its tables at once rather than
    # after the joining wait that lets processes starting together share them.
    app, owner = make_owner(cluster)
    with mock.patch.object(node_module, "JOIN_SECONDS", 0.0), owner:
        app.state.test_client = owner  # the owner's own HTTP, for tests that need both sides
        node = app.state.node
        deadline = time.monotonic() + wait
        tables = set(app.state.tables.openable())
        while set(node.owned()) != tables:
            if time.monotonic() > deadline:
                raise AssertionError(f"the owner took {node.owned()} only")
            time.sleep(0.05)
        # ... and announced them in the cluster's lobby, which the gateway reads as it starts
        lobby = redis.Redis.from_url(redis_url)
        try:
            while {k.decode() for k in lobby.hkeys("croupier:lobby")} != tables:
                if time.monotonic() > deadline:
                    raise AssertionError("the owner did not announce its tables in the lobby")
                time.sleep(0.05)
        finally:
            lobby.close()
        gateway = start_gateway(
            tmp_path,
            url=db_url,
            port=_free_port(),
            tables='[[tables]]\nname = "unused"\ngame = "uth"\n',
            secret="test-secret",
            cheap_hashing=True,  # as the owner's (the test process's) passwords
            env={
                "CROUPIER_REDIS_URL": redis_url,
                "CROUPIER_BUS_KEY": BUS_KEY,
                "CROUPIER_NODE_ID": "gateway",
                "CROUPIER_LEASE_SECONDS": "10",
            },
        )
        port = _port_of(gateway)
        remote = RemoteClient(f"http://127.0.0.1:{port}")
        try:
            yield app, remote
        finally:
            remote.close()
            gateway.terminate()
            try:
                gateway.wait(timeout=15)
            except subprocess.TimeoutExpired:
                gateway.kill()
                gateway.wait()


def _port_of(process: subprocess.Popen[bytes]) -> int:
    args = [str(a) for a in process.args]  # type: ignore[union-attr]
    return int(args[args.index("--port") + 1])
