"""Helpers for the server tests: the app under a TestClient, stacked shoes, players."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from starlette.exceptions import StarletteDeprecationWarning

from croupier.deck import Shoe
from croupier.server.rng import live_shoe
from croupier.server.settings import Settings
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig

with warnings.catch_warnings():
    # Starlette 1.x asks for the httpx2 package; the httpx we ship still works with it.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

__all__ = [
    "OPERATOR",
    "PASSWORD",
    "Seat",
    "Server",
    "ServerFactory",
    "ShoeStack",
    "TestClient",
    "complete_shoe",
    "free_port",
    "make_settings",
    "start_serve",
    "table_socket",
    "table_ws",
]

OPERATOR = ("boss", "operator-password")
PASSWORD = "felt-river-lantern-42"
"""The players' password in the tests: one the strength check accepts."""

_SERVE = """
import sys, typer
from croupier.cli.serve import register
app = typer.Typer()
register(app)
@app.callback()
def main() -> None: ...
app(sys.argv[1:])
"""
_CHEAP_HASHING = """
from argon2 import PasswordHasher
from croupier.server.accounts import service
service._HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
"""
"""Argon2 at the suite's minimal cost in a child server (conftest's autouse fixture does it
in the test process): a gateway hashes every password of a test played through a cluster."""


@contextmanager
def table_ws(client: TestClient, table: str, token: str) -> Iterator[Any]:
    """A TestClient WebSocket to ``table``, authenticated by its first frame."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "auth", "token": token})
        yield ws


@contextmanager
def table_socket(url: str, token: str, **options: Any) -> Iterator[Any]:
    """A real WebSocket (the sync ``websockets`` client) to ``url``, authenticated by its
    first frame."""
    from websockets.sync.client import connect

    with connect(url, **options) as ws:
        ws.send(json.dumps({"type": "auth", "token": token}))
        yield ws


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_serve(
    tmp_path: Path,
    *,
    url: str,
    port: int,
    tables: str,
    secret: str,
    env: Mapping[str, str] | None = None,
    log_path: Path | None = None,
    cheap_hashing: bool = False,
) -> subprocess.Popen[bytes]:
    """``croupier serve`` in a child process on database ``url`` with the tables TOML
    ``tables`` and the operator :data:`OPERATOR`; return once it answers ``/api/health``.

    ``env`` adds ``CROUPIER_*`` settings; the server's output goes to ``log_path`` (by default
    a new file in ``tmp_path``); ``cheap_hashing``: passwords hashed at the suite's minimal
    cost, as in the test process."""
    config = tmp_path / "tables.toml"
    config.write_text(tables)
    environment = {
        **os.environ,
        "CROUPIER_OPERATOR_USERNAME": OPERATOR[0],
        "CROUPIER_OPERATOR_PASSWORD": OPERATOR[1],
        "CROUPIER_SECRET_KEY": secret,
        **(env or {}),
    }
    script = _CHEAP_HASHING + _SERVE if cheap_hashing else _SERVE
    command = [sys.executable, "-c", script, "serve", "--config", str(config)]
    command += ["--database", url, "--port", str(port)]
    log_path = log_path or tmp_path / f"server-{port}-{time.monotonic_ns()}.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=environment, cwd=tmp_path
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def test_tables() -> list[TableConfig]:
    """A casino and a live UTH table with short, round-number timers (the clock is manual)."""
    return [
        TableConfig(
            name="casino",
            game="uth",
            betting_seconds=10,
            decision_seconds=20,
            pause_seconds=0,
            rules={"max_seats": 6},
        ),
        TableConfig(
            name="live",
            game="uth",
            betting_seconds=10,
            decision_seconds=20,
            pause_seconds=0,
            rules={"shared_hand": True},
        ),
    ]


test_tables.__test__ = False  # type: ignore[attr-defined]


class ShoeStack:
    """Shoes for the next rounds, in order; a live CSPRNG shoe once the stack is empty."""

    def __init__(self) -> None:
        self.decks: list[str] = []

    def push(self, deck: str) -> None:
        self.decks.append(deck)

    def __call__(self) -> Shoe:
        if self.decks:
            return complete_shoe(self.decks.pop(0))
        return live_shoe()


def complete_shoe(top: str) -> Shoe:
    """A shoe whose first cards are ``top`` and the rest of the deck follows in order."""
    from croupier.cards import DECK, parse_cards

    head = parse_cards(top)
    return Shoe((*head, *(c for c in DECK if c not in head)))


@dataclass
class Server:
    app: FastAPI
    client: TestClient
    clock: ManualClock
    shoes: ShoeStack
    settings: Settings
    _operator_token: str = ""

    def login(self, username: str, password: str = PASSWORD) -> str:
        response = self.client.post(
            "/api/auth/login", json={"username": username, "password": password}
        )
        assert response.status_code == 200, response.text
        token: str = response.json()["access_token"]
        return token

    def player(self, username: str, *, credit: int = 0) -> tuple[int, str]:
        """Register ``username``, credit them, return (user id, token)."""
        response = self.client.post(
            "/api/auth/register", json={"username": username, "password": PASSWORD}
        )
        assert response.status_code == 201, response.text
        user_id: int = response.json()["id"]
        token = self.login(username)
        if credit:
            self.operator_post(f"/api/operator/accounts/{user_id}/credit", {"amount": credit})
        return user_id, token

    def operator_token(self) -> str:
        if not self._operator_token:
            self._operator_token = self.login(*OPERATOR)
        return self._operator_token

    def operator_post(self, path: str, body: Any, *, key: str | None = None) -> Any:
        token = self.operator_token()
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key or uuid.uuid4().hex}
        return self.client.post(path, json=body, headers=headers)

    def balance(self, token: str) -> int:
        response = self.client.get("/api/wallet", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, response.text
        value: int = response.json()["balance"]
        return value

    def ledger(self) -> dict[str, int]:
        token = self.operator_token()
        response = self.client.get(
            "/api/operator/ledger", headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 200, response.text
        totals: dict[str, int] = response.json()
        return totals


ServerFactory = Callable[..., Server]
"""The ``table_server`` fixture: ``table_server(tables=None) -> Server`` (tests/server/conftest.py)."""


def make_settings(url: str) -> Settings:
    """The in-process servers' settings; the integrity check of the installed files is left
    to the servers the tests start as processes and to tests/operations (hashing the package
    at each of the suite's hundreds of starts would only repeat it). The return monitor runs
    as a thread of the test's process: its own process (the default) costs a new interpreter
    at each of those starts, and tests/operations/test_monitor_process.py tests it."""
    return Settings(
        database_url=url,
        operator_username=OPERATOR[0],
        operator_password=OPERATOR[1],  # type: ignore[arg-type]
        secret_key="test-secret",  # type: ignore[arg-type]
        integrity_check=False,
        rtp_monitor_process=False,
    )


class Seat:
    """One WebSocket client: every frame it receives is kept in ``frames``."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self._cursor = 0
        self._ids = 0

    def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = self.ws.receive_json()
        self.frames.append(frame)
        return frame

    def until(self, predicate: Any) -> dict[str, Any]:
        """The next frame (kept or new) that matches; frames are consumed in order."""
        while True:
            if self._cursor == len(self.frames):
                self.recv()
            frame = self.frames[self._cursor]
            self._cursor += 1
            if predicate(frame):
                return frame

    def event(self, kind: str) -> dict[str, Any]:
        """Read up to the next event of ``kind``; return its ``event`` object."""
        frame = self.until(lambda f: f["type"] == "event" and f["event"]["kind"] == kind)
        event: dict[str, Any] = frame["event"]
        return event

    def seen(self, kind: str) -> dict[str, Any]:
        """The first event of ``kind`` received so far, or the next one to arrive."""
        for frame in self.frames:
            if frame["type"] == "event" and frame["event"]["kind"] == kind:
                event: dict[str, Any] = frame["event"]
                return event
        return self.event(kind)

    def state(self) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "state")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send with a fresh ``id``; return the ``ack`` or ``error`` that answers it.

        Other frames that arrive meanwhile stay unread for :meth:`until` and :meth:`event`.
        """
        self._ids += 1
        ref = f"r{self._ids}"
        self.ws.send_json({**message, "id": ref})
        return self.after(
            len(self.frames),
            lambda f: f["type"] in ("ack", "error", "pong") and f.get("ref") == ref,
        )

    def after(self, start: int, predicate: Any) -> dict[str, Any]:
        """The first frame at or after index ``start`` that matches (the cursor stays put)."""
        index = start
        while True:
            while index >= len(self.frames):
                self.recv()
            frame = self.frames[index]
            index += 1
            if predicate(frame):
                return frame

    def welcome(self) -> dict[str, Any]:
        frame = self.until(lambda f: f["type"] == "welcome")
        self.state()
        return frame

    def ok(self, message: dict[str, Any]) -> dict[str, Any]:
        """:meth:`request`, which must be acknowledged: the ``ack``'s ``result``."""
        frame = self.request(message)
        assert frame["type"] == "ack", frame
        result: dict[str, Any] = frame["result"]
        return result

    def text_before(self, kind: str) -> str:
        """Every frame received before the first event of ``kind``, as JSON text (what the
        seat could read before it: a privacy check looks for cards in it)."""
        out = []
        for frame in self.frames:
            if frame.get("type") == "event" and frame["event"]["kind"] == kind:
                break
            out.append(json.dumps(frame))
        return "\n".join(out)
