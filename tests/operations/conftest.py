"""Fixtures of the operations tests: the server tests' helpers on the path, a PostgreSQL
cluster with WAL archiving."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

from ops_testkit import ArchivingCluster, pg_bin  # noqa: E402
from server_testkit import free_port  # noqa: E402


@pytest.fixture
def archiving_cluster() -> Iterator[ArchivingCluster]:
    """initdb, WAL archiving to a directory (a segment closed at least every second), started."""
    bindir = pg_bin()
    base = Path(tempfile.mkdtemp(prefix="croupier-pitr-"))
    data, archive, sockets = base / "data", base / "archive", base / "run"
    archive.mkdir()
    sockets.mkdir()
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    cluster = ArchivingCluster(bindir, base, data, archive, sockets, free_port(), prefix)
    cluster.own(base)
    subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
         "-E", "UTF8"],
        check=True, capture_output=True,
    )  # fmt: skip
    settings = subprocess.run(  # the lines the docs tell an operator to add
        [sys.executable, "-m", "croupier.cli", "backup", "archive-settings", "--archive",
         str(archive), "--timeout", "1"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    assert "archive_mode = 'on'" in settings and "archive_timeout = '1s'" in settings
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(settings)
        conf.write("max_connections = 60\nsynchronous_commit = on\n")
    flags = f"-p {cluster.port} -k {sockets} -c listen_addresses=127.0.0.1"
    started = cluster.pg_ctl(data, "-o", flags, "-l", str(base / "log"), "-w", "start")
    assert started.returncode == 0, started.stderr
    cluster.sql("CREATE DATABASE croupier")
    try:
        yield cluster
    finally:
        for directory in base.iterdir():
            if (directory / "PG_VERSION").exists():
                cluster.pg_ctl(directory, "-m", "immediate", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)
