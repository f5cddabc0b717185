"""Settle one known hand, for test labs auditing settlement (``croupier uth settle``).

:func:`settle_line` is the game's audit function, with the same signature in every game
(``croupier.games.russian.audit``, ``croupier.games.holdem.audit``): one decoded JSON line
and the table's config in, the player's net per bet and in total out.

>>> result = settle_hand(player="AsKd", dealer="7c7d", board="AhKh4c5s9c", ante=1000,
...                      trips=500, action="4x")
>>> audit_line(result)
{'ante': 1000, 'blind': 0, 'play': 4000, 'trips': -500, 'total': 4500}
>>> settle_line({"player": "AsKd", "dealer": "7c7d", "board": "AhKh4c5s9c", "ante": 1000,
...              "action": "fold"}, UthConfig())["total"]
-2000
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.cards import Card, check_distinct, parse_cards
from croupier.errors import InvalidCardsError, NotationError
from croupier.evaluator import evaluate_ids
from croupier.games.protocol import refused
from croupier.games.uth.config import UthConfig
from croupier.games.uth.rules import Bet, SeatResult, check_unit, settle_seat

__all__ = ["ACTIONS", "FIELDS", "audit_line", "settle_hand", "settle_line", "settle_mapping"]

ACTIONS = {"4x": 4, "3x": 3, "2x": 2, "1x": 1, "fold": 0}
"""The Play decision of a hand: the multiple bet, or 0 for a fold on the river."""

_DEFAULT = UthConfig()


def _cards(name: str, text: object, count: int) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise InvalidCardsError(f"{name} must be a string of cards like 'AsKd', not {text!r}")
    try:
        cards = parse_cards(text)
    except NotationError as exc:
        raise NotationError(f"{name}: {exc}") from None
    if len(cards) != count:
        raise InvalidCardsError(f"{name} {text!r} has {len(cards)} cards, not {count}")
    return cards


def _amount(name: str, value: object, *, allow_zero: bool) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise refused(
            f"{name} {value!r} is not a whole number of minor units", "amount_not_whole", spot=name
        )
    if value < 0 or (value == 0 and not allow_zero):
        raise refused(
            f"{name} {value} must be {'0 or ' if allow_zero else ''}positive",
            "amount_not_positive",
            spot=name,
            amount=value,
        )
    return value


def _actions(config: UthConfig) -> dict[str, int]:
    """The Play decisions of the table's ``play_multiples`` (:data:`ACTIONS` by default)."""
    m = config.play_multiples
    multiples = sorted({*m.preflop, *m.flop, *m.river}, reverse=True)
    return {**{f"{x}x": x for x in multiples}, "fold": 0}


def settle_hand(
    *,
    player: object,
    dealer: object,
    board: object,
    ante: object,
    action: object,
    trips: object = 0,
    config: UthConfig = _DEFAULT,
) -> SeatResult:
    """Settle one box given its cards, bets and Play decision (amounts in minor units).

    Raises:
        InvalidCardsError, NotationError: bad or repeated cards.
        IllegalActionError: an unknown action, a bad amount, or one that is not a multiple
            of the table's ``bet_unit`` (whole chips under ``blind_rounding = "chip"``).
    """
    hole = _cards("player", player, 2)
    dealer_cards = _cards("dealer", dealer, 2)
    board_cards = _cards("board", board, 5)
    check_distinct(hole + dealer_cards + board_cards)
    stake = _amount("ante", ante, allow_zero=False)
    side = _amount("trips", trips, allow_zero=True)
    # spec/uth.md "Showdown": bets are whole multiples of the table's bet unit
    check_unit("ante", stake, config)
    check_unit("trips", side, config)
    actions = _actions(config)
    if not isinstance(action, str) or action.strip().lower() not in actions:
        raise refused(
            f"action {action!r} is not one of {', '.join(actions)}",
            "unknown_action",
            action=action if isinstance(action, str) else None,
        )
    multiple = actions[action.strip().lower()]
    board_ids = [c.id for c in board_cards]
    return settle_seat(
        seat=0,
        player=evaluate_ids([c.id for c in hole] + board_ids),
        dealer=evaluate_ids([c.id for c in dealer_cards] + board_ids),
        ante=stake,
        trips=side,
        play=multiple * stake,
        folded=multiple == 0,
        config=config,
    )


FIELDS = frozenset({"player", "dealer", "board", "ante", "trips", "action"})
"""The fields of an audit line (``trips`` optional)."""


def settle_mapping(line: Mapping[str, Any], config: UthConfig = _DEFAULT) -> SeatResult:
    """:func:`settle_hand` from a decoded JSON object; unknown keys are refused."""
    unknown = set(line) - FIELDS
    if unknown:
        name = sorted(unknown)[0]
        raise refused(f"unknown field {name!r}", "unknown_field", field=name)
    missing = sorted(FIELDS - {"trips"} - set(line))
    if missing:
        raise refused(f"missing field {missing[0]!r}", "missing_field", field=missing[0])
    trips = 0 if line.get("trips") is None else line["trips"]
    return settle_hand(
        player=line["player"],
        dealer=line["dealer"],
        board=line["board"],
        ante=line["ante"],
        trips=trips,
        action=line["action"],
        config=config,
    )


def settle_line(line: Mapping[str, Any], config: UthConfig = _DEFAULT) -> dict[str, int]:
    """Settle one audit line (a decoded JSON object) under ``config``: the player's net per
    bet and in total, as ``croupier uth settle`` writes it.

    Raises:
        CroupierError: a field that is missing, unknown or not valid, or a rule refused.
    """
    if not isinstance(line, Mapping):
        raise refused("each line must be a JSON object", "line_not_object")
    return audit_line(settle_mapping(line, config))


def audit_line(result: SeatResult) -> dict[str, int]:
    """The player's net per bet and in total, as ``croupier uth settle`` writes it."""
    out = {}
    for bet in (Bet.ANTE, Bet.BLIND, Bet.PLAY, Bet.TRIPS):
        settled = result.bet(bet)
        out[bet.value] = settled.net if settled else 0
    out["total"] = result.net
    return out
