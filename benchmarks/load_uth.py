"""Load benchmark: one live UTH table (one shared player hand, unlimited seats) with N bots.

Starts the real server (``create_app`` under uvicorn, in a subprocess, on 127.0.0.1 only) on
SQLite and/or on a PostgreSQL cluster started here with initdb/pg_ctl (as in
tests/server/conftest.py), seats N bots over real WebSockets (``croupier.cli.bots``) with zero
think time, and reports rounds per minute, p50/p99 latency from an action (and a bet) to its
acknowledgement, and the settlement time observed at one seat (the ``round_settled`` event to
the ``round_closed`` frame, which the server sends after the settlement's commit).

Bounded in count and in time: ``--rounds`` rounds at most, ``--seconds`` of play at most.

    .venv/bin/python benchmarks/load_uth.py --players 1000 --rounds 3 --seconds 420
    .venv/bin/python benchmarks/load_uth.py --players 1000 --database both --settle-only

The bots play in ``--bot-processes`` processes of their own (default 2), so that they do not
take the server's event loop; on this 2-core machine they still share the cores with it.
``--processes K`` with K > 1 plays on a cluster started by ``scripts/cluster-local.sh`` (K
``croupier serve`` processes on PostgreSQL and Redis, HAProxy in front, through which the bots
connect); ``--kill-owner-at S`` then SIGKILLs the process owning the table S seconds into play
and reports how long play took to resume, the rounds voided and whether balances equal
deposits. Besides latencies and rounds a minute, every run reports the requests sent and those
never answered, the rounds voided (from the database) and the server processes' CPU seconds per
1,000 player-rounds (their utime + stime from /proc, before and after play; with ``--warmup``
also split at the moment play begins: ``server_cpu_s_connecting``, the sockets connecting and
sitting, and ``server_cpu_s_playing``, the rounds).

The bots' accounts are made in the database before play, with one password hash made once by
the production hasher, their sessions issued under the server's secret key and their deposits
credited through the wallet service: no Argon2 run per bot, and production hashing unchanged.

    .venv/bin/python benchmarks/load_uth.py --players 1000 --rounds 10 --database both
    .venv/bin/python benchmarks/load_uth.py --players 3000 --processes 3 --rounds 10
    .venv/bin/python benchmarks/load_uth.py --players 1000 --processes 3 --kill-owner-at 20

``--warmup S`` lets the bots connect and sit for S seconds before anyone bets, so that the
first round does not meet thousands of sockets still connecting; every run reports the bets'
p99 of each round (``bet_ack_p99_ms_by_round``).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import pwd
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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


SECRET = "load-benchmark-secret-key-0123456789abcdef"
PASSWORD = "load-bots-deal-fast-77"
CREDIT = 10_000_000


def serve(port: int, database_url: str, tables: str) -> None:
    """The one server process (``--serve``), as ``croupier serve`` runs it."""
    from croupier.server.app import create_app
    from croupier.server.runtime import tune_gc
    from croupier.server.settings import Settings

    settings = Settings(
        database_url=database_url,
        tables_config=Path(tables),
        operator_username=OPERATOR[0],
        operator_password=OPERATOR[1],  # type: ignore[arg-type]
        secret_key=SECRET,  # type: ignore[arg-type]
    )
    application = create_app(settings)
    tune_gc()  # as `croupier serve` does
    profile = os.environ.get("LOAD_PROFILE")  # --profile: the server's functions, by CPU
    if not profile:
        _run_server(application, port, settings.ws_compression)
        return
    import cProfile
    import signal

    # uvicorn raises the stopping signal again once it has shut down: a SIGTERM then is a
    # KeyboardInterrupt here, so that the statistics are written before the process ends.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    # The event loop's thread's CPU time, not the wall clock: on a shared machine the wall
    # clock charges a function with the time the process waited for a core.
    profiler = cProfile.Profile(time.thread_time)
    profiler.enable()
    try:
        _run_server(application, port, settings.ws_compression)
    except KeyboardInterrupt:
        pass
    finally:
        profiler.disable()
        profiler.dump_stats(profile)


def _run_server(application: Any, port: int, compression: Any) -> None:
    import uvicorn

    uvicorn.run(
        application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_ping_interval=None,
        ws_per_message_deflate=compression,  # as `croupier serve` runs it
    )


def make_bots(database_url: str, players: int) -> list[str]:
    """``players`` bot accounts made in the database (migrated here if new): one password
    hash made once by the production hasher, a session each under :data:`SECRET`, and
    :data:`CREDIT` deposited through the wallet service. Returns their session tokens."""
    from croupier.server.accounts import service as accounts
    from croupier.server.db import Database
    from croupier.server.wallet import service as wallet

    db = Database(database_url)
    db.migrate()
    hashed = accounts.hash_password(PASSWORD)
    tokens = []
    with db.session() as session:
        for i in range(players):
            user = accounts.create_user(session, username=f"load-{i:05d}", password_hash=hashed)
            issued = accounts.issue_token(session, user=user, secret=SECRET, ttl_seconds=86_400)
            wallet.credit(session, user_id=user.id, amount=CREDIT, idempotency_key=f"load{i}")
            tokens.append(issued.token)
    db.dispose()
    return tokens


def _tables_file(base: Path, args: argparse.Namespace) -> Path:
    tables = base / "tables.toml"
    tables.write_text(
        TABLES.format(
            betting=args.betting_seconds, decision=args.decision_seconds, pause=args.pause
        )
    )
    return tables


def _wait_healthy(url: str, proc: subprocess.Popen[bytes] | None, log: Path) -> None:
    import httpx

    for _ in range(600):
        if proc is not None and proc.poll() is not None:
            raise SystemExit(log.read_text()[-3000:])
        try:
            if httpx.get(f"{url}/api/health").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{url} never answered")


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


@dataclass
class Servers:
    """What the bots play against: one URL, the server processes, the database."""

    url: str
    pids: list[int]
    database_url: str
    node_pids: dict[str, int] = field(default_factory=dict)
    """A cluster's node id -> pid (who owns a table is named by node id)."""
    node_urls: list[str] = field(default_factory=list)
    """A cluster's processes' own URLs (their metrics)."""
    balancer_log: Path | None = None
    """A cluster's HAProxy log (the processes it marked down)."""


@contextmanager
def single(
    database_url: str, args: argparse.Namespace, players: int
) -> Iterator[tuple[Servers, list[str]]]:
    """One server process on ``database_url``; the bots made before it starts."""
    base = Path(tempfile.mkdtemp(prefix="croupier-load-"))
    tables = _tables_file(base, args)
    env = dict(os.environ)
    env.setdefault("CROUPIER_INTEGRITY_CHECK", "false")  # as in cluster(): the checkout's sources
    if args.server_path:
        env["PYTHONPATH"] = os.pathsep.join([args.server_path, env.get("PYTHONPATH", "")])
    if args.profile:
        env["LOAD_PROFILE"] = str(args.profile.resolve())
    # Made by the server's own code (its schema's migrations: --server-path may be older).
    made = base / "tokens"
    subprocess.run(
        [sys.executable, __file__, "--make-bots", database_url, str(players), str(made)],
        check=True,
        env=env,
    )
    tokens = made.read_text().split()
    port = _free_port()
    logfile = base / "server.log"
    log = logfile.open("wb")
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), database_url, str(tables)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, logfile)
        yield Servers(url=url, pids=[proc.pid], database_url=database_url), tokens
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def cluster(args: argparse.Namespace, players: int) -> Iterator[tuple[Servers, list[str]]]:
    """``args.processes`` croupier processes on PostgreSQL and Redis behind HAProxy
    (``scripts/cluster-local.sh``); the bots made in its database once it runs."""
    script = Path(__file__).resolve().parent.parent / "scripts" / "cluster-local.sh"
    base = Path(tempfile.mkdtemp(prefix="croupier-load-cluster-"))
    tables = _tables_file(base, args)
    env = {
        **os.environ,
        "CROUPIER_TABLES_CONFIG": str(tables),
        "CROUPIER_SECRET_KEY": SECRET,
        "CROUPIER_OPERATOR_USERNAME": OPERATOR[0],
        "CROUPIER_OPERATOR_PASSWORD": OPERATOR[1],
        "CROUPIER_WS_AUTH_SECONDS": "60",
        # The servers run the checkout's sources, which the integrity manifest (written by
        # `make`) may be older than: its check would close the table (every join refused
        # `table_closed`). The caller's setting wins.
        "CROUPIER_INTEGRITY_CHECK": os.environ.get("CROUPIER_INTEGRITY_CHECK", "false"),
    }
    state = base / "cluster"
    start = ["bash", str(script), "start", "--processes", str(args.processes), "--dir", str(state)]
    try:
        subprocess.run([*start, "--python", sys.executable], check=True, env=env)
        info = dict(
            line.split("=", 1)
            for line in (state / "cluster.env").read_text().splitlines()
            if "=" in line and not line.startswith("#")
        )
        pids = [int(p) for p in info["CLUSTER_PIDS"].split(",")]
        nodes = info["CLUSTER_NODE_IDS"].split(",")
        db_url = info["DATABASE_URL"]
        tokens = make_bots(db_url, players)
        servers = Servers(
            url=info["CLUSTER_URL"],
            pids=pids,
            database_url=db_url,
            node_pids=dict(zip(nodes, pids, strict=True)),
            node_urls=info["CLUSTER_NODES"].split(","),
            balancer_log=state / "logs" / "haproxy.log",
        )
        yield servers, tokens
    finally:
        subprocess.run(["bash", str(script), "stop", "--dir", str(state)], env=env, check=False)
        if args.logs is not None and (state / "logs").is_dir():
            shutil.copytree(
                state / "logs", args.logs, dirs_exist_ok=True, ignore_dangling_symlinks=True
            )
        shutil.rmtree(base, ignore_errors=True)


def _owner_of_live(database_url: str) -> str | None:
    """The node that holds the live table's lease."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            owner = conn.execute(
                text("SELECT owner FROM table_leases WHERE table_name = 'live'")
            ).scalar()
    finally:
        engine.dispose()
    return None if owner is None else str(owner)


def cpu_seconds(pids: list[int]) -> float:
    """The user + system CPU time of processes ``pids`` (those still alive), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / tick


def _cpu_at(when: float, pids: list[int]) -> list[Any]:
    """Filled at the time ``when`` (``time.time()``; 0: never) by a timer thread: the CPU
    seconds of processes ``pids`` together, then of each (:func:`cpu_seconds`)."""
    found: list[Any] = []
    if when <= 0:
        return found

    def take() -> None:
        each = [cpu_seconds([pid]) for pid in pids]
        found.extend([sum(each), each])

    timer = threading.Timer(max(0.0, when - time.time()), take)
    timer.daemon = True
    timer.start()
    return found


def descendants_cpu(pids: list[int]) -> dict[int, float]:
    """Each live descendant of processes ``pids`` (the return monitor's process, issue 26) and
    its user + system CPU seconds, from /proc."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    found: set[int] = set()
    frontier = set(pids)
    while frontier:
        frontier = {child for child, ppid in parent.items() if ppid in frontier} - found
        found |= frontier
    return {pid: cpu_seconds([pid]) for pid in found}


def machine_busy() -> tuple[float, float]:
    """The whole machine's busy and total CPU seconds since boot (every core), from
    /proc/stat: what the servers, the bots, PostgreSQL, Redis and HAProxy share."""
    tick = os.sysconf("SC_CLK_TCK")
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields) - idle) / tick, sum(fields) / tick


def children_cpu() -> float:
    """The user + system CPU seconds of this process's children waited for (the bots)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bots_process(argv: list[str]) -> None:
    """A bot process (``--bots PLAN TOKENS OUT``): plays its share, writes what it measured."""
    from croupier.cli.bots import BotPlan, run_bots
    from croupier.server.runtime import tune_gc

    tune_gc()  # a thousand bots' heap, as a server's (server/runtime.py)
    plan = BotPlan(**json.loads(argv[0]))
    tokens = Path(argv[1]).read_text().split()
    stats = asyncio.run(run_bots(plan, tokens))
    Path(argv[2]).write_text(json.dumps(asdict(stats)))


def play(
    servers: Servers, tokens: list[str], args: argparse.Namespace, label: str
) -> dict[str, object]:
    """The bots, in ``args.bot_processes`` processes; their figures merged (rounds and
    settlement times as the first process's observing seat saw them)."""
    from croupier.cli.bots import LoadStats

    plan = {
        "url": servers.url,
        "table": "live",
        "ante": 100,
        "trips": 100,
        "rounds": args.rounds,
        "seconds": args.seconds,
        # --warmup: the bots connect and sit, and bet first when it is over, together.
        "start_at": time.time() + args.warmup if args.warmup else 0.0,
    }
    work = Path(tempfile.mkdtemp(prefix="croupier-bots-"))
    n = max(1, min(args.bot_processes, len(tokens)))
    procs = []
    before = cpu_seconds(servers.pids)
    each_before = [cpu_seconds([pid]) for pid in servers.pids]
    helpers_before = descendants_cpu(servers.pids)
    bots_before, (busy_before, total_before) = children_cpu(), machine_busy()
    t0 = time.perf_counter()
    for k in range(n):
        (work / f"tokens{k}").write_text("\n".join(tokens[k::n]))
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--bots",
                    json.dumps(plan),
                    str(work / f"tokens{k}"),
                    str(work / f"out{k}"),
                ]
            )
        )
    kill = kill_owner(servers, args, t0, procs) if args.kill_owner_at else None
    at_play = _cpu_at(plan["start_at"], servers.pids)
    for proc in procs:
        proc.wait()
    bots_cpu = children_cpu() - bots_before
    busy_after, total_after = machine_busy()
    cpu = cpu_seconds(servers.pids) - before
    helpers_cpu = sum(
        seconds - helpers_before.get(pid, 0.0)
        for pid, seconds in descendants_cpu(servers.pids).items()
    )
    ends = [cpu_seconds([pid]) for pid in servers.pids]
    each = [round(end - b, 2) for end, b in zip(ends, each_before, strict=True)]
    parts = [
        LoadStats(**json.loads((work / f"out{k}").read_text()))
        for k in range(n)
        if (work / f"out{k}").exists()
    ]
    shutil.rmtree(work, ignore_errors=True)
    if not parts:
        raise SystemExit("no bot process reported")
    stats = merged(parts)
    summary = stats.summary()
    summary["rounds_per_minute"] = round(parts[0].rounds_per_minute(), 2)
    summary["server_cpu_s"] = round(cpu, 2)
    if at_play:
        # The same, split at the moment play began (--warmup): the bots' connecting and
        # sitting (a storm of thousands of handshakes at once, and the reconnections of any
        # the bots' 10 s handshake timeout gave up on), then the rounds.
        seated = at_play[0] - before
        summary["server_cpu_s_connecting"] = round(seated, 2)
        summary["server_cpu_s_playing"] = round(cpu - seated, 2)
        summary["server_cpu_s_playing_each"] = [
            round(end - b, 2) for end, b in zip(ends, at_play[1], strict=True)
        ]
    if len(servers.pids) > 1:
        # Which process did what: the table's owner against the gateways.
        owner = _owner_of_live(servers.database_url)
        summary["server_cpu_s_each"] = {
            f"{node}{' (owner)' if node == owner else ''}": seconds
            for node, seconds in zip(servers.node_pids, each, strict=True)
        }
    summary["bot_cpu_s"] = round(bots_cpu, 2)
    # How loaded the machine was while the bots played (100: every core busy all along).
    summary["machine_busy_percent"] = round(
        100 * (busy_after - busy_before) / max(1e-9, total_after - total_before), 1
    )
    summary["server_cpu_s_per_1000_player_rounds"] = (
        round(1000 * cpu / stats.bets, 3) if stats.bets else None
    )
    # The servers' own processes (the return monitor's): the server CPU above leaves them out.
    summary["server_children_cpu_s"] = round(helpers_cpu, 2)
    summary["server_and_children_cpu_s_per_1000_player_rounds"] = (
        round(1000 * (cpu + helpers_cpu) / stats.bets, 3) if stats.bets else None
    )
    summary["database_rounds"] = round_statuses(servers.database_url)
    summary["server_acks_within"] = server_acks(servers.node_urls or [servers.url])
    if servers.node_urls:
        summary["gateway_holds"] = gateway_holds(servers.node_urls)
    if servers.balancer_log is not None:
        summary["balancer_marked_down"] = marked_down(servers.balancer_log)
    if kill is not None:
        summary["kill"] = {**kill, **after_kill(servers, parts, kill, len(tokens))}
    return {
        "database": label,
        "players": len(tokens),
        "processes": args.processes,
        "bot_processes": n,
        "warmup_s": args.warmup,
        "same_deal": args.same_deal,
        **summary,
    }


def marked_down(log: Path) -> dict[str, int]:
    """How many times HAProxy marked each process down (its health check failed ``fall``
    times running: no new connections go to it) -- a process killed by ``--kill-owner-at``
    once; one alive, never."""
    counts: dict[str, int] = {}
    if not log.is_file():
        return counts
    for line in log.read_text(errors="replace").splitlines():
        # Each change is logged twice (stderr and syslog forms): the "[WARNING]" one counts.
        found = re.match(r"\[WARNING\].*Server \S+/(\S+) is DOWN", line)
        if found:
            counts[found[1]] = counts.get(found[1], 0) + 1
    return counts


def merged(parts: list[Any]) -> Any:
    """The bot processes' figures as one: counts and latencies summed over all, rounds,
    voids and settlement times from the first process's observer."""
    from croupier.cli.bots import LoadStats

    total = LoadStats(
        started=min(p.started for p in parts), finished=max(p.finished for p in parts)
    )
    first = parts[0]
    total.rounds_closed, total.voided, total.settle_gap = (
        first.rounds_closed,
        first.voided,
        first.settle_gap,
    )
    for part in parts:
        total.act_latency += part.act_latency
        total.bet_latency += part.bet_latency
        for key, values in part.round_bets.items():
            total.round_bets.setdefault(key, []).extend(values)
        total.bets += part.bets
        total.acts += part.acts
        total.net += part.net
        for mine, theirs in (
            (total.errors, part.errors),
            (total.sent, part.sent),
            (total.unanswered, part.unanswered),
        ):
            for key, value in theirs.items():
                mine[key] = mine.get(key, 0) + value
        for key, at in part.rounds_opened.items():
            total.rounds_opened[key] = min(at, total.rounds_opened.get(key, at))
    return total


def _psycopg_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _metric(urls: list[str], name: str) -> Iterator[tuple[str, float]]:
    """Each sample of the metric ``name`` (its labels as written, its value) that the
    processes still up expose at ``/metrics``."""
    import httpx

    for url in urls:
        try:
            text = httpx.get(f"{url}/metrics", timeout=5).text
        except httpx.HTTPError:
            continue  # a process killed by --kill-owner-at
        for line in text.splitlines():
            if line.startswith(name + "{"):
                labels, value = line.rsplit(" ", 1)
                yield labels, float(value)


def _label(labels: str, name: str) -> str:
    return labels.split(f'{name}="', 1)[1].split('"', 1)[0]


def gateway_holds(urls: list[str]) -> dict[str, dict[str, int]]:
    """The bets and decisions whose stakes the cluster's gateways handled themselves, by type
    (``bet``, ``act``) and outcome (held, replayed, refused; passed: left to the table's
    owner), summed over the processes still up (their ``croupier_gateway_holds`` counters)."""
    found: dict[str, dict[str, int]] = {}
    for labels, value in _metric(urls, "croupier_gateway_holds_total"):
        # A server from before decisions were held by gateways counts bets only.
        kind = _label(labels, "type") if 'type="' in labels else "bet"
        mine = found.setdefault(kind, {})
        outcome = _label(labels, "outcome")
        mine[outcome] = mine.get(outcome, 0) + int(value)
    return found


def server_acks(urls: list[str]) -> dict[str, dict[str, float]]:
    """The share of bets and decisions the servers answered within 0.1, 0.25, 0.5 and 1 s of
    their arrival (``croupier_ack_latency_seconds``, summed over the processes still up): the
    server's part of the bots' act→ack times, which also wait on the bots' own processes."""
    counts: dict[str, dict[str, float]] = {}
    for labels, value in _metric(urls, "croupier_ack_latency_seconds_bucket"):
        mine = counts.setdefault(_label(labels, "type"), {})
        bound = _label(labels, "le")
        mine[bound] = mine.get(bound, 0.0) + value
    shares: dict[str, dict[str, float]] = {}
    for kind in ("bet", "act"):
        mine = counts.get(kind, {})
        total = mine.get("+Inf", 0.0)
        if total:
            shares[kind] = {
                f"{bound}s": round(100 * mine.get(bound, 0.0) / total, 2)
                for bound in ("0.1", "0.25", "0.5", "1.0")
            }
    return shares


def round_statuses(database_url: str) -> dict[str, int]:
    """The live table's rounds in the database, by status."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT status, count(*) FROM rounds WHERE table_name = 'live' GROUP BY status")
        ).all()
    engine.dispose()
    return {str(status): int(n) for status, n in rows}


def kill_owner(
    servers: Servers, args: argparse.Namespace, t0: float, procs: list[Any]
) -> dict[str, Any] | None:
    """SIGKILL the process that owns the live table ``args.kill_owner_at`` seconds into play
    (its node id from ``table_leases``), once a round is in play; what was killed, and when."""
    import signal

    from sqlalchemy import create_engine, text

    engine = create_engine(servers.database_url)
    deadline = t0 + args.kill_owner_at
    while time.perf_counter() < deadline and any(p.poll() is None for p in procs):
        time.sleep(0.1)
    try:
        for _ in range(600):
            with engine.connect() as conn:
                owner = conn.execute(
                    text("SELECT owner FROM table_leases WHERE table_name = 'live'")
                ).scalar()
                in_play = conn.execute(
                    text(
                        "SELECT id FROM rounds WHERE table_name = 'live' AND status = 'open' "
                        "AND commitment <> ''"  # dealt: not the next round, recorded for bets
                    )
                ).scalar()
            if owner is not None and in_play is not None:
                break
            time.sleep(0.05)
        else:
            return {"killed": None, "why": "no owner with a round in play"}
    finally:
        engine.dispose()
    pid = servers.node_pids.get(str(owner))
    if pid is None:
        return {"killed": None, "why": f"owner {owner!r} is not one of {servers.node_pids}"}
    os.kill(pid, signal.SIGKILL)
    killed_at = time.perf_counter()
    moved = None
    engine = create_engine(servers.database_url)
    try:
        while time.perf_counter() - killed_at < 60:
            with engine.connect() as conn:
                now = conn.execute(
                    text("SELECT owner FROM table_leases WHERE table_name = 'live'")
                ).scalar()
            if now != owner:
                moved = round(time.perf_counter() - killed_at, 2)
                break
            time.sleep(0.05)
    finally:
        engine.dispose()
    return {
        "killed": str(owner),
        "pid": pid,
        "round": int(in_play),
        "at": killed_at,
        "lease_moved_after_s": moved,
    }


def after_kill(
    servers: Servers, parts: list[Any], kill: dict[str, Any], players: int
) -> dict[str, Any]:
    """Play resumed (the first ``round_opened`` a bot saw after the kill of a round after
    the interrupted one: the interrupted round's own, when the kill fell as it opened, does
    not count), balances against deposits, and which rounds were voided."""
    from sqlalchemy import create_engine, text

    if kill.get("at") is None:
        return {}
    opened = sorted(
        t
        for p in parts
        for r, t in p.rounds_opened.items()
        if int(r) > kill["round"] and t > kill["at"]
    )
    engine = create_engine(servers.database_url)
    with engine.connect() as conn:
        voided, never_dealt = [], []
        for r, dealt in conn.execute(
            text(
                "SELECT id, commitment <> '' FROM rounds "
                "WHERE table_name = 'live' AND status = 'voided' ORDER BY id"
            )
        ):
            # A next round recorded for bets and never dealt is voided on its own list.
            (voided if dealt else never_dealt).append(int(r))
        # What escrow holds for each round: nothing for a round settled or voided, its
        # stakes for one still in play when the run stopped.
        escrow = {
            int(r): int(v)
            for r, v in conn.execute(
                text(
                    "SELECT t.round_id, SUM(p.amount) FROM postings p "
                    "JOIN ledger_accounts a ON a.id = p.account_id "
                    "JOIN ledger_transactions t ON t.id = p.transaction_id "
                    "WHERE a.kind = 'escrow' AND t.round_id IS NOT NULL GROUP BY t.round_id"
                )
            )
        }
        still_open = {
            int(r)
            for (r,) in conn.execute(
                text("SELECT id FROM rounds WHERE table_name = 'live' AND status = 'open'")
            )
        }
    engine.dispose()
    from croupier.server.db import Database
    from croupier.server.wallet import service as wallet

    db = Database(servers.database_url)
    with db.session() as session:
        totals = {k: int(v) for k, v in wallet.check_ledger(session).items()}
    db.dispose()
    deposits = players * CREDIT
    return {
        "resumed_after_s": round(opened[0] - kill["at"], 2) if opened else None,
        "voided_rounds": voided,
        "voided_never_dealt": never_dealt,
        "only_the_interrupted_round_voided": voided == [kill["round"]],
        "ledger": totals,
        "deposits": deposits,
        "interrupted_round_stakes_returned": escrow.get(kill["round"], 0) == 0,
        "escrow_only_for_rounds_in_play": all(
            amount == 0 for r, amount in escrow.items() if r not in still_open
        ),
        # Every cent is a player's, the house's or in escrow for a round still in play.
        "balances_equal_deposits": totals.get("player", 0)
        + totals.get("house", 0)
        + totals.get("rake", 0)
        + totals.get("escrow", 0)
        == deposits,
    }


def run_one(database: str, args: argparse.Namespace) -> dict[str, object]:
    if args.processes > 1:
        with cluster(args, args.players) as (servers, tokens):
            print(f"[cluster x{args.processes}] {len(tokens)} bots made", flush=True)
            return play(servers, tokens, args, "postgres")

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

    with database_url() as db_url, single(db_url, args, args.players) as (servers, tokens):
        print(f"[{database}] {len(tokens)} bots made", flush=True)
        return play(servers, tokens, args, database)


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
    if len(sys.argv) > 1 and sys.argv[1] == "--make-bots":
        tokens = make_bots(sys.argv[2], int(sys.argv[3]))
        Path(sys.argv[4]).write_text("\n".join(tokens))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--bots":
        bots_process(sys.argv[2:])
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
        "--warmup",
        type=float,
        default=0,
        help="seconds for the bots to connect and sit before anyone bets (0: each bets as "
        "soon as it sits, the first round meeting the others still connecting)",
    )
    parser.add_argument(
        "--bot-processes", type=int, default=2, help="processes the bots play in (default 2)"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="croupier processes: 1 (one server), or a cluster (scripts/cluster-local.sh, "
        "PostgreSQL and Redis, the bots through HAProxy)",
    )
    parser.add_argument(
        "--kill-owner-at",
        type=float,
        default=0,
        help="with --processes > 1: SIGKILL the table's owner this many seconds into play",
    )
    parser.add_argument(
        "--logs",
        type=Path,
        default=None,
        help="keep the cluster's logs (each process, HAProxy, PostgreSQL, Redis) in this directory",
    )
    parser.add_argument(
        "--server-path",
        default="",
        help="one server: import croupier from this src directory (to compare checkouts)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="one server: write its cProfile statistics to this file when it stops "
        "(read them with `python -m pstats FILE`; the profiler slows the server down)",
    )
    parser.add_argument(
        "--same-deal",
        type=int,
        default=None,
        metavar="SEED",
        help="every round deals the cards of this seed (benchmarks/same_deal): two checkouts, "
        "or two runs, play the same hands (a live table's decisions depend on its one hand)",
    )
    parser.add_argument(
        "--settle-only",
        action="store_true",
        help="time only the settlement transaction for 10, 100 and --players seats",
    )
    args = parser.parse_args()
    if args.same_deal is not None:  # the servers (and the bots' processes) start with it
        os.environ["BENCH_SHOE_SEED"] = str(args.same_deal)
        here = str(Path(__file__).resolve().parent / "same_deal")
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (here, os.environ.get("PYTHONPATH", "")) if p
        )
    if args.players > 5000 or args.seconds > 3600:
        parser.error("bounded: at most 5000 players and 3600 seconds")
    if args.kill_owner_at and args.processes < 2:
        parser.error("--kill-owner-at needs a cluster (--processes 2 or more)")
    databases = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    if args.processes > 1:
        databases = ["postgres"]  # a cluster shares one PostgreSQL
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
