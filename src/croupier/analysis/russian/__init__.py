"""Russian Poker strategy and house edge (spec/russian.md).

Method, in two stages:

1. **Strategy (a model).** The dealer's hand is taken from a full deck (no card removal by the
   player's cards); its value distribution over all 2,598,960 hands is exact. Standing with a
   hand of value ``v`` and two-combination multiple ``m`` is then worth
   ``2m P(dealer qualifies, lower) - 3 P(dealer qualifies, higher) + P(no qualifier)(1 + g)``
   Antes, where ``g`` is the average gain from buying the dealer's game when that pays (over
   the 1,112 non-qualifying dealer rank sets, flushes after a buy ignored). For each of the
   134,459 suit-isomorphic five-card classes, fold (-1), stand, the sixth card and the 31
   exchanges are valued: the sixth card and exchanges of 1-3 cards by enumerating every draw
   from the 47 unseen cards exactly; exchanges of 4 and 5 cards with the discards' removal
   ignored. After a draw the box bets when the model's EV is at least -1.
2. **House edge (exact game, simulated).** Rounds are dealt from shuffled decks and played
   with that strategy, card removal and all; insurance is taken (at its maximum) exactly when
   the exact chance that the dealer does not qualify, given every card the player has seen,
   exceeds one half; the dealer's game is bought exactly when buying has the higher EV over the
   unseen replacement cards. The result is the house edge of this strategy with a 95%
   confidence interval, for one box alone at the table.

The Bonus is a separate bet on the first five cards and is computed exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, pairwise
from math import comb, sqrt

import numpy as np
import numpy.typing as npt

from croupier.analysis.russian.summary import (
    ClassTable,
    StrategyRow,
    describe_play,
    strategy_summary,
)
from croupier.errors import ConfigError
from croupier.evaluator import CATEGORY_COUNTS_5, HandCategory, evaluate_ids, lookup_tables
from croupier.games.russian.config import DuplicateRankStraights, FailedBuyAnte, RussianConfig

__all__ = [
    "ClassTable",
    "HouseEdge",
    "Model",
    "ModelCheck",
    "ProgressCallback",
    "RussianAnalysis",
    "StrategyRow",
    "analyze",
    "bonus_return",
    "bonus_second_moment",
    "build_model",
    "check_model",
    "class_table",
    "describe_play",
    "house_edge",
    "strategy_summary",
]

ProgressCallback = Callable[[str, int, int], None]
"""``on_progress(stage, done, total)``."""

OPTIONS = ("fold", "stand", "sixth", *(f"exchange:{d}" for d in range(1, 32)))
"""Column names of :attr:`ClassTable.evs`; ``exchange:d`` discards the cards in bit mask
``d`` over the class's cards sorted by id."""

_TOTAL5 = 2_598_960


def _noop(stage: str, done: int, total: int) -> None:
    del stage, done, total


def _tables() -> tuple[npt.NDArray[np.int64], ...]:
    t = lookup_tables()
    return (
        t.card_keys,
        np.ascontiguousarray(t.low_hash[0]),
        np.ascontiguousarray(t.low_hash[1]),
        t.high_hash,
        np.ascontiguousarray(t.nonflush[0]),
        np.ascontiguousarray(t.nonflush[1]),
        t.flush,
    )


def _check(config: RussianConfig) -> None:
    if (config.bet_multiple, config.draw_fee_multiple, config.buy_fee_multiple) != (2, 1, 1):
        raise ConfigError("the analysis assumes Bet = 2x Ante and fees of 1x Ante")


@dataclass(frozen=True, slots=True, kw_only=True)
class Model:
    """The dealer model and the per-value tables the strategy is computed from."""

    config: RussianConfig
    values: npt.NDArray[np.int64]
    """Value of every five-card hand, colex order."""
    codes: npt.NDArray[np.int64]
    """Suit-canonical code of every five-card hand, colex order."""
    m5: npt.NDArray[np.int64]
    """Two-combination multiple by value (five cards)."""
    qual: npt.NDArray[np.bool_]
    """Whether a dealer hand of that value qualifies."""
    pw: npt.NDArray[np.float64]
    """P(dealer qualifies and is lower than v), full deck."""
    pl: npt.NDArray[np.float64]
    """P(dealer qualifies and is higher than v)."""
    pnq: float
    """P(dealer does not qualify)."""
    gain: npt.NDArray[np.float64]
    """gain[v, m]: average gain from the option to buy, given a non-qualifying dealer."""
    ev5: npt.NDArray[np.float64]
    """Model EV of standing with five cards, by value."""
    nq_sets: npt.NDArray[np.int64]
    """The non-qualifying dealer rank sets (five ranks each)."""
    max_multiple: int

    @property
    def ante_win(self) -> int:
        """What beating a qualifying dealer pays on the Ante, in Antes (option
        ``ante_pays_on_win``: 1; the seed: 0, the Ante is returned)."""
        return int(self.config.ante_pays_on_win)

    @property
    def failed_buy(self) -> int:
        """What the Ante pays when a bought game still does not qualify (option
        ``failed_buy_ante``: 0 returned, the default ``forfeit``; 1 ``paid``)."""
        return int(self.config.failed_buy_ante is FailedBuyAnte.PAID)

    @property
    def tables(self) -> tuple[npt.NDArray[np.int64], ...]:
        """The evaluator tables in the kernels' tuple order."""
        return _tables()

    @property
    def pays(self) -> npt.NDArray[np.int64]:
        """The Bet pay table indexed by Combination."""
        return np.array(self.config.bet_paytable.as_tuple(), dtype=np.int64)

    @property
    def pair_plus(self) -> bool:
        """Whether K-Q-J-T-9-9 pays a straight and a pair."""
        return self.config.duplicate_rank_straights is DuplicateRankStraights.STRAIGHT_PLUS_PAIR


def _nq_rank_sets() -> list[tuple[int, ...]]:
    sets: list[tuple[int, ...]] = []
    for ranks in combinations(range(13), 5):
        straight = ranks[4] - ranks[0] == 4 or ranks == (0, 1, 2, 3, 12)
        if straight or (11 in ranks and 12 in ranks):
            continue
        sets.append(ranks)
    return sets


def _hand_ids(ranks: list[int]) -> list[int]:
    """Card ids for ranks with suits that never make a flush (pairs get distinct suits)."""
    return [4 * r + s for r, s in zip(ranks, (0, 1, 2, 3, 0), strict=False)]


def _buy_outcomes(
    sets: list[tuple[int, ...]], qual: npt.NDArray[np.bool_], *, rebuy: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    values = np.zeros((len(sets), 13), dtype=np.int64)
    weights = np.zeros((len(sets), 13))
    quals = np.zeros((len(sets), 13), dtype=np.bool_)
    for i, ranks in enumerate(sets):
        top = ranks[-1]
        kept = list(ranks[:-1])
        for r in range(13):
            if r == top:
                if rebuy:
                    continue  # spec option rebuy_same_rank: replaced again
                hand, weight = [*kept, r], 3.0
            elif r in kept:
                others = [k for k in kept if k != r]
                hand, weight = [r, r, *others], 3.0
            else:
                hand, weight = [*kept, r], 4.0
            value = evaluate_ids(_hand_ids(hand))
            values[i, r], weights[i, r], quals[i, r] = value, weight, qual[value]
    return values, weights, quals


def build_model(
    config: RussianConfig | None = None, *, on_progress: ProgressCallback | None = None
) -> Model:
    """The dealer model and the stand EV of every five-card value under ``config``."""
    from croupier.analysis.russian import _kernels as k

    config = config or RussianConfig()
    _check(config)
    report = on_progress or _noop
    report("model", 0, 3)
    tab = _tables()
    pays = np.array(config.bet_paytable.as_tuple(), dtype=np.int64)
    pair_plus = config.duplicate_rank_straights is DuplicateRankStraights.STRAIGHT_PLUS_PAIR
    values, codes, m5, qual = k.enumerate_hands(tab, pays, pair_plus)
    report("model", 1, 3)
    hist = np.bincount(values, minlength=7463).astype(np.float64) / _TOTAL5
    q_hist = np.where(qual, hist, 0.0)
    below = np.concatenate(([0.0], np.cumsum(q_hist)[:-1]))
    pw = below
    pl = q_hist.sum() - np.cumsum(q_hist)
    pnq = float(hist[~qual].sum())
    sets = _nq_rank_sets()
    set_values, set_weights, set_qual = _buy_outcomes(sets, qual, rebuy=config.rebuy_same_rank)
    max_multiple = 2 * max(config.bet_paytable.as_tuple())
    aw = int(config.ante_pays_on_win)
    failed = int(config.failed_buy_ante is FailedBuyAnte.PAID)
    gain = k.buy_gain_table(set_values, set_weights, set_qual, max_multiple, aw, failed)
    report("model", 2, 3)
    ev5 = np.array(
        [k.stand_ev(v, int(m5[v]), pw, pl, pnq, gain, aw) if v else -3.0 for v in range(7463)]
    )
    report("model", 3, 3)
    return Model(
        config=config,
        values=values,
        codes=codes,
        m5=m5,
        qual=qual,
        pw=pw,
        pl=pl,
        pnq=pnq,
        gain=gain,
        ev5=ev5,
        nq_sets=np.array(sets, dtype=np.int64),
        max_multiple=max_multiple,
    )


def _allowed(config: RussianConfig) -> npt.NDArray[np.bool_]:
    """The options the table allows, by column of :data:`OPTIONS`: fold, stand, the sixth
    card, and the exchanges within ``exchange_min``..``exchange_max`` cards."""
    sizes = [0, 0, 0, *(d.bit_count() for d in range(1, 32))]
    low, high = config.exchange_min, config.exchange_max
    return np.array([i < 3 or low <= size <= high for i, size in enumerate(sizes)])


def _decode(codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    shifts = np.array([24, 18, 12, 6, 0], dtype=np.int64)
    return (codes[:, None] >> shifts[None, :]) & 63


def class_table(
    model: Model, *, on_progress: ProgressCallback | None = None, chunks: int = 100
) -> ClassTable:
    """Value every option of every class (see the module docstring for the method)."""
    from croupier.analysis.russian import _kernels as k

    report = on_progress or _noop
    codes, weights = np.unique(model.codes, return_counts=True)
    cards = np.ascontiguousarray(_decode(codes))
    tab = _tables()
    best5 = np.maximum(model.ev5, -1.0)
    keep_one = k.keep_one_table(tab, best5)
    hist = np.bincount(model.values, minlength=7463) / _TOTAL5
    keep_none = float(-1.0 + (hist * best5).sum())
    evs = np.empty((len(codes), 34))
    bounds = np.linspace(0, len(codes), chunks + 1).astype(np.int64)
    report("classes", 0, len(codes))
    for start, stop in pairwise(bounds):
        evs[start:stop] = k.class_evs(
            cards[start:stop],
            tab,
            best5,
            model.ev5,
            keep_one,
            keep_none,
            model.pw,
            model.pl,
            model.pnq,
            model.gain,
            model.pays,
            model.pair_plus,
            model.max_multiple,
            model.ante_win,
        )
        report("classes", int(stop), len(codes))
    decisions = np.argmax(np.where(_allowed(model.config), evs, -np.inf), axis=1).astype(np.int64)
    return ClassTable(codes=codes, cards=cards, weights=weights, evs=evs, decisions=decisions)


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseEdge:
    """The simulated result of the strategy, in Antes per round (player's view)."""

    rounds: int
    seed: int
    ev_per_ante: float
    """Mean player net per round per Ante (negative: the house wins)."""
    se_per_ante: float
    edge_per_total_bet: float
    """House edge as a fraction of all money wagered (Ante, Bet, fees, insurance, buy)."""
    se_per_total_bet: float
    mean_wager: float
    """Average money wagered per round, in Antes."""
    contributions: dict[str, float]
    """Mean net per round of each bet, in Antes: ante, bet, fee, insurance, buy."""
    actions: npt.NDArray[np.int64]
    """(10, 4) initial category x (fold, stand, exchange, sixth) counts."""
    stats: npt.NDArray[np.int64]
    """(10, 4) final category x (stood, dealer not qualified, bought, insured) counts."""

    @property
    def edge_per_ante(self) -> float:
        """House edge per Ante (positive: the house wins)."""
        return -self.ev_per_ante

    def ci95(self, per: str = "ante") -> tuple[float, float]:
        """The 95% confidence interval of the house edge per Ante or per total bet."""
        centre, se = (
            (self.edge_per_ante, self.se_per_ante)
            if per == "ante"
            else (self.edge_per_total_bet, self.se_per_total_bet)
        )
        return centre - 1.96 * se, centre + 1.96 * se


def house_edge(
    model: Model,
    classes: ClassTable,
    *,
    rounds: int,
    seed: int,
    on_progress: ProgressCallback | None = None,
    lanes: int = 64,
    chunks: int = 50,
) -> HouseEdge:
    """Play ``rounds`` rounds with the strategy (see the module docstring)."""
    from croupier.analysis.russian import _simulate as s

    report = on_progress or _noop
    decisions = s.decision_table(model.codes, classes.codes, classes.decisions.astype(np.int64))
    binom = np.array([[comb(n, r) for r in range(6)] for n in range(52)], dtype=np.int64)
    per_chunk = max(1, rounds // (lanes * chunks))
    total_sums = np.zeros(s.COLUMNS)
    total_stats = np.zeros((10, 4), dtype=np.int64)
    total_actions = np.zeros((10, 4), dtype=np.int64)
    # one well-mixed 64-bit seed per chunk (NumPy's SeedSequence), passed as int64
    chunk_seeds = np.random.SeedSequence(seed).generate_state(chunks, dtype=np.uint64)
    chunk_seeds = chunk_seeds.view(np.int64)
    report("simulate", 0, chunks)
    for chunk in range(chunks):
        sums, stats, actions = s.simulate(
            lanes,
            per_chunk,
            chunk_seeds[chunk],
            decisions,
            binom,
            _tables(),
            model.m5,
            model.qual,
            model.pw,
            model.pl,
            model.pnq,
            model.gain,
            model.pays,
            model.pair_plus,
            model.config.rebuy_same_rank,
            model.max_multiple,
            model.nq_sets,
            model.ante_win,
            model.failed_buy,
        )
        total_sums += sums.sum(axis=0)
        total_stats += stats.sum(axis=0)
        total_actions += actions.sum(axis=0)
        report("simulate", chunk + 1, chunks)
    n = total_sums[s.ROUNDS]
    mean = total_sums[s.TOTAL] / n
    var = total_sums[s.TOTAL2] / n - mean**2
    wager = total_sums[s.WAGER] / n
    ratio = mean / wager
    # delta method for a ratio of means: Var(total - ratio * wager) / (n * wager^2)
    var_w = total_sums[s.WAGER2] / n - wager**2
    cov = total_sums[s.CROSS] / n - mean * wager
    var_d = var - 2 * ratio * cov + ratio**2 * var_w
    return HouseEdge(
        rounds=int(n),
        seed=seed,
        ev_per_ante=float(mean),
        se_per_ante=float(sqrt(var / n)),
        edge_per_total_bet=float(-ratio),
        se_per_total_bet=float(sqrt(max(var_d, 0.0) / n) / wager),
        mean_wager=float(wager),
        contributions={
            "ante": float(total_sums[s.ANTE] / n),
            "bet": float(total_sums[s.BET] / n),
            "fee": float(total_sums[s.FEE] / n),
            "insurance": float(total_sums[s.INS] / n),
            "buy": float(total_sums[s.BUY] / n),
        },
        actions=total_actions,
        stats=total_stats,
    )


_HANDS5 = {
    HandCategory.ROYAL_FLUSH: 4,
    HandCategory.STRAIGHT_FLUSH: 36,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}
"""Five-card hands of a full deck by category."""


def _bonus_moment(config: RussianConfig | None, power: int) -> float:
    config = config or RussianConfig()
    assert sum(_HANDS5.values()) == _TOTAL5 and len(CATEGORY_COUNTS_5) == len(_HANDS5)
    total = 0
    for category, count in _HANDS5.items():
        odds = config.bonus_paytable.pay(category)
        total += count * (odds if odds else -1) ** power
    return total / _TOTAL5


def bonus_return(config: RussianConfig | None = None) -> float:
    """The exact expected net of a 1-unit Bonus bet (first five cards of a full deck)."""
    return _bonus_moment(config, 1)


def bonus_second_moment(config: RussianConfig | None = None) -> float:
    """The exact mean of the squared net of a 1-unit Bonus bet (its variance is this minus
    the square of :func:`bonus_return`)."""
    return _bonus_moment(config, 2)


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelCheck:
    """The model's stand EV against the exact one (card removal, optimal buys) on a sample."""

    classes: int
    mean_abs_error: float
    """Mean |model - exact| of the stand EV, in Antes (classes drawn by frequency)."""
    max_abs_error: float
    mean_error: float
    """Mean (model - exact): positive when the model overrates standing."""


def check_model(
    model: Model,
    classes: ClassTable,
    *,
    sample: int,
    seed: int,
    on_progress: ProgressCallback | None = None,
) -> ModelCheck:
    """Compare the model's stand EV with the exact EV for ``sample`` classes drawn by weight."""
    from croupier.analysis.russian import _kernels as k

    report = on_progress or _noop
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(classes.codes), size=sample, p=classes.weights / _TOTAL5)
    tab = _tables()
    errors = []
    report("check", 0, sample)
    for done, i in enumerate(picks, 1):
        hand = np.ascontiguousarray(classes.cards[i])
        value = evaluate_ids([int(c) for c in hand])
        exact = k.exact_stand_ev(
            hand,
            5,
            int(model.m5[value]),
            tab,
            model.qual,
            model.config.rebuy_same_rank,
            model.ante_win,
        )
        errors.append(float(classes.evs[i, 1]) - float(exact))
        report("check", done, sample)
    diffs = np.array(errors)
    return ModelCheck(
        classes=sample,
        mean_abs_error=float(np.abs(diffs).mean()),
        max_abs_error=float(np.abs(diffs).max()),
        mean_error=float(diffs.mean()),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class RussianAnalysis:
    """Everything :func:`analyze` computes."""

    model: Model
    classes: ClassTable
    edge: HouseEdge
    bonus: float
    """Expected net of a 1-unit Bonus bet."""


def analyze(
    config: RussianConfig | None = None,
    *,
    rounds: int = 200_000_000,
    seed: int = 1,
    on_progress: ProgressCallback | None = None,
) -> RussianAnalysis:
    """Compute the strategy and measure its house edge (see the module docstring)."""
    config = config or RussianConfig()
    model = build_model(config, on_progress=on_progress)
    classes = class_table(model, on_progress=on_progress)
    edge = house_edge(model, classes, rounds=rounds, seed=seed, on_progress=on_progress)
    return RussianAnalysis(model=model, classes=classes, edge=edge, bonus=bonus_return(config))
