"""The restore drill (issue 30): a real casino loses its database and is restored from backup.

A ``croupier serve`` takes bets from players at three tables over real WebSockets; a backup
is taken while they play; play goes on; the server is killed and its database destroyed; the
database is restored (``croupier backup``) and the server started on it. Then the server has
voided what was in play exactly as after a crash, the ledger and the audit chain check, every
bet acknowledged before the recovery point is there with its round settled or voided, and
each balance is its deposits plus its settled results. On PostgreSQL the restore replays the
WAL archive to its end, and, from the same backup, to just before a chosen transaction (an
operator's credit): that credit is gone and everything before it is there.

The figures (bets lost, seconds to restore) are printed and, with ``CROUPIER_DRILL_REPORT``,
written for docs/operations.md. The short drills run in ``make test``, longer ones are slow.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import httpx
import pytest
from drill import TABLES, Casino, Figures, check_restored, playing
from ops_testkit import ArchivingCluster, report
from server_testkit import free_port, start_serve

from croupier.server.backup import postgres
from croupier.server.db import Database

pytestmark = pytest.mark.timeout(600)

SECRET = "drill-secret"


def _serve(tmp: Path, url: str, port: int) -> subprocess.Popen[bytes]:
    return start_serve(tmp, url=url, port=port, tables=TABLES, secret=SECRET, cheap_hashing=True)


def _croupier(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "croupier.cli", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, object] = json.loads(done.stdout)
    return out


def _settled(url: str) -> int:
    if url.startswith("sqlite"):
        path = url[len("sqlite:///") :]
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as con:
            return int(
                con.execute("SELECT count(*) FROM rounds WHERE status='settled'").fetchone()[0]
            )
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            return int(
                conn.exec_driver_sql("SELECT count(*) FROM rounds WHERE status='settled'").scalar()
                or 0
            )
    finally:
        db.dispose()


def _until_settled(url: str, count: int, *, deadline: float = 120) -> None:
    end = time.monotonic() + deadline
    while _settled(url) < count:
        assert time.monotonic() < end, f"fewer than {count} rounds settled"
        time.sleep(0.2)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)


def _epoch(iso: object) -> float:
    return dt.datetime.fromisoformat(str(iso)).timestamp()


def _open_rounds(url: str) -> set[int]:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT id FROM rounds WHERE status='open'").all()
    finally:
        db.dispose()
    return {int(r[0]) for r in rows}


def _open_in_backup(path: Path) -> set[int]:
    """The rounds a SQLite backup holds open, read without writing to it (opening it as a
    database, WAL mode and all, would change it: the restore then refuses it, rightly)."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as con:
        return {int(r[0]) for r in con.execute("SELECT id FROM rounds WHERE status='open'")}


def _sqlite_drill(tmp_path: Path, *, players: int, before: int, after: int) -> None:
    path = tmp_path / "casino.db"
    url, port = f"sqlite:///{path}", free_port()
    proc = _serve(tmp_path, url, port)
    casino = Casino(base=f"http://127.0.0.1:{port}")
    try:
        casino.seat_players({"casino-a": players, "casino-b": players, "live": players})
        with playing(port, casino) as acks:
            _until_settled(url, before)
            info = _croupier("backup", "create", "--database", url, "--out", str(tmp_path / "b.db"))
            _until_settled(url, _settled(url) + after)
            killed = time.time()
            _kill(proc)
        for suffix in ("", "-wal", "-shm"):  # the disk is lost
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        in_play = _open_in_backup(tmp_path / "b.db")
        started = time.monotonic()
        restored = _croupier(
            "backup", "restore", "--database", url, "--from", str(tmp_path / "b.db")
        )
        restore_seconds = time.monotonic() - started
        proc = _serve(tmp_path, url, port)
        rto = time.monotonic() - started
        db = Database(url)
        try:
            figures = check_restored(
                db, acks=list(acks), recovery_point=_epoch(info["taken_at"]),
                deposits=casino.deposits, in_play=in_play, audit_head=str(info["audit_head"]),
            )  # fmt: skip
        finally:
            db.dispose()
        assert figures.acks_before > 0 and figures.acks_after > 0
        report(
            {
                "drill": "sqlite", "players": 3 * players, "backup_seconds": info["seconds"],
                "backup_bytes": info["bytes"], "restore_seconds": round(restore_seconds, 3),
                "rto_seconds": round(rto, 3),
                "data_lost_seconds": round(killed - _epoch(info["taken_at"]), 3),
                "bets_lost": figures.acks_after - figures.acks_after_kept,
                **asdict(figures), "restored": restored["restored"],
            }
        )  # fmt: skip
    finally:
        _kill(proc)


def test_sqlite_restore_drill(tmp_path: Path) -> None:
    _sqlite_drill(tmp_path, players=2, before=15, after=30)


@pytest.mark.slow
def test_sqlite_restore_drill_long(tmp_path: Path) -> None:
    _sqlite_drill(tmp_path, players=5, before=150, after=100)


def _credit_xid(cluster: ArchivingCluster, key: str) -> str:
    """The transaction id that committed the operator's credit with idempotency key ``key``."""
    rows = cluster.sql(
        f"SELECT xmin::text FROM idempotency_keys WHERE key = '{key}'", db="croupier"
    )
    assert rows, key
    return str(rows[0][0])


def _until_archived(cluster: ArchivingCluster, *, deadline: float = 60) -> None:
    """Wait until the WAL segment holding everything committed so far is in the archive
    (``archive_timeout`` switches segments each second while the casino writes): without
    it the last, unarchived, second may hold the transaction a drill chose (it did, once)."""
    segment = str(cluster.sql("SELECT pg_walfile_name(pg_current_wal_lsn())")[0][0])
    end = time.monotonic() + deadline
    while not (cluster.archive / segment).exists():
        assert time.monotonic() < end, f"segment {segment} not archived"
        time.sleep(0.2)


def _restore_pg(
    cluster: ArchivingCluster, name: str, base: Path, *target: str
) -> tuple[str, float, dict[str, object]]:
    """Rebuild a data directory ``name`` with ``croupier backup pg-restore`` (``target``: its
    options, none for the end of the archive) and start it as the docs say; its URL, the
    seconds taken, facts."""
    started = time.monotonic()
    pgdata = cluster.base / name
    done = _croupier(
        "backup", "pg-restore", "--base", str(base), "--archive", str(cluster.archive),
        "--pgdata", str(pgdata), *target,
    )  # fmt: skip
    assert (pgdata / "recovery.signal").exists(), done
    cluster.own(pgdata)
    port = free_port()
    up = postgres.start(
        pgdata, port=port, socket_dir=cluster.sockets, log=cluster.base / f"{name}.log",
        pg_bin=cluster.bin, prefix=cluster.prefix,
    )  # fmt: skip
    url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/croupier"
    return url, time.monotonic() - started, {**done, **up}


def _restart_and_check(
    tmp_path: Path, url: str, port: int, point: float, **checks: object
) -> tuple[float, Figures]:
    """Start ``croupier serve`` on the restored ``url``; the seconds to healthy, the
    figures of :func:`check_restored` (the rounds in play noted before the start)."""
    in_play = _open_rounds(url)
    tmp_path.mkdir()
    started = time.monotonic()
    proc = _serve(tmp_path, url, port)
    up = time.monotonic() - started
    db = Database(url)
    try:
        figures = check_restored(db, recovery_point=point, in_play=in_play, **checks)  # type: ignore[arg-type]
    finally:
        db.dispose()
        _kill(proc)
    return up, figures


def _pg_drill(
    tmp_path: Path, cluster: ArchivingCluster, *, players: int, before: int, after: int
) -> None:
    url, port = cluster.url(), free_port()
    proc = _serve(tmp_path, url, port)
    casino = Casino(base=f"http://127.0.0.1:{port}")
    try:
        casino.seat_players({"casino-a": players, "casino-b": players, "live": players})
        with playing(port, casino) as acks:
            _until_settled(url, before)
            base = tmp_path / "base"
            info = _croupier("backup", "create", "--database", url, "--out", str(base))
            _until_settled(url, _settled(url) + after)
            chosen = casino.players[0][0]  # the chosen transaction: an operator's credit
            with httpx.Client(base_url=casino.base, timeout=30) as client:
                casino.credit(client, chosen, 777_700, "chosen-credit")
            xid = _credit_xid(cluster, "chosen-credit")
            _until_archived(cluster)  # a restore to before it needs it in the archive
            _until_settled(url, _settled(url) + after)
            killed = time.time()
            _kill(proc)
    finally:
        with contextlib.suppress(ProcessLookupError):
            _kill(proc)
    cluster.pg_ctl(cluster.data, "-m", "immediate", "-w", "stop")  # the disk is lost
    shutil.rmtree(cluster.data)
    # To the end of the archive: everything but what the last, unarchived, second held.
    latest, seconds, facts = _restore_pg(cluster, "restored-latest", base)
    point = _epoch(facts["last_replayed"])
    assert cluster_has(latest, "chosen-credit")
    without_credit = {**casino.deposits, chosen: casino.deposits[chosen] - 777_700}
    up, figures = _restart_and_check(
        tmp_path / "latest", latest, port, point, acks=list(acks), deposits=casino.deposits
    )
    assert figures.acks_before > 0
    report(
        {
            "drill": "postgresql-latest", "players": 3 * players,
            "base_backup_seconds": info["seconds"], "base_backup_bytes": info["bytes"],
            "restore_seconds": round(seconds, 3), "rto_seconds": round(seconds + up, 3),
            "data_lost_seconds": round(killed - point, 3),
            "bets_lost": figures.acks_after - figures.acks_after_kept,
            **asdict(figures),
        }
    )  # fmt: skip
    # To just before the chosen transaction: the credit is not there, all before it is.
    before_xid, seconds, facts = _restore_pg(
        cluster, "restored-before", base, "--xid", xid, "--before"
    )
    assert not cluster_has(before_xid, "chosen-credit")
    point = _epoch(facts["last_replayed"])
    up, figures = _restart_and_check(
        tmp_path / "before", before_xid, port, point, acks=list(acks), deposits=without_credit
    )
    report(
        {
            "drill": "postgresql-before-xid", "xid": xid, "restore_seconds": round(seconds, 3),
            "rto_seconds": round(seconds + up, 3), **asdict(figures),
        }
    )  # fmt: skip


def cluster_has(url: str, key: str) -> bool:
    db = Database(url)
    try:
        with db.engine.connect() as conn:
            found = conn.exec_driver_sql(
                "SELECT count(*) FROM idempotency_keys WHERE key = %(key)s", {"key": key}
            ).scalar()
    finally:
        db.dispose()
    return bool(found)


@pytest.mark.postgres
def test_postgres_point_in_time_drill(tmp_path: Path, archiving_cluster: ArchivingCluster) -> None:
    _pg_drill(tmp_path, archiving_cluster, players=2, before=15, after=8)


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_point_in_time_drill_long(
    tmp_path: Path, archiving_cluster: ArchivingCluster
) -> None:
    _pg_drill(tmp_path, archiving_cluster, players=5, before=150, after=80)
