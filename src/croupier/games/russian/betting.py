"""The rules of placing boxes on a Russian Poker layout (spec/russian.md "Table", "Bets and
deal"; the options of docs/rules.md): who may bet where, and how much.

Pure checks over the round's boxes; :meth:`croupier.games.russian.RussianRound.place_box`
calls :func:`verify_box` before it changes anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from croupier.errors import ConfigError
from croupier.games.protocol import refused
from croupier.games.russian.box import Box
from croupier.games.russian.config import LIMITS, RussianConfig
from croupier.games.russian.phase import Phase
from croupier.games.russian.rules import verify_blind_choices

__all__ = [
    "changed_limits",
    "lacking_open_box",
    "open_boxes",
    "verify_box",
    "verify_room",
    "verify_seat",
    "whole",
]


def changed_limits(
    config: RussianConfig, limits: Mapping[str, Any], *, phase: Phase
) -> RussianConfig:
    """``config`` with the table's :data:`~croupier.games.russian.config.LIMITS` changed to
    ``limits`` (checked whole, as any config) during a round's betting window.

    Raises:
        IllegalActionError: the round's boxes are dealt (``phase`` is past betting).
        ConfigError: a setting that is not one of the limits, or limits refused.
    """
    if phase is not Phase.BETTING:
        raise refused(f"bets are closed: phase {phase}", "bets_closed", phase=phase.value)
    other = sorted(set(limits) - set(LIMITS))
    if other:
        raise ConfigError(f"{other} are not limits; the limits are {list(LIMITS)}")
    return replace(config, **limits)


def whole(name: str, amount: object) -> None:
    """Refuse an amount that is not a whole number of minor units."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise refused(
            f"{name} {amount!r} is not a whole number of minor units", "amount_not_whole", spot=name
        )


def verify_seat(config: RussianConfig, seat: object) -> None:
    """Refuse a seat number that is not a seat at the table."""
    players = config.max_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise refused(
            f"seat {seat} is not a seat at this table (0..{players - 1})",
            "seat_does_not_exist",
            seat=seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
            seats=players,
        )


def open_boxes(boxes: Mapping[int, Box], seat: int) -> tuple[int, ...]:
    """``seat``'s open boxes among ``boxes``, in order."""
    return tuple(i for i, b in sorted(boxes.items()) if b.seat == seat and not b.blind)


def _limits(name: str, amount: int, low: int, high: int) -> None:
    if not low <= amount <= high:
        raise refused(
            f"{name} {amount} is outside the table limits {low}..{high}",
            "bet_out_of_limits",
            spot=name,
            amount=amount,
            min=low,
            max=high,
        )


def verify_box(
    config: RussianConfig,
    boxes: Mapping[int, Box],
    seat: int,
    *,
    box: int,
    ante: int,
    bonus: int,
    blind: bool,
    insurance: int,
    sixth_card: bool,
) -> None:
    """Raise unless ``seat`` may put these bets on ``box`` beside the ``boxes`` placed.

    Raises:
        IllegalActionError: an unknown seat or box, a box taken, an open box more than the
            table allows a player, a bet outside the table limits, an advance choice the
            table does not offer.
    """
    c = config
    verify_seat(c, seat)
    if isinstance(box, bool) or not isinstance(box, int) or not 0 <= box < c.boxes:
        raise refused(
            f"box {box} is not on the layout (0..{c.boxes - 1})",
            "box_not_on_layout",
            box=box if isinstance(box, int) and not isinstance(box, bool) else None,
            boxes=c.boxes,
        )
    if box in boxes:
        raise refused(f"box {box} is taken", "box_taken", box=box)
    for name, amount in (("ante", ante), ("bonus", bonus), ("insurance", insurance)):
        whole(name, amount)
    if not isinstance(blind, bool) or not isinstance(sixth_card, bool):
        raise refused("blind and sixth_card are true or false", "not_a_choice")
    _limits("ante", ante, c.ante_min, c.ante_max)
    if bonus < 0:
        raise refused(f"bonus {bonus} is negative", "amount_negative", spot="bonus", amount=bonus)
    if bonus:
        _limits("bonus", bonus, c.bonus_min, c.bonus_max)
    opens = c.open_boxes_per_player
    if not blind and len(open_boxes(boxes, seat)) >= opens:
        # spec "Table": one open box per player (option open_boxes_per_player: two)
        raise refused(
            f"seat {seat} already has {'an' if opens == 1 else opens} open "
            f"box{'es' if opens > 1 else ''}; further boxes are blind",
            "open_boxes_full",
            seat=seat,
            open_boxes=opens,
        )
    verify_blind_choices(c, ante=ante, blind=blind, insurance=insurance, sixth_card=sixth_card)
    verify_room(c, boxes, seat, blind=blind)


def lacking_open_box(boxes: Mapping[int, Box]) -> set[int]:
    """The seats with blind boxes but no open box yet (each needs a free box for one)."""
    seats = {b.seat for b in boxes.values()}
    return {s for s in seats if not open_boxes(boxes, s)}


def verify_room(config: RussianConfig, boxes: Mapping[int, Box], seat: int, *, blind: bool) -> None:
    """Refuse a box that would leave a seat with blind boxes no free box for its open box
    (a blind box needs an open box of the same seat, spec/russian.md "Table"): after it,
    the free boxes must be at least the seats still lacking one."""
    lacking = lacking_open_box(boxes)
    if blind and seat not in {b.seat for b in boxes.values()}:
        lacking.add(seat)
    elif not blind:
        lacking.discard(seat)
    free = config.boxes - len(boxes) - 1
    if free < len(lacking):
        raise refused(
            f"this box would leave no free box for the open box of seat(s) {sorted(lacking)}",
            "no_room_for_open_box",
            seats=sorted(lacking),
        )
