"""Caribbean Stud Poker settlement as pure functions (docs/rules.md "Caribbean Stud Poker").

The round state calls them and so does ``croupier caribbean settle``. Every amount is an
integer number of minor units.

>>> from croupier.evaluator import evaluate
>>> result = settle_box(seat=0, player=evaluate("9s9d 5c4h2s").value,
...     dealer=evaluate("AhKc 8d7s3c").value, ante=1000, raised=True, config=CaribbeanConfig())
>>> {str(bet.bet): bet.net for bet in result.bets}, result.comparison.value
({'ante': 1000, 'raise': 2000}, 'win')
>>> dealer_qualifies(evaluate("AhKc 8d7s3c").value), dealer_qualifies(evaluate("AhQc JdTs8c").value)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from croupier.chips import Chips, pay_ratio
from croupier.evaluator import HandCategory, category_of, evaluate_ids
from croupier.games.caribbean.config import CaribbeanConfig, ProgressiveTable

__all__ = [
    "Bet",
    "BetResult",
    "BoxResult",
    "Comparison",
    "Outcome",
    "dealer_qualifies",
    "opening_stake",
    "progressive_results",
    "qualify_min",
    "settle_box",
]


class Bet(StrEnum):
    """The spots of a Caribbean Stud box."""

    ANTE = "ante"
    RAISE = "raise"
    PROGRESSIVE = "progressive"


class Outcome(StrEnum):
    """How one bet ended."""

    WON = "won"
    LOST = "lost"
    PUSH = "push"


class Comparison(StrEnum):
    """The player's hand against the dealer's (whether or not the dealer qualified)."""

    WIN = "win"
    LOSE = "lose"
    TIE = "tie"
    FOLD = "fold"


@dataclass(frozen=True, slots=True, kw_only=True)
class BetResult:
    """The settlement of one bet."""

    bet: Bet
    stake: Chips
    outcome: Outcome
    net: int
    """The player's result: the win if positive, 0 for a push, minus the stake if lost."""
    line: str
    """The rule or pay-table line that decided it (``"Flush 5:1"``, ``"dealer does not
    qualify"``)."""
    rounding: str | None = None
    """The minor units rounded away from a fractional payout, exact minus paid (``"1/2"``)."""
    capped: int = 0
    """How much of the Raise's win the table's maximum payout took away."""

    @property
    def returned(self) -> int:
        """What goes back to the player for this bet: stake plus win, 0 if lost."""
        return self.stake + self.net


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxResult:
    """Every bet of one box, settled."""

    seat: int
    player_value: int
    dealer_value: int
    dealer_qualifies: bool
    comparison: Comparison
    bets: tuple[BetResult, ...]

    @property
    def net(self) -> int:
        """The player's net result of the round."""
        return sum(b.net for b in self.bets)

    @property
    def staked(self) -> int:
        """Everything the player put on the table."""
        return sum(b.stake for b in self.bets)

    @property
    def returned(self) -> int:
        """Everything paid back to the player (stakes kept plus wins)."""
        return sum(b.returned for b in self.bets)

    def bet(self, bet: Bet) -> BetResult | None:
        """The result of one bet, or None if it was not placed."""
        return next((b for b in self.bets if b.bet is bet), None)


@cache
def qualify_min() -> int:
    """The value of the dealer's lowest qualifying hand: Ace-King-4-3-2 of mixed suits.

    >>> qualify_min()
    1114
    """
    ace_spades, king_hearts, four_clubs, three_diamonds, two_clubs = 51, 46, 8, 5, 0
    return evaluate_ids([ace_spades, king_hearts, four_clubs, three_diamonds, two_clubs])


def dealer_qualifies(dealer: int) -> bool:
    """The dealer qualifies with Ace-King or better (docs/rules.md): every hand ranked at or
    above Ace-King-4-3-2; every pair and better does, and no high card below Ace-King."""
    return dealer >= qualify_min()


def opening_stake(*, ante: int, progressive: int = 0) -> Chips:
    """The money a box's opening bets put on the table: the Ante and the progressive bet.
    The one place this sum is written.

    >>> opening_stake(ante=1000, progressive=100)
    1100
    """
    return Chips(ante + progressive)


def _won(
    bet: Bet, stake: int, win: int, line: str, *, rounding: str | None = None, capped: int = 0
) -> BetResult:
    return BetResult(
        bet=bet,
        stake=Chips(stake),
        outcome=Outcome.WON,
        net=win,
        line=line,
        rounding=rounding,
        capped=capped,
    )


def _push(bet: Bet, stake: int, why: str) -> BetResult:
    return BetResult(bet=bet, stake=Chips(stake), outcome=Outcome.PUSH, net=0, line=why)


def _lost(bet: Bet, stake: int, why: str) -> BetResult:
    return BetResult(bet=bet, stake=Chips(stake), outcome=Outcome.LOST, net=-stake, line=why)


def _raise_win(stake: int, category: HandCategory, config: CaribbeanConfig) -> BetResult:
    line = config.raise_paytable.line_for(category)
    assert line is not None  # CaribbeanConfig: every category is listed
    paid, _ = pay_ratio(stake, line.numerator, line.denominator)
    exact = Fraction(stake * line.numerator, line.denominator)
    away = exact - paid
    rounding = None if away == 0 else f"{away.numerator}/{away.denominator}"
    win, capped = int(paid), 0
    if config.max_payout is not None and win > config.max_payout:
        # docs/rules.md max_payout: the cap is on the Raise's win; the Ante is paid besides
        win, capped = config.max_payout, win - config.max_payout
    return _won(Bet.RAISE, stake, win, line.label, rounding=rounding, capped=capped)


def settle_box(
    *,
    seat: int,
    player: int,
    dealer: int,
    ante: int,
    raised: bool,
    config: CaribbeanConfig,
    progressive: BetResult | None = None,
) -> BoxResult:
    """Settle one box: the Ante, the Raise (``config.raise_multiple`` Antes, if raised) and
    the progressive bet's result (:func:`progressive_results`) when one was placed.

    ``player`` and ``dealer`` are the values of the two five-card hands. A fold loses the
    Ante; a dealer who does not qualify pays the Ante 1:1 and pushes the Raise; a qualifying
    dealer is compared: the better hand wins the Ante 1:1 and the Raise by the pay table, or
    takes both; a tie pushes both.
    """
    qualifies = dealer_qualifies(dealer)
    if not raised:
        comparison = Comparison.FOLD
    elif player > dealer:
        comparison = Comparison.WIN
    elif player < dealer:
        comparison = Comparison.LOSE
    else:
        comparison = Comparison.TIE
    stake = config.raise_multiple * ante
    bets: list[BetResult]
    if comparison is Comparison.FOLD:
        bets = [_lost(Bet.ANTE, ante, "folded")]
    elif not qualifies:
        why = "dealer does not qualify"
        bets = [_won(Bet.ANTE, ante, ante, f"1:1, {why}"), _push(Bet.RAISE, stake, why)]
    elif comparison is Comparison.WIN:
        bets = [_won(Bet.ANTE, ante, ante, "1:1"), _raise_win(stake, category_of(player), config)]
    elif comparison is Comparison.LOSE:
        bets = [_lost(Bet.ANTE, ante, "dealer wins"), _lost(Bet.RAISE, stake, "dealer wins")]
    else:
        bets = [_push(Bet.ANTE, ante, "tie"), _push(Bet.RAISE, stake, "tie")]
    if progressive is not None:
        bets.append(progressive)
    return BoxResult(
        seat=seat,
        player_value=player,
        dealer_value=dealer,
        dealer_qualifies=qualifies,
        comparison=comparison,
        bets=tuple(bets),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class _Entry:
    seat: int
    category: HandCategory
    folded: bool


def progressive_results(
    boxes: Sequence[tuple[int, HandCategory, bool]],
    *,
    bet: int,
    table: ProgressiveTable,
    jackpot: int,
) -> tuple[dict[int, BetResult], Chips]:
    """Settle the progressive bets of ``boxes`` -- (seat, the player's category, folded) in
    the order the dealer pays them -- against the jackpot meter ``jackpot``.

    docs/rules.md "The progressive": the bet is collected whatever happens (it feeds the
    meter) and a hand on the table is paid its prize instead; a folded hand is paid nothing.
    A percentage prize is that share of the meter when it is paid, and comes off the meter;
    winners of the same percentage line in one round share equally the amount the line paid
    the first of them (Bermuda rules: "each player shares equally in the amount on the jackpot
    meter when the first player with a royal flush is to be paid"); the odd minor units stay in
    the meter. A fixed prize is paid by the house and leaves the meter as it is. Returns each
    seat's result and the total taken from the meter.

    >>> from croupier.games.caribbean.config import DEFAULT_PROGRESSIVE
    >>> paid, meter = progressive_results(
    ...     [(3, HandCategory.ROYAL_FLUSH, False), (1, HandCategory.ROYAL_FLUSH, False),
    ...      (0, HandCategory.FLUSH, False)], bet=100, table=DEFAULT_PROGRESSIVE, jackpot=100001)
    >>> [paid[s].net for s in (3, 1, 0)], meter
    ([49900, 49900, 4900], 100000)
    """
    entries = [_Entry(seat=s, category=c, folded=f) for s, c, f in boxes]
    winners: dict[HandCategory, int] = {}
    for e in entries:
        prize = table.prize_for(e.category)
        if not e.folded and prize is not None and prize.percent:
            winners[e.category] = winners.get(e.category, 0) + 1
    meter, taken = jackpot, 0
    shares: dict[HandCategory, int] = {}
    out: dict[int, BetResult] = {}
    for e in entries:
        prize = table.prize_for(e.category)
        if e.folded:
            out[e.seat] = _lost(Bet.PROGRESSIVE, bet, "folded")
        elif prize is None:
            out[e.seat] = _lost(Bet.PROGRESSIVE, bet, f"{e.category.label} pays no prize")
        elif prize.amount:
            out[e.seat] = _won(Bet.PROGRESSIVE, bet, prize.amount - bet, prize.label)
        else:
            if e.category not in shares:
                shares[e.category] = meter * prize.percent // 100 // winners[e.category]
            share = shares[e.category]
            line = f"{prize.label} of the jackpot {meter}"
            meter -= share
            taken += share
            out[e.seat] = _won(Bet.PROGRESSIVE, bet, share - bet, line)
    return out, Chips(taken)
