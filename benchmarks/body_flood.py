"""Flood benchmark (issue 27): other players' pings while anonymous clients POST 16 MB bodies.

Starts ``croupier serve`` (the real command, on SQLite, 127.0.0.1 only) with one live UTH
table, seats ``--bots`` bots that play it over real WebSockets (``croupier.cli.bots``, in a
process of their own), and connects ``--pingers`` other players to the table, each sending a
``ping`` frame every 250 ms and timing its ``pong``. After ``--baseline`` seconds of play,
``--flooders`` anonymous clients (each in a process of its own) POST 16 MB bodies to
``/api/auth/login`` as fast as the server takes them, for ``--seconds`` seconds: with a
``Content-Length`` (``--mode length``), chunked (``--mode chunked``), or 16 MB of request
headers (``--mode headers``). It prints the pings' p50/p99 before and during the flood, the
flood's requests and answers, and the server's CPU seconds.

    .venv/bin/python benchmarks/body_flood.py
    .venv/bin/python benchmarks/body_flood.py --mode chunked
    .venv/bin/python benchmarks/body_flood.py --server-path /path/to/other/checkout/src

``--server-path`` runs the server from another checkout's ``src`` (the figures before a fix).
Bounded: at most 120 s of flood and 200 bots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load_uth import SECRET, TABLES, _free_port, _wait_healthy, cpu_seconds  # noqa: E402

BODY = 16 * 2**20


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


# -- the flooders (each its own process) -------------------------------------------------


def flood(port: int, seconds: float, mode: str, out: str, niceness: int) -> None:
    """``--flood``: POST 16 MB bodies (or heads) for ``seconds``; what came back."""
    # An attacker's clients run on machines of their own: here they share the two cores with
    # the server, so they yield to it (``--flooder-nice``), and what is measured is the
    # server's work, not the flooders' spinning.
    os.nice(niceness)
    chunk = b"a" * 65536
    statuses: dict[str, int] = {}
    sent_bytes = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                if mode == "headers":
                    head = b"POST /api/auth/login HTTP/1.1\r\nHost: x\r\n"
                    sock.sendall(head)
                    line = b"X-Flood: " + b"a" * 1000 + b"\r\n"
                    for _ in range(BODY // len(line)):
                        sock.sendall(line)
                        sent_bytes += len(line)
                    sock.sendall(b"Content-Length: 2\r\n\r\n{}")
                else:
                    framing = (
                        b"Transfer-Encoding: chunked\r\n"
                        if mode == "chunked"
                        else b"Content-Length: %d\r\n" % BODY
                    )
                    sock.sendall(
                        b"POST /api/auth/login HTTP/1.1\r\nHost: x\r\n"
                        b"Content-Type: application/json\r\n" + framing + b"\r\n"
                    )
                    for _ in range(BODY // len(chunk)):
                        if mode == "chunked":
                            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        else:
                            sock.sendall(chunk)
                        sent_bytes += len(chunk)
                    if mode == "chunked":
                        sock.sendall(b"0\r\n\r\n")
                status = _status(sock)
        except OSError:
            status = "closed"
        statuses[status] = statuses.get(status, 0) + 1
    Path(out).write_text(json.dumps({"answers": statuses, "sent_mb": round(sent_bytes / 2**20)}))


def _status(sock: socket.socket) -> str:
    data = b""
    while b"\r\n" not in data:
        got = sock.recv(4096)
        if not got:
            return "closed"
        data += got
    return data.split(b" ", 2)[1].decode()


# -- the other players --------------------------------------------------------------------


async def _pinger(ws_url: str, token: str, stop: float, samples: list[tuple[float, float]]) -> None:
    from websockets.asyncio.client import connect

    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        n = 0
        while time.monotonic() < stop:
            n += 1
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "ping", "id": n}))
            while True:
                frame = json.loads(await ws.recv())
                if frame.get("type") == "pong" and frame.get("ref") == n:
                    break
            samples.append((sent, time.monotonic() - sent))
            await asyncio.sleep(0.25)


async def _pingers(ws_url: str, tokens: list[str], stop: float) -> list[tuple[float, float]]:
    samples: list[tuple[float, float]] = []
    await asyncio.gather(*(_pinger(ws_url, t, stop, samples) for t in tokens))
    return samples


# -- the run --------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    base = Path(tempfile.mkdtemp(prefix="croupier-flood-"))
    env = dict(os.environ)
    if args.server_path:
        env["PYTHONPATH"] = os.pathsep.join([args.server_path, env.get("PYTHONPATH", "")])
    database = f"sqlite:///{base / 'casino.db'}"
    tables = base / "tables.toml"
    tables.write_text(TABLES.format(betting=2, decision=3, pause=0))
    made = base / "tokens"
    players = args.bots + args.pingers
    subprocess.run(
        [
            sys.executable,
            str(HERE / "load_uth.py"),
            "--make-bots",
            database,
            str(players),
            str(made),
        ],
        check=True,
        env=env,
    )
    tokens = made.read_text().split()
    bots, pingers = tokens[: args.bots], tokens[args.bots :]
    port = _free_port()
    log_path = base / "server.log"
    serve_env = {k: v for k, v in env.items() if not k.startswith("CROUPIER_")}
    serve_env.update(CROUPIER_SECRET_KEY=SECRET, CROUPIER_LOG_LEVEL="warning")
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "croupier.cli",
                "serve",
                "--config",
                str(tables),
                "--database",
                database,
                "--port",
                str(port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=serve_env,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, server, log_path)
        return _measure(args, base, url, port, server.pid, bots, pingers)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(base, ignore_errors=True)


def _measure(
    args: argparse.Namespace,
    base: Path,
    url: str,
    port: int,
    pid: int,
    bots: list[str],
    pingers: list[str],
) -> dict[str, Any]:
    total = args.baseline + args.seconds + 2
    plan = {
        "url": url,
        "table": "live",
        "ante": 100,
        "trips": 100,
        "rounds": 0,
        "seconds": total + 3,
    }
    (base / "bots").write_text("\n".join(bots))
    bot_proc = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "load_uth.py"),
            "--bots",
            json.dumps(plan),
            str(base / "bots"),
            str(base / "bots.out"),
        ]
    )
    time.sleep(3)  # the bots sit and bet
    start = time.monotonic()
    flood_at = start + args.baseline
    stop = flood_at + args.seconds
    cpu_before = cpu_seconds([pid])
    flooders: list[subprocess.Popen[bytes]] = []

    async def play() -> list[tuple[float, float]]:
        task = asyncio.create_task(
            _pingers(url.replace("http", "ws") + "/ws/tables/live", pingers, stop)
        )
        await asyncio.sleep(max(0.0, flood_at - time.monotonic()))
        for k in range(args.flooders):
            flooders.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        __file__,
                        "--flood",
                        str(port),
                        str(args.seconds),
                        args.mode,
                        str(base / f"flood{k}"),
                        str(args.flooder_nice),
                    ]
                )
            )
        return await task

    samples = asyncio.run(play())
    for proc in flooders:
        proc.wait(timeout=120)
    bot_proc.wait(timeout=120)
    cpu = cpu_seconds([pid]) - cpu_before
    before = [rtt for at, rtt in samples if at < flood_at]
    during = [rtt for at, rtt in samples if at >= flood_at + 0.5]
    floods = [json.loads((base / f"flood{k}").read_text()) for k in range(args.flooders)]
    answers: dict[str, int] = {}
    for f in floods:
        for status, count in f["answers"].items():
            answers[status] = answers.get(status, 0) + count
    bots_out = base / "bots.out"
    played = json.loads(bots_out.read_text()) if bots_out.exists() else {}
    return {
        "mode": args.mode,
        "bots": len(bots),
        "pingers": len(pingers),
        "flooders": args.flooders,
        "flooder_nice": args.flooder_nice,
        "ping_ms_before": {
            "n": len(before),
            "p50": _percentile(before, 0.5),
            "p99": _percentile(before, 0.99),
        },
        "ping_ms_during_flood": {
            "n": len(during),
            "p50": _percentile(during, 0.5),
            "p99": _percentile(during, 0.99),
            "max": _percentile(during, 1.0),
        },
        "flood_answers": answers,
        "flood_sent_mb": sum(f["sent_mb"] for f in floods),
        "bot_bets": played.get("bets"),
        "bot_bet_ack_p50_ms": _percentile(played.get("bet_latency", []), 0.5),
        "server_cpu_s": round(cpu, 2),
        "mean_ping_ms_during": round(1000 * statistics.fmean(during), 1) if during else None,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--flood":
        flood(int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--pingers", type=int, default=5)
    parser.add_argument("--flooders", type=int, default=2)
    parser.add_argument("--baseline", type=float, default=8, help="seconds of play before")
    parser.add_argument("--seconds", type=float, default=20, help="seconds of flood")
    parser.add_argument("--mode", choices=["length", "chunked", "headers"], default="length")
    parser.add_argument("--server-path", default="", help="import croupier from this src")
    parser.add_argument(
        "--flooder-nice", type=int, default=10, help="the flooders' niceness (0: none)"
    )
    args = parser.parse_args()
    if args.seconds > 120 or args.bots > 200:
        parser.error("bounded: at most 120 s of flood and 200 bots")
    print(json.dumps(run(args), indent=2))


if __name__ == "__main__":
    main()
