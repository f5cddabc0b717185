"""`croupier russian play` driven as a person would, through a real pseudo-terminal
(the ``terminal`` fixture, tests/conftest.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

FIRST = r"\(b\)et, \(f\)old, \(e\)xchange or \(s\)ixth card\? "
BANKROLL, ANTE, BONUS = 1_000, 10, 5
SUMMARY = r"You leave with (-?\d+) chips \(([+-]\d+)\)\."


def test_one_round_at_the_terminal_adds_up(terminal: Any) -> None:
    table = terminal(
        "russian",
        *("--seed", "3", "--boxes", "2", "--ante", str(ANTE), "--bonus", str(BONUS)),
        *("--bankroll", str(BANKROLL)),
    )
    child = table.child
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
    child.expect(SUMMARY)
    final, change = int(child.match.group(1)), int(child.match.group(2))
    table.end()

    text = table.text()
    flat = table.text(flat=True)  # lines may wrap at the terminal's width
    assert len(re.findall(FIRST, text)) == 2  # the refused answer changed nothing
    # the exchange kept the first, fourth and fifth cards and charged 1x Ante
    hand = re.search(r"Your hand: (\S+) (\S+) (\S+) (\S+) (\S+) ", flat)
    now = re.search(r"Now: (\S+) (\S+) (\S+) (\S+) (\S+) .* fee (\d+)", flat)
    assert hand and now
    assert now.group(1, 2, 3) == hand.group(1, 4, 5) and int(now.group(6)) == ANTE
    # every box is named in full with what its combinations pay on the Bet
    boxes = re.findall(r"Box (\d) (open|blind): (?:\S+ ){5}\(([^;]+); ([^)]+)\)", flat)
    assert [b[:2] for b in boxes] == [("1", "open"), ("2", "blind")]
    for _, _, name, pays in boxes:
        assert re.fullmatch(
            r"(Pair of|Two pair|Three of a kind|Straight|Flush|Full house|"
            r"Four of a kind|Royal)[^;]*|[A-Z][a-z]+(-[A-Z][a-z]+){4} high",
            name,
        )
        assert "kicker" in name or "high" in name or "full of" in name
        assert re.fullmatch(r"Bet pays .+ \d+:1|no combination", pays)
    # the settlement: one row per bet with its stake, result and pay line; a net per box
    rows = [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in text.splitlines()
        if line.startswith("│")
    ]
    by_box: dict[str, list[list[str]]] = {}
    box = ""
    for row in rows:
        box = row[0] or box
        by_box.setdefault(box, []).append(row[1:])
    assert list(by_box) == ["1 open", "2 blind"]
    nets = []
    for label, bets in by_box.items():
        *lines, (net_name, _, net, _) = bets
        assert net_name == "net"
        results = {name: int(result) for name, _, result, _ in lines}
        assert all(pay_line for *_, pay_line in lines), lines  # every bet says why
        assert sum(results.values()) == int(net)
        nets.append(int(net))
        if label == "1 open":
            assert results["Draw fee"] == -ANTE and results["Bonus"] != 0
            assert results.get("Buy fee", 0) == (-ANTE if bought else 0)
            assert {"Ante", "Bet"} <= set(results)
        else:  # a blind box takes no decisions and here has no Bonus
            assert set(results) == {"Ante", "Bet"}
    shown = int(re.findall(r"Chips: (\d+)", text)[-1])
    assert shown == BANKROLL + sum(nets) == final
    assert change == final - BANKROLL


def _summary(table: Any, status: int = 0) -> tuple[int, int]:
    table.child.expect(SUMMARY)
    final, change = int(table.child.match.group(1)), int(table.child.match.group(2))
    table.child.expect(r"Seed \d+: `croupier russian play --seed \d+`")
    table.end(status)
    return final, change


def test_a_round_starts_only_when_the_chips_cover_the_buy_fee_too(terminal: Any) -> None:
    # seed 12: a sixth card, a Bet, then the bought game beats you: Ante, Bet, two fees = 50.
    # With 40 chips that round would leave -10: it is refused before the deal.
    table = terminal("russian", "--seed", "12", "--bankroll", "40", "--ante", "10")
    seen = table.child.expect(["40 chips are not enough for another round: 50 needed", FIRST])
    assert seen == 0, "a round was dealt that could cost more than the chips"
    assert _summary(table) == (40, 0)
    # with 50 the worst case leaves exactly nothing
    table = terminal("russian", "--seed", "12", "--bankroll", "50", "--ante", "10")
    child = table.child
    child.expect(FIRST)
    child.sendline("s")
    child.expect(r"\(b\)et or \(f\)old\? ")
    child.sendline("b")
    child.expect(r"Buy the dealer's game for 10")
    child.sendline("y")
    child.expect(r"Another round\? \(Y/n\) ")
    child.sendline("y")
    child.expect("0 chips are not enough for another round: 50 needed")
    assert _summary(table) == (0, -50)


def test_insurance_is_bounded_by_the_chips_left_free(terminal: Any) -> None:
    # seed 1695 deals three Sevens; the dealer's straight qualifies and wins. The rules allow
    # insurance up to 60 (the Bet 20 x 3), but with 60 chips only 30 are free after the
    # Ante and the Bet: insuring 60 would end at -30.
    table = terminal("russian", "--seed", "1695", "--bankroll", "60", "--ante", "10")
    child = table.child
    child.expect(FIRST)
    child.sendline("b")
    child.expect(r"Insurance (\d+)\.\.(\d+) \(Enter for none\): ")
    assert (int(child.match.group(1)), int(child.match.group(2))) == (10, 30)
    child.sendline("60")  # refused: asked again
    child.expect("enter a whole amount from 10 to 30, or 0")
    child.expect(r"Insurance 10\.\.30 \(Enter for none\): ")
    child.sendline("30")
    child.expect(r"Another round\? \(Y/n\) ")
    child.sendline("n")
    assert _summary(table) == (0, -60)
    text = table.text(flat=True)
    assert "from 10 to 60 by the rules, at most 30 with the 30 chips you have free" in text


@pytest.mark.parametrize(("leave", "status"), [("q", 0), ("eof", 0), ("ctrl-c", 130)])
def test_every_way_out_folds_the_round_in_play_and_prints_the_summary(
    terminal: Any, leave: str, status: int
) -> None:
    table = terminal("russian", "--seed", "12", "--ante", "10")
    child = table.child
    child.expect(FIRST)
    table.leave(leave)
    child.expect("your open box is folded")
    child.expect("Settlement")
    # leaving never escapes the Ante: the open box is folded as on a live table's timeout
    assert _summary(table, status) == (990, -10)


def _session(terminal: Any, *seed: str) -> tuple[str, str]:
    table = terminal("russian", "--ante", "10", *seed)
    child = table.child
    child.expect(FIRST)
    child.sendline("b")
    asked = [r"Insurance \d+\.\.\d+ \(Enter for none\): ", r"Buy the dealer's game", "Another"]
    while child.expect(asked) != 2:
        child.sendline("")
    child.sendline("n")
    child.expect(r"Seed (\d+): ")
    number = child.match.group(1)
    table.end()
    text = table.text()
    return text[text.index("Your hand") : text.index("Session")], number


def test_without_a_seed_the_session_prints_the_seed_that_replays_it(terminal: Any) -> None:
    first, seed = _session(terminal)
    _, other = _session(terminal)
    assert seed != other
    replayed, same = _session(terminal, "--seed", seed)
    assert same == seed and replayed == first
