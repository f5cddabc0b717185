"""PostgreSQL: a base backup plus continuous WAL archiving, and a point-in-time restore.

The database server archives every completed WAL segment itself (``archive_mode = on`` and an
``archive_command`` copying it to the archive: :func:`archive_settings`; ``archive_timeout``
closes a segment at least that often, which bounds what a lost disk can lose). A *base
backup* (:func:`base_backup`, ``pg_basebackup``, taken while the casino plays) is a consistent
starting point; any moment after it can be rebuilt by replaying archived WAL over it.

:func:`prepare_restore` unpacks a base backup into a new data directory and tells PostgreSQL
(``recovery.signal`` and ``postgresql.auto.conf``) where the archive is and where to stop:
at the end of the archive, at a time, or just before or after a transaction (its id) or a WAL
position. :func:`start` starts it (``pg_ctl``) and waits until it has replayed to the target
and been promoted: a database again, on a new timeline. Debian's clusters are started with
``pg_ctlcluster`` instead (docs/operations.md).
"""

from __future__ import annotations

import datetime as dt
import glob
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from croupier.server.backup.sqlite import BackupError

__all__ = [
    "Target",
    "archive_settings",
    "base_backup",
    "find_bin",
    "prepare_restore",
    "start",
]


def find_bin(name: str, pg_bin: Path | None = None) -> Path:
    """A PostgreSQL program: in ``pg_bin``, Debian's newest ``/usr/lib/postgresql/*/bin``, or
    the ``PATH``.

    Raises:
        BackupError: not found.
    """
    places = [pg_bin] if pg_bin else []
    places += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for place in places:
        if place is not None and (place / name).is_file():
            return place / name
    found = shutil.which(name)
    if found:
        return Path(found)
    raise BackupError(f"{name} not found (install postgresql, or give --pg-bin)")


def archive_settings(archive: Path, *, timeout_seconds: int = 60) -> dict[str, str]:
    """The ``postgresql.conf`` settings that archive every WAL segment into ``archive``:
    copy a segment unless it is there already, under a temporary name renamed when whole.

    A segment is never seen in the archive half-copied: with a plain ``cp`` (Debian's
    documentation's command), a crash in the middle of a copy leaves part of a segment under
    its own name, which every retry then refuses to replace (``test ! -f``) -- archiving stops
    for good and a restore replays a truncated segment, ending before its target."""
    return {
        "wal_level": "replica",
        "archive_mode": "on",
        "archive_command": (
            f"test ! -f {archive}/%f && cp %p {archive}/%f.part && mv {archive}/%f.part {archive}/%f"
        ),
        "archive_timeout": f"{timeout_seconds}s",
    }


def _conninfo(url: str) -> list[str]:
    parsed = make_url(url)
    if not parsed.drivername.startswith("postgresql"):
        raise BackupError(f"not a PostgreSQL URL: {parsed.drivername}")
    args = []
    if parsed.host:
        args += ["-h", parsed.host]
    if parsed.port:
        args += ["-p", str(parsed.port)]
    if parsed.username:
        args += ["-U", parsed.username]
    return args


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def base_backup(
    url: str, out: Path, *, pg_bin: Path | None = None, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """A base backup of the cluster serving ``url`` into the new directory ``out``
    (compressed tar files and ``backup.json``); the password, if any, from ``PGPASSWORD``.

    Raises:
        BackupError: ``out`` exists, or ``pg_basebackup`` failed (its message).
    """
    if out.exists():
        raise BackupError(f"{out} exists: a backup is never written over")
    program = find_bin("pg_basebackup", pg_bin)
    stamp = dt.datetime.now(dt.UTC)
    label = f"croupier-{stamp.strftime('%Y%m%dT%H%M%SZ')}"
    started = time.monotonic()
    partial = out.with_name(f".{out.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    command = [str(program), *_conninfo(url), "-D", str(partial), "-Ft", "-z", "-X", "stream"]
    command += ["-c", "fast", "-l", label, "--no-password"]
    password = make_url(url).password
    environment = {**os.environ, **(env or {})}
    if password:
        environment["PGPASSWORD"] = str(password)
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
    if done.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise BackupError(f"pg_basebackup failed: {done.stderr.strip() or done.stdout.strip()}")
    files = {p.name: _sha256(p) for p in sorted(partial.iterdir()) if p.is_file()}
    info = {
        "kind": "postgresql",
        "label": label,
        "taken_at": stamp.isoformat(),
        "seconds": round(time.monotonic() - started, 3),
        "bytes": sum(p.stat().st_size for p in partial.iterdir() if p.is_file()),
        "files": files,
        "source": make_url(url).render_as_string(hide_password=True),
    }
    (partial / "backup.json").write_text(json.dumps(info, indent=1) + "\n")
    os.replace(partial, out)
    return info


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """Where a point-in-time restore stops (nothing set: at the end of the archive)."""

    time: str | None = None
    """An ISO 8601 time with its zone."""
    xid: str | None = None
    lsn: str | None = None
    inclusive: bool = True
    """Stop just after the target (``True``) or just before it (a transaction's id: the
    state before it committed)."""

    def settings(self) -> dict[str, str]:
        chosen = {
            k: v
            for k, v in (("time", self.time), ("xid", self.xid), ("lsn", self.lsn))
            if v is not None
        }
        if len(chosen) > 1:
            raise BackupError(f"one recovery target at most, not {sorted(chosen)}")
        if not chosen:
            return {}
        ((kind, value),) = chosen.items()
        return {
            f"recovery_target_{kind}": value,
            "recovery_target_inclusive": "on" if self.inclusive else "off",
            "recovery_target_action": "promote",
            "recovery_target_timeline": "current",
        }


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _untar(archive: Path, into: Path) -> None:
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")


def prepare_restore(
    base: Path, archive: Path, pgdata: Path, *, target: Target = Target()
) -> dict[str, Any]:
    """Unpack the base backup ``base`` into the new directory ``pgdata`` set to replay WAL
    from ``archive`` to ``target``; what was written.

    Raises:
        BackupError: ``pgdata`` is not empty, or the backup is missing or altered.
    """
    info_path = base / "backup.json"
    if not info_path.is_file():
        raise BackupError(f"{base} is not a base backup (no backup.json)")
    info = json.loads(info_path.read_text())
    for name, digest in info.get("files", {}).items():
        if _sha256(base / name) != digest:
            raise BackupError(f"{base / name} does not match its recorded SHA-256")
    if pgdata.exists() and any(pgdata.iterdir()):
        raise BackupError(f"{pgdata} is not empty: restore into a new directory")
    if not archive.is_dir():
        raise BackupError(f"no WAL archive at {archive}")
    started = time.monotonic()
    pgdata.mkdir(parents=True, exist_ok=True)
    pgdata.chmod(0o700)
    _untar(base / "base.tar.gz", pgdata)
    wal = base / "pg_wal.tar.gz"
    if wal.is_file():
        _untar(wal, pgdata / "pg_wal")
    settings = {"restore_command": f"cp {archive}/%f %p", **target.settings()}
    with (pgdata / "postgresql.auto.conf").open("a") as conf:
        conf.write("\n# croupier backup restore\n")
        for key, value in settings.items():
            conf.write(f"{key} = {_quote(value)}\n")
    (pgdata / "recovery.signal").write_text("")
    return {
        "pgdata": str(pgdata),
        "base": info.get("label"),
        "base_taken_at": info.get("taken_at"),
        "settings": settings,
        "seconds": round(time.monotonic() - started, 3),
    }


def start(
    pgdata: Path,
    *,
    port: int,
    socket_dir: Path,
    log: Path,
    pg_bin: Path | None = None,
    prefix: Sequence[str] = (),
    options: str = "",
    timeout: float = 300.0,
) -> dict[str, Any]:
    """Start the restored cluster and wait until recovery is over and it was promoted.

    ``prefix``: how to run ``pg_ctl`` as the data directory's owner (``runuser -u postgres
    --`` when this runs as root). Returns the seconds it took and the last transaction the
    replay applied (its commit time).

    Raises:
        BackupError: it did not start, or did not come out of recovery in ``timeout``.
    """
    import psycopg

    pg_ctl = find_bin("pg_ctl", pg_bin)
    started = time.monotonic()
    flags = f"-p {port} -k {socket_dir} -c listen_addresses=127.0.0.1 {options}".strip()
    done = subprocess.run(
        [*prefix, str(pg_ctl), "-D", str(pgdata), "-o", flags, "-l", str(log), "-w",
         "-t", str(int(timeout)), "start"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        tail = log.read_text()[-2000:] if log.is_file() else done.stderr
        raise BackupError(f"the restored cluster did not start: {tail}")
    deadline = time.monotonic() + timeout
    conninfo = f"host=127.0.0.1 port={port} user=postgres dbname=postgres"
    while True:
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                recovering = conn.execute("SELECT pg_is_in_recovery()").fetchone()
                replayed = conn.execute("SELECT pg_last_xact_replay_timestamp()").fetchone()
        except psycopg.OperationalError as exc:
            # The server stopped (recovery ended before its target: a segment missing from the
            # archive, or cut short) or is not yet accepting: say which, with its log.
            running = subprocess.run(
                [*prefix, str(pg_ctl), "-D", str(pgdata), "status"],
                capture_output=True, check=False,
            )  # fmt: skip
            if running.returncode != 0 or time.monotonic() > deadline:
                tail = log.read_text()[-2000:] if log.is_file() else ""
                raise BackupError(
                    f"the restored cluster stopped during recovery ({exc}): {tail}"
                ) from exc
            time.sleep(0.1)
            continue
        if recovering is not None and not recovering[0]:
            break
        if time.monotonic() > deadline:
            raise BackupError("the restored cluster is still recovering")
        time.sleep(0.1)
    last = replayed[0] if replayed is not None else None
    return {
        "seconds": round(time.monotonic() - started, 3),
        "last_replayed": last.isoformat() if last is not None else None,
    }
