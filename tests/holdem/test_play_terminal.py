"""`croupier holdem play` driven as a person would, through a real pseudo-terminal."""

from __future__ import annotations

import io
import re
import sys

import pexpect

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
