"""Helpers shared by the browser tests: the server handle, a browser tab, a bot seat."""

from __future__ import annotations

import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

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


class FrameTimeout(AssertionError, queue.Empty):
    """A bot waited for a frame and none it wanted came in time. A ``queue.Empty`` too: a
    loop that polls with a short timeout (``except queue.Empty``) goes on whether no frame
    came or only other frames did (the first raised ``queue.Empty``, the second an
    ``AssertionError`` that failed ``test_holdem_on_every_screen`` once)."""


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
    "casino-keys-0",
    "casino-keys-1",
    "casino-bugs-0",
    "casino-bugs-1",
    "casino-bugs-2",
    "casino-bugs-3",
    "casino-bugs-4",
    "casino-bugs-5",
    "casino-bugs-6",
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


# Issue 29's casino UTH tables.
TRUST_CASINO = (
    "trust-uth-wallet",
    "trust-uth-floor",
    "trust-uth-close",
    "trust-uth-session",
    "trust-uth-commit",
    "trust-uth-cut",
)

# The locales and windows the layout tests run in (issue 15): each pair gets its own tables.
LOCALES = ("it-IT", "en-GB", "sl-SI")
VIEWPORTS = ((390, 844), (1366, 650))
SCREENS = tuple((loc, vw, vh) for loc in LOCALES for vw, vh in VIEWPORTS)


def screen_params(
    screens: Sequence[tuple[str, int, int]], *, fast: tuple[str, int, int]
) -> list[Any]:
    """``screens`` (every locale at every size) as parameters, the full matrix for `make
    test-all` and one screen of it, ``fast``, for `make test`; the others carry the ``slow``
    marker. The fast screens are chosen test by test so that the fast suite still shows each
    game's screens (and the operator's console) at a phone's and a laptop's size and in each
    of the three languages between its tests."""
    assert fast in screens, fast
    return [
        pytest.param(s, id=f"{s[0]}-{s[1]}x{s[2]}", marks=() if s == fast else pytest.mark.slow)
        for s in screens
    ]


_EACH_SCREEN = """
[[tables]]
name = "lay-ru-{i}"
game = "russian"
title = "Russian Poker {i}"
decision_seconds = 60
pause_seconds = 0.3

[[tables]]
name = "lay-hm-{i}"
game = "holdem"
title = "Hold'em {i}"
decision_seconds = 60
pause_seconds = 0.5
"""


# Caribbean Stud Poker's tables (issue 31): one per test that plays, with the progressive bet.
_CARIBBEAN = """
[[tables]]
name = "{name}"
game = "caribbean"
title = "Caribbean Stud {name}"
betting_seconds = 30
decision_seconds = 60
pause_seconds = 0.3
[tables.rules]
ante_min = 100
ante_max = 50000
progressive_bet = 100
jackpot = 1000000
"""
CARIBBEAN_TABLES = ("cs-phone", "cs-laptop", "cs-hint")

# Russian Poker's tables where a round's decision costs are read in each language (issue 32).
_RUSSIAN_COSTS = """
[[tables]]
name = "{name}"
game = "russian"
title = "Russian Poker {name}"
decision_seconds = 60
pause_seconds = 0.3
"""
RUSSIAN_COSTS_TABLES = ("ru-costs-it", "ru-costs-sl")


def tables_toml() -> str:
    """The tables of the test server (a TOML document)."""
    layout = [f"lay-uth-{i}" for i in range(len(SCREENS))]
    return (
        "".join(_CASINO.format(name=n) for n in (*CASINO_TABLES, *layout))
        + _OTHERS
        + "".join(_EACH_SCREEN.format(i=i) for i in range(len(SCREENS)))
        + _EXTRA
        + _TRUST
        + "".join(_CARIBBEAN.format(name=n) for n in CARIBBEAN_TABLES)
        + "".join(_RUSSIAN_COSTS.format(name=n) for n in RUSSIAN_COSTS_TABLES)
    )


# Issue 29's tables: one per test that plays, as above.
_TRUST_HOLDEM = """
[[tables]]
name = "{name}"
game = "holdem"
title = "Hold'em {name}"
decision_seconds = 60
pause_seconds = 0.5
"""
_TRUST_LIVE = """
[[tables]]
name = "{name}"
game = "uth"
title = "UTH live {name}"
betting_seconds = {seconds}
decision_seconds = 60
pause_seconds = 0.3
[tables.rules]
shared_hand = true
"""
_TRUST_BANK = """
[[tables]]
name = "trust-hm-bank"
game = "holdem"
title = "Hold'em time bank"
decision_seconds = 2
time_bank_seconds = 6
pause_seconds = 0.5
"""


def _has_time_bank() -> bool:
    """Whether this server knows tables' time banks (a run against an older server, to see a
    test fail on it, leaves that table out rather than refuse every table)."""
    from croupier.server.tables.config import TableConfig

    return "time_bank_seconds" in TableConfig.model_fields


_TRUST = (
    "".join(_TRUST_HOLDEM.format(name=n) for n in ("trust-hm-poll", "trust-hm-tap"))
    + (_TRUST_BANK if _has_time_bank() else "")
    + "".join(
        _TRUST_LIVE.format(name=n, seconds=s)
        for n, s in (("trust-live-timer", 9), ("trust-live-auto", 7), ("trust-live-trips", 12))
    )
    + "".join(_CASINO.format(name=n) for n in TRUST_CASINO)
)


_EXTRA = """
[[tables]]
name = "op-edit"
game = "uth"
title = "Console edit"
[tables.rules]
max_seats = 6
ante_max = 1000

[[tables]]
name = "op-play"
game = "uth"
title = "Console play"
decision_seconds = 60
pause_seconds = 0.3
[tables.rules]
max_seats = 6

[[tables]]
name = "op-russian"
game = "russian"
title = "Console Russian"

[[tables]]
name = "russian-bugs"
game = "russian"
title = "Russian Poker bugs"
decision_seconds = 60
pause_seconds = 0.3

[[tables]]
name = "holdem-bugs"
game = "holdem"
title = "Hold'em bugs"
decision_seconds = 60
pause_seconds = 0.5

[[tables]]
name = "holdem-pre"
game = "holdem"
title = "Hold'em pre-actions"
decision_seconds = 60
pause_seconds = 0.5

[[tables]]
name = "holdem-pl"
game = "holdem"
title = "Hold'em Pot-Limit"
decision_seconds = 60
pause_seconds = 0.5
[tables.rules]
structure = "pot-limit"
"""


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
    sent: list[dict[str, Any]] = field(default_factory=list)
    """Every frame the page's table sockets sent, decoded."""
    sockets: int = 0
    lobby_sockets: int = 0
    lobby_frames: list[dict[str, Any]] = field(default_factory=list)
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
        self.page.wait_for_selector("[data-testid=connection][data-state=open]")

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
        """The first frame ``pred`` accepts within ``timeout`` seconds; :class:`FrameTimeout`
        (a ``queue.Empty``, as when no frame came at all) when none did."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise FrameTimeout("the bot did not see the expected frame")
            frame = self.frames.get(timeout=left)
            if pred(frame):
                return frame

    def close(self) -> None:
        self.ws.close()


# -- the layout and accessibility checks (issue 15) --------------------------------------

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core from the npm registry (``npm ci`` at the repository root; ``make test`` runs it)."""


def euros(cents: int, locale: str) -> str:
    """What ``Intl.NumberFormat(locale, {style: 'currency', currency: 'EUR'})`` writes, with
    plain spaces (it writes a no-break space): "12.345,67 €" (it, sl), "€12,345.67" (en).
    Thousands are grouped from four digits on ("1.000,00 €"), as the client asks of Intl."""
    sign = "−" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    if locale.startswith("en"):
        return f"{sign}€{whole:,}.{frac:02d}"
    return f"{sign}{whole:,}".replace(",", ".") + f",{frac:02d} €"


def plain(text: str | None) -> str:
    """Text with no-break and narrow spaces made plain."""
    return (text or "").replace("\u00a0", " ").replace("\u202f", " ")


def axe_violations(page: Any, *, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations of the page at ``impacts``, described."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the browser's debugging protocol, which the page's CSP (no inline
        # scripts) does not govern: the page itself still runs under it.
        page.evaluate(AXE.read_text("utf-8") + "\n;0")
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {runOnly: {type: 'tag',
              values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
              nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' +
                (n.failureSummary || '').slice(0, 160))}));
        }"""
    )
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in result if v["impact"] in impacts]


def horizontal_overflow(page: Any) -> int:
    """How many CSS pixels the page is wider than the window (0: no horizontal scrolling)."""
    width: int = page.evaluate(
        "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth"
    )
    return width


def out_of_view(page: Any, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the window."""
    found: list[str] = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter(el => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 ||
              r.bottom > innerHeight + 0.5);
          }).map(el => (el.dataset.testid || el.className) + ' ' + JSON.stringify(
            el.getBoundingClientRect()))""",
        selector,
    )
    return found


# The lines of text on the felt that run out of its rounded top into the rail: each line's
# ends must lie inside the felt's inner ellipse (its border-radius, less the rail's width).
OUTSIDE_THE_CURVE = """() => {
  const felt = document.querySelector('[data-testid=felt]');
  const f = felt.getBoundingClientRect();
  const cs = getComputedStyle(felt);
  const b = parseFloat(cs.borderTopWidth);
  const [rxs, rys] = cs.borderTopLeftRadius.split(' ');
  const size = (v, whole) => v.endsWith('%') ? parseFloat(v) / 100 * whole : parseFloat(v);
  const rx = size(rxs, f.width) - b, ry = size(rys || rxs, f.height) - b;
  const left = f.left + b, right = f.right - b, top = f.top + b;
  const out = [];
  for (const el of document.querySelectorAll('[data-testid=felt] .hand-note, [data-testid=felt] .felt-label')) {
    const range = document.createRange();
    range.selectNodeContents(el);
    for (const r of range.getClientRects()) {
      if (r.width === 0) continue;
      const dy = top + ry - r.top;
      const inset = dy > 0 ? rx * (1 - Math.sqrt(Math.max(0, 1 - (dy / ry) ** 2))) : 0;
      if (r.left < left + inset - 1 || r.right > right - inset + 1) out.push(el.textContent);
    }
  }
  return out;
}"""


def tab_to(page: Any, testid: str, *, presses: int = 80) -> None:
    """Move the keyboard focus with Tab until the element ``testid`` has it."""
    for _ in range(presses):
        if (
            page.evaluate("() => document.activeElement && document.activeElement.dataset.testid")
            == testid
        ):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(tables_text: str, **env_extra: str) -> Iterator[WebServer]:
    """The real server with the browser client and ``tables_text`` (a tables TOML), on
    127.0.0.1 and a free port; ``env_extra`` adds to its environment (``CROUPIER_TEST_DECK``:
    every shoe in that order, tests/web/serve.py)."""
    base = Path(tempfile.mkdtemp(prefix="croupier-web-"))
    tables = base / "tables.toml"
    tables.write_text(tables_text)
    port = _free_port()
    env = {
        **os.environ,
        "CROUPIER_OPERATOR_USERNAME": OPERATOR[0],
        "CROUPIER_OPERATOR_PASSWORD": OPERATOR[1],
        "CROUPIER_SECRET_KEY": uuid.uuid4().hex * 2,
        **env_extra,
    }
    log = (base / "server.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("serve.py")),
            str(port),
            f"sqlite:///{base / 'croupier.db'}",
            str(tables),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    http = httpx.Client(base_url=url, timeout=30)
    try:
        for _ in range(300):
            if proc.poll() is not None:
                pytest.fail(f"the server exited: {(base / 'server.log').read_text()[-3000:]}")
            try:
                if http.get("/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        else:
            pytest.fail("the server did not start within 30 s")
        yield WebServer(url=url, http=http)
    finally:
        http.close()
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(base, ignore_errors=True)


# -- a server of one's own (issue 29): restarted, stacked, with its own settings -----------


class OwnServer:
    """A server of a test's own (the shared one must not be restarted under other tests): its
    tables, optional stacked deals (``serve.py``'s ``CROUPIER_TEST_DECKS``) and settings;
    :meth:`restart` stops it and starts it again on the same port and database."""

    def __init__(
        self,
        base: Path,
        tables: str,
        *,
        decks: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.base = base
        (base / "tables.toml").write_text(tables)
        self.port = _free_port()
        self.env = {
            **os.environ,
            "CROUPIER_OPERATOR_USERNAME": OPERATOR[0],
            "CROUPIER_OPERATOR_PASSWORD": OPERATOR[1],
            "CROUPIER_SECRET_KEY": uuid.uuid4().hex * 2,  # kept over restarts: sessions live
            **(env or {}),
        }
        if decks is not None:
            (base / "decks.txt").write_text("\n".join(decks) + "\n")
            self.env["CROUPIER_TEST_DECKS"] = str(base / "decks.txt")
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = WebServer(url=self.url, http=httpx.Client(base_url=self.url, timeout=30))
        self.proc: Any = None
        self.log: Any = None
        self.start()

    def start(self) -> None:
        self.log = log = (self.base / "server.log").open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).with_name("serve.py")),
                str(self.port),
                f"sqlite:///{self.base / 'croupier.db'}",
                str(self.base / "tables.toml"),
            ],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError((self.base / "server.log").read_text()[-3000:])
            try:
                if self.server.http.get("/api/health").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not start within 30 s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None
            self.log.close()

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        self.stop()
        self.server.http.close()
