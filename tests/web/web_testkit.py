"""Helpers shared by the browser tests: the server handle, a browser tab, a bot seat."""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "web"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OPERATOR = ("boss", "operator-password-1")
PASSWORD = "felt-river-lantern-42"

# One casino table per test that plays, so seats never carry over between tests. Betting closes
# as soon as every seated player has bet; long decision timers keep timeouts out of the way.
_CASINO = """
[[tables]]
name = "{name}"
game = "uth"
title = "UTH {name}"
betting_seconds = 30
decision_seconds = 60
pause_seconds = 0.3
[tables.rules]
max_seats = 6
ante_min = 100
ante_max = 100000
trips_min = 100
trips_max = 50000
"""
CASINO_TABLES = (
    "casino-play",
    "casino-reconnect",
    "casino-reload",
    "casino-frames",
    "casino-ops",
    "casino-bots",
    "casino-cli",
)
_OTHERS = """
[[tables]]
name = "live"
game = "uth"
title = "UTH live"
betting_seconds = 2
decision_seconds = 60
pause_seconds = 0.3
[tables.rules]
shared_hand = true

[[tables]]
name = "holdem-nl"
game = "holdem"
title = "Hold'em No-Limit"

[[tables]]
name = "russian"
game = "russian"
title = "Russian Poker"
"""


def tables_toml() -> str:
    """The tables of the test server (a TOML document)."""
    return "".join(_CASINO.format(name=n) for n in CASINO_TABLES) + _OTHERS


@dataclass
class WebServer:
    """The running server: its URL and a REST client with operator rights."""

    url: str
    http: httpx.Client
    operator_token: str = ""

    @property
    def ws_url(self) -> str:
        return "ws" + self.url[len("http") :]

    def login(self, username: str, password: str = PASSWORD) -> str:
        response = self.http.post(
            "/api/auth/login", json={"username": username, "password": password}
        )
        assert response.status_code == 200, response.text
        token: str = response.json()["access_token"]
        return token

    def operator(self, method: str, path: str, **kwargs: Any) -> Any:
        if not self.operator_token:
            self.operator_token = self.login(*OPERATOR)
        headers = {"Authorization": f"Bearer {self.operator_token}", **kwargs.pop("headers", {})}
        response = self.http.request(method, path, headers=headers, **kwargs)
        assert response.status_code < 400, response.text
        return response.json()

    def player(self, prefix: str, *, credit: int = 100_000) -> tuple[str, int, str]:
        """Register a fresh player and credit them; returns (username, user id, token)."""
        username = f"{prefix}-{uuid.uuid4().hex[:6]}"
        response = self.http.post(
            "/api/auth/register", json={"username": username, "password": PASSWORD}
        )
        assert response.status_code == 201, response.text
        user_id: int = response.json()["id"]
        if credit:
            self.operator(
                "POST",
                f"/api/operator/accounts/{user_id}/credit",
                json={"amount": credit},
                headers={"Idempotency-Key": uuid.uuid4().hex},
            )
        return username, user_id, self.login(username)

    def balance(self, token: str) -> int:
        response = self.http.get("/api/wallet", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, response.text
        balance: int = response.json()["balance"]
        return balance

    def recall(self, round_id: int) -> dict[str, Any]:
        data: dict[str, Any] = self.operator("GET", f"/api/rounds/{round_id}")
        return data


@dataclass
class Tab:
    """A page with every WebSocket frame it received, decoded, in arrival order."""

    page: Any
    server: WebServer
    frames: list[dict[str, Any]] = field(default_factory=list)
    sockets: int = 0
    errors: list[str] = field(default_factory=list)

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.wait_for_timeout(350)  # let the dealing animation finish
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def login(self, username: str, password: str = PASSWORD) -> None:
        self.page.goto(f"{self.server.url}/#/login")
        self.page.fill("[data-testid=username-input]", username)
        self.page.fill("[data-testid=password-input]", password)
        self.page.click("[data-testid=auth-submit]")
        self.page.wait_for_selector("[data-testid=lobby] article")

    def open_table(self, name: str) -> None:
        self.page.click(f"[data-testid=open-{name}]")
        self.page.wait_for_selector("[data-testid=connection]:has-text('open')")

    def wait_frame(
        self, pred: Callable[[dict[str, Any]], bool], *, timeout: float = 20
    ) -> dict[str, Any]:
        """The first received frame matching ``pred``, waiting for it (frames reach Python
        while Playwright waits, a little after the page has seen them)."""
        deadline = time.monotonic() + timeout
        while True:
            for frame in self.frames:
                if pred(frame):
                    return frame
            if time.monotonic() > deadline:
                raise AssertionError("the page never received the expected frame")
            self.page.wait_for_timeout(50)

    def wait_until(self, condition: Callable[[], bool], *, timeout: float = 20) -> None:
        """Wait for a condition on what Python has received from the page."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("condition not met in time")
            self.page.wait_for_timeout(50)

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [
            f["event"]
            for f in self.frames
            if f.get("type") == "event" and f["event"]["kind"] == kind
        ]


class SeatBot:
    """A second player at the table over a real WebSocket (the sync ``websockets`` client)."""

    def __init__(self, server: WebServer, table: str, token: str) -> None:
        from websockets.sync.client import connect

        # Entered as a context manager (websockets >= 17.1 warns about bare connections).
        self.ws = connect(f"{server.ws_url}/ws/tables/{table}").__enter__()
        self.ws.send(json.dumps({"type": "auth", "token": token}))  # the first frame
        self.failure: BaseException | None = None
        self.frames: queue.Queue[dict[str, Any]] = queue.Queue()
        self.answers: dict[int, dict[str, Any]] = {}
        self.cond = threading.Condition()
        self.next_id = 1
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                frame = json.loads(raw)
                self.frames.put(frame)
                if frame.get("type") in ("ack", "error") and isinstance(frame.get("ref"), int):
                    with self.cond:
                        self.answers[frame["ref"]] = frame
                        self.cond.notify_all()
        except Exception as exc:  # the socket closed, or a bug: requests then say so
            self.failure = exc
            with self.cond:
                self.cond.notify_all()

    def request(self, message: dict[str, Any], *, timeout: float = 20) -> dict[str, Any]:
        ident = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps({**message, "id": ident}))
        with self.cond:
            if not self.cond.wait_for(lambda: ident in self.answers, timeout=timeout):
                raise AssertionError(f"no answer to {message} ({self.failure!r})")
            return self.answers.pop(ident)

    def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the bot did not see the expected frame")
            frame = self.frames.get(timeout=left)
            if pred(frame):
                return frame

    def close(self) -> None:
        self.ws.close()
