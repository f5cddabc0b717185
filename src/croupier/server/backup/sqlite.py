"""SQLite: an online backup of a running server's database, and its restore.

:func:`backup` copies the database with SQLite's own backup API
(``sqlite3.Connection.backup``) in one step: it reads inside one read transaction, so the copy
is the database as committed at one instant, and in WAL mode (the server's) writers are not
blocked meanwhile. A file copy under writes can tear a page or miss the WAL; this cannot. The
copy is checked (``PRAGMA integrity_check``) before it is renamed into place, and described
by a JSON file beside it (its SHA-256, when it was taken, the last round and the audit log's
head then).

:func:`restore` puts a backup back in place of a database no server is using: it checks the
backup against its SHA-256 and SQLite's integrity check, moves the database it replaces aside
(never deleting it), removes that database's WAL and shared-memory files (which would
otherwise be replayed over the restored one), and renames a copy of the backup into place.
The next start of the server voids every round the backup caught in play, exactly as after
a crash (spec/uth.md "Faults").
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import shutil
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

__all__ = ["BackupError", "BackupInfo", "backup", "database_path", "latest", "restore"]


class BackupError(Exception):
    """A backup or restore refused, with the reason (nothing was changed)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BackupInfo:
    """What a backup file holds (written beside it as ``<file>.json``)."""

    kind: str
    file: str
    source: str
    taken_at: str
    """When the copy's read transaction began (UTC): the recovery point."""
    seconds: float
    bytes: int
    sha256: str
    last_round: int | None
    audit_head: str | None
    audit_entries: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def database_path(url: str) -> Path:
    """The file of a ``sqlite:///path`` URL.

    Raises:
        BackupError: not a SQLite file URL.
    """
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url in (prefix, "sqlite:///:memory:"):
        raise BackupError(f"not a SQLite database file URL: {url!r}")
    return Path(url[len(prefix) :])


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _facts(con: sqlite3.Connection) -> tuple[int | None, str | None, int]:
    """The last round and the audit log's head and length, as the copy holds them."""
    try:
        last = con.execute("SELECT max(id) FROM rounds").fetchone()[0]
        head = con.execute("SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
        count = con.execute("SELECT count(*) FROM audit_log").fetchone()[0]
    except sqlite3.DatabaseError:
        return None, None, 0
    return last, head[0] if head else None, int(count)


def _check(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as con:
        result = con.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise BackupError(f"{path} fails SQLite's integrity check: {result}")


def backup(url: str, out: Path) -> BackupInfo:
    """Copy the database of ``url`` (a running server's, or not) to ``out``.

    Raises:
        BackupError: no such database, ``out`` exists, or the copy fails its check.
    """
    source = database_path(url)
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if out.exists():
        raise BackupError(f"{out} exists: a backup is never written over")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.partial")
    partial.unlink(missing_ok=True)
    started = time.monotonic()
    taken = dt.datetime.now(dt.UTC)
    with (
        contextlib.closing(sqlite3.connect(source, timeout=30)) as src,
        contextlib.closing(sqlite3.connect(partial)) as dst,
    ):
        src.backup(dst)  # every page in one step: one read transaction, one instant
        dst.execute("PRAGMA journal_mode=DELETE")
    with contextlib.closing(sqlite3.connect(partial)) as copy:
        last, head, entries = _facts(copy)
    _check(partial)
    with partial.open("rb") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, out)
    info = BackupInfo(
        kind="sqlite", file=out.name, source=str(source), taken_at=taken.isoformat(),
        seconds=round(time.monotonic() - started, 4), bytes=out.stat().st_size,
        sha256=_sha256(out), last_round=last, audit_head=head, audit_entries=entries,
    )  # fmt: skip
    out.with_name(out.name + ".json").write_text(json.dumps(info.to_json(), indent=1) + "\n")
    return info


def latest(directory: Path) -> Path:
    """The newest backup in ``directory`` (by the time recorded beside it).

    Raises:
        BackupError: none there.
    """
    found = []
    for meta in directory.glob("*.json"):
        try:
            data = json.loads(meta.read_text())
        except (OSError, ValueError):
            continue
        target = meta.with_name(meta.name[: -len(".json")])
        if data.get("kind") == "sqlite" and target.is_file():
            found.append((str(data.get("taken_at", "")), target))
    if not found:
        raise BackupError(f"no SQLite backup in {directory}")
    return max(found)[1]


def _in_use(path: Path) -> bool:
    """Whether a connection holds the database (a running server): a write lock cannot be
    taken at once."""
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=0.2)) as con:
            con.execute("BEGIN IMMEDIATE")
            con.execute("ROLLBACK")
    except sqlite3.OperationalError:
        return True
    return False


def restore(backup_file: Path, url: str) -> dict[str, Any]:
    """Put ``backup_file`` in place of the database of ``url`` (what was there is kept as
    ``<name>.replaced-<time>``); what was done.

    Raises:
        BackupError: the backup is missing, altered or corrupt, or the database is in use.
    """
    target = database_path(url)
    if not backup_file.is_file():
        raise BackupError(f"no backup at {backup_file}")
    meta = backup_file.with_name(backup_file.name + ".json")
    expected = json.loads(meta.read_text()).get("sha256") if meta.is_file() else None
    if expected is not None and _sha256(backup_file) != expected:
        raise BackupError(f"{backup_file} does not match the SHA-256 recorded when it was taken")
    _check(backup_file)
    if target.exists() and _in_use(target):
        raise BackupError(f"{target} is in use (a server runs on it): stop it first")
    started = time.monotonic()
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    kept = None
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        kept = target.with_name(f"{target.name}.replaced-{stamp}")
        os.replace(target, kept)
    for suffix in ("-wal", "-shm", "-journal"):
        side = Path(f"{target}{suffix}")
        if side.exists():
            os.replace(side, Path(f"{kept or target}{suffix}.replaced-{stamp}"))
    partial = target.with_name(f".{target.name}.restoring")
    shutil.copyfile(backup_file, partial)
    os.replace(partial, target)
    return {
        "restored": str(target),
        "from": str(backup_file),
        "replaced": None if kept is None else str(kept),
        "seconds": round(time.monotonic() - started, 4),
        "recovery_point": json.loads(meta.read_text()).get("taken_at") if meta.is_file() else None,
    }
