"""The exact analysis of Ultimate Texas Hold'em: full enumeration and backward induction.

Every player hand, flop, turn and river and dealer hand is counted (2.78 x 10^13 deals with a
full deck) in integer arithmetic; the player's decisions are optimal by backward induction:
river 1x or fold, flop 2x or check, pre-flop 4x, 3x or check (spec/uth.md "Dealing and
decisions").

Method (notes/performance.md): the 2,598,960 boards fall into 134,459 classes under the 24 suit
permutations; each class is evaluated once (see :mod:`croupier.analysis.uth.kernels`). Pass 1
sums, for each canonical flop f (1,755) and player hand q, the EV of 2x and of the best river
action over the turn+river cards; a board class contributes to each of its ten (flop, turn+river)
splits through one permutation taking the split's flop to f, weighted by the class size, and the
sums are then symmetrised over the stabiliser of f, which makes them exactly 24 times the true
sums. Pass 2 counts every deal by the path taken, the player's final hand, the result and the
dealer's qualification, which gives every published figure as an exact fraction.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.uth import kernels
from croupier.analysis.uth._symmetry import (
    DeckSymmetry,
    board_classes,
    class_name,
    deck_symmetry,
)
from croupier.analysis.uth.paytables import (
    DEFAULT_BLIND,
    DEFAULT_TRIPS,
    PayTable,
    check_exact_blind,
    check_paytable,
    ratio,
    units,
)
from croupier.evaluator import (
    CATEGORY_COUNTS_5,
    HandCategory,
    categories,
    enumerate7_histogram,
    lookup_tables,
)
from croupier.games.uth.config import PlayMultiples

__all__ = [
    "ExactResult",
    "Outcome",
    "PreflopEntry",
    "ProgressCallback",
    "analyze_exact",
    "trips_return",
]

ProgressCallback = Callable[[int, int], None]
"""Called with (work done, total work), both in boards evaluated."""

FULL_DECK: tuple[int, ...] = tuple(range(52))
_QUALIFY_MIN = CATEGORY_COUNTS_5[HandCategory.HIGH_CARD] + 1  # the lowest pair
_SPEC_MULTIPLES = PlayMultiples()
_RESULTS = ("won", "won", "lost", "lost", "tied", "tied")
_QUALIFIED = (True, False, True, False, True, False)


@dataclass(frozen=True, slots=True, kw_only=True)
class PreflopEntry:
    """One of the 169 starting hands: EVs per unit Ante with optimal play afterwards."""

    hand: str
    """``"AA"``, ``"AKs"``, ``"AKo"``."""
    ev_4x: Fraction
    ev_3x: Fraction
    ev_check: Fraction
    decision: str
    """``"4x"``, ``"3x"`` or ``"check"`` (another ``"<m>x"`` under other Play multiples)."""
    plays: tuple[tuple[int, Fraction], ...] = field(default=(), compare=False)
    """The EV of each pre-flop Play multiple the table allows (empty when read from the
    shipped strategy, whose multiples are the spec's: see ``ev_4x`` and ``ev_3x``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """Deals ending one way: the bet path, the result, the player's hand, the dealer's status."""

    path: str
    """``"fold"``, or the Play multiple of the deals: ``"4x"``, ``"3x"``, ``"2x"``, ``"1x"``
    (other multiples under other ``play_multiples``)."""
    result: str
    """``"won"``, ``"lost"``, ``"tied"`` or ``"folded"``."""
    hand: HandCategory
    """The player's final hand."""
    dealer_qualified: bool
    probability: Fraction
    ante: Fraction
    """The Ante's net result in these deals times their probability (its share of the EV)."""
    blind: Fraction
    play: Fraction

    @property
    def contribution(self) -> Fraction:
        """This outcome's share of the EV per Ante (``probability * net``)."""
        return self.ante + self.blind + self.play

    @property
    def net(self) -> Fraction:
        """The player's net result of one such deal, per unit Ante."""
        return self.contribution / self.probability


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ExactResult:
    """Everything the exact analysis finds, as exact fractions (per unit Ante, Blind = Ante)."""

    ev_per_ante: Fraction
    average_total_bet: Fraction
    """Ante + Blind + Play, in Antes, averaged over all deals."""
    ante: Fraction
    blind: Fraction
    play: Fraction
    """Each bet's contribution to ``ev_per_ante``."""
    trips: Fraction
    """Return of the Trips bet per unit (0.965... means 96.5%)."""
    trips_needs_win: Fraction
    """Return of the Trips bet per unit when it pays only on a win (``trips_needs_win``)."""
    outcomes: tuple[Outcome, ...]
    preflop: tuple[PreflopEntry, ...]
    deals: int
    """How many (player, flop, turn+river, dealer) deals were counted."""
    flop_bet: npt.NDArray[np.bool_] = field(repr=False)
    """Shape (canonical flops, pairs): where the optimal flop action is a Play bet (2x)."""
    flop_choice: npt.NDArray[np.uint8] = field(repr=False)
    """Shape (canonical flops, pairs): the flop Play multiple taken, 0 for a check."""
    blind_table: PayTable = field(default_factory=lambda: dict(DEFAULT_BLIND))
    trips_table: PayTable = field(default_factory=lambda: dict(DEFAULT_TRIPS))
    multiples: PlayMultiples = _SPEC_MULTIPLES

    @property
    def house_edge(self) -> Fraction:
        """The house edge per Ante (-EV)."""
        return -self.ev_per_ante

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per unit of total money bet."""
        return self.house_edge / self.average_total_bet

    @property
    def return_per_ante(self) -> Fraction:
        """1 + EV per Ante (0.9782 means 97.82%)."""
        return 1 + self.ev_per_ante

    @property
    def return_per_total_bet(self) -> Fraction:
        """1 - element of risk."""
        return 1 - self.element_of_risk

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: floats for reading, ``"p/q"`` strings for the exact values."""
        return {
            "ev_per_ante": float(self.ev_per_ante),
            "house_edge": float(self.house_edge),
            "return_per_ante": float(self.return_per_ante),
            "element_of_risk": float(self.element_of_risk),
            "return_per_total_bet": float(self.return_per_total_bet),
            "average_total_bet": float(self.average_total_bet),
            "trips_return": float(self.trips),
            "trips_needs_win_return": float(self.trips_needs_win),
            "play_multiples": self.multiples.to_dict(),
            "contributions": {
                "ante": float(self.ante),
                "blind": float(self.blind),
                "play": float(self.play),
            },
            "deals": self.deals,
            "outcomes": [
                {
                    "path": o.path,
                    "result": o.result,
                    "hand": o.hand.label,
                    "dealer_qualified": o.dealer_qualified,
                    "probability": float(o.probability),
                    "return": float(o.contribution),
                    "exact": {"probability": str(o.probability), "return": str(o.contribution)},
                }
                for o in self.outcomes
            ],
            "preflop": [
                {
                    "hand": e.hand,
                    "ev_4x": float(e.ev_4x),
                    "ev_3x": float(e.ev_3x),
                    "ev_check": float(e.ev_check),
                    "decision": e.decision,
                    "exact": {
                        "ev_4x": str(e.ev_4x),
                        "ev_3x": str(e.ev_3x),
                        "ev_check": str(e.ev_check),
                    },
                }
                for e in self.preflop
            ],
            "exact": {
                name: str(value)
                for name, value in (
                    ("ev_per_ante", self.ev_per_ante),
                    ("house_edge", self.house_edge),
                    ("element_of_risk", self.element_of_risk),
                    ("return_per_ante", self.return_per_ante),
                    ("return_per_total_bet", self.return_per_total_bet),
                    ("average_total_bet", self.average_total_bet),
                    ("ante", self.ante),
                    ("blind", self.blind),
                    ("play", self.play),
                    ("trips_return", self.trips),
                )
            },
            "pay_tables": {
                "blind": {c.name.lower(): f"{n}:{d}" for c, (n, d) in self.blind_table.items()},
                "trips": {c.name.lower(): f"{n}:{d}" for c, (n, d) in self.trips_table.items()},
            },
        }


def trips_return(
    category_counts: Sequence[int] | npt.NDArray[np.int64], table: PayTable = DEFAULT_TRIPS
) -> Fraction:
    """Return per unit Trips from the counts of the player's final hand by category."""
    total = sum(int(c) for c in category_counts)
    net = Fraction(0)
    for cat in HandCategory:
        count = int(category_counts[cat])
        net += count * (ratio(table, cat) if cat in table else Fraction(-1))
    return 1 + net / total


def _full_deck_category_counts() -> list[int]:
    hist = enumerate7_histogram()
    cats = categories(np.arange(1, hist.shape[0]))
    counts = [0] * len(HandCategory)
    for cat in HandCategory:
        counts[cat] = int(hist[1:][cats == cat].sum())
    return counts


@dataclass(slots=True, kw_only=True)
class _Run:
    sym: DeckSymmetry
    args: tuple[Any, ...]
    scale: int
    threads: int
    scratch: npt.NDArray[np.int64]
    cnt: npt.NDArray[np.int64]
    multiples: PlayMultiples
    pre_all: tuple[int, ...]
    pre: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


def _chunks(total: int, pieces: int) -> list[tuple[int, int]]:
    bounds = np.linspace(0, total, pieces + 1).astype(int)
    return [(int(a), int(b)) for a, b in itertools.pairwise(bounds) if b > a]


def analyze_exact(
    *,
    blind: PayTable = DEFAULT_BLIND,
    trips: PayTable = DEFAULT_TRIPS,
    multiples: PlayMultiples = _SPEC_MULTIPLES,
    deck: Sequence[int] = FULL_DECK,
    on_progress: ProgressCallback | None = None,
    chunks: int = 200,
) -> ExactResult:
    """Compute the optimal strategy and the exact returns.

    Args:
        blind: the Blind pay table; trips: the Trips pay table (see :mod:`.paytables`).
        multiples: the Play multiples of each decision phase (a table's ``play_multiples``;
            the spec's 4x/3x, 2x, 1x by default).
        deck: the card ids in play (whole ranks; reduced decks are for tests).
        on_progress: called with (boards done, total) between chunks of work.
        chunks: how many pieces each pass is cut into for progress reports.

    Raises:
        ConfigError: a malformed pay table or deck.
    """
    check_exact_blind(blind)
    check_paytable(trips, name="trips")
    run = _prepare(blind, multiples, deck)
    nboards = len(run.args[0])
    pieces = _chunks(nboards, min(chunks, nboards))
    done = 0

    def report(step: int) -> None:
        nonlocal done
        done += step
        if on_progress is not None:
            on_progress(done, 2 * nboards)

    flop_choice, flop_value = _flop_decisions(run, pieces, report)
    codes, entries, best_total = _preflop_decisions(run, flop_value)
    counts = _count_deals(run, pieces, report, codes, flop_choice)
    sym, n = run.sym, len(run.sym.deck)
    deals = len(sym.pair_cards) * _per_hand(n)
    assert int(counts.sum()) == deals, "every deal is counted once"
    outcomes = _outcomes(counts, deals, blind)
    ev = sum((o.contribution for o in outcomes), Fraction(0))
    denominators = 24 * run.scale * _per_hand(n)
    assert ev == Fraction(best_total, denominators * len(sym.pair_cards)), "passes agree"
    avg_bet = sum((o.probability * (2 + _multiple_of(o.path)) for o in outcomes), Fraction(0))
    if n == 52:
        category_counts = _full_deck_category_counts()
    else:
        category_counts = [int(counts[:, cat, :].sum()) for cat in HandCategory]
    return ExactResult(
        ev_per_ante=ev,
        average_total_bet=avg_bet,
        ante=sum((o.ante for o in outcomes), Fraction(0)),
        blind=sum((o.blind for o in outcomes), Fraction(0)),
        play=sum((o.play for o in outcomes), Fraction(0)),
        trips=trips_return(category_counts, trips),
        trips_needs_win=_trips_needs_win(outcomes, trips),
        outcomes=tuple(outcomes),
        preflop=tuple(entries),
        deals=deals,
        flop_bet=flop_choice != 0,
        flop_choice=flop_choice,
        blind_table=dict(blind),
        trips_table=dict(trips),
        multiples=multiples,
    )


def _per_hand(n: int) -> int:
    """Deals per player hand: flop, turn+river and dealer hand from the other cards."""
    return comb(n - 2, 3) * comb(n - 5, 2) * comb(n - 7, 2)


def _multiple_of(path: str) -> int:
    return 0 if path == "fold" else int(path[:-1])


def _prepare(blind: PayTable, multiples: PlayMultiples, deck: Sequence[int]) -> _Run:
    deck_key = tuple(sorted(int(c) for c in deck))
    sym = deck_symmetry(deck_key)
    boards, board_weight = board_classes(deck_key)
    scale, blind_units = units(blind)
    t = lookup_tables()
    category = categories(np.arange(0, 7463).clip(1)).astype(np.int64)
    rem_pairs = comb(len(sym.deck) - 5, 2)
    threads = numba.get_num_threads()
    # the EVs of 4x and 3x are always computed (the strategy tables show them); the decision
    # is among the table's pre-flop multiples
    pre_all = tuple(sorted({*multiples.preflop, 4, 3}, reverse=True))
    rows = kernels.SCRATCH_ROWS + len(multiples.flop)
    return _Run(
        sym=sym,
        args=(
            boards,
            board_weight,
            sym.deck,
            t.card_keys,
            t.low_hash[2],
            t.high_hash,
            t.nonflush[2],
            t.flush,
            sym.pair_index,
            sym.pair_perm,
            sym.pair_class,
            sym.flop_class,
            sym.flop_perm,
            category,
            np.array(blind_units, dtype=np.int64),
            scale,
            _QUALIFY_MIN,
        ),
        scale=scale,
        threads=threads,
        scratch=np.zeros((threads, rows, max(rem_pairs, 128)), dtype=np.int64),
        cnt=np.zeros((threads, 4, 128), dtype=np.int64),
        multiples=multiples,
        pre_all=pre_all,
    )


def _flop_decisions(
    run: _Run, pieces: list[tuple[int, int]], report: Callable[[int], None]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Pass 1: the flop multiple taken (0: check) and the best flop value per (flop, pair);
    the pre-flop sums are left in ``run.pre``."""
    sym, m = run.sym, run.multiples
    nflops, npairs = len(sym.flop_weight), len(sym.pair_cards)
    nflop = len(m.flop)
    acc = np.zeros((run.threads, nflops, npairs, nflop + 1), dtype=np.int64)
    run.pre = np.zeros((run.threads, 169, len(run.pre_all)), dtype=np.int64)
    pre_m = np.array(run.pre_all, dtype=np.int64)
    flop_m = np.array(m.flop, dtype=np.int64)
    decide: Any = kernels.decide_pass
    for a, b in pieces:
        decide(
            a,
            b,
            *run.args,
            pre_m,
            flop_m,
            min(m.river),
            max(m.river),
            run.scratch,
            run.cnt,
            acc,
            run.pre,
        )
        report(b - a)
    acc_sum = acc.sum(axis=0)
    del acc
    sym24 = np.zeros_like(acc_sum)
    for p in range(24):
        rows = np.flatnonzero(sym.flop_stabilizer[:, p])
        sym24[rows] += acc_sum[rows][:, sym.pair_perm[p], :]
    # the largest multiple wins a tie between multiples; checking wins a tie with a bet
    best_bet = sym24[:, :, :nflop].argmax(axis=2)
    bet_value = np.take_along_axis(sym24[:, :, :nflop], best_bet[:, :, None], axis=2)[:, :, 0]
    check = sym24[:, :, nflop]
    choice = np.where(bet_value > check, flop_m[best_bet], 0).astype(np.uint8)
    return choice, np.maximum(bet_value, check)


def _preflop_decisions(
    run: _Run, flop_value: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], list[PreflopEntry], int]:
    """The pre-flop multiple taken per hand class (0: check), the 169 entries, and the sum
    of the best EVs (all sums over deals, times 24 units)."""
    sym = run.sym
    pre_sum = run.pre.sum(axis=0)
    class_size = np.bincount(sym.pair_class, minlength=169)
    denominators = 24 * run.scale * _per_hand(len(sym.deck))
    allowed = run.multiples.preflop
    entries: list[PreflopEntry] = []
    codes = np.zeros(169, dtype=np.int64)
    best_total = 0
    for cls in range(169):
        size = int(class_size[cls])
        if size == 0:
            continue
        members = sym.pair_class == cls
        per_flop = flop_value[:, members].sum(axis=1)
        check = sum(int(w) * int(v) for w, v in zip(sym.flop_weight, per_flop, strict=True))
        evs = {m: 240 * int(pre_sum[cls, i]) for i, m in enumerate(run.pre_all)}
        best = max(check, *(evs[m] for m in allowed))
        chosen = next((m for m in allowed if evs[m] == best), 0)  # largest multiple first
        codes[cls] = chosen
        best_total += best
        den = denominators * size
        entries.append(
            PreflopEntry(
                hand=class_name(cls),
                ev_4x=Fraction(evs[4], den),
                ev_3x=Fraction(evs[3], den),
                ev_check=Fraction(check, den),
                decision=f"{chosen}x" if chosen else "check",
                plays=tuple((m, Fraction(evs[m], den)) for m in allowed),
            )
        )
    return codes, entries, best_total


def _count_deals(
    run: _Run,
    pieces: list[tuple[int, int]],
    report: Callable[[int], None],
    codes: npt.NDArray[np.int64],
    flop_choice: npt.NDArray[np.uint8],
) -> npt.NDArray[np.int64]:
    """Pass 2: every deal by path (the Play multiple, 0 for a fold), hand and result."""
    m = run.multiples
    top = max(*m.preflop, *m.flop, *m.river)
    stats = np.zeros((run.threads, top + 1, len(HandCategory), 6), dtype=np.int64)
    count: Any = kernels.stats_pass
    for a, b in pieces:
        count(
            a,
            b,
            *run.args,
            min(m.river),
            max(m.river),
            codes,
            flop_choice,
            run.scratch,
            run.cnt,
            stats,
        )
        report(b - a)
    counts: npt.NDArray[np.int64] = stats.sum(axis=0)
    return counts


def _outcomes(counts: npt.NDArray[np.int64], deals: int, blind: PayTable) -> list[Outcome]:
    blind_pay = [ratio(blind, c) for c in HandCategory]
    outcomes: list[Outcome] = []
    for path in range(counts.shape[0]):
        for cat in HandCategory:
            row = [int(c) for c in counts[path, cat]]
            if path == kernels.FOLD:  # the dealer's hand only matters through qualification
                row = [row[0] + row[2] + row[4], row[1] + row[3] + row[5], 0, 0, 0, 0]
            for res in range(6):
                if row[res] == 0:
                    continue
                prob = Fraction(row[res], deals)
                result = "folded" if path == kernels.FOLD else _RESULTS[res]
                qualified = _QUALIFIED[res]
                if result == "folded":
                    ante, bl, pl = Fraction(-1), Fraction(-1), Fraction(0)
                elif result == "won":
                    ante, bl, pl = Fraction(int(qualified)), blind_pay[cat], Fraction(path)
                elif result == "lost":
                    ante, bl, pl = Fraction(-int(qualified)), Fraction(-1), Fraction(-path)
                else:
                    ante, bl, pl = Fraction(0), Fraction(0), Fraction(0)
                outcomes.append(
                    Outcome(
                        path=f"{path}x" if path else "fold",
                        result=result,
                        hand=cat,
                        dealer_qualified=qualified,
                        probability=prob,
                        ante=prob * ante,
                        blind=prob * bl,
                        play=prob * pl,
                    )
                )
    return outcomes


def _trips_needs_win(outcomes: Sequence[Outcome], table: PayTable) -> Fraction:
    """Return per unit Trips when a Trips hand pays only if the player beats the dealer and
    pushes otherwise (UthConfig ``trips_needs_win``), under the optimal main-bet play."""
    net = Fraction(0)
    for o in outcomes:
        if o.hand not in table:
            net -= o.probability
        elif o.result == "won":
            net += o.probability * ratio(table, o.hand)
    return 1 + net
