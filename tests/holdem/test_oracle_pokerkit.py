"""Random-legal self-play hands replayed through PokerKit give the same finishing stacks."""

from __future__ import annotations

import dataclasses
import random
import warnings
from typing import Any, ClassVar

import pytest

from croupier.cards import DECK
from croupier.deck import PyRandomSource, Shoe
from croupier.games.holdem import BettingStructure, CashHand, HoldemConfig
from croupier.games.holdem.bots import apply, random_decision
from croupier.history import holdem_phh as phh

pokerkit = pytest.importorskip("pokerkit")


def _pokerkit_history_type() -> Any:
    from pokerkit import games, notation

    class PotLimitTexasHoldem(
        games.PotLimitPokerMixin, games.TexasHoldemMixin, games.UnfixedLimitHoldem
    ):
        """Pot-limit hold'em, which PokerKit lacks but builds from its mixins."""

    class History(notation.HandHistory):
        game_types: ClassVar[dict[str, Any]] = {
            **notation.HandHistory.game_types,
            "PT": PotLimitTexasHoldem,
        }
        variants: ClassVar[dict[Any, str]] = {
            **notation.HandHistory.variants,
            PotLimitTexasHoldem: "PT",
        }
        required_field_names: ClassVar[dict[str, Any]] = {
            **notation.HandHistory.required_field_names,
            "PT": notation.HandHistory.required_field_names["NT"],
        }

    return History


def random_config(rng: random.Random) -> tuple[HoldemConfig, list[int]]:
    players = rng.randint(2, 10)
    structure = rng.choice(list(BettingStructure))
    big = rng.choice([2, 10, 100])
    ante_kind = rng.choice(["none", "none", "each", "bb"])
    ante = rng.choice([1, big // 2, big]) if ante_kind != "none" else 0
    straddle = 2 * big if players >= 3 and rng.random() < 0.2 else 0
    config = HoldemConfig.cash(
        players=players,
        small_blind=big // 2,
        big_blind=big,
        ante=ante,
        big_blind_ante=ante_kind == "bb",
        straddle=straddle,
        structure=structure,
    )
    if ante and rng.random() < 0.3:
        config = dataclasses.replace(config, ante_trimming=True)
    stacks = [
        rng.choice([rng.randint(1, 3 * big), rng.randint(big, 200 * big)]) for _ in range(players)
    ]
    return config, stacks


def play_random(seed: int) -> CashHand:
    rng = random.Random(seed)
    config, stacks = random_config(rng)
    deck = list(DECK)
    rng.shuffle(deck)
    hand = CashHand(config, stacks=stacks, shoe=Shoe(deck), auto_showdown=True)
    source = PyRandomSource(rng)
    while (options := hand.options()) is not None:
        apply(hand, options.seat, random_decision(options, source))
    assert hand.is_over
    return hand


def pokerkit_stacks(text: str) -> tuple[int, ...] | None:
    """PokerKit's finishing stacks, or ``None`` when it burns chips that no live player
    matched (a folded player's trimmed ante; croupier returns them)."""
    history = _pokerkit_history_type().loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            states = list(history)
        except UserWarning as warning:
            assert "burned" in str(warning)
            return None
    return tuple(states[-1].stacks)


def check_seeds(seeds: range) -> None:
    burned = 0
    for seed in seeds:
        hand = play_random(seed)
        text = phh.dumps(phh.from_hand(hand))
        expected = pokerkit_stacks(text)
        if expected is None:
            burned += 1
            assert hand.config.ante_trimming
            continue
        assert expected == hand.stacks, (seed, text)
    assert burned <= len(seeds) // 50


@pytest.mark.parametrize("block", range(4))
def test_random_hands_match_pokerkit(block: int) -> None:
    check_seeds(range(block * 150, (block + 1) * 150))


@pytest.mark.slow
def test_many_random_hands_match_pokerkit() -> None:
    check_seeds(range(10_000, 20_000))
