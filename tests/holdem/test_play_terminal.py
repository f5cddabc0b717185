"""`croupier holdem play` driven as a person would, through a real pseudo-terminal
(the ``terminal`` fixture, tests/conftest.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

PROMPT = r"Your move: [^\r\n]*\(q\)uit\? "
SHOW_OR_MUCK = r"Show or muck\? \(s/m\) "
SUMMARY = r"You finish with (\d+) \(([+-]\d+)\)\."
SEED = r"Seed (\d+): `croupier holdem play --seed \d+`"


def _label(word: str) -> str:
    """A bold label as it reaches the terminal: the colour codes sit before the colon."""
    return word + r"(?:\x1b\[[0-9;]*m)*: "


def test_two_hands_against_bots_with_fold_call_raise_and_refused_input(terminal: Any) -> None:
    table = terminal("holdem", "--players", "3", "--hands", "2", "--seed", "4")
    child = table.child
    child.expect("Hand 1")
    child.expect(PROMPT)
    child.sendline("zz")  # not a move: refused with a message, then asked again
    child.expect("unknown move 'zz'")
    child.expect(PROMPT)
    child.sendline("r 1")  # below the minimum raise: refused, the hand is unchanged
    child.expect(r"raise to 1 is below the minimum raise to (\d+)")
    minimum = child.match.group(1)
    child.expect(PROMPT)
    child.sendline(f"r {minimum}")
    child.expect(f"You bet/raise to {minimum}")
    # check or call, and show at a showdown, to the end of the hand
    while (asked := child.expect([PROMPT, SHOW_OR_MUCK, "Hand 2"])) != 2:
        child.sendline("c" if asked == 0 else "s")
    child.expect(PROMPT)
    child.sendline("f")
    child.expect("You fold")
    child.expect(SUMMARY)
    final, net = int(child.match.group(1)), int(child.match.group(2))
    table.end()

    hand_one, hand_two = table.text().split("Hand 2")
    assert final - 200 == net
    # the refused inputs were asked again with the same choices, and changed nothing
    prompts = re.findall(PROMPT, hand_one)
    assert len(prompts) >= 4 and prompts[0] == prompts[1] == prompts[2]
    assert re.search(r"You call \d+", hand_one)
    assert re.search(r"main pot: \S", hand_one)  # the first hand was played to its end
    assert "You fold" in hand_two and "main pot" in hand_two
    # without a showdown the bots' hole cards stay hidden: only "your cards" are shown
    assert "your cards" in hand_two and "shows" not in hand_two


def test_quit_and_end_of_input_end_the_session_cleanly(terminal: Any) -> None:
    table = terminal("holdem", "--players", "4", "--seed", "11")
    table.child.expect(PROMPT)
    table.child.sendline("q")
    table.child.expect("Goodbye")
    table.end()

    table = terminal("holdem", "--players", "2", "--seed", "3")
    table.child.expect(PROMPT)
    table.child.sendeof()  # Ctrl-D at the prompt
    table.child.expect("Goodbye")
    table.end()


def test_an_all_in_on_the_flop_runs_the_board_out_before_any_show_or_muck(terminal: Any) -> None:
    # seed 1, three players: you call pre-flop, move all-in on the flop, Bot 2 calls all-in
    table = terminal("holdem", "--players", "3", "--hands", "1", "--seed", "1")
    child = table.child
    child.expect(PROMPT)
    child.sendline("c")
    child.expect(_label("flop"))
    child.expect(PROMPT)
    child.sendline("r max")
    child.expect(r"Bot 2 calls \d+ \(all-in\)")
    # the board is completed before anyone is asked to show or muck, and nobody is asked:
    # every hand is face up once the betting is over with a player all-in
    asked = child.expect([SHOW_OR_MUCK, _label("river")], timeout=20)
    assert asked == 1, "asked to show or muck before the river was dealt"
    child.expect(_label("main pot"))
    child.expect(SUMMARY)
    table.end()
    after = table.text().split("(all-in)", 1)[1]
    assert "Show or muck" not in after
    assert after.index("You show") < after.index("turn: ") < after.index("river: ")
    # the pot names both hands in full, kickers included, and what decided
    assert re.search(
        r"main pot: You \d+ with Pair of Jacks, King-Nine-Six kicker, beating Bot 2's "
        r"Pair of Sixes, Jack-Nine-Seven kicker: Jacks beat Sixes",
        table.text(flat=True),  # the line may wrap at the terminal's width
    ), table.text()[-800:]


def test_enter_never_calls_an_all_in(terminal: Any) -> None:
    # seed 100, stacks of 20: Bot 2 moves all-in pre-flop and you face it
    table = terminal("holdem", "--players", "3", "--hands", "1", "--seed", "100", "--stack", "20")
    child = table.child
    child.expect(PROMPT)
    assert "Bot 2 bets/raises to 20 (all-in)" in table.text()
    child.sendline("")  # Enter: no chips go in, the question is asked again
    seen = child.expect(["Enter does not put chips in", "You call"], timeout=20)
    assert seen == 0, "Enter called the all-in"
    child.expect(PROMPT)
    child.sendline("f")
    child.expect("You fold")
    child.expect(SUMMARY)
    final, net = int(child.match.group(1)), int(child.match.group(2))
    table.end()
    assert "You call" not in table.text()
    assert final == 19 and net == -1  # only the small blind was lost


@pytest.mark.parametrize(
    ("move", "told", "not_told"),
    [
        ("r abc", "'abc' is not an amount: type r and a whole number", "invalid literal"),
        ("r 500", r"raise to 500 is more than you have: 200 in all", "player 1 has"),
    ],
)
def test_a_raise_the_player_cannot_make_is_refused_in_words(
    terminal: Any, move: str, told: str, not_told: str
) -> None:
    table = terminal("holdem", "--players", "3", "--hands", "1", "--seed", "4")
    child = table.child
    child.expect(PROMPT)
    child.sendline(move)
    seen = child.expect([told, re.escape(not_told)], timeout=20)
    assert seen == 0, table.text()[-300:]
    child.expect(PROMPT)  # asked again: nothing changed
    child.sendline("q")
    child.expect(SUMMARY)
    table.end()
    assert not_told not in table.text()


@pytest.mark.parametrize(("leave", "status"), [("q", 0), ("eof", 0), ("ctrl-c", 130)])
def test_every_way_out_ends_with_the_session_summary(
    terminal: Any, leave: str, status: int
) -> None:
    table = terminal("holdem", "--players", "3", "--seed", "1")
    child = table.child
    child.expect(PROMPT)
    child.sendline("c")  # call 60 pre-flop, then leave on the flop
    child.expect(_label("flop"))
    child.expect(PROMPT)
    table.leave(leave)
    child.expect("your hand is folded")
    child.expect(SUMMARY)
    final, net = int(child.match.group(1)), int(child.match.group(2))
    child.expect(SEED)
    table.end(status)
    assert (final, net) == (139, -61)  # the 61 put in stay in the pot


def _session(terminal: Any, *seed: str) -> tuple[str, int]:
    table = terminal("holdem", "--players", "2", "--hands", "2", *seed)
    child = table.child
    while child.expect([PROMPT, SHOW_OR_MUCK, SEED]) != 2:
        child.sendline("f" if "Your move" in child.after else "s")
    number = int(child.match.group(1))
    table.end()
    text = table.text()
    return text[text.index("Hand 1") : text.index("Seed ")], number


def test_without_a_seed_each_session_draws_one_and_prints_it_to_replay(terminal: Any) -> None:
    first, seed = _session(terminal)
    _, other = _session(terminal)
    assert seed != other  # a fresh seed from the OS each session
    replayed, same = _session(terminal, "--seed", str(seed))
    assert same == seed and replayed == first
