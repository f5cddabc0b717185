"""Fast construction of the engine's frozen records (:class:`Options` and the events).

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, about twice
the cost of setting its slots directly; the engine builds a record for every action, so these
builders set the slots through their descriptors. They build exactly what calling the class
builds (same type, same field values: ``tests/holdem/test_engine_speed_paths.py`` compares
them); none of these classes has a ``__post_init__`` to skip.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from croupier.cards import Card
from croupier.games.holdem.events import (
    BetReturned,
    BlindPosted,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Folded,
    HoleDealt,
    PotAwarded,
    Raised,
    Shown,
)
from croupier.games.holdem.options import Options

__all__ = [
    "bet_returned",
    "blind_posted",
    "board_dealt",
    "called",
    "card_burned",
    "checked",
    "folded",
    "hole_dealt",
    "options",
    "pot_awarded",
    "raised",
    "shown",
]

_Set = Callable[[Any, Any], None]
_new = object.__new__


def _setters(cls: type, *names: str) -> tuple[_Set, ...]:
    """The slot setters (member descriptors' ``__set__``) of the fields ``names``."""
    return tuple(cls.__dict__[name].__set__ for name in names)


_OPTIONS = _setters(
    Options, "seat", "to_call", "min_raise_to", "max_raise_to", "stack", "bet", "pot", "step"
)
(_FOLDED,) = _setters(Folded, "seat")
(_CHECKED,) = _setters(Checked, "seat")
_CALLED = _setters(Called, "seat", "amount", "all_in")
_RAISED = _setters(Raised, "seat", "to", "amount", "all_in", "full")
_BLIND = _setters(BlindPosted, "seat", "amount")
_RETURNED = _setters(BetReturned, "seat", "amount")
_HOLE = _setters(HoleDealt, "seat", "cards")
_SHOWN = _setters(Shown, "seat", "cards")
(_BURNED,) = _setters(CardBurned, "card")
_BOARD = _setters(BoardDealt, "street", "cards")
_AWARDED = _setters(PotAwarded, "pot", "seats", "amounts", "value")


def options(
    seat: int,
    to_call: int,
    low: int | None,
    high: int | None,
    stack: int,
    bet: int,
    pot: int,
    step: int,
    _s: tuple[_Set, ...] = _OPTIONS,
) -> Options:
    o = _new(Options)
    a, b, c, d, e, f, g, h = _s
    a(o, seat)
    b(o, to_call)
    c(o, low)
    d(o, high)
    e(o, stack)
    f(o, bet)
    g(o, pot)
    h(o, step)
    return o


def folded(seat: int, _a: _Set = _FOLDED) -> Folded:
    o = _new(Folded)
    _a(o, seat)
    return o


def checked(seat: int, _a: _Set = _CHECKED) -> Checked:
    o = _new(Checked)
    _a(o, seat)
    return o


def called(seat: int, amount: int, all_in: bool, _s: tuple[_Set, ...] = _CALLED) -> Called:
    o = _new(Called)
    a, b, c = _s
    a(o, seat)
    b(o, amount)
    c(o, all_in)
    return o


def raised(
    seat: int, to: int, amount: int, all_in: bool, full: bool, _s: tuple[_Set, ...] = _RAISED
) -> Raised:
    o = _new(Raised)
    a, b, c, d, e = _s
    a(o, seat)
    b(o, to)
    c(o, amount)
    d(o, all_in)
    e(o, full)
    return o


def blind_posted(seat: int, amount: int, _s: tuple[_Set, ...] = _BLIND) -> BlindPosted:
    o = _new(BlindPosted)
    _s[0](o, seat)
    _s[1](o, amount)
    return o


def bet_returned(seat: int, amount: int, _s: tuple[_Set, ...] = _RETURNED) -> BetReturned:
    o = _new(BetReturned)
    _s[0](o, seat)
    _s[1](o, amount)
    return o


def hole_dealt(
    seat: int, cards: tuple[Card, ...] | None, _s: tuple[_Set, ...] = _HOLE
) -> HoleDealt:
    o = _new(HoleDealt)
    _s[0](o, seat)
    _s[1](o, cards)
    return o


def shown(seat: int, cards: tuple[Card, ...] | None, _s: tuple[_Set, ...] = _SHOWN) -> Shown:
    o = _new(Shown)
    _s[0](o, seat)
    _s[1](o, cards)
    return o


def card_burned(card: Card, _a: _Set = _BURNED) -> CardBurned:
    o = _new(CardBurned)
    _a(o, card)
    return o


def board_dealt(street: int, cards: tuple[Card, ...], _s: tuple[_Set, ...] = _BOARD) -> BoardDealt:
    o = _new(BoardDealt)
    _s[0](o, street)
    _s[1](o, cards)
    return o


def pot_awarded(
    pot: int,
    seats: tuple[int, ...],
    amounts: tuple[int, ...],
    value: int,
    _s: tuple[_Set, ...] = _AWARDED,
) -> PotAwarded:
    o = _new(PotAwarded)
    a, b, c, d = _s
    a(o, pot)
    b(o, seats)
    c(o, amounts)
    d(o, value)
    return o
