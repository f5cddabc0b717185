"""What the terminal tables share: the session seed and engine messages told to the player."""

from __future__ import annotations

import pytest
import typer

from croupier.cli.session import Leave, Way, run_session, session_seed, speak

NAMES = ["Bot 1", "You", "Bot 2"]


@pytest.mark.parametrize(
    ("message", "told"),
    [
        (
            "raise to 500 is more than player 2 has (200)",
            "raise to 500 is more than you have (200)",
        ),
        ("player 2 can only call all-in", "You can only call all-in"),
        (
            "player 2 alone contests a side pot and takes it without showing",
            "You alone contest a side pot and take it without showing",
        ),
        ("it is player 3's turn, not player 2's", "it is Bot 2's turn, not yours"),
        (
            "player 1 already acted and the betting was not reopened",
            "Bot 1 already acted and the betting was not reopened",
        ),
        (
            "raise to 1 is below the minimum raise to 4",
            "raise to 1 is below the minimum raise to 4",
        ),
        ("there is no player 9 in a hand of 3", "there is no player 9 in a hand of 3"),
    ],
)
def test_speak_names_the_player_as_you(message: str, told: str) -> None:
    assert speak(message, NAMES, you=1) == told


def test_session_seed_is_the_given_one_or_a_fresh_one() -> None:
    assert session_seed(7) == 7
    drawn = {session_seed(None) for _ in range(8)}
    assert len(drawn) == 8 and all(0 <= seed < 2**64 for seed in drawn)


@pytest.mark.parametrize(
    ("error", "way"),
    [
        (None, Way.DONE),
        (Leave, Way.QUIT),
        (EOFError, Way.END_OF_INPUT),
        (KeyboardInterrupt, Way.INTERRUPTED),
        (RuntimeError, None),
    ],
)
def test_run_session_always_leaves_through_the_summary(
    error: type[BaseException] | None, way: Way | None
) -> None:
    ways: list[Way] = []

    def play() -> None:
        if error is not None:
            raise error

    if error is RuntimeError:  # an unexpected error still prints the summary, then surfaces
        with pytest.raises(RuntimeError):
            run_session(play, ways.append)
        assert ways == [Way.DONE]
    elif error is KeyboardInterrupt:
        with pytest.raises(typer.Exit) as exit_:
            run_session(play, ways.append)
        assert exit_.value.exit_code == 130 and ways == [way]
    else:
        run_session(play, ways.append)
        assert ways == [way]
