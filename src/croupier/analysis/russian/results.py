"""The figures of an exact run: return, house edge, what each decision is worth.

From the per-class sums of :func:`.exact.solve`: the best allowed option of every class (a
strategy), its value as an exact fraction (the lower bound equals the upper one when every
sum was exact), the money wagered per round (Ante, fee, Bet, insurance, the bought game's
fee) as an exact fraction, and the parts: the share of hands taking each first decision and
what they are worth, how often the Bet is placed, insurance placed and the dealer's game
bought, and the insurance's and the buying's net.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.analysis.russian._draws import BETS, BUYS, GAIN_SUM, INS_COUNT, INS_NET, INSURED
from croupier.analysis.russian.exact import OPTION_NAMES, ClassSolution

__all__ = ["DecisionShare", "ExactResult", "summarize"]

_WORD = 1 << 40
_KINDS = ("fold", "stand", "sixth card", *(f"exchange {k}" for k in range(1, 6)))


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionShare:
    """One kind of first decision under the strategy."""

    decision: str
    """``"fold"``, ``"stand"``, ``"sixth card"``, ``"exchange k"``."""
    hands: Fraction
    """Share of first hands."""
    value: Fraction
    """Their contribution to the return per Ante (share times their mean value)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ExactResult:
    """The exact figures of one rule set, one box alone (player's view, per Ante)."""

    ev: Fraction
    """Expected net per round per Ante under the strategy (a lower bound on the optimum)."""
    ev_upper: Fraction
    """An upper bound on the optimal expected net (equal to ``ev`` when all sums are exact)."""
    wager: Fraction
    """Money wagered per round, in Antes: Ante, fees, Bet, insurance, the bought game's fee."""
    bet_rate: Fraction
    """Rounds in which the Bet is placed."""
    insurance_rate: Fraction
    """Rounds in which insurance is placed."""
    insurance_amount: Fraction
    """Insurance placed per round (Antes)."""
    insurance_net: Fraction
    """The insurance's net per round (Antes)."""
    buy_rate: Fraction
    """Rounds in which the dealer's game is bought."""
    buy_gain: Fraction
    """What buying adds per round over taking the Ante's payment (Antes, fee included)."""
    fees: Fraction
    """Exchange and sixth-card fees per round (Antes, negative)."""
    decisions: tuple[DecisionShare, ...]
    choice: npt.NDArray[np.int64]
    """The strategy: the option column chosen for each class."""
    seconds: float

    @property
    def house_edge(self) -> Fraction:
        """House edge per Ante (positive: the house wins)."""
        return -self.ev

    @property
    def house_edge_upper(self) -> Fraction:
        """The upper end of the house edge (from the lower bound of the optimum)."""
        return -self.ev

    @property
    def house_edge_lower(self) -> Fraction:
        """The lower end of the house edge (from the upper bound of the optimum)."""
        return -self.ev_upper

    @property
    def edge_per_total_bet(self) -> Fraction:
        """House edge as a share of all money wagered."""
        return -self.ev / self.wager

    @property
    def exact(self) -> bool:
        """Whether the two bounds meet."""
        return self.ev == self.ev_upper


def _choose(sol: ClassSolution, allowed: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The best allowed option per class (exact comparison among near ties; the lower
    column wins a tie)."""
    lows = np.where(allowed[None, :], sol.bounds[:, :, 0], -np.inf)
    choice = np.argmax(lows, axis=1)
    best = lows[np.arange(len(choice)), choice]
    near = (lows >= best[:, None] - 1e-9).sum(axis=1) > 1
    for c in np.flatnonzero(near):
        options = [o for o in np.flatnonzero(lows[c] >= best[c] - 1e-9) if sol.how[c, o] == 2]
        choice[c] = max(options, key=lambda o: (sol.total(int(c), int(o)), -o))
    return np.asarray(choice, dtype=np.int64)


def _kind(option: int) -> int:
    return option if option < 3 else 2 + (option - 2).bit_count()


def _two(words: npt.NDArray[np.int64]) -> int:
    return int(words[0]) * _WORD + int(words[1])


def summarize(sol: ClassSolution, allowed: npt.NDArray[np.bool_] | None = None) -> ExactResult:
    """The figures of ``sol`` under the options ``allowed`` (default: the table's)."""
    mask = sol.rules.allowed if allowed is None else allowed
    choice = _choose(sol, mask)
    weights = sol.classes.weights
    total_hands = int(weights.sum())
    left = sol.deck.bit_count() - 5
    # integer sums per option column (each column has one denominator)
    lo = [0] * 34
    up = [0] * 34
    count = [0] * 34
    extra = [[0] * 5 for _ in range(34)]
    net = [0] * 34
    gain = [0] * 34
    uppers = np.where(mask[None, :], sol.bounds[:, :, 1], -np.inf)
    for c in range(len(choice)):
        o = int(choice[c])
        w = int(weights[c])
        count[o] += w
        u = int(np.argmax(uppers[c]))
        if sol.how[c, u] != 2:
            raise ValueError(f"class {c}: the best upper bound is not an exact sum")
        # folding has no sums: its value is -1 (an upper bound counted 0 here before)
        up[u] += -w if u == 0 else w * _two(sol.words[c, u, 2:4])
        if o == 0:
            lo[0] -= w
            continue
        if sol.how[c, o] != 2:
            raise ValueError(f"class {c}: the chosen option was not summed exactly")
        lo[o] += w * _two(sol.words[c, o, 0:2])
        e = sol.ext[c, o]
        for i, column in enumerate((BETS, INS_COUNT, INSURED, BUYS)):
            extra[o][i] += w * int(e[column])
        net[o] += w * _two(e[INS_NET : INS_NET + 2])
        gain[o] += w * _two(e[GAIN_SUM : GAIN_SUM + 2])
    dens = (1, *sol.denominators[1:])
    ev = sum((Fraction(lo[o], dens[o]) for o in range(34)), Fraction(0)) / total_hands
    ev_upper = sum((Fraction(up[o], dens[o]) for o in range(34)), Fraction(0)) / total_hands

    def per_round(index: int, hands: bool = False) -> Fraction:
        out = Fraction(0)
        for o in range(1, 34):
            den = _draws(left, o) * (_hands_after(left, o) if hands else 1)
            out += Fraction(int(extra[o][index]), den)
        return out / total_hands

    bet_rate = per_round(0)
    fees = -Fraction(sum(count[2:]), total_hands)
    wager = 1 + 2 * bet_rate - fees + per_round(2) + per_round(3, hands=True)
    kind_hands = [0] * len(_KINDS)
    kind_values = [Fraction(0)] * len(_KINDS)
    for o in range(34):
        if count[o]:
            kind_hands[_kind(o)] += count[o]
            kind_values[_kind(o)] += Fraction(lo[o], dens[o])
    return ExactResult(
        ev=ev,
        ev_upper=ev_upper,
        wager=wager,
        bet_rate=bet_rate,
        insurance_rate=per_round(1),
        insurance_amount=per_round(2),
        insurance_net=sum((Fraction(net[o], dens[o]) for o in range(1, 34)), Fraction(0))
        / total_hands,
        buy_rate=per_round(3, hands=True),
        buy_gain=sum((Fraction(gain[o], dens[o]) for o in range(1, 34)), Fraction(0)) / total_hands,
        fees=fees,
        decisions=tuple(
            DecisionShare(
                decision=_KINDS[i],
                hands=Fraction(kind_hands[i], total_hands),
                value=kind_values[i] / total_hands,
            )
            for i in range(len(_KINDS))
            if kind_hands[i]
        ),
        choice=choice,
        seconds=sol.seconds,
    )


def _draws(left: int, option: int) -> int:
    from math import comb

    if option == 1:
        return 1
    if option == 2:
        return left
    return comb(left, (option - 2).bit_count())


def _hands_after(left: int, option: int) -> int:
    from math import comb

    if option <= 1:
        return comb(left, 5)
    if option == 2:
        return comb(left - 1, 5)
    return comb(left - (option - 2).bit_count(), 5)


def describe_option(option: int) -> str:
    """The column's name (:data:`.exact.OPTION_NAMES`)."""
    return OPTION_NAMES[option]
