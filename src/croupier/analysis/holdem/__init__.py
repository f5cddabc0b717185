"""Batch self-play of Texas Hold'em for research: millions of hands with a compiled policy.

:func:`selfplay` plays ``n`` independent hands, each from the same (or a given) set of stacks
and a freshly shuffled deck, with one compiled policy deciding for every seat, and returns each
seat's result per hand as NumPy arrays. The hands follow the rules of
:class:`croupier.games.holdem.CashHand` exactly (the tests replay recorded hands through it,
decision by decision), in compiled code:

- supported: No-Limit, Pot-Limit and Fixed-Limit (with its raise cap); 2 to 10 players; antes
  (each player's or the big blind's), blinds and straddles; short stacks posting all-in for
  less; both reopen rules (``casino`` and ``pokerkit``); side pots by contribution level,
  uncalled bets returned; rake (percent, cap, no flop no drop); the ``live`` split with the
  odd chip to the first tied winner left of the button (``OddChip.POSITION``) or by suit
  (``OddChip.SUIT``);
- at showdown every player still in shows (``CashHand(auto_showdown=True)``): cards speak, so
  a policy has no muck decision and the showdown rule (``ShowdownRule``) changes nothing;
- refused with a :class:`~croupier.errors.ConfigError`: the ``exact`` split (amounts in
  1/2520 of a chip, for PHH replays) and ``ante_trimming`` (a PHH replay setting).

Seats are positions in PHH order, as in the engine: 0 is the small blind, the last seat the
button (heads-up: 0 is the big blind). The button does not move: hand ``h`` of the result is
position-for-position comparable with every other hand.

A policy is a numba ``njit`` function ``policy(obs, cards) -> int`` (see
:mod:`croupier.analysis.holdem.policies`): ``obs`` is an int64 vector with the ``O_*`` fields
below, what the player to act may see; ``cards`` holds their two hole cards and the five board
cards (-1 until dealt). It returns ``FOLD``, ``CHECK_CALL`` or a bet or raise total in
``obs[O_MIN_RAISE]..obs[O_MAX_RAISE]`` (both -1 when raising is not allowed).

>>> result = selfplay(1000, 6, random_legal, seed=1)
>>> result.net.shape, int(result.net.sum())
((1000, 6), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.holdem import _kernel as k
from croupier.analysis.holdem.policies import POLICY_SIGNATURE, calling_station, random_legal
from croupier.errors import ConfigError, IllegalActionError
from croupier.evaluator import lookup_tables
from croupier.games.holdem.config import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    BettingStructure,
    HoldemConfig,
    OddChip,
    ReopenRule,
    SplitPolicy,
)

__all__ = [
    "CHECK_CALL",
    "FOLD",
    "O_BET",
    "O_BETS",
    "O_HAND",
    "O_LIVE",
    "O_MAX_RAISE",
    "O_MIN_RAISE",
    "O_PLAYERS",
    "O_POT",
    "O_SEAT",
    "O_STACK",
    "O_STACKS",
    "O_STREET",
    "O_TO_CALL",
    "POLICY_SIGNATURE",
    "SelfPlayRecord",
    "SelfPlayResult",
    "calling_station",
    "random_legal",
    "selfplay",
]

FOLD = k.FOLD
"""Policy answer: fold."""
CHECK_CALL = k.CHECK_CALL
"""Policy answer: check, or call (all-in for less when short)."""
O_SEAT = k.O_SEAT
"""``obs`` index: the position to act."""
O_STREET = k.O_STREET
"""``obs`` index: 0 pre-flop, 1 flop, 2 turn, 3 river."""
O_TO_CALL = k.O_TO_CALL
"""``obs`` index: chips to add to call (0: checking is possible)."""
O_MIN_RAISE = k.O_MIN_RAISE
"""``obs`` index: the smallest bet or raise total, -1 when raising is not allowed."""
O_MAX_RAISE = k.O_MAX_RAISE
"""``obs`` index: the largest bet or raise total, -1 when raising is not allowed."""
O_STACK = k.O_STACK
"""``obs`` index: the actor's chips behind."""
O_BET = k.O_BET
"""``obs`` index: the actor's bet on this street."""
O_POT = k.O_POT
"""``obs`` index: all chips in the middle, current bets included."""
O_PLAYERS = k.O_PLAYERS
"""``obs`` index: the number of players."""
O_HAND = k.O_HAND
"""``obs`` index: the hand's number in the batch."""
O_STACKS = k.O_STACKS
"""``obs[O_STACKS + seat]``: each seat's chips behind."""
O_BETS = k.O_BETS
"""``obs[O_BETS + seat]``: each seat's bet on this street."""
O_LIVE = k.O_LIVE
"""``obs[O_LIVE + seat]``: 1 while the seat is in the hand."""


@dataclass(frozen=True, slots=True)
class SelfPlayRecord:
    """Every deck and decision of a batch (``selfplay(..., record=True)``), for replays."""

    decks: npt.NDArray[np.int8]
    """Shape (n, 52): each hand's deck, top card first, dealt as ``CashHand`` deals a shoe."""
    offsets: npt.NDArray[np.int64]
    """Shape (n + 1,): hand ``h``'s decisions are rows ``offsets[h]:offsets[h + 1]``."""
    decisions: npt.NDArray[np.int64]
    """Shape (d, 5): seat, amount to call, min and max raise total (-1: none), the action."""


@dataclass(frozen=True, slots=True)
class SelfPlayResult:
    """What a batch of self-play hands came to."""

    net: npt.NDArray[np.int64]
    """Shape (n, players): each seat's chips won (+) or lost (-) in each hand."""
    rake: npt.NDArray[np.int64]
    """Shape (n,): the rake of each hand (``net`` of a hand sums to minus it)."""
    decisions: int
    """Decisions taken in all."""
    record: SelfPlayRecord | None = None


def _encode(config: HoldemConfig) -> npt.NDArray[np.int64]:
    """The kernel's configuration vector; refuses what the kernel does not play."""
    if config.split is not SplitPolicy.LIVE:
        raise ConfigError(f"selfplay plays the live split only, not {config.split.value!r}")
    if config.ante_trimming:
        raise ConfigError("selfplay does not play ante trimming (a PHH replay setting)")
    cfg = np.zeros(k.C_SIZE, dtype=np.int64)
    structures = {
        BettingStructure.NO_LIMIT: k.NO_LIMIT,
        BettingStructure.POT_LIMIT: k.POT_LIMIT,
        BettingStructure.FIXED_LIMIT: k.FIXED_LIMIT,
    }
    cfg[k.C_PLAYERS] = config.players
    cfg[k.C_STRUCTURE] = structures[config.structure]
    cfg[k.C_MIN_BET] = config.min_bet
    cfg[k.C_SMALL_BET] = config.small_bet
    cfg[k.C_BIG_BET] = config.big_bet
    cap = config.raise_cap
    cfg[k.C_CAP] = -1 if cap is None else cap
    cfg[k.C_REOPEN] = k.CASINO if config.reopen is ReopenRule.CASINO else k.POKERKIT
    rake = config.rake
    cfg[k.C_RAKE_NUM] = rake.percent.numerator
    cfg[k.C_RAKE_DEN] = rake.percent.denominator
    cfg[k.C_RAKE_CAP] = -1 if rake.cap is None else rake.cap
    cfg[k.C_NO_FLOP_NO_DROP] = int(rake.no_flop_no_drop)
    cfg[k.C_ODD_CHIP] = k.ODD_SUIT if config.odd_chip is OddChip.SUIT else k.ODD_POSITION
    return cfg


def _stacks(config: HoldemConfig, stacks: int | Sequence[int] | npt.ArrayLike | None) -> Any:
    players = config.players
    if stacks is None:
        stacks = 100 * config.street_bet(0)
    if isinstance(stacks, int):
        stacks = [stacks] * players
    array = np.asarray(stacks)
    if array.dtype.kind not in "iu":
        raise ConfigError(f"stacks must be integers (minor units), not {array.dtype}")
    rows = np.atleast_2d(array).astype(np.int64)
    if rows.ndim != 2 or rows.shape[1] != players or rows.shape[0] == 0:
        raise ConfigError(f"stacks of shape {array.shape} for {players} players")
    if (rows <= 0).any():
        raise ConfigError("stacks must all be positive")
    return np.ascontiguousarray(rows)


def _tables() -> tuple[npt.NDArray[np.int64], ...]:
    t = lookup_tables()
    arrays = (t.card_keys, t.low_hash[2], t.high_hash, t.nonflush[2], t.flush)
    return tuple(np.ascontiguousarray(a, dtype=np.int64) for a in arrays)


def _compiled(policy: Any) -> Any:
    """``policy`` with an overload of ``POLICY_SIGNATURE`` (the kernel calls it by pointer)."""
    if not isinstance(policy, numba.core.registry.CPUDispatcher):
        raise ConfigError("the policy must be a numba.njit function policy(obs, cards) -> int")
    if POLICY_SIGNATURE.args not in policy.overloads:
        try:
            policy.compile(POLICY_SIGNATURE)
        except numba.core.errors.NumbaError as exc:
            raise ConfigError(
                f"the policy does not compile as policy(obs, cards) -> int64: {exc}"
            ) from None
    return policy


def selfplay(
    n: int,
    players: int,
    policy: Any,
    seed: int,
    *,
    config: HoldemConfig | None = None,
    stacks: int | Sequence[int] | npt.ArrayLike | None = None,
    record: bool = False,
) -> SelfPlayResult:
    """Play ``n`` hands of ``players``-handed hold'em, ``policy`` deciding for every seat.

    Args:
        n: the number of hands.
        players: seats at the table (2..10).
        policy: a numba ``njit`` function ``policy(obs, cards) -> int`` (module docstring).
        seed: seeds the deck shuffles and numba's ``np.random`` (policies' randomness): the
            same seed, policy and arguments give the same hands.
        config: the table's rules; default No-Limit, blinds 1/2, ``players`` seats.
        stacks: starting stacks: one for all, one per seat, or an array of shape (rows,
            players) whose row ``h % rows`` starts hand ``h``; default 100 big blinds.
        record: keep every deck and decision (:class:`SelfPlayRecord`) to replay the hands.

    Raises:
        ConfigError: a rule the batch does not play, bad stacks or a policy that is not
            compiled.
        IllegalActionError: the policy answered with an action the rules refuse.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ConfigError(f"the number of hands must be a whole number >= 0, not {n!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(f"{players} players is outside {MIN_PLAYERS}..{MAX_PLAYERS}")
    if config is None:
        config = HoldemConfig.cash(players=players, small_blind=1, big_blind=2)
    if config.players != players:
        raise ConfigError(f"the config seats {config.players} players, not {players}")
    policy = _compiled(policy)
    cfg = _encode(config)
    start = _stacks(config, stacks)
    antes = np.array([config.effective_ante(i) for i in range(players)], dtype=np.int64)
    blinds = np.array([config.effective_blind(i) for i in range(players)], dtype=np.int64)
    net = np.zeros((n, players), dtype=np.int64)
    rake = np.zeros(n, dtype=np.int64)
    capacity = 16 * n if record else 0
    while True:
        decks = np.zeros((n if record else 0, 52), dtype=np.int64)
        log = np.zeros((capacity, k.R_SIZE), dtype=np.int64)
        offsets = np.zeros(n + 1 if record else 0, dtype=np.int64)
        state = np.zeros(6, dtype=np.int64)
        k.play(n, cfg, antes, blinds, start, policy, seed, _tables(), net, rake, decks, log,
               offsets, state)  # fmt: skip
        if state[0] != k.RECORD_FULL:
            break
        capacity *= 2
    if state[0] == k.ILLEGAL:
        action, low, high = (int(v) for v in state[3:6])
        allowed = f"a raise total in {low}..{high}" if low >= 0 else "no raise"
        raise IllegalActionError(
            f"the policy answered {action} in hand {int(state[1])}: fold ({FOLD}), check/call"
            f" ({CHECK_CALL}) or {allowed}"
        )
    kept = None
    if record:
        decided = int(state[2])
        kept = SelfPlayRecord(decks.astype(np.int8), offsets, log[:decided].copy())
    return SelfPlayResult(net, rake, int(state[2]), kept)
