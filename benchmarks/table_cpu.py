"""CPU cost of one live UTH table, in process: N players, no sockets, no bots.

What the server itself spends on a round of the live table -- the table's task (inbox
batches, the engine, every frame built for every connection) and its database work (the
worker threads: the round opened with its stakes, the Play bets, the settlement) -- measured
as the process's CPU time, so that other jobs on a shared machine do not count. Each player
connects, sits, bets the Ante and plays 4x before the flop; the table's outboxes are emptied
after every phase; at the end everyone disconnects at once (``cpu_s_everyone_leaving``: the
table freeing every seat, as when a cluster's gateway dies) (nobody encodes or writes them: that is the WebSocket writers' work, not
the table's). Runs on any checkout of croupier (it uses the public ``Table`` API only), so the
same command measures two versions side by side:

    .venv/bin/python benchmarks/table_cpu.py --players 1000 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from croupier.server.accounts.models import User
from croupier.server.db import Database
from croupier.server.rng import live_shoe
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.protocol import ActMessage, BetMessage, JoinMessage
from croupier.server.tables.table import Connection, Table
from croupier.server.tables.uth import UthFactory
from croupier.server.wallet import service as wallet


def _players(db: Database, n: int) -> list[int]:
    """``n`` player accounts (no password: nobody logs in), each credited 1,000,000."""
    with db.session() as session:
        session.execute(
            insert(User),
            [
                {"username": f"p{i}", "username_key": f"p{i}", "password_hash": "-"}
                for i in range(n)
            ],
        )
    with db.session() as session:
        ids = [u.id for u in session.query(User).order_by(User.id)]
        for user in ids:
            wallet.credit(session, user_id=user, amount=1_000_000, idempotency_key=f"c{user}")
    return ids


def _empty(conns: list[Connection]) -> None:
    for conn in conns:
        while not conn.outbox.empty():
            conn.outbox.get_nowait()


async def _rounds(db: Database, users: list[int], rounds: int) -> list[float]:
    config = TableConfig(
        name="live",
        game="uth",
        betting_seconds=600,
        decision_seconds=600,
        pause_seconds=0,
        rules={"shared_hand": True},
    )
    table = Table(config, UthFactory(config), db=db, clock=ManualClock(), shoe_factory=live_shoe)
    table.start()
    conns = [table.connect(user_id=u, username=f"p{u}") for u in users]
    await asyncio.gather(*(table.submit(c, JoinMessage()) for c in conns))
    _empty(conns)
    cpu = []
    for n in range(rounds):
        start = time.process_time()
        bets = (table.submit(c, BetMessage(key=f"r{n}", bets={"ante": 100})) for c in conns)
        await asyncio.gather(*bets)
        _empty(conns)
        await asyncio.gather(*(table.submit(c, ActMessage(action="4x")) for c in conns))
        _empty(conns)
        while table.rounds_played <= n:
            await asyncio.sleep(0.001)
        cpu.append(time.process_time() - start)
        _empty(conns)
    # Everyone goes at once (a cluster's gateway died): the table frees every seat.
    start = time.process_time()
    for conn in conns:
        table.disconnect(conn)
    while table.describe()["seats_taken"]:
        await asyncio.sleep(0.001)
    cpu.append(time.process_time() - start)
    await table.stop()
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="croupier-cpu-") as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'cpu.db'}")
        db.migrate()
        users = _players(db, args.players)
        *cpu, leaving = asyncio.run(_rounds(db, users, args.rounds))
        db.dispose()
    print(
        json.dumps(
            {
                "players": args.players,
                "rounds": args.rounds,
                "cpu_s_per_round_median": round(statistics.median(cpu), 3),
                "cpu_s_per_round_min": round(min(cpu), 3),
                "cpu_s_per_round": [round(c, 3) for c in cpu],
                "cpu_s_everyone_leaving": round(leaving, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
