"""Random-legal 6-max self-play: croupier's CashHand, pokerfast's FastHand and PokerKit.

The workload, the same for the three engines: six players with 200 chips each, blinds 1/2
No-Limit, a freshly shuffled 52-card deck per hand; each decision picks uniformly among fold
(only when facing a bet), check/call and bet/raise (when the engine allows one), and a raise
total uniformly between the minimum and the maximum; every hand is played to the end (all-in
run-outs, showdowns and payouts included). A hand is counted when it is over, and the time
counted is everything from shuffling the deck to the pots paid.

The engines run interleaved in rounds: each round gives every engine the same wall time
(``--seconds``), in an order that rotates from round to round, so that load from other jobs on
the machine falls on all of them alike. Printed: each round's rates, each engine's median rate
and the median over rounds of croupier's rate divided by each peer's in the same round.

How the workload was checked to be the same (``--check N``, also run by
``tests/holdem/test_benchmark_workload.py``): N hands are dealt from one seeded deck to the
three engines at once (croupier through a ``Shoe`` ordered as it deals, FastHand through
``FastHand.for_cards``, PokerKit through explicit ``deal_hole``/``burn_card``/``deal_board``) and
driven in lockstep by one decision stream: at every decision the three must agree on the
player to act, whether folding is offered, whether raising is offered and the raise bounds
(as street totals), and at the end on every player's final stack. Only
``pokerfast.FastHand`` is imported: ``pokerfast.patches`` monkey-patches PokerKit, the
project's test oracle, and is never touched. FastHand's defaults (blinds 100/200, random stacks)
are overridden: ``small_blind=1, big_blind=2, min_stack=max_stack=200``. Croupier uses
``ReopenRule.POKERKIT``, the rule FastHand and PokerKit play, so that short all-in raises reopen
the betting identically (the casino rule differs only there and costs the same).

    .venv/bin/python benchmarks/holdem_selfplay.py [--rounds 7] [--seconds 2] [--check 0]

It prints which build of croupier's engine ran: compiled with mypyc by ``scripts/install.sh``
when the machine has a C compiler, else pure Python (``scripts/build_native.py --clean`` to
measure that one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from croupier.cards import DECK
from croupier.deck import Shoe
from croupier.evaluator import evaluate_ids
from croupier.games.holdem import CashHand, HoldemConfig, ReopenRule

PLAYERS = 6
STACK = 200
SMALL_BLIND = 1
BIG_BLIND = 2
STACKS = (STACK,) * PLAYERS
CONFIG = HoldemConfig.cash(
    players=PLAYERS, small_blind=SMALL_BLIND, big_blind=BIG_BLIND, reopen=ReopenRule.POKERKIT
)

FOLD, CALL, RAISE = 0, 1, 2


def decide(rng: random.Random, facing: bool, low: int | None, high: int | None) -> tuple[int, int]:
    """The workload's decision rule, shared by the three engines: (move, raise amount).

    Uniform among fold (only when ``facing`` a bet), check/call and bet/raise (when ``low`` is
    not ``None``), then a raise amount uniform in ``low..high``.
    """
    pick = rng.randrange(1 + facing + (low is not None)) + (not facing)
    if pick == RAISE:
        assert low is not None and high is not None
        return RAISE, low + rng.randrange(high - low + 1)
    return pick, 0


# -- one hand per engine, each shuffling its own deck ------------------------------------


def croupier_hand(rng: random.Random) -> None:
    order = list(DECK)
    rng.shuffle(order)
    hand = CashHand(CONFIG, stacks=STACKS, shoe=Shoe(order), auto_showdown=True)
    while (options := hand.options()) is not None:
        seat = options.seat
        move, to = decide(rng, options.to_call > 0, options.min_raise_to, options.max_raise_to)
        if move == FOLD:
            hand.fold(seat)
        elif move == CALL:
            hand.check_or_call(seat)
        else:
            hand.raise_to(seat, to)


def pokerfast_hand(rng: random.Random) -> None:
    from pokerfast import FastHand

    hand = FastHand(
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
        min_stack=STACK,
        max_stack=STACK,
        rng=rng,  # FastHand shuffles its deck with this generator
    )
    while space := hand.get_action_space():
        # FastHand's raise bounds are the chips added on top of the player's bet
        move, chips = decide(rng, "fold" in space, space.get("min_bet"), space.get("max_bet"))
        if move == FOLD:
            hand.fold()
        elif move == CALL:
            if "check" in space:
                hand.check()
            else:
                hand.call()
        else:
            hand.bet_or_raise(chips)


_POKERKIT_AUTOMATIONS = (
    "ANTE_POSTING",
    "BET_COLLECTION",
    "BLIND_OR_STRADDLE_POSTING",
    "CARD_BURNING",
    "HOLE_DEALING",
    "BOARD_DEALING",
    "RUNOUT_COUNT_SELECTION",
    "HOLE_CARDS_SHOWING_OR_MUCKING",
    "HAND_KILLING",
    "CHIPS_PUSHING",
    "CHIPS_PULLING",
)


def _pokerkit_state(*, deal: bool) -> Any:
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    dealing = {"CARD_BURNING", "HOLE_DEALING", "BOARD_DEALING"}
    automations = tuple(
        Automation[name] for name in _POKERKIT_AUTOMATIONS if deal or name not in dealing
    )
    return NoLimitTexasHoldem.create_state(
        automations,
        True,
        0,
        (SMALL_BLIND, BIG_BLIND),
        BIG_BLIND,
        STACKS,
        PLAYERS,
        mode=Mode.CASH_GAME,
    )


def pokerkit_options(state: Any) -> tuple[bool, int | None, int | None]:
    """(facing a bet, min raise total, max raise total) of PokerKit's player to act."""
    facing = state.checking_or_calling_amount > 0
    if not state.can_complete_bet_or_raise_to():
        return facing, None, None
    low = state.min_completion_betting_or_raising_to_amount
    return facing, low, state.max_completion_betting_or_raising_to_amount


def pokerkit_apply(state: Any, move: int, to: int) -> None:
    if move == FOLD:
        state.fold()
    elif move == CALL:
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(to)


def pokerkit_hand(rng: random.Random) -> None:
    # PokerKit shuffles its deck with the random module's global generator (seeded in main)
    state = _pokerkit_state(deal=True)
    while state.status:
        move, to = decide(rng, *pokerkit_options(state))
        pokerkit_apply(state, move, to)


ENGINES: dict[str, Callable[[random.Random], None]] = {
    "croupier": croupier_hand,
    "pokerfast": pokerfast_hand,
    "pokerkit": pokerkit_hand,
}


# -- the lockstep check ---------------------------------------------------------------------


def _fasthand_options(hand: Any) -> tuple[int, bool, int | None, int | None]:
    space = hand.get_action_space()
    seat = space["player"]
    bet = hand.state.bets[seat]
    if "min_bet" not in space:
        return seat, "fold" in space, None, None
    return seat, "fold" in space, bet + space["min_bet"], bet + space["max_bet"]


def _pokerkit_deal(state: Any, burns: list[str], board: list[str]) -> None:
    """Burn and turn the planned cards whenever PokerKit waits for them."""
    while True:
        if state.can_burn_card():
            state.burn_card(burns.pop(0))
        elif state.can_deal_board():
            count = 3 if not state.board_cards else 1
            state.deal_board("".join(board[:count]))
            del board[:count]
        else:
            return


def check_same_workload(hands: int, seed: int) -> int:
    """Play ``hands`` hands in lockstep through the three engines (see the docstring) and
    return the number of decisions compared; raise AssertionError on the first difference."""
    from pokerfast import FastHand

    rng = random.Random(seed)
    decisions = 0
    for number in range(hands):
        ids = list(range(52))
        rng.shuffle(ids)
        names = [str(DECK[i]) for i in ids]
        holes = [(ids[2 * s], ids[2 * s + 1]) for s in range(PLAYERS)]
        burns = [ids[12], ids[16], ids[18]]
        board = [ids[13], ids[14], ids[15], ids[17], ids[19]]
        # croupier deals one card at a time round the table, burning before each street
        order = [h[0] for h in holes] + [h[1] for h in holes]
        order += [burns[0], *board[:3], burns[1], board[3], burns[2], board[4]]
        order += ids[20:]
        ours = CashHand(
            CONFIG, stacks=STACKS, shoe=Shoe(DECK[i] for i in order), auto_showdown=True
        )
        fast = FastHand.for_cards(
            list(STACKS),
            [names[2 * s] + names[2 * s + 1] for s in range(PLAYERS)],
            [str(DECK[i]) for i in board],
            small_blind=SMALL_BLIND,
            big_blind=BIG_BLIND,
        )
        kit = _pokerkit_state(deal=False)
        for s in range(PLAYERS):
            kit.deal_hole(names[2 * s] + names[2 * s + 1], s)
        kit_burns = [str(DECK[i]) for i in burns]
        kit_board = [str(DECK[i]) for i in board]
        while True:
            _pokerkit_deal(kit, kit_burns, kit_board)
            options = ours.options()
            if options is None:
                assert ours.is_over and fast.done and not kit.status, number
                break
            mine = (
                options.seat,
                options.to_call > 0,
                options.min_raise_to,
                options.max_raise_to,
            )
            assert mine == _fasthand_options(fast), (number, mine, _fasthand_options(fast))
            assert mine == (kit.actor_index, *pokerkit_options(kit)), (number, mine)
            move, to = decide(rng, *mine[1:])
            decisions += 1
            if move == FOLD:
                ours.fold(options.seat)
                fast.fold()
            elif move == CALL:
                ours.check_or_call(options.seat)
                fast.call()
            else:
                ours.raise_to(options.seat, to)
                fast.bet_or_raise(to - options.bet)
            pokerkit_apply(kit, move, to)
        expected = ours.stacks
        assert tuple(fast.state.stacks) == expected, (number, fast.state.stacks, expected)
        assert tuple(kit.stacks) == expected, (number, kit.stacks, expected)
    return decisions


# -- the interleaved timing -----------------------------------------------------------------


def timed(play: Callable[[random.Random], None], rng: random.Random, seconds: float) -> float:
    """Hands per second of ``play`` over at least ``seconds`` of wall time."""
    hands = 0
    started = time.perf_counter()
    end = started + seconds
    while True:
        play(rng)
        hands += 1
        now = time.perf_counter()
        if now >= end:
            return hands / (now - started)


def engine_build() -> str:
    """Which build of ``CashHand`` runs (scripts/build_native.py)."""
    try:
        from croupier.games.holdem import _native
    except ImportError:  # a checkout from before the compiled build
        return "pure Python"
    return "compiled (mypyc)" if _native.compiled() else "pure Python"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine and round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", type=int, default=0, help="lockstep-check N hands first")
    args = parser.parse_args()
    evaluate_ids([0, 5, 10, 15, 20])  # build the evaluator tables outside the timing
    print(f"croupier's engine: {engine_build()}")
    if args.check:
        decisions = check_same_workload(args.check, args.seed)
        print(f"lockstep check: {args.check} hands, {decisions} decisions, all identical")
    random.seed(args.seed)  # PokerKit's deck
    rngs = {name: random.Random(args.seed) for name in ENGINES}
    for name, play in ENGINES.items():
        timed(play, rngs[name], 0.2)  # warm up
    names = list(ENGINES)
    rates: dict[str, list[float]] = {name: [] for name in names}
    print(f"{'round':>5} " + " ".join(f"{name:>10}" for name in names) + "   (hands/s)")
    for number in range(args.rounds):
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            rates[name].append(timed(ENGINES[name], rngs[name], args.seconds))
        print(f"{number + 1:>5} " + " ".join(f"{rates[n][-1]:>10,.0f}" for n in names))
    print(f"{'median':>5} " + " ".join(f"{statistics.median(rates[n]):>10,.0f}" for n in names))
    ours = rates["croupier"]
    for peer in names[1:]:
        ratios = [a / b for a, b in zip(ours, rates[peer], strict=True)]
        print(
            f"croupier / {peer}: median {statistics.median(ratios):.2f}x"
            f" (rounds {min(ratios):.2f}x - {max(ratios):.2f}x)"
        )


if __name__ == "__main__":
    main()
