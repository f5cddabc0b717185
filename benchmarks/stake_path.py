"""Staking benchmark: one stake per transaction, and a batch of many in one transaction.

What a table waits for when it takes a bet: the stake held in escrow and committed. Times
(wall clock, and this process's CPU time: steadier on a shared machine) and counts the SQL
statements sent (an ``executemany`` counts once)

- ``single``: ``--singles`` stakes, each its own transaction (a lone bet at a casino table:
  ``stakes.hold_one``), as the median and p90 per stake;
- ``batch``: ``--batch`` stakes in one transaction (a live table's inbox full of bets:
  ``stakes.hold``), best and worst of ``--repeats`` rounds;
- ``verify``: the owner's check of that batch's holds as a cluster's gateway claims them
  (``stakes.verify_holds``, issue 26: each hold found under its request's own key, user,
  round, amount and details, and not returned), best of ``--repeats``.

On SQLite (a temporary file) and/or a throw-away PostgreSQL cluster (as ``load_uth.py``).

    .venv/bin/python benchmarks/stake_path.py
    .venv/bin/python benchmarks/stake_path.py --database both --batch 1000
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from load_uth import postgres


def measure(database_url: str, *, singles: int, batch: int, repeats: int) -> dict[str, object]:
    from argon2 import PasswordHasher
    from sqlalchemy import event

    from croupier.server.accounts import service as accounts
    from croupier.server.db import Database
    from croupier.server.tables import rounds, stakes, window
    from croupier.server.wallet import service as wallet

    accounts._HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    db = Database(database_url)
    db.migrate()
    sent = [0]

    @event.listens_for(db.engine, "before_cursor_execute")
    def _count(*_: object) -> None:
        sent[0] += 1

    players = max(batch, 1)
    with db.session() as session:
        ids = [
            accounts.register(session, username=f"s{i:05d}", password="stake-bench-deal-fast-77").id
            for i in range(players)
        ]
        for uid in ids:
            wallet.credit(session, user_id=uid, amount=10_000_000, idempotency_key=f"c{uid}")

    def open_round() -> int:
        with db.session() as session:
            return rounds.open_round(
                session, table="bench", game="uth", commitment="0" * 64, salt="00", deck=""
            ).id

    round_id = open_round()
    per_stake = []
    cpu, statements = time.process_time(), sent[0]
    for i in range(singles):
        one = rounds.Stake(user_id=ids[i % players], seat=i, amount=300, idempotency_key=f"one{i}")
        t0 = time.perf_counter()
        stakes.hold_one(db, round_id=round_id, one=one)
        per_stake.append(time.perf_counter() - t0)
    single_cpu = (time.process_time() - cpu) / singles
    single_statements = (sent[0] - statements) / singles
    batches, batch_cpu, batch_statements = [], [], []
    verify_ms, verify_cpu, verify_statements = [], [], []
    for r in range(repeats):
        round_id = open_round()
        many = [
            rounds.Stake(user_id=uid, seat=seat, amount=300, idempotency_key=f"b{r}u{uid}")
            for seat, uid in enumerate(ids[:batch])
        ]
        t0, cpu, statements = time.perf_counter(), time.process_time(), sent[0]
        answers = stakes.hold(db, round_id=round_id, stakes=many)
        batches.append(time.perf_counter() - t0)
        batch_cpu.append(time.process_time() - cpu)
        batch_statements.append(sent[0] - statements)
        assert all(not isinstance(a, Exception) for a in answers), answers[:3]
        claims = [
            window.Claim(round_id, held.transaction_id, stake)
            for held, stake in zip(answers, many, strict=True)
        ]
        t0, cpu, statements = time.perf_counter(), time.process_time(), sent[0]
        verdicts = stakes.verify_holds(db, claims, table="bench")
        verify_ms.append(time.perf_counter() - t0)
        verify_cpu.append(time.process_time() - cpu)
        verify_statements.append(sent[0] - statements)
        assert set(verdicts) == {window.Verdict.HELD}, verdicts[:3]
    db.dispose()
    per_stake.sort()
    return {
        "single_median_ms": round(statistics.median(per_stake) * 1000, 3),
        "single_p90_ms": round(per_stake[int(len(per_stake) * 0.9)] * 1000, 3),
        "single_cpu_ms": round(single_cpu * 1000, 3),
        "single_statements": round(single_statements, 1),
        "batch": batch,
        "batch_best_ms": round(min(batches) * 1000, 1),
        "batch_worst_ms": round(max(batches) * 1000, 1),
        "batch_cpu_best_ms": round(min(batch_cpu) * 1000, 1),
        "batch_statements": max(batch_statements),
        "verify_best_ms": round(min(verify_ms) * 1000, 1),
        "verify_cpu_best_ms": round(min(verify_cpu) * 1000, 1),
        "verify_statements": max(verify_statements),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--singles", type=int, default=300)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.batch > 5000 or args.singles > 5000:
        parser.error("bounded: at most 5000 stakes")
    databases = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    for database in databases:
        kwargs = {"singles": args.singles, "batch": args.batch, "repeats": args.repeats}
        if database == "postgres":
            with postgres() as url:
                result = measure(url, **kwargs)
        else:
            tmp = tempfile.mkdtemp(prefix="croupier-stakes-")
            try:
                result = measure(f"sqlite:///{tmp}/croupier.db", **kwargs)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        print(json.dumps({"database": database, **result}))


if __name__ == "__main__":
    main()
