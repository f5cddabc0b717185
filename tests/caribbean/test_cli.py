"""The Caribbean Stud command line: settle (JSON lines), replay (records), advise, analyze,
and play through a real pseudo-terminal (the ``terminal`` fixture of tests/conftest.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import caribbean_reference as ref
import pytest

CROUPIER = [sys.executable, "-m", "croupier.cli.__main__"]


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CROUPIER, *args], input=stdin, capture_output=True, text=True, timeout=180
    )


def test_settle_reads_json_lines_and_survives_bad_lines() -> None:
    good = {"player": "KsKd9c7h2s", "dealer": "AhKc8d5s3c", "ante": 1000, "action": "raise"}
    royal = {"player": "AsKsQsJsTs", "dealer": "AhKc8d5s3c", "ante": 1000, "action": "raise"}
    lines = [
        json.dumps(good),
        "not json",
        json.dumps({**good, "dealer": "KsQc8d5s3c"}),
        json.dumps([1, 2]),
        json.dumps({**royal, "progressive": 100, "jackpot": 5_000_000}),
        json.dumps({**good, "action": "fold", "extra": 1}),
    ]
    result = run(["caribbean", "settle", "--rule", "progressive_bet=100"], "\n".join(lines))
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[0] == ref.settle("KsKd9c7h2s", "AhKc8d5s3c", ante=1000, action="raise")
    assert "not JSON" in out[1]["error"]
    assert out[2] == {"error": "card Ks appears more than once"}
    assert out[3] == {"error": "each line must be a JSON object"}
    assert out[4] == {"ante": 1000, "raise": 200_000, "progressive": 4_999_900, "total": 5_200_900}
    assert out[5] == {"error": "unknown field 'extra'"}


def test_settle_takes_the_tables_rules() -> None:
    line = json.dumps(
        {"player": "AsKsQsJsTs", "dealer": "AhKc8d5s3c", "ante": 100, "action": "raise"}
    )
    capped = run(["caribbean", "settle", "--rule", "max_payout=5000"], line)
    single = run(["caribbean", "settle", "--rule", "raise_multiple=1"], line)
    assert json.loads(capped.stdout)["raise"] == 5000
    assert json.loads(single.stdout)["raise"] == 10_000
    bad = run(["caribbean", "settle", "--rule", "max_seats=12"], line)
    assert bad.returncode == 2 and "max_seats" in bad.stderr


def test_settle_takes_every_setting_at_once() -> None:
    rules = [
        'name="Aruba"',
        "max_seats=7",
        "ante_min=200",
        "ante_max=5000",
        "raise_multiple=1",
        'raise_paytable={royal_flush = "250:1"}',
        "max_payout=50000",
        "progressive_bet=100",
        "progressive_paytable={flush = 7500}",
        "dealing=hands",
    ]
    line = {"player": "Js9s6s4s2s", "dealer": "AhKc8d5s3c", "ante": 1000, "action": "raise"}
    args = [a for rule in rules for a in ("--rule", rule)]
    out = run(["caribbean", "settle", *args], json.dumps({**line, "progressive": 100}))
    assert json.loads(out.stdout) == {
        "ante": 1000,
        "raise": 5000,  # a flush 5:1 on a Raise of one Ante
        "progressive": 7400,  # the flush's prize of 75.00 for the 1.00 bet
        "total": 13_400,
    }


def test_advise_prints_both_exact_evs() -> None:
    result = run(["caribbean", "advise", "AsKdQh9c7d", "Ac"])
    assert result.returncode == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert "raise -0.619481 (-1838/2967), fold -1.000000: best raise" in flat
    assert "of 163,185 dealer hands" in flat
    assert run(["caribbean", "advise", "AsKd", "Ac"]).returncode == 2


def test_analyze_asks_for_the_enumeration_and_refuses_unknown_strategies() -> None:
    assert run(["caribbean", "analyze"]).returncode == 2
    result = run(["caribbean", "analyze", "--exact", "--strategy", "sometimes"])
    assert result.returncode == 2 and "sometimes" in result.stderr


def test_play_records_and_replays(tmp_path: Path, terminal: Any) -> None:
    table = terminal(
        "caribbean",
        *("--seed", "7", "--hands", "3", "--records", str(tmp_path), "--progressive"),
        *("--rule", "progressive_bet=100"),
    )
    child = table.child
    for hand in range(3):
        child.expect("Ante")
        child.sendline("" if hand else "20")
        child.expect(r"\[r\] raise")
        child.sendline("z")  # not an option: refused, asked again
        child.expect("not one of r, f, h")
        child.expect(r"\[r\] raise")
        child.sendline("h")  # the advisor's exact EVs
        child.expect(r"Best: (raise|fold)")
        child.expect(r"\[r\] raise")
        child.sendline("r" if hand < 2 else "f")
        child.expect("Round: ")
    child.expect("Session")
    table.end()
    flat = table.text(flat=True)
    assert len(re.findall(r"Raise pays: Royal flush 100:1, Straight flush 50:1", flat)) == 1
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 3
    for number, record in enumerate(records):
        data = json.loads(record.read_text())
        action = "raise" if number < 2 else "fold"
        assert data["actions"] == [{"seat": 0, "action": action, "timeout": False}]
        assert data["bets"] == [{"seat": 0, "ante": 2000, "progressive": 100}]
        result = run(["caribbean", "replay", str(record)])
        assert result.returncode == 0, result.stdout + result.stderr
        assert "settlement confirmed" in result.stdout
    data = json.loads(records[0].read_text())
    data["results"][0]["net"] += 100
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    result = run(["caribbean", "replay", str(tampered)])
    assert result.returncode == 1 and "settles to net" in result.stdout
    # the same round under another table: with a cap it may settle differently, never fail
    again = run(["caribbean", "replay", str(records[0]), "--rule", "raise_multiple=1"])
    assert "Traceback" not in again.stdout + again.stderr


@pytest.mark.parametrize("how", ["q", "eof", "ctrl-c"])
def test_every_way_out_folds_the_round_and_prints_the_summary(terminal: Any, how: str) -> None:
    table = terminal("caribbean", "--seed", "5")
    child = table.child
    child.expect("Ante")
    child.sendline("")
    child.expect(r"\[r\] raise")
    table.leave(how)
    child.expect("Session")
    child.expect(r"Final bankroll €990\.00 \(-€10\.00\)")
    child.expect(r"Seed 5: `croupier caribbean play --seed 5`")
    table.end(130 if how == "ctrl-c" else 0)
    flat = table.text(flat=True)
    assert "You leave during the round: you fold, as a seat that runs out of time" in flat
    assert "You folded: the Ante is lost" in flat


def test_the_bankroll_never_goes_below_zero(terminal: Any) -> None:
    table = terminal("caribbean", "--seed", "1", "--bankroll", "35")
    child = table.child
    child.expect("Ante")
    child.sendline("20")  # with its Raise it needs 60
    child.expect(r"Ante €20\.00 with its Raise needs €60\.00; you have €35\.00")
    child.expect("Ante")
    child.sendline("q")
    child.expect("Session")
    table.end()


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--ante", "0.50"], "outside the table"),
        (["--ante", "ten"], "not an amount in euros"),
        (["--progressive"], "no progressive bet"),
        (["--bankroll", "0"], "must be more than 0"),
    ],
)
def test_play_refuses_bad_options_in_words(option: list[str], message: str) -> None:
    result = run(["caribbean", "play", *option])
    assert result.returncode == 2
    assert message in " ".join(result.stderr.split())
