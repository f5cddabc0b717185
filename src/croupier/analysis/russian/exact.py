"""Russian Poker's exact return and optimal strategy (spec/russian.md), one box alone.

Every first hand (134,459 classes up to suit symmetry), every first-round option (fold,
stand, the sixth card, the 31 exchanges), every draw, every dealer hand and every card the
dealer's game can be bought with is counted, with card removal throughout: the dealer's five
come from the cards the player has not seen, an exchange's or the sixth card's from those
left after the dealer's hand, a bought card from what is left then (with the rebuy option).
The player decides knowing what the rules let them know: the first-round option and then
Bet or fold (with insurance placed with the Bet) knowing only their own cards, discards
included; buying knowing the dealer's hand too. Every value is an exact fraction.

The method is in :mod:`._counts`, :mod:`._state`, :mod:`._ranktable`, :mod:`._bounds`,
:mod:`._draws` and :mod:`._classes`; :func:`solve` drives it in checkpointed chunks and
:func:`summarize` turns the per-class sums into the figures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.russian._brute import buy_scale
from croupier.analysis.russian._draws import EXT
from croupier.analysis.russian._hands import FULL_DECK, HandClasses, hand_classes
from croupier.errors import ConfigError
from croupier.games.russian.config import DuplicateRankStraights, FailedBuyAnte, RussianConfig

__all__ = [
    "OPTION_NAMES",
    "ClassSolution",
    "ExactRules",
    "ProgressCallback",
    "exact_rules",
    "option_denominators",
    "solve",
]

ProgressCallback = Callable[[int, int], None]
"""``on_progress(classes_done, classes)``."""

OPTION_NAMES = ("fold", "stand", "sixth", *(f"exchange:{d}" for d in range(1, 32)))
"""Option columns; ``exchange:d`` discards the cards in bit mask ``d`` over the class's cards
sorted by id (bit ``j``: the ``j``-th)."""
EXACT_POLICY = np.array([5, 1 << 30, 5], dtype=np.int64)
"""Buying's per-suit corrections summed exactly everywhere (see :mod:`._draws`)."""
_WORD = 1 << 40


@dataclass(frozen=True, slots=True, kw_only=True)
class ExactRules:
    """What of a table's settings the exact analysis reads."""

    pays: tuple[int, ...]
    """The Bet pay table, by combination."""
    ante_win: int
    """What a win against a qualifying dealer pays on the Ante (option ``ante_pays_on_win``)."""
    failed_buy: int
    """What the Ante pays when a bought game still does not qualify (0: returned, the
    default ``failed_buy_ante = "forfeit"``; 1: paid)."""
    rebuy: bool
    pair_plus: bool
    exchange_min: int
    exchange_max: int

    @property
    def array(self) -> npt.NDArray[np.int64]:
        """The kernels' ``rules`` array."""
        return np.array(
            [self.ante_win, self.failed_buy, int(self.rebuy), int(self.pair_plus)],
            dtype=np.int64,
        )

    @property
    def allowed(self) -> npt.NDArray[np.bool_]:
        """Which option columns the table allows."""
        sizes = [0, 0, 0, *(d.bit_count() for d in range(1, 32))]
        low, high = self.exchange_min, self.exchange_max
        return np.array([i < 3 or low <= size <= high for i, size in enumerate(sizes)])

    @property
    def key(self) -> str:
        """Canonical text of everything the per-class sums depend on (not the range)."""
        return json.dumps(
            {
                "pays": list(self.pays),
                "ante_win": self.ante_win,
                "failed_buy": self.failed_buy,
                "rebuy": self.rebuy,
                "pair_plus": self.pair_plus,
            },
            sort_keys=True,
        )


def exact_rules(config: RussianConfig) -> ExactRules:
    """The analysed rules of a table (no payout cap: one box, the cap never binds).

    Raises:
        ConfigError: a Bet or a fee that is not the spec's (Bet 2x, fees 1x the Ante).
    """
    if (config.bet_multiple, config.draw_fee_multiple, config.buy_fee_multiple) != (2, 1, 1):
        raise ConfigError("the exact analysis assumes Bet = 2x Ante and fees of 1x Ante")
    return ExactRules(
        pays=config.bet_paytable.as_tuple(),
        ante_win=int(config.ante_pays_on_win),
        failed_buy=int(config.failed_buy_ante is FailedBuyAnte.PAID),
        rebuy=config.rebuy_same_rank,
        pair_plus=config.duplicate_rank_straights is DuplicateRankStraights.STRAIGHT_PLUS_PAIR,
        exchange_min=config.exchange_min,
        exchange_max=config.exchange_max,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ClassSolution:
    """The per-class sums of one run (see :mod:`._classes` for the arrays)."""

    rules: ExactRules
    deck: int
    classes: HandClasses
    bounds: npt.NDArray[np.float64]
    """(C, 34, 2) each option's value bounds in Antes (``-inf``: pruned, upper bound only)."""
    how: npt.NDArray[np.int64]
    """(C, 34) 0 pruned, 1 bounded, 2 summed exactly."""
    words: npt.NDArray[np.int64]
    """(C, 34, 4) exact totals (two words for the lower, two for the upper)."""
    ext: npt.NDArray[np.int64]
    """(C, 34, 8) the bets' extras (see :data:`._draws.EXT`)."""
    seconds: float = 0.0
    """Wall time the sums took (resumed runs: this process's part)."""
    resumed: int = 0
    """How many chunks were read from the work directory instead of summed."""
    denominators: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        dens = option_denominators(self.deck, self.rules.rebuy)
        object.__setattr__(self, "denominators", dens)

    def total(self, c: int, o: int, *, upper: bool = False) -> Fraction:
        """The exact value of option ``o`` for class ``c`` (summed options only)."""
        if self.how[c, o] != 2:
            raise ValueError(f"option {OPTION_NAMES[o]} of class {c} was not summed exactly")
        if o == 0:
            return Fraction(-1)
        w = self.words[c, o]
        hi, lo = (int(w[2]), int(w[3])) if upper else (int(w[0]), int(w[1]))
        return Fraction(hi * _WORD + lo, self.denominators[o])


def option_denominators(deck: int, rebuy: bool) -> tuple[int, ...]:
    """Each option column's denominator of the exact totals (a class's words), by deck."""
    left = deck.bit_count() - 5
    scales = _scales(left, rebuy)
    dens = [1, comb(left, 5) * scales[0], left * comb(left - 1, 5) * scales[6]]
    for d in range(1, 32):
        k = d.bit_count()
        dens.append(comb(left, k) * comb(left - k, 5) * scales[k])
    return tuple(dens)


def _scales(left: int, rebuy: bool) -> list[int]:
    """The common multiples of replacement counts: exchanges of k = 0..5 cards, then the
    sixth card (index 6)."""
    return [buy_scale(left - k, rebuy=rebuy) for k in range(6)] + [buy_scale(left - 1, rebuy=rebuy)]


@cache
def _tables(rules: ExactRules) -> tuple[Any, ...]:
    from croupier.analysis.russian import _kernels as k
    from croupier.analysis.russian import _ranks as r
    from croupier.analysis.russian import _tables as evaluator_tables
    from croupier.analysis.russian._ranktable import kept_tops

    tab = evaluator_tables()
    pays = np.array(rules.pays, dtype=np.int64)
    m5, _ = k.value_tables(tab, pays, rules.pair_plus)
    vt = r.value_table()
    mt = r.mask_tables()
    ds = r.dealer_sets()
    return (
        tab,
        pays,
        m5,
        (vt.category, vt.ranks, vt.mask),
        (mt.ace_king, mt.not_qualified, mt.straights, r.ace_king_below()),
        (
            ds.mask,
            ds.top,
            ds.kept_mask,
            ds.new_value,
            ds.flush_value,
            ds.qualifies,
            ds.kept,
            ds.straight_ranks,
        ),
        kept_tops(),
    )


def _chunk_order(classes: HandClasses, chunks: int) -> list[npt.NDArray[np.int64]]:
    """The rank multisets in ``chunks`` pieces of similar work (dealt round-robin by the
    number of classes, heaviest first)."""
    sizes = np.diff(classes.start)
    order = np.argsort(-sizes, kind="stable")
    return [np.sort(order[i::chunks]) for i in range(chunks)]


def solve(
    config: RussianConfig | None = None,
    *,
    deck: int = FULL_DECK,
    workdir: Path | None = None,
    chunks: int = 400,
    on_progress: ProgressCallback | None = None,
    allowed: npt.NDArray[np.bool_] | None = None,
    policy: npt.NDArray[np.int64] = EXACT_POLICY,
    force: npt.NDArray[np.int64] | None = None,
) -> ClassSolution:
    """Sum every option of every class (see the module docstring).

    Args:
        config: the table (default: the spec's).
        deck: the cards in play (a 52-bit mask; reduced decks are for tests).
        workdir: where each finished chunk is kept; a run started again with the same
            directory and rules resumes after the last finished chunk (also a table whose
            exchange range lies inside the stored run's: see :func:`_claim`).
        chunks: how many pieces the work is cut into (progress and checkpoints).
        on_progress: called with (classes done, classes) after each chunk.
        allowed: the option columns to consider (default: those the table allows).
        policy: how buying's per-suit corrections are summed (see :mod:`._draws`).
        force: per class, an option column to sum exactly whatever its bound (-1: none),
            to value another strategy's choices.

    Raises:
        ConfigError: rules the analysis does not cover, or a work directory of other rules.
    """
    import time

    rules = _analysed(config or RussianConfig())
    mask = rules.allowed if allowed is None else allowed
    classes = hand_classes(deck)
    n = len(classes.cards)
    bounds = np.zeros((n, 34, 2))
    how = np.zeros((n, 34), dtype=np.int64)
    words = np.zeros((n, 34, 4), dtype=np.int64)
    ext = np.zeros((n, 34, EXT), dtype=np.int64)
    forced = np.full(n, -1, dtype=np.int64) if force is None else force
    stamp_data: dict[str, Any] = {"rules": rules.key, "deck": deck, "allowed": mask.tolist()}
    if force is not None:
        stamp_data["force"] = hashlib.sha256(forced.tobytes()).hexdigest()
    if workdir is not None:
        mask = _claim(workdir, stamp_data, mask)
    pieces = _chunk_order(classes, min(chunks, len(classes.rank_counts)))
    done = 0
    resumed = 0
    started = time.perf_counter()
    for i, ps in enumerate(pieces):
        rows = np.concatenate([np.arange(classes.start[p], classes.start[p + 1]) for p in ps])
        path = workdir / f"chunk{i:04d}.npz" if workdir is not None else None
        out: tuple[npt.NDArray[Any], ...]
        if path is not None and path.exists():
            with np.load(path) as saved:
                out = (saved["words"], saved["bounds"], saved["how"], saved["ext"])
            resumed += 1
        else:
            out = _solve_piece(classes, ps, rows, deck, rules, mask, policy, forced)
            if path is not None:
                _save(path, out)
        words[rows], bounds[rows], how[rows], ext[rows] = out
        done += len(rows)
        if on_progress is not None:
            on_progress(done, n)
    return ClassSolution(
        rules=rules,
        deck=deck,
        classes=classes,
        bounds=bounds,
        how=how,
        words=words,
        ext=ext,
        seconds=time.perf_counter() - started,
        resumed=resumed,
    )


def _analysed(config: RussianConfig) -> ExactRules:
    """The rules :func:`solve` sums, or a clear refusal of those it does not model."""
    if config.dealer_upcard:
        raise ConfigError(
            "the exact analysis does not cover dealer_upcard = true (the player would decide "
            "seeing one of the dealer's cards)"
        )
    return exact_rules(config)


def _claim(
    workdir: Path, stamp_data: dict[str, Any], mask: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """Take ``workdir`` for a run (its ``rules.json`` names what its chunks hold) and return
    the option columns to sum: the requested ones, or the wider ones of a run already there
    of the same rules (an exchange range inside the stored one: every chunk stays valid for
    the narrower table, whose figures :func:`.results.summarize` reads, and the directory
    stays one run).

    Raises:
        ConfigError: the directory holds a run of other rules.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    stamp = workdir / "rules.json"
    key = json.dumps(stamp_data)
    if stamp.exists() and stamp.read_text() != key:
        stored = json.loads(stamp.read_text())
        wider = np.array(stored.get("allowed", []), dtype=bool)
        same = {k: v for k, v in stored.items() if k != "allowed"} == {
            k: v for k, v in stamp_data.items() if k != "allowed"
        }
        if not (same and wider.shape == mask.shape and (wider | ~mask).all()):
            raise ConfigError(f"{workdir} holds a run of other rules; use another directory")
        return wider
    stamp.write_text(key)
    return mask


def _save(path: Path, out: tuple[npt.NDArray[Any], ...]) -> None:
    """Keep a finished chunk (written whole, then renamed)."""
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, bounds=out[1], how=out[2], words=out[0], ext=out[3])
    tmp.replace(path)


def _solve_piece(
    classes: HandClasses,
    ps: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    deck: int,
    rules: ExactRules,
    mask: npt.NDArray[np.bool_],
    policy: npt.NDArray[np.int64],
    forced: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[Any], ...]:
    """The sums of the classes of rank multisets ``ps`` (rows ``rows``): words, bounds,
    how, extras."""
    from croupier.analysis.russian._classes import solve_chunk

    tab, pays, m5, vt, mt, ds, kt = _tables(rules)
    scales = np.array(_scales(deck.bit_count() - 5, rules.rebuy), dtype=np.int64)
    deck_counts = np.array(
        [sum(deck >> (4 * r + s) & 1 for s in range(4)) for r in range(13)], dtype=np.int64
    )
    start = np.zeros(len(ps) + 1, dtype=np.int64)
    start[1:] = np.cumsum(classes.start[ps + 1] - classes.start[ps])
    out = (
        np.zeros((len(rows), 34, 4), dtype=np.int64),
        np.zeros((len(rows), 34, 2)),
        np.zeros((len(rows), 34), dtype=np.int64),
        np.zeros((len(rows), 34, EXT), dtype=np.int64),
    )
    solve_chunk(
        np.ascontiguousarray(classes.rank_counts[ps]), start,
        np.ascontiguousarray(classes.cards[rows]), deck, deck_counts, tab, pays, m5,
        rules.array, scales, vt, mt, ds, kt, out[0], out[1], out[2], 1e-9, policy,
        out[3], mask, forced[rows],
    )  # fmt: skip
    return out
