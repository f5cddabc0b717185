"""Random-legal self-play: croupier's hold'em engine against PokerKit on the same workload.

Workload per hand: shuffle a 52-card deck with ``random.Random``, six players with 200 chips,
blinds 1/2 No-Limit; each decision picks uniformly among fold (only when facing a bet),
check/call and bet/raise, and a raise total uniformly between the minimum and the maximum;
showdowns are automatic. Prints hands per second (best of several runs) and the ratio.

    .venv/bin/python benchmarks/holdem_selfplay.py [--hands 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time

from croupier.cards import DECK
from croupier.deck import PyRandomSource, Shoe
from croupier.evaluator import evaluate_ids
from croupier.games.holdem import CashHand, HoldemConfig
from croupier.games.holdem.bots import apply, random_decision

PLAYERS = 6
STACK = 200


def croupier_hands(count: int, seed: int) -> float:
    config = HoldemConfig.cash(players=PLAYERS, small_blind=1, big_blind=2)
    rng = random.Random(seed)
    source = PyRandomSource(rng)
    stacks = (STACK,) * PLAYERS
    started = time.perf_counter()
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        hand = CashHand(config, stacks=stacks, shoe=Shoe(deck), auto_showdown=True)
        while (options := hand.options()) is not None:
            apply(hand, options.seat, random_decision(options, source))
    return count / (time.perf_counter() - started)


def pokerkit_hands(count: int, seed: int) -> float:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(count):
        # PokerKit shuffles its own deck (random.shuffle) when it deals
        state = NoLimitTexasHoldem.create_state(
            automations, True, 0, (1, 2), 2, (STACK,) * PLAYERS, PLAYERS
        )
        while state.status:
            moves = []
            if state.checking_or_calling_amount:
                moves.append(0)
            moves.append(1)
            if state.can_complete_bet_or_raise_to():
                moves.append(2)
            move = moves[rng.randrange(len(moves))]
            if move == 0:
                state.fold()
            elif move == 1:
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(low + rng.randrange(high - low + 1))
    return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    evaluate_ids([0, 5, 10, 15, 20])  # build the evaluator tables outside the timing
    ours = max(croupier_hands(args.hands, seed) for seed in range(args.repeat))
    print(f"croupier: {ours:10,.0f} hands/s (best of {args.repeat} x {args.hands} hands)")
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        print("pokerkit is not installed: no comparison")
        return
    count = max(1, args.hands // 10)
    theirs = max(pokerkit_hands(count, seed) for seed in range(args.repeat))
    print(f"pokerkit: {theirs:10,.0f} hands/s (best of {args.repeat} x {count} hands)")
    print(f"ratio:    {ours / theirs:10.1f}x")


if __name__ == "__main__":
    main()
