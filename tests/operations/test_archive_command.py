"""The WAL archive command ``croupier backup archive-settings`` gives (issue 30), run as
PostgreSQL's archiver runs it: ``sh -c`` with ``%p`` and ``%f`` put in."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from croupier.server.backup.postgres import archive_settings

SEGMENT = "000000010000000000000007"


def _archive(command: str, source: Path, path: str | None = None) -> int:
    line = command.replace("%p", str(source)).replace("%f", SEGMENT)
    env = {**os.environ, "PATH": path or os.environ["PATH"]}
    return subprocess.run(["sh", "-c", line], env=env, check=False).returncode


@pytest.fixture
def segment(tmp_path: Path) -> Path:
    source = tmp_path / "pg_wal" / SEGMENT
    source.parent.mkdir()
    source.write_bytes(os.urandom(1 << 20))
    return source


def test_a_copy_cut_short_leaves_no_segment_and_the_retry_archives_it_whole(
    tmp_path: Path, segment: Path
) -> None:
    archive = tmp_path / "archive"
    archive.mkdir()
    command = archive_settings(archive, timeout_seconds=1)["archive_command"]
    # A ``cp`` that dies half way (the machine lost power, the archiver was killed).
    broken = tmp_path / "broken-bin"
    broken.mkdir()
    (broken / "cp").write_text('#!/bin/sh\nhead -c 1000 "$1" > "$2"\nexit 137\n')
    (broken / "cp").chmod(0o755)
    assert _archive(command, segment, f"{broken}:{os.environ['PATH']}") != 0
    assert not (archive / SEGMENT).exists(), "half a segment under its own name"
    # PostgreSQL retries the segment: it is archived whole, once.
    assert _archive(command, segment) == 0
    assert (archive / SEGMENT).read_bytes() == segment.read_bytes()
    assert [p.name for p in archive.iterdir()] == [SEGMENT]
    # A segment already archived is never overwritten (the archiver is told it failed).
    segment.write_bytes(b"other")
    assert _archive(command, segment) != 0
    assert (archive / SEGMENT).stat().st_size == 1 << 20
