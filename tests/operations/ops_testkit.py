"""Helpers of the operations tests: a PostgreSQL cluster with WAL archiving, the drills' report."""

from __future__ import annotations

import datetime as dt
import json
import os
import pwd
import subprocess
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent

REPORT = os.environ.get("CROUPIER_DRILL_REPORT")
"""A file the drills append their figures to (JSON lines), for docs/operations.md."""


def report(figures: dict[str, object]) -> None:
    """Print a drill's figures (``pytest -s``) and append them to :data:`REPORT` if set."""
    line = json.dumps({"at": dt.datetime.now(dt.UTC).isoformat(), **figures}, default=str)
    print(line)
    if REPORT:
        with open(REPORT, "a") as out:
            out.write(line + "\n")


def pg_bin() -> Path:
    import glob

    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "pg_basebackup").exists():
            return Path(candidate)
    subprocess.run(
        [
            "flock",
            "/tmp/croupier-apt.lock",
            "sh",
            str(HERE.parents[1] / "scripts" / "install-postgres.sh"),
        ],
        check=True,
    )
    return pg_bin()


@dataclass
class ArchivingCluster:
    """A PostgreSQL cluster of the test's own that archives every WAL segment."""

    bin: Path
    base: Path
    data: Path
    archive: Path
    sockets: Path
    port: int
    prefix: list[str]

    def url(self, db: str = "croupier") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{db}"

    def sql(self, statement: str, db: str = "postgres") -> list[tuple[object, ...]]:
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname={db}", autocommit=True
        ) as conn:
            cursor = conn.execute(statement)  # type: ignore[arg-type,unused-ignore]
            return list(cursor.fetchall()) if cursor.description else []

    def own(self, *paths: Path) -> None:
        """Give ``paths`` to the postgres user (PostgreSQL refuses to run as root)."""
        if not self.prefix:
            return
        pg = pwd.getpwnam("postgres")
        for path in paths:
            for root, dirs, files in os.walk(path):
                os.chown(root, pg.pw_uid, pg.pw_gid)
                for name in dirs + files:
                    os.chown(os.path.join(root, name), pg.pw_uid, pg.pw_gid)

    def pg_ctl(self, data: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [*self.prefix, str(self.bin / "pg_ctl"), "-D", str(data), *args], capture_output=True
        )
