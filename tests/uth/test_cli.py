"""The UTH command line: settle (JSON lines), replay (records), play (a real terminal, the
``terminal`` fixture of tests/conftest.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def test_play_records_and_replays(tmp_path: Path, terminal: Any) -> None:
    table = terminal("uth", "--seed", "7", "--hands", "2", "--records", str(tmp_path))
    child = table.child
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
    table.end()
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


def test_play_states_the_limits_in_euros(terminal: Any) -> None:
    table = terminal("uth", "--seed", "7", "--bankroll", "100000")
    child = table.child
    child.expect(r"Ante \(Enter for \S+, q to quit\)")
    child.sendline("2000")  # above the table maximum: refused at once, in euros
    seen = child.expect([r"Ante €2000\.00 is above the table maximum €1000\.00", "Trips", "100000"])
    assert seen == 0, table.text()[-200:]
    child.expect(r"Ante \(Enter")
    child.sendline("0.5")
    child.expect(r"Ante €0\.50 is below the table minimum €1\.00")
    child.expect(r"Ante \(Enter")
    child.sendline("")
    child.expect(r"Trips \(Enter")
    child.sendline("600")
    child.expect(r"Trips €600\.00 is above the table maximum €500\.00")
    child.expect(r"Trips \(Enter")
    child.sendline("q")
    child.expect("Session")
    table.end()
    text = table.text(flat=True)
    assert "Ante €1.00 to €1000.00, Trips €1.00 to €500.00" in text
    assert "Ante (Enter for €10.00, q to quit)" in text
    assert "100000" not in text.replace("€100000.00", "")  # no amount in cents anywhere


def test_play_says_the_ante_comes_back_first_when_the_dealer_does_not_qualify(
    terminal: Any,
) -> None:
    # seed 1: check, check, 1x; the dealer's hand has no pair (seed 003, issue 28)
    table = terminal("uth", "--seed", "1", "--hands", "1")
    for prompt, answer in (("Ante", ""), ("Trips", ""), ("Pre-flop", "c"), ("Flop", "c")):
        table.child.expect(prompt)
        table.child.sendline(answer)
    table.child.expect("River")
    table.child.sendline("1")
    table.child.expect("Session")
    table.end()
    text = table.text(flat=True)
    returned = text.index("The dealer does not qualify: your Ante of €10.00 is returned first")
    assert returned < text.index("You win")


def test_play_names_both_hands_in_full_and_says_what_decided(terminal: Any) -> None:
    # seed 29: both hands are one pair of the same rank; the dealer's kicker decides
    table = terminal("uth", "--seed", "29", "--hands", "1")
    for prompt, answer in (("Ante", ""), ("Trips", ""), ("Pre-flop", "c"), ("Flop", "c")):
        table.child.expect(prompt)
        table.child.sendline(answer)
    table.child.expect("River")
    table.child.sendline("1")
    table.child.expect("Round: ")
    table.child.expect("Session")
    table.end()
    text = table.text(flat=True)
    dealer = re.search(r"Dealer (?:\S+ ){2}(Pair of \w+, [\w-]+ kicker)", text)
    you = re.search(r"You (?:\S+ ){2}(Pair of \w+, [\w-]+ kicker)", text)
    assert dealer and you, text[-600:]
    assert dealer.group(1).split(",")[0] == you.group(1).split(",")[0]  # the same pair
    assert "The dealer wins: the Nine kicker beats the Eight" in text


@pytest.mark.parametrize(("leave", "status"), [("eof", 0), ("ctrl-c", 130), ("q", 0)])
def test_every_way_out_finishes_the_round_and_prints_the_summary(
    tmp_path: Path, terminal: Any, leave: str, status: int
) -> None:
    table = terminal("uth", "--seed", "7", "--records", str(tmp_path))
    child = table.child
    for prompt in ("Ante", "Trips"):
        child.expect(prompt)
        child.sendline("")
    child.expect("Pre-flop")
    child.sendline("c")
    child.expect("Flop")
    table.leave(leave)
    # the round in play ends as a seat that runs out of time: check, then fold on the river
    child.expect("You leave during the round")
    child.expect("You folded: Ante and Blind lost")
    child.expect("Session")
    child.expect(r"Final bankroll €980\.00 \(-€20\.00\)")
    child.expect(r"Seed 7: `croupier uth play --seed 7`")
    table.end(status)
    # the finished round is recorded as played, the timed-out decisions marked, and replays
    (record,) = tmp_path.glob("*.json")
    assert json.loads(record.read_text())["actions"] == [
        {"seat": 0, "action": "check", "timeout": False},
        {"seat": 0, "action": "check", "timeout": True},
        {"seat": 0, "action": "fold", "timeout": True},
    ]
    assert "settlement confirmed" in run(["uth", "replay", str(record)]).stdout


def _session(terminal: Any, *seed: str) -> tuple[str, str]:
    table = terminal("uth", "--hands", "1", *seed)
    for prompt, answer in (("Ante", ""), ("Trips", ""), ("Pre-flop", "c"), ("Flop", "c")):
        table.child.expect(prompt)
        table.child.sendline(answer)
    table.child.expect("River")
    table.child.sendline("f")
    table.child.expect(r"Seed (\d+): ")
    number = table.child.match.group(1)
    table.end()
    text = table.text(flat=True)
    return text[text.index("Bankroll") : text.index("Seed ")], number


def test_without_a_seed_the_session_prints_the_seed_that_replays_it(terminal: Any) -> None:
    first, seed = _session(terminal)
    _, other = _session(terminal)
    assert seed != other
    replayed, same = _session(terminal, "--seed", seed)
    assert same == seed and replayed == first


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--bankroll", "abc"], "--bankroll 'abc' is not an amount in euros"),
        (["--ante", "5000"], "--ante €5000.00 is above the table maximum €1000.00"),
        (["--trips", "-3"], "--trips '-3' is not an amount in euros"),
        # issue 28: under chip rounding every Ante is whole chips
        (
            ["--rule", "blind_rounding=chip", "--ante", "1.50"],
            "--ante €1.50 is not a multiple of the table's bet unit €1.00",
        ),
    ],
)
def test_play_refuses_bad_options_in_words(option: list[str], message: str) -> None:
    result = run(["uth", "play", *option])
    assert result.returncode == 2
    assert message in re.sub(r"[\s│]+", " ", result.stderr + result.stdout)
    assert "Traceback" not in result.stderr
