"""What a seat (or the house) asks a Russian Poker round to do, as typed actions.

One frozen dataclass per action, :data:`RussianAction` their union, taken by
:meth:`croupier.games.russian.RussianRound.apply`. A decision names the seat and the box it
is for (boxes decide one at a time, spec/russian.md "Table").

>>> from croupier.cards import parse_cards
>>> Exchange(seat=0, box=2, discard=parse_cards("5c 3d")).kind
'exchange'
>>> Fold(seat=1, box=0) == Fold(seat=1, box=0, timeout=True)
True

:func:`price` is the wallet money each action needs: the one place a Russian Poker price is
written (:meth:`croupier.games.russian.RussianRound.price` asks it with the box's Ante).

>>> from croupier.games.russian.config import RussianConfig
>>> config = RussianConfig()
>>> price(PlaceBox(seat=0, box=0, ante=100, bonus=50), config)
150
>>> price(PlaceBox(seat=0, box=1, ante=100, blind=True, sixth_card=True), config)
400
>>> [price(a, config, ante=100) for a in (SixthCard(seat=0, box=0), PlaceBet(seat=0, box=0,
...     insurance=100), BuyGame(seat=0, box=0), Fold(seat=0, box=0))]
[100, 300, 100, 0]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.protocol import Action
from croupier.games.russian.config import RussianConfig

__all__ = [
    "BuyGame",
    "Deal",
    "DeclineBuy",
    "Exchange",
    "Fold",
    "PlaceBet",
    "PlaceBox",
    "RussianAction",
    "SixthCard",
    "bet_stake",
    "buy_fee",
    "draw_fee",
    "price",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBox(Action):
    """Put an Ante (and a Bonus) on ``box``; a blind box puts its Bet with it and, where the
    table allows, insurance and a sixth card bought in advance (docs/rules.md)."""

    kind = "box"

    seat: int
    box: int
    ante: int
    bonus: int = 0
    blind: bool = False
    insurance: int = 0
    sixth_card: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Action):
    """The house deals five cards to every box and to the dealer."""

    kind = "deal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Exchange(Action):
    """Pay the fee and exchange ``discard`` (cards of the box's hand) for as many new ones."""

    kind = "exchange"

    seat: int
    box: int
    discard: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SixthCard(Action):
    """Pay the fee for a sixth card."""

    kind = "sixth_card"

    seat: int
    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBet(Action):
    """Place the Bet and stand, with ``insurance`` (0: none; three of a kind or better)."""

    kind = "bet"

    seat: int
    box: int
    insurance: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold(Action):
    """Give up the box's bets (the Bonus still stands)."""

    kind = "fold"

    seat: int
    box: int
    timeout: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyGame(Action):
    """Pay to replace the dealer's highest card, for this box only."""

    kind = "buy"

    seat: int
    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclineBuy(Action):
    """Take the Ante paid 1:1 instead of buying the dealer's game."""

    kind = "decline"

    seat: int
    box: int
    timeout: bool = field(default=False, compare=False)


RussianAction = PlaceBox | Deal | Exchange | SixthCard | PlaceBet | Fold | BuyGame | DeclineBuy
"""Every action a Russian Poker round takes."""


def bet_stake(config: RussianConfig, ante: int) -> Chips:
    """A box's Bet: ``bet_multiple`` x its Ante (spec/russian.md "The player's decisions")."""
    return Chips(config.bet_multiple * ante)


def draw_fee(config: RussianConfig, ante: int) -> Chips:
    """The fee of an exchange or a sixth card: ``draw_fee_multiple`` x the box's Ante."""
    return Chips(config.draw_fee_multiple * ante)


def buy_fee(config: RussianConfig, ante: int) -> Chips:
    """The price of the dealer's game: ``buy_fee_multiple`` x the box's Ante."""
    return Chips(config.buy_fee_multiple * ante)


def price(action: RussianAction, config: RussianConfig, *, ante: int = 0) -> Chips:
    """The wallet money ``action`` needs at a table of ``config``: a box's Ante and Bonus (a
    blind box also its Bet, its insurance and a sixth card's fee bought in advance); an
    exchange's or a sixth card's fee, the Bet and its insurance, the dealer's game bought
    (``ante``: the Ante of the box deciding); nothing for the others."""
    match action:
        case PlaceBox(ante=opening, bonus=bonus, blind=blind):
            total = opening + bonus
            if blind:
                total += bet_stake(config, opening) + action.insurance
                total += draw_fee(config, opening) if action.sixth_card else 0
            return Chips(total)
        case Exchange() | SixthCard():
            return draw_fee(config, ante)
        case PlaceBet(insurance=insurance):
            return Chips(bet_stake(config, ante) + insurance)
        case BuyGame():
            return buy_fee(config, ante)
    return Chips(0)
