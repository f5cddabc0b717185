"""Load benchmark: one live UTH table (one shared player hand, unlimited seats) with N bots.

Starts the real server (``create_app`` under uvicorn, in a subprocess, on 127.0.0.1 only) on
SQLite and/or on a PostgreSQL cluster started here with initdb/pg_ctl (as in
tests/server/conftest.py), seats N bots over real WebSockets (``croupier.cli.bots``) with zero
think time, and reports rounds per minute, p50/p99 latency from an action (and a bet) to its
acknowledgement, and the settlement time observed at one seat (the ``round_settled`` event to
the ``round_closed`` frame, which the server sends after the settlement's commit).

Bounded in count and in time: ``--rounds`` rounds at most, ``--seconds`` of play at most.

    .venv/bin/python benchmarks/load_uth.py --players 1000 --rounds 3 --seconds 420
    .venv/bin/python benchmarks/load_uth.py --players 1000 --database postgres
    .venv/bin/python benchmarks/load_uth.py --players 1000 --database both --settle-only

Setting up the bots' accounts uses a cheap Argon2 cost in the benchmark's server only (the
hashing is not what is measured; production keeps the library's defaults).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

TABLES = """
[[tables]]
name = "live"
game = "uth"
title = "UTH live (load)"
betting_seconds = {betting}
decision_seconds = {decision}
pause_seconds = {pause}
[tables.rules]
shared_hand = true
ante_min = 100
ante_max = 100000
trips_min = 100
trips_max = 50000
"""
OPERATOR = ("boss", "load-operator-password")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve(port: int, database_url: str, tables: str) -> None:
    """The server process (``--serve``)."""
    import uvicorn
    from argon2 import PasswordHasher

    from croupier.server.accounts import service
    from croupier.server.app import create_app
    from croupier.server.settings import Settings

    service._HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    settings = Settings(
        database_url=database_url,
        tables_config=Path(tables),
        operator_username=OPERATOR[0],
        operator_password=OPERATOR[1],  # type: ignore[arg-type]
    )
    uvicorn.run(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_ping_interval=None,
        ws_per_message_deflate=settings.ws_compression,  # as `croupier serve` runs it
    )


@contextmanager
def postgres() -> Iterator[str]:
    """A throw-away PostgreSQL cluster; yields a SQLAlchemy URL of an empty database."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if not bins:
        raise SystemExit("PostgreSQL is not installed: run scripts/install-postgres.sh")
    bindir = Path(bins[0])
    base = tempfile.mkdtemp(prefix="croupier-load-pg-")
    data, sockets = os.path.join(base, "data"), os.path.join(base, "run")
    os.makedirs(sockets)
    prefix: list[str] = []
    if os.geteuid() == 0:
        pg = pwd.getpwnam("postgres")
        for path in (base, sockets):
            os.chown(path, pg.pw_uid, pg.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", data, "-U", "postgres", "-A", "trust"],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c max_connections=200"
    pg_ctl = [*prefix, str(bindir / "pg_ctl"), "-D", data]
    subprocess.run(
        [*pg_ctl, "-o", options, "-l", os.path.join(base, "log"), "-w", "start"],
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            [
                *prefix,
                str(bindir / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "postgres",
                "load",
            ],
            check=True,
            capture_output=True,
        )
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/load"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def server(database_url: str, args: argparse.Namespace) -> Iterator[str]:
    import httpx

    base = Path(tempfile.mkdtemp(prefix="croupier-load-"))
    tables = base / "tables.toml"
    tables.write_text(
        TABLES.format(
            betting=args.betting_seconds, decision=args.decision_seconds, pause=args.pause
        )
    )
    port = _free_port()
    log = (base / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), database_url, str(tables)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            if proc.poll() is not None:
                raise SystemExit((base / "server.log").read_text()[-3000:])
            try:
                if httpx.get(f"{url}/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(base, ignore_errors=True)


def run_one(database: str, args: argparse.Namespace) -> dict[str, object]:
    from croupier.cli.bots import BotPlan, provision, run_bots

    @contextmanager
    def database_url() -> Iterator[str]:
        if database == "postgres":
            with postgres() as url:
                yield url
        else:
            tmp = tempfile.mkdtemp(prefix="croupier-load-db-")
            try:
                yield f"sqlite:///{tmp}/croupier.db"
            finally:
                shutil.rmtree(tmp, ignore_errors=True)

    with database_url() as db_url, server(db_url, args) as url:
        names = [f"load-{i:05d}" for i in range(args.players)]
        t0 = time.perf_counter()
        tokens = asyncio.run(
            provision(
                url, names, password="load-bots-deal-fast-77", operator=OPERATOR, credit=10_000_000
            )
        )
        setup = time.perf_counter() - t0
        print(
            f"[{database}] {len(tokens)} bots registered and credited in {setup:.1f} s", flush=True
        )
        plan = BotPlan(
            url=url, table="live", ante=100, trips=100, rounds=args.rounds, seconds=args.seconds
        )
        stats = asyncio.run(
            run_bots(
                plan, tokens, on_round=lambda n: print(f"[{database}] round {n} closed", flush=True)
            )
        )
    return {"database": database, "players": args.players, **stats.summary()}


def settle_commit(database_url: str, players: int, *, repeats: int = 3) -> dict[str, object]:
    """Time the settlement transaction itself for one round of ``players`` seats: the
    result recorded and escrow paid out to everyone, committed (best and worst of
    ``repeats``). This is what a live table waits for between showdown and the next round."""
    from argon2 import PasswordHasher

    from croupier.server.accounts import service as accounts
    from croupier.server.db import Database
    from croupier.server.tables import rounds
    from croupier.server.wallet import service as wallet

    accounts._HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    db = Database(database_url)
    db.migrate()
    with db.session() as session:
        ids = [
            accounts.register(session, username=f"s{i:05d}", password="load-bots-deal-fast-77").id
            for i in range(players)
        ]
        for uid in ids:
            wallet.credit(session, user_id=uid, amount=10_000_000, idempotency_key=f"c{uid}")
    times = []
    for _ in range(repeats):
        with db.session() as session:
            row = rounds.open_round(
                session, table="live", game="uth", commitment="0" * 64, salt="00", deck=""
            )
            for seat, uid in enumerate(ids):
                rounds.stake(
                    session,
                    round_id=row.id,
                    user_id=uid,
                    seat=seat,
                    amount=300,
                    idempotency_key=f"r{row.id}u{uid}",
                )
            round_id = row.id
        # Half the seats win 1:1 on 300, half lose (the house nets zero).
        returns = {uid: 600 if i % 2 else 0 for i, uid in enumerate(ids)}
        t0 = time.perf_counter()
        with db.session() as session:
            rounds.settle_round(session, round_id=round_id, returns=returns, record={}, summary={})
        times.append(time.perf_counter() - t0)
    db.dispose()
    return {
        "players": players,
        "settle_commit_best_ms": round(min(times) * 1000, 1),
        "settle_commit_worst_ms": round(max(times) * 1000, 1),
    }


def run_settle(database: str, args: argparse.Namespace) -> list[dict[str, object]]:
    results = []
    for players in (10, 100, args.players):
        if database == "postgres":
            with postgres() as url:
                results.append({"database": database, **settle_commit(url, players)})
        else:
            tmp = tempfile.mkdtemp(prefix="croupier-settle-")
            try:
                url = f"sqlite:///{tmp}/croupier.db"
                results.append({"database": database, **settle_commit(url, players)})
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    return results


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), sys.argv[3], sys.argv[4])
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="stop after this many rounds")
    parser.add_argument("--seconds", type=float, default=420, help="stop after this much play")
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--betting-seconds", type=float, default=15)
    parser.add_argument("--decision-seconds", type=float, default=20)
    parser.add_argument("--pause", type=float, default=0)
    parser.add_argument(
        "--settle-only",
        action="store_true",
        help="time only the settlement transaction for 10, 100 and --players seats",
    )
    args = parser.parse_args()
    if args.players > 5000 or args.seconds > 3600:
        parser.error("bounded: at most 5000 players and 3600 seconds")
    databases = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    if args.settle_only:
        for db in databases:
            for result in run_settle(db, args):
                print(json.dumps(result))
        return
    results = [run_one(db, args) for db in databases]
    for result in results:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
