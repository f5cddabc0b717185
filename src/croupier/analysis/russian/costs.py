"""What each decision of a recorded Russian Poker round cost against the best one.

From a round's record (:func:`croupier.history.russian.record`, or the recall JSON of
``GET /api/rounds/{id}``): for every open box, its first decision (the exchange, the sixth
card, the Bet or the fold), its Bet decision after a draw and its buying decision, each
valued exactly by :mod:`.advisor` with what the player knew then; the cost is the best
option's value minus the value of the option taken, in Antes and in the round's money
(the box's Ante times the cost, rounded to the minor unit). A blind box decides nothing.
Insurance is valued at the amount placed (the Bet's value is linear in it). Each option is
also named as data (:class:`~croupier.analysis.costs.CostOption`: the exchange's cards, the
Bet's insurance in minor units) for a client to word in the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from croupier.analysis.costs import CostOption, DecisionCost
from croupier.analysis.russian.advisor import (
    Advice,
    OptionValue,
    advise_bet,
    advise_buy,
    advise_first,
)
from croupier.cards import Card, parse_cards
from croupier.errors import RecordError
from croupier.games.russian import RussianConfig

__all__ = ["DecisionCost", "decision_costs"]


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"cards must be a list of cards, not {value!r}")
    return parse_cards(" ".join(value))


def _bet_taken(advice: Advice, insurance: Fraction) -> tuple[str, Fraction]:
    """The Bet's label and value with ``insurance`` Antes placed (linear between the
    advisor's Bet without insurance and with its most)."""
    bets = sorted((o for o in advice.options if o.action == "bet"), key=lambda o: o.insurance)
    plain = bets[0]
    if not insurance:
        if plain.insurance:
            raise RecordError("a Bet without insurance the advisor does not value")
        return plain.label, plain.ev
    if len(bets) < 2:
        raise RecordError("insurance on a hand that cannot be insured")
    most = bets[-1]
    slope = (most.ev - plain.ev) / most.insurance
    return f"bet + insurance {insurance}", plain.ev + slope * insurance


def _valued(advice: Advice, taken: str, value: Fraction | None = None) -> tuple[str, Fraction]:
    if value is not None:
        return taken, value
    for option in advice.options:
        if option.label == taken:
            return taken, option.ev
    raise RecordError(f"{taken!r} is not an option of the {advice.decision} decision")


class _Box:
    def __init__(self, event: Mapping[str, Any]) -> None:
        self.box = int(event["box"])
        self.seat = int(event["seat"])
        self.ante = int(event["ante"])
        self.blind = bool(event.get("blind", False))
        self.cards: tuple[Card, ...] = ()
        self.seen: tuple[Card, ...] = ()
        self.drew = False


def _option(option: OptionValue, ante: int) -> CostOption:
    """The advisor's option as data (its insurance, in Antes there, in minor units here)."""
    cards = tuple(str(c) for c in option.discard)
    return CostOption(option.action, cards, option.insurance * ante)


def _cost(box: _Box, advice: Advice, taken: str, option: CostOption,
          value: Fraction | None = None) -> DecisionCost:  # fmt: skip
    label, ev = _valued(advice, taken, value)
    best = advice.options[0]
    return DecisionCost(
        box=box.box, seat=box.seat, decision=advice.decision, taken=label, taken_ev=ev,
        best=best.label, best_ev=best.ev, ante=box.ante, taken_option=option,
        best_option=_option(best, box.ante),
    )  # fmt: skip


def _first_or_bet(box: _Box, config: RussianConfig) -> Advice:
    if box.drew:
        return advise_bet(box.cards, box.seen, config)
    return advise_first(box.cards, config)


def _step(box: _Box, kind: str, event: Mapping[str, Any], config: RussianConfig,
          dealer: tuple[Card, ...]) -> DecisionCost | None:  # fmt: skip
    if kind == "cards_exchanged":
        discarded, received = _cards(event["discarded"]), _cards(event["received"])
        advice = advise_first(box.cards, config)
        named = tuple(str(c) for c in sorted(discarded, key=lambda c: c.id))
        box.cards = tuple(c for c in box.cards if c not in discarded) + received
        box.seen, box.drew = discarded, True
        return _cost(box, advice, "exchange " + " ".join(named), CostOption("exchange", named))
    if kind == "sixth_card_bought":
        advice = advise_first(box.cards, config)
        box.cards = (*box.cards, *parse_cards(str(event["card"])))
        box.drew = True
        return _cost(box, advice, "sixth card", CostOption("sixth_card"))
    if kind == "folded":
        return _cost(box, _first_or_bet(box, config), "fold", CostOption("fold"))
    if kind == "bet_placed":
        advice = _first_or_bet(box, config)
        insurance = int(event["insurance"])
        label, ev = _bet_taken(advice, Fraction(insurance, box.ante))
        return _cost(box, advice, label, CostOption("bet", insurance=insurance), ev)
    if kind in ("game_bought", "buy_declined"):
        advice = advise_buy(box.cards, dealer, box.seen, config)
        taken = "buy" if kind == "game_bought" else "decline"
        return _cost(box, advice, taken, CostOption(taken))
    return None


def decision_costs(record: Mapping[str, Any]) -> list[DecisionCost]:
    """Every decision of the record's open boxes, in the order taken, with its cost.

    Raises:
        RecordError: not a Russian Poker record, or events it cannot follow.
        ConfigError: rules the exact analysis does not cover.
    """
    if record.get("game") != "russian":
        raise RecordError(f"not a Russian Poker round record (game {record.get('game')!r})")
    rules = record.get("rules")
    if not isinstance(rules, Mapping):
        raise RecordError("the record has no rules")
    config = RussianConfig.from_dict({"failed_buy_ante": "paid", **rules})
    boxes: dict[int, _Box] = {}
    dealer: tuple[Card, ...] = ()
    out = []
    for event in record.get("events") or []:
        kind = event.get("kind")
        if kind == "box_placed":
            boxes[int(event["box"])] = _Box(event)
        elif kind == "cards_dealt":
            for index, cards in event["hands"]:
                if cards is not None and int(index) in boxes:
                    boxes[int(index)].cards = _cards(cards)
        elif kind == "dealer_revealed":
            dealer = _cards(event["cards"])
        elif "box" in event and int(event["box"]) in boxes:
            box = boxes[int(event["box"])]
            if box.blind or not box.cards:
                continue
            cost = _step(box, str(kind), event, config, dealer)
            if cost is not None:
                out.append(cost)
    return out
