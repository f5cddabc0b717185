"""How long a table page takes to be usable in the browser (issue 29: "keep the client fast").

Starts the test server (``tests/web/serve.py``, SQLite in a temporary directory), logs a player
in, and opens a UTH casino table in headless Debian Chromium (Playwright) ``--runs`` times per
profile, from a cold cache (a new browser context each run): "usable" is the moment the page
says "Connected" (the server's ``welcome`` arrived) with its Sit button enabled. Profiles: a
laptop (1366x768) and a phone (390x844) with the CPU slowed 4x and the network to "fast 3G"
(Chrome DevTools' presets: 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency). Prints the median,
the fastest and the slowest, and the bytes the page transferred (compressed).

    .venv/bin/python benchmarks/client_load.py --runs 7

Nothing is asserted: the figures go to the README.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "web"))

from web_testkit import CHROMIUM, CHROMIUM_ARGS, OwnServer, tables_toml  # noqa: E402

PROFILES: dict[str, dict[str, Any]] = {
    "laptop 1366x768": {"viewport": (1366, 768), "cpu": 1, "network": None},
    "phone 390x844, CPU 4x slower, fast 3G": {
        "viewport": (390, 844),
        "cpu": 4,
        "network": {
            "latency": 150,
            "downloadThroughput": 1_600_000 / 8,
            "uploadThroughput": 750_000 / 8,
        },
    },
}


def _one(
    browser: Any, url: str, token: dict[str, Any], profile: dict[str, Any]
) -> tuple[float, int]:
    width, height = profile["viewport"]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="it-IT")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if profile["cpu"] > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
    if profile["network"]:
        cdp.send("Network.emulateNetworkConditions", {"offline": False, **profile["network"]})
    received = [0]
    cdp.on(
        "Network.loadingFinished",
        lambda e: received.__setitem__(0, received[0] + int(e["encodedDataLength"])),
    )
    # The session in the page's storage (as after a login), then a cold load of the table.
    page.goto(f"{url}/favicon-none")
    page.evaluate("(s) => localStorage.setItem('croupier.session', JSON.stringify(s))", token)
    started = time.perf_counter()
    page.goto(f"{url}/#/table/casino-play")
    page.wait_for_selector("[data-testid=connection][data-state=open]", timeout=60_000)
    page.wait_for_selector("[data-testid=sit]:not([disabled])", timeout=60_000)
    seconds = time.perf_counter() - started
    context.close()
    return seconds, received[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = OwnServer(Path(tempfile.mkdtemp(prefix="croupier-bench-")), tables_toml())
    try:
        web = server.server
        name, user_id, token = web.player("bench", credit=0)
        session = {"token": token, "user": {"id": user_id, "username": name, "role": "player"}}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
            )
            _one(browser, web.url, session, PROFILES["laptop 1366x768"])  # warm the server
            for label, profile in PROFILES.items():
                runs = [_one(browser, web.url, session, profile) for _ in range(args.runs)]
                times = sorted(t for t, _ in runs)
                kb = statistics.median(b for _, b in runs) / 1024
                print(
                    f"{label}: usable in {statistics.median(times):.2f} s median "
                    f"({times[0]:.2f}-{times[-1]:.2f} s over {args.runs} cold loads), "
                    f"{kb:.0f} KiB transferred"
                )
            browser.close()
    finally:
        server.close()


if __name__ == "__main__":
    main()
