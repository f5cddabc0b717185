"""The UTH command line: settle (JSON lines), replay (records), play (a real terminal)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

CROUPIER = [sys.executable, "-m", "croupier.cli.__main__"]


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CROUPIER, *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_settle_reads_json_lines_and_survives_bad_lines() -> None:
    lines = [
        {
            "player": "AsKd",
            "dealer": "7c7d",
            "board": "AhKh4c5s9c",
            "ante": 1000,
            "trips": 500,
            "action": "4x",
        },
        "not json",
        {"player": "AsKd", "dealer": "AsKh", "board": "2h3h4h5s9c", "ante": 1000, "action": "4x"},
        [1, 2],
        {
            "player": "AsAd",
            "dealer": "7c7d",
            "board": "AhKh4c5s9c",
            "ante": 1000,
            "action": "fold",
            "trips": 500,
        },
        {
            "player": "AsKd",
            "dealer": "7c7d",
            "board": "2h3h4h5s9c",
            "ante": 1000,
            "action": "4x",
            "extra": 1,
        },
    ]
    stdin = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    result = run(["uth", "settle"], stdin)
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[0] == {"ante": 1000, "blind": 0, "play": 4000, "trips": -500, "total": 4500}
    assert "not JSON" in out[1]["error"]
    assert out[2] == {"error": "card As appears more than once"}
    assert out[3] == {"error": "each line must be a JSON object"}
    assert out[4] == {"ante": -1000, "blind": -1000, "play": 0, "trips": 1500, "total": -500}
    assert out[5] == {"error": "unknown field 'extra'"}
    assert len(out) == 6


def test_play_records_and_replays(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "croupier.cli.__main__",
            "uth",
            "play",
            "--seed",
            "7",
            "--hands",
            "2",
            "--records",
            str(tmp_path),
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 140),
    )
    for _hand in range(2):
        child.expect("Ante")
        child.sendline("")
        child.expect("Trips")
        child.sendline("5")
        child.expect("Pre-flop")
        child.sendline("z")  # not an option: refused, asked again
        child.expect("not one of")
        child.expect("Pre-flop")
        child.sendline("h")  # the strategy advisor's exact EVs
        child.expect("Best: (4x|3x|check)")
        child.expect("Pre-flop")
        child.sendline("c")
        child.expect("Flop")
        child.sendline("c")
        child.expect("River")
        child.sendline("1")
        child.expect("Round: ")
    child.expect("Session")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for record in records:
        data = json.loads(record.read_text())
        assert data["actions"] == [
            {"seat": 0, "action": "check", "timeout": False},
            {"seat": 0, "action": "check", "timeout": False},
            {"seat": 0, "action": "1x", "timeout": False},
        ]
        assert data["bets"] == [{"seat": 0, "ante": 1000, "trips": 500}]
        result = run(["uth", "replay", str(record)])
        assert result.returncode == 0, result.stdout + result.stderr
        assert "settlement confirmed" in result.stdout
    data = json.loads(records[0].read_text())
    data["results"][0]["bets"][0]["net"] += 100
    data["results"][0]["net"] += 100
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    result = run(["uth", "replay", str(tampered)])
    assert result.returncode == 1
    assert "settles to net" in result.stdout


@pytest.mark.parametrize("bad", ["{", '{"game": "uth", "version": 9}'])
def test_replay_refuses_bad_records(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(bad)
    result = run(["uth", "replay", str(path)])
    assert result.returncode == 1
