"""Compiled policies for :func:`croupier.analysis.holdem.selfplay` (numba ``njit`` functions).

A policy is compiled with ``POLICY_SIGNATURE`` (``@numba.njit(POLICY_SIGNATURE)``; ``selfplay``
compiles a plain ``@numba.njit`` function for it) and called as ``policy(obs, cards)`` for every decision and returns ``FOLD`` (-1),
``CHECK_CALL`` (0) or a bet or raise total between ``obs[O_MIN_RAISE]`` and
``obs[O_MAX_RAISE]`` (both -1 when the player may not raise). ``obs`` is what the player to act
may see (the ``O_*`` indices of :mod:`croupier.analysis.holdem`), ``cards`` their two hole
cards then the five board cards (card ids, -1 for board cards not yet out). A policy that draws
random numbers uses ``np.random``: ``selfplay`` seeds numba's generator from its ``seed``.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.holdem._kernel import (
    CHECK_CALL,
    FOLD,
    O_MAX_RAISE,
    O_MIN_RAISE,
    O_TO_CALL,
    POLICY_SIGNATURE,
)

__all__ = ["POLICY_SIGNATURE", "calling_station", "random_legal"]


@nb.njit(POLICY_SIGNATURE, cache=True, nogil=True)
def random_legal(obs: Any, cards: Any) -> Any:  # pragma: no cover - compiled
    """Uniform among fold (only when facing a bet), check/call and bet/raise (when allowed),
    then a total uniform between the minimum and the maximum raise (the workload of
    ``benchmarks/holdem_selfplay.py``)."""
    facing = 1 if obs[O_TO_CALL] > 0 else 0
    low = obs[O_MIN_RAISE]
    choices = 1 + facing + (1 if low >= 0 else 0)
    pick = np.random.randint(choices) + 1 - facing
    if pick == 0:
        return FOLD
    if pick == 1:
        return CHECK_CALL
    return low + np.random.randint(obs[O_MAX_RAISE] - low + 1)


@nb.njit(POLICY_SIGNATURE, cache=True, nogil=True)
def calling_station(obs: Any, cards: Any) -> Any:  # pragma: no cover - compiled
    """Always checks or calls: every hand goes to showdown with everyone in."""
    return CHECK_CALL
