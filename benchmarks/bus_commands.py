"""The cluster bus's commands: what a gateway spends putting a burst of bets on a table's
stream, what the owner spends reading and opening them, and what Redis spends storing them.

``--sockets`` sockets each send one bet (``Bus.send``, as the gateway does for each client
request), all at once, as a live table's betting window gets them; then the owner reads
the stream to its end (``Bus.read_stream`` and ``messages.decode_commands``, as
``ClusterHost.read`` does). Measured by this process's CPU time (``time.process_time``) for
each side and by Redis's own CPU (``INFO cpu``), for commands put in entries of up to
``_ENTRY_COMMANDS`` (the bus as it is) and side by side in the same run with one command
an entry (as the bus sent them before, each sealed, added and opened alone). Needs
``redis-server`` (``scripts/install-redis.sh``).

    .venv/bin/python benchmarks/bus_commands.py
    .venv/bin/python benchmarks/bus_commands.py --sockets 3000 --repeats 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from croupier.server.cluster import bus as bus_module
from croupier.server.cluster import messages as m
from croupier.server.cluster.bus import Bus
from croupier.server.cluster.seal import Seal

_BET = '{"type":"bet","id":"r1","spots":{"ante":500,"trips":100},"decision":"d-1-0"}'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _redis_cpu(client: Any) -> float:
    info = await client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def _burst(url: str, table: str, sockets: int) -> dict[str, float]:
    import redis.asyncio as aioredis

    seal = Seal("benchmark-key-" + "k" * 40, max_age=60)
    gateway = Bus(url, node="gw", heartbeat_seconds=1, seal=seal)
    owner = Bus(url, node="owner", heartbeat_seconds=1, seal=seal)
    probe = aioredis.Redis.from_url(url)
    stream = m.command_stream(table)
    try:
        start_id = await owner.last_id(table)
        redis_before = await _redis_cpu(probe)
        cpu = time.process_time()
        wall = time.perf_counter()
        await asyncio.gather(
            *(gateway.send(table, m.Submit("gw", i, i, _BET)) for i in range(sockets))
        )
        sent_cpu = time.process_time() - cpu
        sent_wall = time.perf_counter() - wall
        redis_mid = await _redis_cpu(probe)
        cpu = time.process_time()
        got, entries, last = 0, 0, start_id
        while got < sockets:
            found = await owner.read_stream(stream, last)
            for entry_id, raw in found:
                last = entry_id
                entries += 1
                got += len(m.decode_commands(raw, stream))
        read_cpu = time.process_time() - cpu
        redis_after = await _redis_cpu(probe)
    finally:
        await gateway.close()
        await owner.close()
        await probe.aclose()
    return {
        "gateway_cpu_us_per_command": sent_cpu / sockets * 1e6,
        "gateway_wall_ms": sent_wall * 1000,
        "owner_cpu_us_per_command": read_cpu / sockets * 1e6,
        "redis_cpu_us_per_command": (redis_after - redis_before) / sockets * 1e6,
        "redis_cpu_us_per_command_sending": (redis_mid - redis_before) / sockets * 1e6,
        "entries": entries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=3000, help="commands in one burst")
    parser.add_argument("--repeats", type=int, default=5, help="bursts of each kind, alternating")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        sys.exit("redis-server is not installed: sh scripts/install-redis.sh")
    port = _free_port()
    with tempfile.TemporaryDirectory() as where:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", where],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            url = f"redis://127.0.0.1:{port}/0"
            _wait(port)
            batched = bus_module._ENTRY_COMMANDS
            runs: dict[str, list[dict[str, float]]] = {"batched": [], "one_per_entry": []}
            for repeat in range(args.repeats):
                for kind, size in (("batched", batched), ("one_per_entry", 1)):
                    bus_module._ENTRY_COMMANDS = size
                    table = f"bench-{kind}-{repeat}"
                    runs[kind].append(asyncio.run(_burst(url, table, args.sockets)))
                    print(f"{kind} {repeat + 1}/{args.repeats}", file=sys.stderr)
            bus_module._ENTRY_COMMANDS = batched
        finally:
            server.terminate()
            server.wait(timeout=10)
    out: dict[str, Any] = {"sockets": args.sockets, "repeats": args.repeats}
    for kind, results in runs.items():
        out[kind] = {
            key: round(statistics.median(r[key] for r in results), 2) for key in results[0]
        }
    print(json.dumps(out, indent=2))


def _wait(port: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"redis-server did not start on port {port}")


if __name__ == "__main__":
    main()
