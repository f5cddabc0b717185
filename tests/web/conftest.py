"""Fixtures for the browser tests: the real server in a subprocess, headless Chromium, players.

The server is ``tests/web/serve.py`` (``create_app`` + the static client, uvicorn on 127.0.0.1
and a free port, SQLite in a temporary directory). The browser is Debian's ``chromium`` driven
by Playwright through ``executable_path`` (``playwright install`` is never run); where
``/usr/bin/chromium`` is missing, ``scripts/install-chromium.sh`` installs it with apt-get.
Every test gets its own table (a seat left by one test would hold the next one's betting
open) and its own browser context; its last screen is saved under ``artifacts/web/``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# The helpers live next to this file (--import-mode=importlib does not put test directories
# on sys.path); the module name is unique so it never shadows another directory's helpers.
sys.path.insert(0, str(Path(__file__).parent))

from web_testkit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    REPO,
    SeatBot,
    Tab,
    WebServer,
    serve,
    tables_toml,
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives headless Chromium against the server")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/web/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def web_server() -> Iterator[WebServer]:
    """The real server with the browser client, on 127.0.0.1 and a free port."""
    with serve(tables_toml()) as server:
        yield server


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless Chromium (Debian's package) under Playwright, once per test module: Playwright's
    synchronous API keeps an event loop running in the thread while it is open, and the test
    modules a worker runs next (``asyncio.run`` in the server and CLI tests) need it closed."""
    if not CHROMIUM.exists():
        # One apt-get at a time: the other test workers may be installing too.
        subprocess.run(
            [
                "flock",
                "/tmp/croupier-apt.lock",
                "sh",
                str(REPO / "scripts" / "install-chromium.sh"),
            ],
            check=True,
        )
    if not CHROMIUM.exists():
        pytest.fail("chromium could not be installed (scripts/install-chromium.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def tab(chromium: Any, web_server: WebServer, request: pytest.FixtureRequest) -> Iterator[Tab]:
    """A fresh browser context and page; its last screen is kept as an artefact."""
    context = chromium.new_context(viewport={"width": 1400, "height": 950})
    context.set_default_timeout(20_000)
    page = context.new_page()
    result = Tab(page=page, server=web_server)

    def on_socket(ws: Any) -> None:
        _record(result, ws)

    def on_request(request: Any) -> None:
        # Everything the page loads comes from the server itself (no CDN, no fonts online).
        if not request.url.startswith((web_server.url, web_server.ws_url, "data:")):
            result.errors.append(f"request outside the server: {request.url}")

    page.on("websocket", on_socket)
    page.on("request", on_request)
    page.on("pageerror", lambda exc: result.errors.append(str(exc)))
    try:
        yield result
    finally:
        try:
            result.shot(f"{request.node.name}-last")
        finally:
            context.close()
    assert not result.errors, f"javascript errors on the page: {result.errors}"


@pytest.fixture
def screen_tab(
    chromium: Any, web_server: WebServer, request: pytest.FixtureRequest
) -> Iterator[Callable[[str, int, int], Tab]]:
    """A factory of tabs in a locale and a window size (a browser context each, closed after
    the test; JavaScript errors fail the test)."""
    tabs: list[tuple[Any, Tab]] = []

    def factory(locale: str, width: int, height: int) -> Tab:
        context = chromium.new_context(
            viewport={"width": width, "height": height}, locale=locale, has_touch=width < 500
        )
        context.set_default_timeout(20_000)
        page = context.new_page()
        result = Tab(page=page, server=web_server)
        page.on("websocket", lambda ws: _record(result, ws))
        page.on("pageerror", lambda exc: result.errors.append(str(exc)))
        tabs.append((context, result))
        return result

    yield factory
    errors = []
    for context, result in tabs:
        errors += result.errors
        context.close()
    assert not errors, f"javascript errors on the page: {errors}"


def _record(result: Tab, ws: Any) -> None:
    """Keep every frame the page's socket receives; the client asks for batched frames, so a
    message may be a JSON array of them (docs/protocol.md "Batched frames")."""
    result.sockets += 1

    def received(payload: str) -> None:
        data = json.loads(payload)
        result.frames.extend(data if isinstance(data, list) else [data])

    ws.on("framereceived", received)


@pytest.fixture
def make_bot(web_server: WebServer) -> Iterator[Callable[[str, str], SeatBot]]:
    """A factory of :class:`SeatBot` (closed after the test)."""
    bots: list[SeatBot] = []

    def factory(table: str, token: str) -> SeatBot:
        bot = SeatBot(web_server, table, token)
        bots.append(bot)
        return bot

    yield factory
    for bot in bots:
        bot.close()
