"""Wallet micro-benchmark: a live table's batch of stakes, ``rounds.stake_many``.

What one staking transaction of a live table costs (issue 18: 1,000 bots betting together):
``--players`` players with deposits, then for each of ``--repeats`` rounds a batch of
``--batch`` fresh stakes (Ante and Blind as the bots bet, each its own key) held in one
transaction, the same batch sent again in another (every stake a replay), and the round
settled (every player paid back the same, as at a live table where everyone plays the same
hand). Each transaction is timed from ``db.session()`` to its commit: wall clock, this
process's CPU time (steadier on a shared machine) and the SQL statements sent (an
``executemany`` counts once). The first round is a warm-up and is not counted; the figures
are the median and the best of the others, in total milliseconds per batch and microseconds
per stake.

On SQLite (a temporary file) and/or a throw-away PostgreSQL cluster (as ``load_uth.py``).

    .venv/bin/python benchmarks/wallet_holds.py --database both
    .venv/bin/python benchmarks/wallet_holds.py --players 1000 --batch 500 --repeats 9
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from load_uth import postgres

DEPOSIT = 10_000_000
BETS = {"ante": 100, "blind": 100}


def _players(db: Any, players: int) -> list[int]:
    """``players`` users (one password hash made once) each with :data:`DEPOSIT`."""
    from croupier.server.accounts import service as accounts
    from croupier.server.wallet import service as wallet

    hashed = accounts.hash_password("wallet-holds-bench-77")
    with db.session() as session:
        ids = []
        for i in range(players):
            user = accounts.create_user(session, username=f"w{i:05d}", password_hash=hashed)
            wallet.credit(session, user_id=user.id, amount=DEPOSIT, idempotency_key=f"d{i}")
            ids.append(user.id)
    return ids


def _summary(name: str, walls: list[float], cpus: list[float], sent: list[int], batch: int) -> str:
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    return (
        f"  {name:<7} {wall * 1000:8.1f} ms ({min(walls) * 1000:6.1f} best)"
        f" {wall / batch * 1e6:7.0f} us/stake   cpu {cpu * 1000:7.1f} ms"
        f" ({min(cpus) * 1000:6.1f} best) {cpu / batch * 1e6:6.0f} us/stake"
        f"   {max(sent)} statements"
    )


def measure(database_url: str, *, players: int, batch: int, repeats: int) -> dict[str, Any]:
    from sqlalchemy import event

    from croupier.server.db import Database
    from croupier.server.tables import rounds

    db = Database(database_url)
    db.migrate()
    statements = [0]

    @event.listens_for(db.engine, "before_cursor_execute")
    def _count(*_: object) -> None:
        statements[0] += 1

    ids = _players(db, players)
    timings: dict[str, tuple[list[float], list[float], list[int]]] = {
        "fresh": ([], [], []),
        "replays": ([], [], []),
        "settle": ([], [], []),
    }

    def timed(kind: str, r: int, call: Callable[[Any], list[Any]]) -> list[Any]:
        """``call`` in a transaction, timed (every batch of ``batch`` stakes; a settlement
        of as many players)."""
        t0, c0, s0 = time.perf_counter(), time.process_time(), statements[0]
        with db.session() as session:
            answers = call(session)
        wall, cpu, sent = time.perf_counter() - t0, time.process_time() - c0, statements[0] - s0
        if r > 0:  # the first round warms up
            walls, cpus, counts = timings[kind]
            walls.append(wall)
            cpus.append(cpu)
            counts.append(sent)
        return answers

    for r in range(repeats + 1):
        with db.session() as session:
            round_id = rounds.open_round(
                session, table="live", game="uth", commitment="0" * 64, salt="00", deck=""
            ).id
        start = (r * batch) % max(players - batch + 1, 1)
        stakes = [
            rounds.Stake(
                user_id=uid,
                seat=seat,
                amount=sum(BETS.values()),
                idempotency_key=f"bet-{r}-{uid}",
                details={"bets": BETS, "seat": seat},
            )
            for seat, uid in enumerate(ids[start : start + batch], start=start)
        ]

        def stake(session: Any, stakes: list[Any] = stakes, round_id: int = round_id) -> list[Any]:
            return rounds.stake_many(session, round_id=round_id, stakes=stakes)

        fresh = timed("fresh", r, stake)
        assert all(isinstance(a, rounds.wallet.Movement) and not a.replayed for a in fresh)
        again = timed("replays", r, stake)
        assert all(isinstance(a, rounds.wallet.Movement) and a.replayed for a in again)
        paid = {one.user_id: 2 * one.amount for one in stakes}

        def settle(session: Any, round_id: int = round_id, paid: Any = paid) -> list[Any]:
            rounds.settle_round(session, round_id=round_id, returns=paid, record={}, summary={})
            return []

        timed("settle", r, settle)
    db.dispose()
    result: dict[str, Any] = {"players": players, "batch": batch, "rounds": repeats}
    for kind, (walls, cpus, counts) in timings.items():
        print(_summary(kind, walls, cpus, counts, batch))
        result[kind] = {
            "median_ms": round(statistics.median(walls) * 1000, 1),
            "best_ms": round(min(walls) * 1000, 1),
            "us_per_stake": round(statistics.median(walls) / batch * 1e6),
            "cpu_median_ms": round(statistics.median(cpus) * 1000, 1),
            "cpu_best_ms": round(min(cpus) * 1000, 1),
            "cpu_us_per_stake": round(statistics.median(cpus) / batch * 1e6),
            "statements": max(counts),
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    if not 1 <= args.batch <= args.players <= 5000 or not 1 <= args.repeats <= 100:
        parser.error("bounded: 1 <= batch <= players <= 5000, 1 <= repeats <= 100")
    databases = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    kwargs = {"players": args.players, "batch": args.batch, "repeats": args.repeats}
    for database in databases:
        print(f"{database}: {args.players} players, batches of {args.batch}, {args.repeats} rounds")
        if database == "postgres":
            with postgres() as url:
                result = measure(url, **kwargs)
        else:
            tmp = tempfile.mkdtemp(prefix="croupier-holds-")
            try:
                result = measure(f"sqlite:///{tmp}/croupier.db", **kwargs)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        print(json.dumps({"database": database, **result}))


if __name__ == "__main__":
    main()
