"""`croupier russian play` driven as a person would, through a real pseudo-terminal."""

from __future__ import annotations

import io
import re
import sys

import pexpect

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""rich colours the cards and messages; the test reads the text between the codes."""
FIRST = r"\(b\)et, \(f\)old, \(e\)xchange or \(s\)ixth card\? "
BANKROLL, ANTE, BONUS = 1_000, 10, 5
COLUMNS = ("ante", "bet", "fee", "insurance", "bonus", "buy")


def test_one_round_at_the_terminal_adds_up() -> None:
    child = pexpect.spawn(
        sys.executable,
        [
            *("-m", "croupier.cli.__main__", "russian", "play"),
            *("--seed", "3", "--boxes", "2", "--ante", str(ANTE), "--bonus", str(BONUS)),
            *("--bankroll", str(BANKROLL)),
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 160),
    )
    transcript = io.StringIO()
    child.logfile_read = transcript
    child.expect(FIRST)
    child.sendline("x")  # not an answer: refused, asked again
    child.expect("answer one of: b \\(bet\\), f \\(fold\\), e \\(exchange\\), s \\(sixth\\)")
    child.expect(FIRST)
    child.sendline("e")
    child.expect("Cards to exchange")
    child.sendline("2 3")
    child.expect(r"\(b\)et or \(f\)old\? ")
    child.sendline("b")
    bought = False
    while True:
        asked = child.expect(
            [r"Insurance \d+\.\.\d+ \(Enter for none\): ", r"Buy the dealer's game", "Settlement"]
        )
        if asked == 0:
            child.sendline("")
        elif asked == 1:
            child.sendline("y")
            bought = True
        else:
            break
    child.expect(r"Another round\? \(Y/n\) ")
    child.sendline("n")
    child.expect(r"You leave with (\d+) chips \(([+-]\d+)\)\.")
    final, change = int(child.match.group(1)), int(child.match.group(2))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and child.signalstatus is None

    text = ANSI.sub("", transcript.getvalue())
    assert len(re.findall(FIRST, text)) == 2  # the refused answer changed nothing
    # the exchange kept the first, fourth and fifth cards and charged 1x Ante
    hand = re.search(r"Your hand: (\S+) (\S+) (\S+) (\S+) (\S+) ", text)
    now = re.search(r"Now: (\S+) (\S+) (\S+) (\S+) (\S+) .* fee (\d+)", text)
    assert hand and now
    assert now.group(1, 2, 3) == hand.group(1, 4, 5) and int(now.group(6)) == ANTE
    # the settlement table: one row per box, each net the sum of its bets' results
    rows = [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in text.splitlines()
        if re.match(r"│ \d (open|blind)", line)
    ]
    assert [r[0] for r in rows] == ["1 open", "2 blind"]
    nets = []
    for row in rows:
        bets = dict(zip(COLUMNS, map(int, row[2:8]), strict=True))
        net = int(row[8])
        assert sum(bets.values()) == net, row
        nets.append(net)
        if row[0] == "1 open":
            assert bets["fee"] == -ANTE and bets["bonus"] != 0
            assert bets["buy"] == (-ANTE if bought else 0)
        else:  # a blind box takes no decisions and here has no Bonus
            assert bets["fee"] == bets["buy"] == bets["insurance"] == bets["bonus"] == 0
    shown = int(re.findall(r"Chips: (\d+)", text)[-1])
    assert shown == BANKROLL + sum(nets) == final
    assert change == final - BANKROLL
