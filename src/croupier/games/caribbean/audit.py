"""Settle one known hand, for test labs auditing settlement (``croupier caribbean settle``).

:func:`settle_line` is the game's audit function, with the same signature in every game
(``croupier.games.uth.audit``, ``croupier.games.russian.audit``): one decoded JSON line and
the table's config in, the player's net per bet and in total out.

>>> result = settle_hand(player="KsKd 9c7h2s", dealer="AhQc 8d5s3c 7d", ante=1000,
...                      action="raise")
Traceback (most recent call last):
...
croupier.errors.InvalidCardsError: dealer 'AhQc 8d5s3c 7d' has 6 cards, not 5
>>> audit_line(settle_hand(player="KsKd 9c7h2s", dealer="AhKc 8d5s3c", ante=1000,
...                        action="raise"))
{'ante': 1000, 'raise': 2000, 'progressive': 0, 'total': 3000}
>>> settle_line({"player": "KsKd9c7h2s", "dealer": "AhQc8d5s3c", "ante": 1000,
...              "action": "raise"}, CaribbeanConfig())
{'ante': 1000, 'raise': 0, 'progressive': 0, 'total': 1000}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.cards import Card, check_distinct, parse_cards
from croupier.errors import InvalidCardsError, NotationError
from croupier.evaluator import category_of, evaluate_ids
from croupier.games.caribbean.config import CaribbeanConfig
from croupier.games.caribbean.rules import (
    Bet,
    BetResult,
    BoxResult,
    progressive_results,
    settle_box,
)
from croupier.games.protocol import refused

__all__ = ["ACTIONS", "FIELDS", "audit_line", "settle_hand", "settle_line", "settle_mapping"]

ACTIONS = ("raise", "fold")
"""The player's decision."""

FIELDS = frozenset({"player", "dealer", "ante", "action", "progressive", "jackpot"})
"""The fields of an audit line (``progressive`` and ``jackpot`` optional)."""

_DEFAULT = CaribbeanConfig()


def _cards(name: str, text: object) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise InvalidCardsError(f"{name} must be a string of cards like 'AsKd9c7h2s', not {text!r}")
    try:
        cards = parse_cards(text)
    except NotationError as exc:
        raise NotationError(f"{name}: {exc}") from None
    if len(cards) != 5:
        raise InvalidCardsError(f"{name} {text!r} has {len(cards)} cards, not 5")
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


def _progressive(
    amount: int, category_value: int, folded: bool, jackpot: int, config: CaribbeanConfig
) -> BetResult | None:
    if not amount:
        return None
    bet = config.progressive_bet
    if bet is None:
        raise refused(
            "this table has no progressive jackpot bet", "unknown_spots", spots=["progressive"]
        )
    if amount != bet:
        raise refused(
            f"progressive {amount} is not the table's progressive bet {bet}",
            "bet_out_of_limits",
            spot="progressive",
            amount=amount,
            min=bet,
            max=bet,
        )
    paid, _ = progressive_results(
        [(0, category_of(category_value), folded)],
        bet=bet,
        table=config.progressive_paytable,
        jackpot=jackpot,
    )
    return paid[0]


def settle_hand(
    *,
    player: object,
    dealer: object,
    ante: object,
    action: object,
    progressive: object = 0,
    jackpot: object = 0,
    config: CaribbeanConfig = _DEFAULT,
) -> BoxResult:
    """Settle one box given the two five-card hands, the Ante, the decision (``"raise"`` or
    ``"fold"``) and the progressive bet (0, or the table's amount) with the jackpot meter its
    percentage prizes are paid from.

    Raises:
        InvalidCardsError, NotationError: bad or repeated cards.
        IllegalActionError: an unknown action or a bad amount.
    """
    hand = _cards("player", player)
    dealer_cards = _cards("dealer", dealer)
    check_distinct(hand + dealer_cards)
    stake = _amount("ante", ante, allow_zero=False)
    side = _amount("progressive", progressive, allow_zero=True)
    meter = _amount("jackpot", jackpot, allow_zero=True)
    if not isinstance(action, str) or action.strip().lower() not in ACTIONS:
        raise refused(
            f"action {action!r} is not one of {', '.join(ACTIONS)}",
            "unknown_action",
            action=action if isinstance(action, str) else None,
        )
    raised = action.strip().lower() == "raise"
    value = evaluate_ids([c.id for c in hand])
    return settle_box(
        seat=0,
        player=value,
        dealer=evaluate_ids([c.id for c in dealer_cards]),
        ante=stake,
        raised=raised,
        config=config,
        progressive=_progressive(side, value, not raised, meter, config),
    )


def settle_mapping(line: Mapping[str, Any], config: CaribbeanConfig = _DEFAULT) -> BoxResult:
    """:func:`settle_hand` from a decoded JSON object; unknown keys are refused."""
    unknown = set(line) - FIELDS
    if unknown:
        name = sorted(unknown)[0]
        raise refused(f"unknown field {name!r}", "unknown_field", field=name)
    missing = sorted(FIELDS - {"progressive", "jackpot"} - set(line))
    if missing:
        raise refused(f"missing field {missing[0]!r}", "missing_field", field=missing[0])
    return settle_hand(
        player=line["player"],
        dealer=line["dealer"],
        ante=line["ante"],
        action=line["action"],
        progressive=0 if line.get("progressive") is None else line["progressive"],
        jackpot=0 if line.get("jackpot") is None else line["jackpot"],
        config=config,
    )


def settle_line(line: Mapping[str, Any], config: CaribbeanConfig = _DEFAULT) -> dict[str, int]:
    """Settle one audit line (a decoded JSON object) under ``config``: the player's net per
    bet and in total, as ``croupier caribbean settle`` writes it.

    Raises:
        CroupierError: a field that is missing, unknown or not valid, or a rule refused.
    """
    if not isinstance(line, Mapping):
        raise refused("each line must be a JSON object", "line_not_object")
    return audit_line(settle_mapping(line, config))


def audit_line(result: BoxResult) -> dict[str, int]:
    """The player's net per bet and in total, as ``croupier caribbean settle`` writes it."""
    out = {}
    for bet in (Bet.ANTE, Bet.RAISE, Bet.PROGRESSIVE):
        settled = result.bet(bet)
        out[bet.value] = settled.net if settled else 0
    out["total"] = result.net
    return out
