"""Settle one known box, for test labs auditing settlement (``croupier russian settle``).

:func:`settle_line` is the game's audit function, with the same signature in every game
(``croupier.games.uth.audit``, ``croupier.games.holdem.audit``): one decoded JSON line and
the table's config in, the player's net per bet and in total out. A line:
``{"player": "AhKhQhJhTh", "initial": "AhKhQhJh2c", "draw": "exchange", "dealer":
"QsJd5c4h2d", "dealer_draws": "Kc7d", "ante": 100, "bonus": 0, "action": "bet",
"insurance": 0, "buy": false}`` (``initial``, ``draw``, ``dealer_draws``, ``bonus``,
``action``, ``insurance`` and ``buy`` optional; amounts in minor units).

>>> settle_line({"player": "AsAdAh7c2h", "dealer": "KdQd9c5s5h", "ante": 100},
...             RussianConfig())
{'ante': 0, 'bet': 600, 'fee': 0, 'insurance': 0, 'bonus': 0, 'buy': 0, 'total': 600}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.cards import Card, parse_cards
from croupier.games.protocol import refused
from croupier.games.russian.config import RussianConfig
from croupier.games.russian.rules import BetKind, BoxSettlement, Draw, audit_box

__all__ = ["FIELDS", "OUTPUT", "settle_line"]

FIELDS = frozenset(
    {
        "player",
        "initial",
        "draw",
        "dealer",
        "dealer_draws",
        "ante",
        "bonus",
        "action",
        "insurance",
        "buy",
    }
)
"""The fields of an audit line."""

OUTPUT = (BetKind.ANTE, BetKind.BET, BetKind.FEE, BetKind.INSURANCE, BetKind.BONUS, BetKind.BUY)
"""The bets an answer lists, in order, before ``total``."""


def _cards(line: Mapping[str, Any], name: str, *, required: bool) -> tuple[Card, ...]:
    value = line.get(name)
    if value is None:
        if required:
            raise refused(f"missing field {name!r}", "missing_field", field=name)
        return ()
    if not isinstance(value, str):
        raise refused(
            f"{name} must be a string of cards, not {value!r}", "field_not_cards", field=name
        )
    return parse_cards(value)


def _amount(line: Mapping[str, Any], name: str, *, required: bool = False) -> int:
    value = line.get(name)
    if value is None:
        if required:
            raise refused(f"missing field {name!r}", "missing_field", field=name)
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise refused(
            f"{name} must be a whole amount >= 0 in minor units, not {value!r}",
            "amount_not_whole",
            spot=name,
        )
    return value


def _draw(line: Mapping[str, Any], player: tuple[Card, ...], initial: tuple[Card, ...]) -> Draw:
    text = line.get("draw")
    if text is None:
        if len(player) == 6:
            return Draw.SIXTH
        if len(player) == 5 and {c.id for c in player} != {c.id for c in initial}:
            return Draw.EXCHANGE
        return Draw.NONE
    try:
        return Draw(text)
    except ValueError:
        raise refused(
            f"draw must be 'none', 'exchange' or 'sixth', not {text!r}",
            "unknown_draw",
            draw=text if isinstance(text, str) else None,
        ) from None


def settle_box_line(line: Mapping[str, Any], config: RussianConfig) -> BoxSettlement:
    """The settlement of one audit line (see the module docstring).

    Raises:
        CroupierError: a field that is missing, unknown or not valid, or a rule refused.
    """
    if not isinstance(line, Mapping):
        raise refused("a line must be a JSON object", "line_not_object")
    unknown = sorted(set(line) - FIELDS)
    if unknown:
        raise refused(
            f"unknown field(s) {', '.join(unknown)}", "unknown_field", field=str(unknown[0])
        )
    player = _cards(line, "player", required=True)
    initial = _cards(line, "initial", required=False) or player[:5]
    action = line.get("action", "bet")
    if action not in ("bet", "fold"):
        raise refused(
            f"action must be 'bet' or 'fold', not {action!r}",
            "unknown_action",
            action=action if isinstance(action, str) else None,
        )
    buy = line.get("buy", False)
    if not isinstance(buy, bool):
        raise refused(f"buy must be true or false, not {buy!r}", "not_a_choice", field="buy")
    return audit_box(
        config=config,
        ante=_amount(line, "ante", required=True),
        initial=initial,
        final=player,
        draw=_draw(line, player, initial),
        folded=action == "fold",
        dealer=_cards(line, "dealer", required=True),
        bonus=_amount(line, "bonus"),
        insurance=_amount(line, "insurance"),
        buy=buy,
        dealer_draws=_cards(line, "dealer_draws", required=False),
    )


def settle_line(line: Mapping[str, Any], config: RussianConfig) -> dict[str, int]:
    """Settle one audit line under ``config``: the player's net per bet of :data:`OUTPUT`
    and in total, as ``croupier russian settle`` writes it.

    Raises:
        CroupierError: a field that is missing, unknown or not valid, or a rule refused.
    """
    settlement = settle_box_line(line, config)
    out = {kind.value: settlement.net_of(kind) for kind in OUTPUT}
    out["total"] = settlement.net
    return out
