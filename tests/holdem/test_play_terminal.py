"""`croupier holdem play` driven as a person would, through a real pseudo-terminal."""

from __future__ import annotations

import io
import re
import sys

import pexpect
import pytest

PROMPT = r"Your move: [^\r\n]*\(q\)uit\? "
SHOW_OR_MUCK = r"Show or muck\? \(s/m\) "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""rich colours the cards and messages; the tests read the text between the codes."""


def _spawn(*args: str) -> tuple[pexpect.spawn, io.StringIO]:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "croupier.cli.__main__", "holdem", "play", *args],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 160),
    )
    transcript = io.StringIO()
    child.logfile_read = transcript
    return child, transcript


def _ended(child: pexpect.spawn) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and child.signalstatus is None


def test_two_hands_against_bots_with_fold_call_raise_and_refused_input() -> None:
    child, transcript = _spawn("--players", "3", "--hands", "2", "--seed", "4")
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
    child.expect(r"You finish with (\d+) \(([+-]\d+)\)")
    final, net = int(child.match.group(1)), int(child.match.group(2))
    _ended(child)

    text = ANSI.sub("", transcript.getvalue())
    hand_one, hand_two = text.split("Hand 2")
    assert final - 200 == net
    # the refused inputs were asked again with the same choices, and changed nothing
    prompts = re.findall(PROMPT, hand_one)
    assert len(prompts) >= 4 and prompts[0] == prompts[1] == prompts[2]
    assert re.search(r"You call \d+", hand_one)
    assert re.search(r"main pot: \S", hand_one)  # the first hand was played to its end
    assert "You fold" in hand_two and "main pot" in hand_two
    # without a showdown the bots' hole cards stay hidden: only "your cards" are shown
    assert "your cards" in hand_two and "shows" not in hand_two


def test_quit_and_end_of_input_end_the_session_cleanly() -> None:
    child, _ = _spawn("--players", "4", "--seed", "11")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Goodbye")
    _ended(child)

    child, _ = _spawn("--players", "2", "--seed", "3")
    child.expect(PROMPT)
    child.sendeof()  # Ctrl-D at the prompt
    child.expect("Goodbye")
    _ended(child)


def _label(word: str) -> str:
    """A bold label as it reaches the terminal: the colour codes sit before the colon."""
    return word + r"(?:\x1b\[[0-9;]*m)*: "


SUMMARY = r"You finish with (\d+) \(([+-]\d+)\)\."
SEED = r"Seed (\d+): `croupier holdem play --seed \d+`"


def test_an_all_in_on_the_flop_runs_the_board_out_before_any_show_or_muck() -> None:
    # seed 1, three players: you call pre-flop, move all-in on the flop, Bot 2 calls all-in
    child, transcript = _spawn("--players", "3", "--hands", "1", "--seed", "1")
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
    _ended(child)
    text = ANSI.sub("", transcript.getvalue())
    after = text.split("(all-in)", 1)[1]
    assert "Show or muck" not in after
    assert after.index("You show") < after.index("turn: ") < after.index("river: ")
    # the pot names both hands in full, kickers included, and what decided
    flat = re.sub(r"\s+", " ", text)  # the line may wrap at the terminal's width
    assert re.search(
        r"main pot: You \d+ with Pair of Jacks, King-Nine-Six kicker, beating Bot 2's "
        r"Pair of Sixes, Jack-Nine-Seven kicker: Jacks beat Sixes",
        flat,
    ), flat[-800:]


def test_enter_never_calls_an_all_in() -> None:
    # seed 100, stacks of 20: Bot 2 moves all-in pre-flop and you face it
    child, transcript = _spawn("--players", "3", "--hands", "1", "--seed", "100", "--stack", "20")
    child.expect(PROMPT)
    assert "Bot 2 bets/raises to 20 (all-in)" in ANSI.sub("", transcript.getvalue())
    child.sendline("")  # Enter: no chips go in, the question is asked again
    seen = child.expect(["Enter does not put chips in", "You call"], timeout=20)
    assert seen == 0, "Enter called the all-in"
    child.expect(PROMPT)
    child.sendline("f")
    child.expect("You fold")
    child.expect(SUMMARY)
    final, net = int(child.match.group(1)), int(child.match.group(2))
    _ended(child)
    assert "You call" not in ANSI.sub("", transcript.getvalue())
    assert final == 19 and net == -1  # only the small blind was lost


@pytest.mark.parametrize(
    ("move", "told", "not_told"),
    [
        ("r abc", "'abc' is not an amount: type r and a whole number", "invalid literal"),
        ("r 500", r"raise to 500 is more than you have: 200 in all", "player 1 has"),
    ],
)
def test_a_raise_the_player_cannot_make_is_refused_in_words(
    move: str, told: str, not_told: str
) -> None:
    child, transcript = _spawn("--players", "3", "--hands", "1", "--seed", "4")
    child.expect(PROMPT)
    child.sendline(move)
    seen = child.expect([told, re.escape(not_told)], timeout=20)
    assert seen == 0, ANSI.sub("", transcript.getvalue())[-300:]
    child.expect(PROMPT)  # asked again: nothing changed
    child.sendline("q")
    child.expect(SUMMARY)
    _ended(child)
    assert not_told not in ANSI.sub("", transcript.getvalue())


def test_every_way_out_ends_with_the_session_summary() -> None:
    for leave, status in (("q", 0), ("eof", 0), ("ctrl-c", 130)):
        child, transcript = _spawn("--players", "3", "--seed", "1")
        child.expect(PROMPT)
        child.sendline("c")  # call 60 pre-flop, then leave on the flop
        child.expect(_label("flop"))
        child.expect(PROMPT)
        if leave == "q":
            child.sendline("q")
        elif leave == "eof":
            child.sendeof()
        else:
            child.sendintr()
        child.expect("your hand is folded")
        child.expect(SUMMARY)
        final, net = int(child.match.group(1)), int(child.match.group(2))
        child.expect(SEED)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == status, leave
        assert (final, net) == (139, -61), leave  # the 61 put in stay in the pot
        assert "Traceback" not in transcript.getvalue()


def _session_without_seed(*seed: str) -> tuple[str, int]:
    child, transcript = _spawn("--players", "2", "--hands", "2", *seed)
    while child.expect([PROMPT, SHOW_OR_MUCK, SEED]) != 2:
        child.sendline("f" if "Your move" in child.after else "s")
    number = int(child.match.group(1))
    _ended(child)
    text = ANSI.sub("", transcript.getvalue())
    return text[text.index("Hand 1") : text.index("Seed ")], number


def test_without_a_seed_each_session_draws_one_and_prints_it_to_replay() -> None:
    first, seed = _session_without_seed()
    _, other = _session_without_seed()
    assert seed != other  # a fresh seed from the OS each session
    replayed, same = _session_without_seed("--seed", str(seed))
    assert same == seed and replayed == first
