"""The one shape of every game engine: typed actions, what a seat may do, events that say who
may see them, views that show nothing more.

:class:`~croupier.games.uth.UthRound`, :class:`~croupier.games.russian.RussianRound` and
:class:`~croupier.games.holdem.CashHand` all implement :class:`Engine`, built the same way
(``Engine(config, shoe, *, ...)``) and driven with the same names:

============================  ===========================================================
``legal_actions(seat)``       what ``seat`` may do now (``None``: the house, e.g. deal), as
                              :class:`Legal` entries with the bounds of every amount
``verify(action)``            raise :class:`~croupier.errors.IllegalActionError` (with a
                              stable ``reason``, docs/errors.md) unless ``apply`` accepts it
``can(action)``               whether ``apply`` would accept it
``apply(action)``             validate everything, then act; the events it caused, in order
``default_action(seat)``      what a seat that lets its time run out does (spec defaults)
``view(seat)``                a frozen projection: never a card ``seat`` may not see
``void(reason)``              end the round for a fault; every stake returned
``staked()`` / ``returns()``  each seat's money on the table now / paid back at the end
``price(action)``             the wallet money ``action`` needs (a bet's stake, a decision's
                              fee or bet; 0 for one that moves none, and for every Hold'em
                              action, whose chips are at the table): the one place a price
                              is written
============================  ===========================================================

Every engine's ``Phase`` names the same moments the same way: ``BETTING`` before the deal
(UTH, Russian Poker; Hold'em: a betting round), ``SHOWDOWN``, ``SETTLED`` (paid) and
``VOIDED`` (every stake returned).

Events are frozen records with an explicit wire name (:attr:`Event.kind`: renaming a class
never changes the protocol) and an :attr:`~Event.audience`: :data:`PUBLIC`, a seat, or
:data:`HOUSE` (no player until a later event shows it). :meth:`Event.seen_by` is the event as
one seat may see it: the fields listed in :attr:`Event.secret` are ``None`` for anybody else.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True, kw_only=True)
... class Dealt(Event):
...     kind = "dealt"
...     secret = ("cards",)
...     seat: int
...     cards: tuple[str, ...]
...     @property
...     def audience(self) -> int:
...         return self.seat
>>> event = Dealt(seat=2, cards=("As", "Kd"))
>>> event.seen_by(2) is event, event.seen_by(0).cards, event.seen_by(None).cards
(True, None, None)
>>> @dataclass(frozen=True, slots=True, kw_only=True)
... class Raise(Action):
...     kind = "raise"
...     seat: int
...     to: int
>>> legal = Legal(Raise(seat=0, to=100), free=(Amount("to", 100, 400, step=50),))
>>> legal.admits(Raise(seat=0, to=250)), legal.admits(Raise(seat=0, to=260))
(True, False)
>>> legal.admits(Raise(seat=1, to=250))
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol, TypeVar

from croupier.chips import Chips
from croupier.errors import IllegalActionError, InvalidCardsError

__all__ = [
    "HOUSE",
    "PUBLIC",
    "Action",
    "Among",
    "Amount",
    "Constraint",
    "Engine",
    "Event",
    "Legal",
    "Subset",
    "hide",
    "refused",
    "succeeds",
]

PUBLIC: Final = -1
"""The audience of an event every seat (and a spectator) may see."""
HOUSE: Final = -2
"""The audience of an event no player may see (the dealer's cards before the showdown,
burns, the order of reshuffled discards); a later public event may show its cards."""

_E = TypeVar("_E", bound="Event")


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every engine event: a frozen record of something that happened."""

    kind: ClassVar[str] = "event"
    """The wire name (``"hole_cards_dealt"``): explicit, never derived from the class name."""
    secret: ClassVar[tuple[str, ...]] = ()
    """The fields only the :attr:`audience` may see (cards, in practice)."""

    @property
    def audience(self) -> int:
        """Who may see the :attr:`secret` fields: :data:`PUBLIC`, :data:`HOUSE` or a seat."""
        return PUBLIC

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see the whole event."""
        audience = self.audience
        return audience == PUBLIC or (seat is not None and seat >= 0 and audience == seat)

    def seen_by(self: _E, seat: int | None) -> _E:
        """The event as ``seat`` may see it: itself, or a copy whose secret fields are
        ``None``. Events whose parts have different audiences override this."""
        if not self.secret or self.visible_to(seat):
            return self
        return hide(self, self.secret)


def hide(event: _E, names: Collection[str], **replaced: Any) -> _E:
    """A copy of ``event`` with the fields ``names`` set to ``None`` (and ``replaced`` set):
    the projection an event sends to someone who may not see those fields."""
    changes: dict[str, Any] = dict.fromkeys(names)
    changes.update(replaced)
    return dataclasses.replace(event, **changes)


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """Base of every typed action a seat (or the house) asks an engine to take."""

    kind: ClassVar[str] = "action"
    """The action's wire name (``"check"``, ``"raise"``...)."""


@dataclass(frozen=True, slots=True)
class Amount:
    """The bounds of an amount field: a whole number from ``low`` to ``high``, a multiple of
    ``step``; ``optional``: 0 (no such bet) is accepted too. With ``per``, the bounds are
    multiples of another field's value (insurance in Antes), the upper one at most ``cap``
    and never below the lower one."""

    field: str
    low: int
    high: int
    step: int = 1
    optional: bool = False
    per: str | None = None
    cap: int | None = None

    def bounds(self, action: Action) -> tuple[int, int]:
        """The least and the most ``action`` may put in this field."""
        low, high = self.low, self.high
        if self.per is not None:
            base = getattr(action, self.per)
            low, high = low * base, max(low * base, high * base)
        if self.cap is not None:
            high = max(low, min(high, self.cap))
        return low, high

    def admits(self, action: Action) -> bool:
        """Whether ``action``'s value of this field is within the bounds."""
        value = getattr(action, self.field)
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        if self.optional and value == 0:
            return True
        low, high = self.bounds(action)
        return low <= value <= high and value % self.step == 0


@dataclass(frozen=True, slots=True)
class Among:
    """A field that may take any of ``values`` (a free box on the layout)."""

    field: str
    values: tuple[Any, ...]

    def admits(self, action: Action) -> bool:
        """Whether ``action``'s value of this field is one of :attr:`values`."""
        value = getattr(action, self.field)
        return any(type(value) is type(v) and value == v for v in self.values)


@dataclass(frozen=True, slots=True)
class Subset:
    """A field holding ``low`` to ``high`` different items of ``among`` (cards to discard)."""

    field: str
    among: tuple[Any, ...]
    low: int
    high: int

    def admits(self, action: Action) -> bool:
        """Whether ``action``'s value of this field is such a subset, without repeats."""
        value = getattr(action, self.field)
        if not isinstance(value, tuple) or len(set(value)) != len(value):
            return False
        return self.low <= len(value) <= self.high and all(v in self.among for v in value)


Constraint = Amount | Among | Subset


@dataclass(frozen=True, slots=True)
class Legal:
    """One action a seat may take now: :attr:`action` as given, except the fields that
    :attr:`free` constrains (the bounds of an amount, the boxes to choose from...)."""

    action: Action
    free: tuple[Constraint, ...] = ()

    @property
    def kind(self) -> str:
        """The action's wire name."""
        return self.action.kind

    def admits(self, candidate: Action) -> bool:
        """Whether ``candidate`` is this action with its free fields within bounds."""
        if type(candidate) is not type(self.action):
            return False
        loose = {c.field for c in self.free}
        for f in dataclasses.fields(self.action):
            if f.compare and f.name not in loose:
                mine, theirs = getattr(self.action, f.name), getattr(candidate, f.name)
                if type(mine) is not type(theirs) or mine != theirs:
                    return False
        return all(c.admits(candidate) for c in self.free)

    def amount(self, name: str) -> Amount | None:
        """The bounds of the amount field ``name``, if it is free."""
        return next((c for c in self.free if isinstance(c, Amount) and c.field == name), None)


_A = TypeVar("_A", bound=Action)
_V = TypeVar("_V", covariant=True)


class Engine(Protocol[_A, _V]):
    """What every game engine offers (see the module docstring)."""

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, in order."""
        ...

    @property
    def finished(self) -> bool:
        """Settled or voided."""
        ...

    def legal_actions(self, seat: int | None) -> tuple[Legal, ...]: ...

    def verify(self, action: _A) -> None: ...

    def can(self, action: _A) -> bool: ...

    def apply(self, action: _A) -> tuple[Event, ...]: ...

    def default_action(self, seat: int) -> _A | None: ...

    def view(self, seat: int | None) -> _V: ...

    def void(self, reason: str) -> Event: ...

    def staked(self) -> dict[int, Chips]: ...

    def returns(self) -> dict[int, Chips]: ...

    def price(self, action: _A) -> Chips:
        """The money ``action`` moves from the wallet to the table (its legality is
        :meth:`verify`'s business, not this)."""
        ...


def succeeds(verify: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    """Whether ``verify`` accepts the arguments (the ``can_x`` half of verify/can/do): a
    refusal of the rules or of cards that cannot be dealt is ``False``."""
    try:
        verify(*args, **kwargs)
    except (IllegalActionError, InvalidCardsError):
        return False
    return True


def refused(message: str, reason: str, **params: Any) -> IllegalActionError:
    """An :class:`IllegalActionError` with a stable ``reason`` and its ``params`` (money in
    minor units), every one listed in docs/errors.md; ``raise refused(...)``."""
    clean: Mapping[str, Any] = {k: v for k, v in params.items() if v is not None}
    return IllegalActionError(message, reason=reason, params=clean)
