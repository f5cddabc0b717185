"""Helpers for the security tests: ``croupier serve`` in a child process, players made over
HTTP, and table sockets over real WebSockets that keep every frame they received.

The attacks in ``tests/security`` are driven from outside, as a client would: HTTP with
``httpx`` and WebSockets with the ``websockets`` client, against a server started here on a
free port (:func:`server_testkit.start_serve`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from server_testkit import OPERATOR, free_port, start_serve

__all__ = [
    "PASSWORD",
    "Player",
    "SecServer",
    "ServerFactory",
    "TableSocket",
    "cards_seen",
    "unique",
]

PASSWORD = "felt-river-lantern-42"
"""A password the strength check accepts (zxcvbn score 4)."""

_counter = itertools.count(1)


def unique(prefix: str) -> str:
    """A username no other test uses (3 to 32 characters)."""
    return f"{prefix}{next(_counter)}{uuid.uuid4().hex[:4]}"[:32]


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class SecServer:
    """``croupier serve`` on a SQLite file (or ``url``) and a free port, with ``tables``."""

    def __init__(
        self,
        tmp_path: Path,
        *,
        tables: str,
        env: Mapping[str, str] | None = None,
        url: str | None = None,
    ) -> None:
        tmp_path.mkdir(parents=True, exist_ok=True)
        self.tmp_path = tmp_path
        self.tables = tables
        self.env = dict(env or {})
        self.db_url = url or f"sqlite:///{tmp_path / 'casino.db'}"
        self.port = free_port()
        self.log_path = tmp_path / f"server-{self.port}.log"
        self.proc = start_serve(
            tmp_path,
            url=self.db_url,
            port=self.port,
            tables=tables,
            secret="security-suite-secret",
            env=self.env,
            log_path=self.log_path,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=30)
        self._operator: str | None = None

    def restart(self) -> None:
        """Kill the server with SIGKILL and start it again on the same database and port."""
        self.proc.kill()
        self.proc.wait(timeout=10)
        self.proc = start_serve(
            self.tmp_path,
            url=self.db_url,
            port=self.port,
            tables=self.tables,
            secret="security-suite-secret",
            env=self.env,
            log_path=self.log_path,
        )

    def stop(self) -> None:
        self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def log_text(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    # -- accounts --------------------------------------------------------------------------

    def operator_token(self) -> str:
        if self._operator is None:
            self._operator = self.login(*OPERATOR)
        return self._operator

    def operator(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.operator_token()}"}

    def login(self, username: str, password: str = PASSWORD) -> str:
        response = self.http.post(
            "/api/auth/login", json={"username": username, "password": password}
        )
        assert response.status_code == 200, response.text
        token: str = response.json()["access_token"]
        return token

    def player(self, prefix: str, *, credit: int = 0) -> Player:
        """A new player, logged in, with ``credit`` in their wallet."""
        name = unique(prefix)
        response = self.http.post(
            "/api/auth/register", json={"username": name, "password": PASSWORD}
        )
        assert response.status_code == 201, response.text
        user_id: int = response.json()["id"]
        if credit:
            self.credit(user_id, credit)
        return Player(user_id, name, self.login(name))

    def credit(self, user_id: int, amount: int) -> None:
        response = self.http.post(
            f"/api/operator/accounts/{user_id}/credit",
            json={"amount": amount},
            headers={**self.operator(), "Idempotency-Key": uuid.uuid4().hex},
        )
        assert response.status_code == 200, response.text

    def balance(self, user_id: int) -> int:
        """A player's wallet, as the operator sees it."""
        response = self.http.get(f"/api/operator/accounts/{user_id}", headers=self.operator())
        if response.status_code == 401:  # the operator's own session expired: log in anew
            self._operator = None
            response = self.http.get(f"/api/operator/accounts/{user_id}", headers=self.operator())
        assert response.status_code == 200, response.text
        value: int = response.json()["balance"]
        return value

    def socket(self, table: str, token: str | None) -> TableSocket:
        """A table socket, authenticated as the protocol says (closed after the test by
        :func:`close_sockets`, if the test did not close it)."""
        ws = TableSocket(self.ws_url, table, token)
        _OPEN.append(ws)
        return ws


_OPEN: list[TableSocket] = []
"""Every table socket opened by the test running now."""


def close_sockets() -> None:
    """Close every table socket the test opened (a socket left open would keep pinging the
    shared server for the rest of the session, see tests/conftest.py)."""
    while _OPEN:
        _OPEN.pop().close()


class TableSocket:
    """One table WebSocket; a reader thread keeps every frame and the close code."""

    def __init__(self, ws_url: str, table: str, token: str | None, *, via: str = "frame") -> None:
        """``via``: how the token is given, as the protocol says (``"frame"``: the first
        frame is ``{"type": "auth", ...}``) or in the URL (``"query"``, refused)."""
        from websockets.sync.client import connect

        url = f"{ws_url}/ws/tables/{table}"
        if token is not None and via == "query":
            url += f"?token={token}"
        self.ws = connect(url, max_size=2**24).__enter__()
        if token is not None and via == "frame":
            self.ws.send(json.dumps({"type": "auth", "token": token}))
        self.frames: list[dict[str, Any]] = []
        self.close_code: int | None = None
        self.closed = threading.Event()
        self.cond = threading.Condition()
        self._ids = itertools.count(1)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for raw in self.ws:
                frame = json.loads(raw)
                with self.cond:
                    self.frames.append(frame)
                    self.cond.notify_all()
        except ConnectionClosed:
            pass
        finally:
            rcvd = self.ws.protocol.close_rcvd
            self.close_code = rcvd.code if rcvd is not None else None
            with self.cond:
                self.closed.set()
                self.cond.notify_all()

    def send(self, message: Mapping[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def request(self, message: Mapping[str, Any], *, timeout: float = 20) -> dict[str, Any] | None:
        """Send with a fresh ``id``: the ``ack``/``error``/``pong`` that answers, or ``None``
        if the socket closed first."""
        ref = next(self._ids)
        start = len(self.frames)
        try:
            self.send({**message, "id": ref})
        except Exception:
            return None
        frame = self.wait_for(
            lambda f: f.get("ref") == ref and f["type"] in ("ack", "error", "pong"),
            timeout=timeout,
            start=start,
            or_closed=True,
        )
        return frame

    def wait_for(
        self,
        predicate: Callable[[dict[str, Any]], bool],
        *,
        timeout: float = 20,
        start: int = 0,
        or_closed: bool = False,
    ) -> dict[str, Any] | None:
        """The first frame from index ``start`` on that matches; ``None`` once closed when
        ``or_closed``, else an assertion error."""
        deadline = time.monotonic() + timeout
        index = start
        with self.cond:
            while True:
                while index < len(self.frames):
                    frame = self.frames[index]
                    index += 1
                    if predicate(frame):
                        return frame
                if self.closed.is_set():
                    if or_closed:
                        return None
                    raise AssertionError(f"socket closed ({self.close_code}) before the frame")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("the expected frame did not arrive in time")
                self.cond.wait(timeout=left)

    def index_of(self, kind: str, *, timeout: float = 20, start: int = 0) -> int:
        """The index in :attr:`frames` of the next event of ``kind`` from ``start`` on."""
        frame = self.wait_for(
            lambda f: f["type"] == "event" and f["event"]["kind"] == kind,
            timeout=timeout,
            start=start,
        )
        return next(i for i in range(start, len(self.frames)) if self.frames[i] is frame)

    def event(self, kind: str, *, timeout: float = 20, start: int = 0) -> dict[str, Any]:
        frame = self.wait_for(
            lambda f: f["type"] == "event" and f["event"]["kind"] == kind,
            timeout=timeout,
            start=start,
        )
        assert frame is not None
        event: dict[str, Any] = frame["event"]
        return event

    def seat_event(self, kind: str, *, timeout: float = 20) -> dict[str, Any]:
        frame = self.wait_for(
            lambda f: f["type"] == "seat_event" and f["event"]["kind"] == kind, timeout=timeout
        )
        assert frame is not None
        event: dict[str, Any] = frame["event"]
        return event

    def wait_closed(self, timeout: float = 10) -> int | None:
        assert self.closed.wait(timeout), "the server did not close the socket"
        return self.close_code

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
        self.reader.join(timeout=5)


_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
_PHH_CARDS = re.compile(r"(?:d dh p\d+|d db|p\d+ sm) ([2-9TJQKA?][cdhs?](?:[2-9TJQKA?][cdhs?])*)")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def cards_seen(value: Any) -> set[str]:
    """Every card named anywhere in ``value``: as a token of its own (``"As"``, a deck
    ``"As Kd ..."``) or in the dealing and showing lines of a PHH text."""
    found: set[str] = set()
    for text in _strings(value):
        for token in re.split(r"[\s,\[\]'\"]+", text):
            if _CARD.match(token):
                found.add(token)
        for match in _PHH_CARDS.finditer(text):
            cards = match.group(1)
            found.update(
                c for c in (cards[i : i + 2] for i in range(0, len(cards), 2)) if "?" not in c
            )
    return found


ServerFactory = Callable[..., SecServer]
"""``make_server(env={...}, tables=...)``: a server of a test's own (the fixture)."""
