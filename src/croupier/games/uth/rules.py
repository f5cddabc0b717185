"""Ultimate Texas Hold'em showdown and settlement (spec/uth.md "Showdown").

Pure functions over hand values; the round state calls them and so does ``croupier uth
settle``. Every amount is an integer number of minor units.

>>> from croupier.evaluator import evaluate
>>> result = settle_seat(
...     seat=0, player=evaluate("AsKd AhKh4c5s9c").value, dealer=evaluate("7c7d AhKh4c5s9c").value,
...     ante=1000, trips=500, play=4000, folded=False, config=UthConfig())
>>> {str(bet.bet): bet.net for bet in result.bets}, result.net
({'ante': 1000, 'blind': 0, 'play': 4000, 'trips': -500}, 4500)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from croupier.chips import Chips, pay_ratio
from croupier.evaluator import HandCategory, category_of
from croupier.games.paytables import PayLine
from croupier.games.protocol import refused
from croupier.games.uth.config import BlindRounding, UthConfig

__all__ = [
    "Bet",
    "BetResult",
    "Comparison",
    "Outcome",
    "SeatResult",
    "check_unit",
    "dealer_qualifies",
    "opening_stake",
    "settle_seat",
]


class Bet(StrEnum):
    """The spots of a UTH box."""

    ANTE = "ante"
    BLIND = "blind"
    PLAY = "play"
    TRIPS = "trips"


class Outcome(StrEnum):
    """How one bet ended."""

    WON = "won"
    LOST = "lost"
    PUSH = "push"


class Comparison(StrEnum):
    """The player's hand against the dealer's."""

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
    """The rule or pay-table line that decided it (``"Flush 3:2"``, ``"dealer not qualified"``)."""
    rounding: str | None = None
    """The minor units rounded away from a fractional payout, exact minus paid (``"1/2"``;
    negative when rounded up, ``"-1/2"``; more than one unit when paid to the chip)."""
    capped: int = 0
    """How much of the win the table's maximum payout took away."""

    @property
    def returned(self) -> int:
        """What goes back to the player for this bet: stake plus win, 0 if lost."""
        return self.stake + self.net


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatResult:
    """Every bet of one seat, settled."""

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


def opening_stake(*, ante: int, trips: int = 0) -> Chips:
    """The money a box's opening bets put on the table: the Ante, the Blind equal to it
    (spec/uth.md "Betting") and Trips. The one place this sum is written.

    >>> opening_stake(ante=1000, trips=500)
    2500
    """
    return Chips(2 * ante + trips)


def check_unit(spot: str, amount: int, config: UthConfig) -> None:
    """Refuse ``amount`` on ``spot`` unless it is a whole multiple of the table's
    ``bet_unit`` (spec/uth.md "Showdown", seed 003: bets are multiples of the base unit).

    Raises:
        IllegalActionError: ``bet_not_a_multiple``, naming the unit.
    """
    unit = config.bet_unit or 1
    if amount % unit:
        raise refused(
            f"{spot} {amount} is not a multiple of the table's bet unit {unit}",
            "bet_not_a_multiple",
            spot=spot,
            amount=amount,
            unit=unit,
        )


def dealer_qualifies(dealer: int) -> bool:
    """The dealer qualifies with a pair or better (spec/uth.md "Showdown")."""
    return category_of(dealer) >= HandCategory.PAIR


def _paid(
    bet: Bet,
    stake: int,
    line: PayLine,
    rounding: BlindRounding = BlindRounding.DOWN,
    chip: int = 1,
) -> BetResult:
    paid, remainder = pay_ratio(stake, line.numerator, line.denominator)
    win = int(paid)
    if remainder and rounding is BlindRounding.UP:
        win += 1
    elif rounding is BlindRounding.CHIP:
        win -= win % chip  # docs/rules.md blind_rounding "chip": down to the smallest chip
    exact = Fraction(stake * line.numerator, line.denominator)
    away = exact - win
    text = None if away == 0 else f"{away.numerator}/{away.denominator}"
    return BetResult(
        bet=bet, stake=Chips(stake), outcome=Outcome.WON, net=win, line=line.label, rounding=text
    )


def _even(bet: Bet, stake: int) -> BetResult:
    return BetResult(bet=bet, stake=Chips(stake), outcome=Outcome.WON, net=stake, line="1:1")


def _push(bet: Bet, stake: int, why: str) -> BetResult:
    return BetResult(bet=bet, stake=Chips(stake), outcome=Outcome.PUSH, net=0, line=why)


def _lost(bet: Bet, stake: int, why: str) -> BetResult:
    return BetResult(bet=bet, stake=Chips(stake), outcome=Outcome.LOST, net=-stake, line=why)


def settle_seat(
    *,
    seat: int,
    player: int,
    dealer: int,
    ante: int,
    trips: int,
    play: int,
    folded: bool,
    config: UthConfig,
) -> SeatResult:
    """Settle one box: Ante and Blind (= Ante), Play (0 if none), Trips (0 if none).

    ``player`` and ``dealer`` are the values of the best five of seven cards.

    Raises:
        IllegalActionError: under ``blind_rounding = "chip"``, an Ante that is not whole
            chips (``bet_not_a_multiple``): its Blind would be paid short.
    """
    if config.blind_rounding is BlindRounding.CHIP and ante % config.chip:
        # docs/rules.md bet_unit: only a fractional payout's part chip is ever rounded
        raise refused(
            f"ante {ante} is not a whole number of chips ({config.chip}): "
            f'blind_rounding = "chip" would pay its Blind short',
            "bet_not_a_multiple",
            spot="ante",
            amount=ante,
            unit=config.chip,
        )
    qualifies = dealer_qualifies(dealer)
    category = category_of(player)
    bets: list[BetResult] = []
    if folded:
        # spec/uth.md "Showdown": a fold on the river loses Ante and Blind; Trips stays in play
        comparison = Comparison.FOLD
        bets += [_lost(Bet.ANTE, ante, "folded"), _lost(Bet.BLIND, ante, "folded")]
    elif player > dealer:
        comparison = Comparison.WIN
        if qualifies:
            bets.append(_even(Bet.ANTE, ante))
        else:
            bets.append(_push(Bet.ANTE, ante, "dealer does not qualify"))
        blind_line = config.blind_paytable.line_for(category)
        if blind_line is None:
            bets.append(_push(Bet.BLIND, ante, f"{category.label} below the Blind table"))
        else:
            bets.append(_paid(Bet.BLIND, ante, blind_line, config.blind_rounding, config.chip))
        bets.append(_even(Bet.PLAY, play))
    elif player < dealer:
        comparison = Comparison.LOSE
        if qualifies:
            bets.append(_lost(Bet.ANTE, ante, "dealer wins"))
        else:
            bets.append(_push(Bet.ANTE, ante, "dealer does not qualify"))
        bets += [_lost(Bet.BLIND, ante, "dealer wins"), _lost(Bet.PLAY, play, "dealer wins")]
    else:
        comparison = Comparison.TIE
        bets += [
            _push(b, s, "tie") for b, s in ((Bet.ANTE, ante), (Bet.BLIND, ante), (Bet.PLAY, play))
        ]
    if trips:
        trips_line = config.trips_paytable.line_for(category)
        if trips_line is None:
            bets.append(_lost(Bet.TRIPS, trips, f"{category.label} below the Trips table"))
        elif config.trips_needs_win and comparison is not Comparison.WIN:
            # docs/rules.md trips_needs_win (Isle Casino Pompano Park): a Trips hand that
            # does not beat the dealer pushes
            bets.append(_push(Bet.TRIPS, trips, f"{trips_line.label} needs a win: push"))
        else:
            bets.append(_paid(Bet.TRIPS, trips, trips_line))
    if config.max_payout is not None:
        bets = _cap(bets, config.max_payout)
    return SeatResult(
        seat=seat,
        player_value=player,
        dealer_value=dealer,
        dealer_qualifies=qualifies,
        comparison=comparison,
        bets=tuple(bets),
    )


_CAP_ORDER = (Bet.TRIPS, Bet.BLIND, Bet.PLAY, Bet.ANTE)


def _cap(bets: list[BetResult], limit: int) -> list[BetResult]:
    """Reduce wins so the seat's total win is at most ``limit``.

    Decision (spec/uth.md is silent on how a cap is applied): the cap is on the seat's total
    win in the round; the excess is taken from Trips first, then Blind, Play and Ante.
    """
    excess = sum(b.net for b in bets if b.net > 0) - limit
    if excess <= 0:
        return bets
    by_bet = {b.bet: b for b in bets}
    for name in _CAP_ORDER:
        result = by_bet.get(name)
        if result is None or result.net <= 0 or excess <= 0:
            continue
        cut = min(result.net, excess)
        excess -= cut
        by_bet[name] = replace(result, net=result.net - cut, capped=cut)
    return [by_bet[b.bet] for b in bets]
