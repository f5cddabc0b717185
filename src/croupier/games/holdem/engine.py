"""The engine protocol of a hand of hold'em (:mod:`croupier.games.protocol`), on top of
:class:`~croupier.games.holdem.state.CashHand`'s verify / can / do commands.

:class:`HandEngine` is the base of ``CashHand``: it adds ``legal_actions``, ``verify``,
``apply``, ``default_action``, ``view``, ``void``, ``staked`` and ``returns`` without
touching the hand's betting internals; every action goes through the hand's own command,
which validates everything before it changes anything.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.holdem import CashHand, HoldemConfig
>>> from croupier.games.holdem.actions import Fold, Raise
>>> hand = CashHand(HoldemConfig.cash(players=3, small_blind=1, big_blind=2),
...                 Shoe(shuffled(seeded_source(1))), stacks=(100, 100, 100))
>>> [(legal.kind, legal.amount("to")) for legal in hand.legal_actions(2)]
[('fold', None), ('call', None), ('raise', Amount(field='to', low=4, high=100, step=1, \
optional=False, per=None, cap=None))]
>>> _ = hand.apply(Raise(seat=2, to=6))
>>> hand.staked()
{0: 1, 1: 2, 2: 6}
>>> type(hand.void("shuffler fault")).__name__, hand.returns()
('RoundVoided', {0: 1, 1: 2, 2: 6})
"""

from __future__ import annotations

from typing import Any, cast

from croupier.chips import Chips
from croupier.errors import IllegalActionError
from croupier.games.holdem.actions import Call, Check, Fold, HoldemAction, Muck, Raise, Show
from croupier.games.holdem.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    Called,
    HoldemEvent,
    PotAwarded,
    Raised,
    RoundVoided,
)
from croupier.games.holdem.hand import HandState
from croupier.games.holdem.phase import Phase
from croupier.games.holdem.views import HandView, view_for
from croupier.games.protocol import Amount, Legal, refused, succeeds

__all__ = ["HandEngine", "all_in"]


class HandEngine:
    """The protocol half of :class:`~croupier.games.holdem.state.CashHand` (a mixin: every
    method runs on the hand itself)."""

    __slots__ = ()

    @property
    def finished(self) -> bool:
        """Settled or voided."""
        return _finished(_hand(self))

    def legal_actions(self, seat: int | None) -> tuple[Legal, ...]:
        """What player ``seat`` may do now, with the bounds of a bet or raise; the house
        has nothing to do (with a shoe, the hand deals itself)."""
        return _legal_actions(_hand(self), seat)

    def verify(self, action: HoldemAction) -> None:
        """Raise unless :meth:`apply` accepts ``action``; nothing changes either way."""
        _verify(_hand(self), action)

    def can(self, action: HoldemAction) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        return _can(_hand(self), action)

    def apply(self, action: HoldemAction) -> tuple[HoldemEvent, ...]:
        """Take ``action`` (validated whole first: a refused action changes nothing); the
        events it caused, in order (streets dealt and pots paid that follow included)."""
        return _apply(_hand(self), action)

    def default_action(self, seat: int) -> Check | Fold | None:
        """What the player to act does when their time runs out: check if they can, else
        fold; ``None`` for a player not to act."""
        return _default_action(_hand(self), seat)

    def view(self, seat: int | None) -> HandView:
        """What player ``seat`` may see (``None``: a spectator): their own hole cards, the
        board, cards shown -- never another player's hole cards before they are shown."""
        return _view(_hand(self), seat)

    def verify_void(self) -> None:
        """Raise once the hand is settled or voided."""
        _verify_void(_hand(self))

    def can_void(self) -> bool:
        """Whether :meth:`void` would succeed."""
        return _can_void(_hand(self))

    def void(self, reason: str) -> RoundVoided:
        """Void the hand for a fault: every player's chips go back to where the hand found
        them (the chips in front and in the pots returned), nothing is paid or raked."""
        return _void(_hand(self), reason)

    def staked(self) -> dict[int, Chips]:
        """Each player's chips put in the middle so far (forced bets, calls and raises,
        less uncalled bets returned)."""
        return _staked(_hand(self))

    def returns(self) -> dict[int, Chips]:
        """Each player's chips paid back from the middle: the pots won once the hand is
        settled, everything put in once it is voided; empty before."""
        return _returns(_hand(self))

    def price(self, action: HoldemAction) -> Chips:
        """Nothing from the wallet: a hand's chips are at the table already (the stacks
        bought in), so no action of a hand has a price."""
        return Chips(0)

    def turn_reason(self, seat: int) -> dict[str, Any]:
        """The ``reason`` and ``params`` of the refusal of an action out of turn (the
        conditions of ``CashHand._turn_refusal``, in its order)."""
        return _turn_reason(_hand(self), seat)


def _hand(engine: HandEngine) -> HandState:
    """The hand a :class:`HandEngine` method runs on (``CashHand`` is its only subclass)."""
    return cast("HandState", engine)


def _finished(hand: HandState) -> bool:
    return hand.phase in (Phase.SETTLED, Phase.VOIDED)


def _legal_actions(hand: HandState, seat: int | None) -> tuple[Legal, ...]:
    if seat is None or hand.phase is Phase.VOIDED or not 0 <= seat < hand.players:
        return ()
    if hand.phase in (Phase.SHOWDOWN, Phase.SETTLED):
        show = (Legal(Show(seat=seat)),) if hand.can_show(seat) else ()
        muck = (Legal(Muck(seat=seat)),) if hand.can_muck(seat) else ()
        return show + muck
    if hand.actor != seat:
        return ()
    legal = [Legal(Fold(seat=seat))]
    legal.append(Legal(Check(seat=seat)) if hand.can_check(seat) else Legal(Call(seat=seat)))
    bounds = hand.raise_bounds()
    if bounds is not None:
        low, high = bounds
        step = hand.config.split.unit
        legal.append(Legal(Raise(seat=seat, to=Chips(low)), free=(Amount("to", low, high, step),)))
    return tuple(legal)


def _verify(hand: HandState, action: HoldemAction) -> None:
    if hand.phase is Phase.VOIDED:
        raise refused("the hand was voided", "hand_over")
    match action:
        case Fold(seat=seat):
            hand.verify_fold(seat)
        case Check(seat=seat):
            hand.verify_check(seat)
        case Call(seat=seat):
            hand.verify_call(seat)
        case Raise(seat=seat):
            # the amount as sent, whatever its type: verify_raise names a wrong one
            hand.verify_raise(seat, to=_amount(action))
        case Show(seat=seat):
            hand.verify_show(seat)
        case Muck(seat=seat):
            hand.verify_muck(seat)
        case _:
            raise _unknown(action)


def _amount(action: Raise) -> object:
    """``action.to`` as sent (typed ``object``: the compiled engine checks no type on it)."""
    sent: Any = action
    return sent.to


def _can(hand: HandState, action: HoldemAction) -> bool:
    return succeeds(hand.verify, action)


def _apply(hand: HandState, action: HoldemAction) -> tuple[HoldemEvent, ...]:
    hand.verify(action)
    start = len(hand.events)
    match action:
        case Fold(seat=seat):
            hand.fold(seat)
        case Check(seat=seat):
            hand.check(seat)
        case Call(seat=seat):
            hand.call(seat)
        case Raise(seat=seat):
            hand.raise_to(seat, _amount(action))
        case Show(seat=seat):
            hand.show(seat)
        case Muck(seat=seat):
            hand.muck(seat)
    return hand.events[start:]


def _default_action(hand: HandState, seat: int) -> Check | Fold | None:
    if hand.phase is Phase.VOIDED or hand.actor != seat:
        return None
    return Check(seat=seat, timeout=True) if hand.can_check(seat) else Fold(seat=seat, timeout=True)


def _view(hand: HandState, seat: int | None) -> HandView:
    return view_for(hand, seat)


def _verify_void(hand: HandState) -> None:
    if hand.finished:
        raise refused(
            f"a hand in phase {hand.phase} cannot be voided",
            "round_over",
            phase=hand.phase.value,
        )


def _can_void(hand: HandState) -> bool:
    return not hand.finished


def _void(hand: HandState, reason: str) -> RoundVoided:
    hand.verify_void()
    n = hand.players
    returned = tuple((p, Chips(hand.starting_stacks[p] - hand.stacks[p])) for p in range(n))
    state: Any = hand  # the hand's own bookkeeping, reset in one place
    state._stacks = list(hand.starting_stacks)
    state._bets = [0] * n
    state._put_in = [0] * n
    state._in = [False] * n  # nobody is to act, show or muck any more
    state._live = 0
    state._top = 0
    state._pending = [False] * n
    state._order = []  # nobody is to act: the fast paths of fold and call check it first
    state._quote = None
    state._phase = Phase.VOIDED
    event = RoundVoided(reason, returned)
    state._events.append(event)
    return event


def _staked(hand: HandState) -> dict[int, Chips]:
    out = dict.fromkeys(range(hand.players), 0)
    for event in hand.events:
        match event:
            case AntePosted(seat=seat, amount=amount) | BlindPosted(seat=seat, amount=amount):
                out[seat] += amount
            case Called(seat=seat, amount=amount) | Raised(seat=seat, amount=amount):
                out[seat] += amount
            case BetReturned(seat=seat, amount=amount):
                out[seat] -= amount
    return {seat: Chips(amount) for seat, amount in out.items()}


def _returns(hand: HandState) -> dict[int, Chips]:
    if hand.phase is Phase.VOIDED:
        voided = next(e for e in hand.events if isinstance(e, RoundVoided))
        return {seat: Chips(amount) for seat, amount in voided.returned}
    if hand.phase is not Phase.SETTLED:
        return {}
    out = dict.fromkeys(range(hand.players), 0)
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for seat, amount in zip(event.seats, event.amounts, strict=True):
                out[seat] += amount
    return {seat: Chips(amount) for seat, amount in out.items()}


def _turn_reason(hand: HandState, seat: int) -> dict[str, Any]:
    if hand.phase in (Phase.SETTLED, Phase.VOIDED):
        return {"reason": "hand_over"}
    if not 0 <= seat < hand.players:
        return {"reason": "seat_does_not_exist", "params": {"seat": seat}}
    if not hand.active[seat]:
        return {"reason": "not_in_hand", "params": {"seat": seat}}
    if hand.actor is None:
        return {"reason": "no_decisions_now", "params": {"phase": hand.phase.value}}
    return {"reason": "not_your_turn", "params": {"seat": seat, "to_act": hand.actor}}


def all_in(hand: HandState, seat: int) -> Raise | Call | None:
    """The legal action that puts ``seat``'s whole stack in, or ``None`` when none does.

    A raise to the whole stack when the rules allow one to it (always in No-Limit once a
    raise is allowed; in Pot- and Fixed-Limit only when the limit reaches the stack), else
    the call when calling takes the whole stack (all-in for the bet, or for less). Nothing
    when the limit stops short of the stack, or the call against a smaller all-in leaves
    chips behind: the table then offers no ``all_in`` and refuses the word (a check or a
    part call is not an all-in).
    """
    legal = _legal_actions(hand, seat)
    if not legal:
        return None
    stack, bet = hand.stacks[seat], hand.bets[seat]
    shove = Raise(seat=seat, to=Chips(stack + bet))
    for entry in legal:
        if isinstance(entry.action, Raise) and entry.admits(shove):
            return shove
    for entry in legal:
        if isinstance(entry.action, Call) and max(hand.bets) - bet >= stack:
            return Call(seat=seat)
    return None


def _unknown(action: object) -> IllegalActionError:
    kind = getattr(action, "kind", type(action).__name__)
    return refused(f"{kind!r} is not an action of a hand of hold'em", "unknown_action", action=kind)
