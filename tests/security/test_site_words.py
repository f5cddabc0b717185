"""The password checker's site words include every game's (issue 31): taken from the game
packages (each one's name and the words of its title), not from a list naming games, so a
game added is a word the estimator knows."""

from __future__ import annotations

import pkgutil

import pytest
from zxcvbn import zxcvbn

import croupier.games
from croupier.server.accounts.passwords import MIN_SCORE, SITE_WORDS, check_strength, game_words
from croupier.server.errors import InvalidRequestError


def test_every_game_package_gives_its_name_and_title_words() -> None:
    packages = {m.name for m in pkgutil.iter_modules(croupier.games.__path__) if m.ispkg}
    words = set(game_words())
    assert packages <= words
    # the titles' words: Ultimate Texas Hold'em, Russian Poker, Caribbean Stud Poker
    assert {"ultimate", "texas", "holdem", "stud"} <= words
    assert not words & set(SITE_WORDS)


def test_a_password_of_a_game_title_is_refused_though_it_passes_without_the_words() -> None:
    password = "Caribbean2025!"
    assert zxcvbn(password, user_inputs=list(SITE_WORDS))["score"] >= MIN_SCORE
    with pytest.raises(InvalidRequestError, match="too easy to guess"):
        check_strength(password)
