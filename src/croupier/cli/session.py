"""What the three terminal tables share: a session seed that can replay the session, and a
way out that always ends with the session summary.

A table leaves on ``q``, at the end of input (Ctrl-D) and on Ctrl-C; each way first finishes
the round in play with the choices that commit no more chips, then prints the summary.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from enum import StrEnum

import typer

__all__ = ["Leave", "Way", "replay_line", "run_session", "session_seed", "speak"]


class Leave(Exception):
    """The player asked to leave the table (``q``)."""


class Way(StrEnum):
    """How a session ended."""

    DONE = "done"
    """The table stopped by itself: the hands asked for were played, or the chips ran out."""
    QUIT = "quit"
    END_OF_INPUT = "end of input"
    INTERRUPTED = "interrupted"


def session_seed(seed: int | None) -> int:
    """``seed``, or a fresh 64-bit seed from the OS CSPRNG when none was given.

    Everything random in a session (the shuffles, the bots) comes from this one seed, so the
    seed printed at the end replays the session; it is printed only at the end so that a
    player cannot compute the cards still to come.
    """
    return seed if seed is not None else secrets.randbits(64)


def replay_line(command: str, seed: int) -> str:
    """The summary line that tells how to replay a session."""
    return (
        f"Seed {seed}: `croupier {command} --seed {seed}` with the same options and answers "
        "replays this session."
    )


def run_session(play: Callable[[], None], leave: Callable[[Way], None]) -> None:
    """Run ``play``; whichever way it ends, call ``leave`` with the way (it finishes the
    round in play and prints the summary).

    Raises:
        typer.Exit: code 130 after Ctrl-C (the summary printed first), as shells expect.
    """
    way = Way.DONE
    try:
        play()
    except Leave:
        way = Way.QUIT
    except EOFError:
        way = Way.END_OF_INPUT
    except KeyboardInterrupt:
        way = Way.INTERRUPTED
    finally:
        leave(way)
    if way is Way.INTERRUPTED:
        raise typer.Exit(130)


_PLAYER = re.compile(r"\b[Pp]layer (\d+)('s)?")
_AGREEMENT = (
    (r"\byou has\b", "you have"),
    (r"\byou is\b", "you are"),
    (r"\byou (alone )?contests (.*) and takes\b", r"you \1contest \2 and take"),
    (r"\byou's\b", "your"),
)


def speak(message: str, names: Sequence[str], *, you: int) -> str:
    """An engine message told to the person at the table: ``player N`` (position N-1) becomes
    the player's name, and the person's own position becomes "you".

    >>> speak("raise to 500 is more than player 1 has (200)", ["You", "Bot 1"], you=0)
    'raise to 500 is more than you have (200)'
    >>> speak("it is player 2's turn, not player 1's", ["You", "Bot 1"], you=0)
    "it is Bot 1's turn, not yours"
    """

    def name(match: re.Match[str]) -> str:
        position = int(match.group(1)) - 1
        possessive = match.group(2) or ""
        if position == you:
            return "yours" if possessive and match.end() == len(message) else "you" + possessive
        if 0 <= position < len(names):
            return names[position] + possessive
        return match.group(0)

    text = _PLAYER.sub(name, message)
    for wrong, right in _AGREEMENT:
        text = re.sub(wrong, right, text)
    return text[:1].upper() + text[1:] if text.startswith("you") else text
