"""The engine protocol of a Russian Poker round (:mod:`croupier.games.protocol`): what a seat
may do now, and the typed actions dispatched to the round's verify / do commands.

:class:`~croupier.games.russian.RussianRound` delegates ``legal_actions``, ``verify``,
``apply`` and ``default_action`` here; everything goes through the round's public commands,
so a refused action changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from croupier.cards import Card
from croupier.chips import Chips
from croupier.errors import IllegalActionError
from croupier.games.protocol import Among, Amount, Legal, Subset, refused
from croupier.games.russian import actions
from croupier.games.russian.actions import (
    BuyGame,
    Deal,
    DeclineBuy,
    Exchange,
    Fold,
    PlaceBet,
    PlaceBox,
    RussianAction,
    SixthCard,
)
from croupier.games.russian.box import BoxStatus
from croupier.games.russian.config import RussianConfig
from croupier.games.russian.phase import Phase
from croupier.games.russian.rules import blind_insurance_multiples

__all__ = [
    "RoundCommands",
    "apply_action",
    "default_action",
    "legal_actions",
    "price",
    "seat_totals",
    "verify_action",
]


class RoundCommands(Protocol):
    """What this module asks of a round: the public queries and verify / do commands of
    :class:`croupier.games.russian.state.RussianRound` (a protocol, so that the state module,
    which delegates here, is not imported back)."""

    @property
    def config(self) -> RussianConfig: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def boxes(self) -> tuple[int, ...]: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def stub_available(self) -> int: ...
    def cards(self, box: int) -> tuple[Card, ...]: ...
    def seat_of(self, box: int) -> int: ...
    def ante(self, box: int) -> Chips: ...
    def status(self, box: int) -> BoxStatus: ...
    def open_boxes(self, seat: int) -> tuple[int, ...]: ...
    def has_room(self, seat: int, *, blind: bool) -> bool: ...
    def insurance_limits(self, box: int) -> tuple[int, int] | None: ...
    def can_deal(self) -> bool: ...
    def can_buy_game(self, seat: int, *, box: int) -> bool: ...
    def verify_place_box(
        self,
        seat: int,
        *,
        box: int,
        ante: int,
        bonus: int = 0,
        blind: bool = False,
        insurance: int = 0,
        sixth_card: bool = False,
    ) -> None: ...
    def place_box(
        self,
        seat: int,
        *,
        box: int,
        ante: int,
        bonus: int = 0,
        blind: bool = False,
        insurance: int = 0,
        sixth_card: bool = False,
    ) -> object: ...
    def verify_deal(self) -> None: ...
    def deal(self) -> object: ...
    def verify_exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> None: ...
    def exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> object: ...
    def verify_sixth_card(self, seat: int, *, box: int) -> None: ...
    def sixth_card(self, seat: int, *, box: int) -> object: ...
    def verify_bet(self, seat: int, *, box: int, insurance: int = 0) -> None: ...
    def bet(self, seat: int, *, box: int, insurance: int = 0) -> object: ...
    def verify_fold(self, seat: int, *, box: int) -> None: ...
    def fold(self, seat: int, *, box: int) -> object: ...
    def verify_buy_game(self, seat: int, *, box: int) -> None: ...
    def buy_game(self, seat: int, *, box: int) -> object: ...
    def verify_decline_buy(self, seat: int, *, box: int) -> None: ...
    def decline_buy(self, seat: int, *, box: int) -> object: ...


def legal_actions(game: RoundCommands, seat: int | None) -> tuple[Legal, ...]:
    """What ``seat`` may do now in ``game`` (``None``: the house), with every bound."""
    if seat is None:
        return (Legal(Deal()),) if game.can_deal() else ()
    if isinstance(seat, bool) or not isinstance(seat, int):
        return ()
    if game.phase is Phase.BETTING:
        return _legal_boxes(game, seat)
    box = game.to_act
    if box is None or game.seat_of(box) != seat:
        return ()
    if game.phase is Phase.BUYING:
        buy = (Legal(BuyGame(seat=seat, box=box)),) if game.can_buy_game(seat, box=box) else ()
        return (*buy, Legal(DeclineBuy(seat=seat, box=box)))
    return _legal_decisions(game, seat, box)


def _legal_boxes(game: RoundCommands, seat: int) -> tuple[Legal, ...]:
    c = game.config
    if not 0 <= seat < c.max_players:
        return ()
    free = tuple(b for b in range(c.boxes) if b not in game.boxes)
    if not free:
        return ()
    ante = Amount("ante", c.ante_min, c.ante_max)
    bonus = Amount("bonus", c.bonus_min, c.bonus_max, optional=True)
    where = Among("box", free)
    legal = []
    if len(game.open_boxes(seat)) < c.open_boxes_per_player and game.has_room(seat, blind=False):
        box = PlaceBox(seat=seat, box=free[0], ante=c.ante_min)
        legal.append(Legal(box, free=(where, ante, bonus)))
    if not game.has_room(seat, blind=True):
        return tuple(legal)
    blind: list[Amount | Among] = [where, ante, bonus]
    if c.blind_insurance:
        low, high = blind_insurance_multiples(c)
        blind.append(Amount("insurance", low, high, optional=True, per="ante", cap=c.max_payout))
    if c.blind_sixth_card:
        blind.append(Among("sixth_card", (False, True)))
    box = PlaceBox(seat=seat, box=free[0], ante=c.ante_min, blind=True)
    legal.append(Legal(box, free=tuple(blind)))
    return tuple(legal)


def _legal_decisions(game: RoundCommands, seat: int, box: int) -> tuple[Legal, ...]:
    c = game.config
    legal = []
    if game.status(box) is BoxStatus.WAITING:
        hand = game.cards(box)
        if game.stub_available >= c.exchange_min:
            discard = Exchange(seat=seat, box=box, discard=hand[: c.exchange_min])
            high = min(c.exchange_max, game.stub_available)
            legal.append(Legal(discard, free=(Subset("discard", hand, c.exchange_min, high),)))
        if game.stub_available >= 1:
            legal.append(Legal(SixthCard(seat=seat, box=box)))
    limits = game.insurance_limits(box)
    bet = PlaceBet(seat=seat, box=box)
    if limits is None:
        legal.append(Legal(bet))
    else:
        legal.append(Legal(bet, free=(Amount("insurance", *limits, optional=True),)))
    legal.append(Legal(Fold(seat=seat, box=box)))
    return tuple(legal)


def verify_action(game: RoundCommands, action: RussianAction) -> None:
    """Raise unless ``game`` accepts ``action`` now; nothing changes either way."""
    match action:
        case PlaceBox():
            game.verify_place_box(
                action.seat,
                box=action.box,
                ante=action.ante,
                bonus=action.bonus,
                blind=action.blind,
                insurance=action.insurance,
                sixth_card=action.sixth_card,
            )
        case Deal():
            game.verify_deal()
        case Exchange(seat=seat, box=box, discard=discard):
            game.verify_exchange(seat, box=box, discard=discard)
        case SixthCard(seat=seat, box=box):
            game.verify_sixth_card(seat, box=box)
        case PlaceBet(seat=seat, box=box, insurance=insurance):
            game.verify_bet(seat, box=box, insurance=insurance)
        case Fold(seat=seat, box=box):
            game.verify_fold(seat, box=box)
        case BuyGame(seat=seat, box=box):
            game.verify_buy_game(seat, box=box)
        case DeclineBuy(seat=seat, box=box):
            game.verify_decline_buy(seat, box=box)
        case _:
            raise _unknown(action)


def apply_action(game: RoundCommands, action: RussianAction) -> None:
    """Take ``action`` through ``game``'s command (each verifies before it changes anything)."""
    match action:
        case PlaceBox():
            game.place_box(
                action.seat,
                box=action.box,
                ante=action.ante,
                bonus=action.bonus,
                blind=action.blind,
                insurance=action.insurance,
                sixth_card=action.sixth_card,
            )
        case Deal():
            game.deal()
        case Exchange(seat=seat, box=box, discard=discard):
            game.exchange(seat, box=box, discard=discard)
        case SixthCard(seat=seat, box=box):
            game.sixth_card(seat, box=box)
        case PlaceBet(seat=seat, box=box, insurance=insurance):
            game.bet(seat, box=box, insurance=insurance)
        case Fold(seat=seat, box=box):
            game.fold(seat, box=box)
        case BuyGame(seat=seat, box=box):
            game.buy_game(seat, box=box)
        case DeclineBuy(seat=seat, box=box):
            game.decline_buy(seat, box=box)
        case _:
            raise _unknown(action)


def default_action(game: RoundCommands, seat: int) -> Fold | DeclineBuy | None:
    """What ``seat`` does when its box's time runs out (see ``RussianRound.default_action``)."""
    box = game.to_act
    if box is None or game.seat_of(box) != seat:
        return None
    if game.phase is Phase.BUYING:
        return DeclineBuy(seat=seat, box=box, timeout=True)
    return Fold(seat=seat, box=box, timeout=True)


def price(game: RoundCommands, action: RussianAction) -> Chips:
    """The wallet money ``action`` needs (:func:`.actions.price`): a decision at the Ante
    of its box."""
    box = None if isinstance(action, PlaceBox) else getattr(action, "box", None)
    ante = game.ante(box) if box is not None and box in game.boxes else 0
    return actions.price(action, game.config, ante=ante)


def seat_totals(game: RoundCommands, per_box: Callable[[int], int]) -> dict[int, Chips]:
    """``per_box`` summed over each seat's boxes, seats in order."""
    out: dict[int, int] = {}
    for box in game.boxes:
        seat = game.seat_of(box)
        out[seat] = out.get(seat, 0) + per_box(box)
    return {seat: Chips(out[seat]) for seat in sorted(out)}


def _unknown(action: object) -> IllegalActionError:
    kind = getattr(action, "kind", type(action).__name__)
    return refused(
        f"{kind!r} is not an action of a Russian Poker round", "unknown_action", action=kind
    )
