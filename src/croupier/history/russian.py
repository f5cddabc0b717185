"""Russian Poker round records: the JSON from which a round replays, and what differs.

A record (:func:`record`) holds the table's rules, the deck order and the engine's whole
event log, in which the boxes placed and every decision appear in order; :func:`replay`
re-runs those actions on a fresh engine dealing from the same deck and :func:`verify` lists
where the replay differs from the record. The same signatures as every game's records
(:mod:`croupier.history.records`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from croupier.cards import Card, format_cards, parse_cards
from croupier.deck import Reshuffler, Shoe, keyed_reshuffler
from croupier.errors import CroupierError, RecordError
from croupier.games.russian import (
    BuyGame,
    Deal,
    DeclineBuy,
    Exchange,
    Fold,
    PlaceBet,
    PlaceBox,
    RussianAction,
    RussianConfig,
    RussianRound,
    SixthCard,
)
from croupier.games.russian import events as russian_events
from croupier.games.russian.config import LIMITS
from croupier.history.records import MISSING, event_json, first_difference, show, to_json

__all__ = [
    "RECORD_VERSION",
    "differences",
    "record",
    "replay",
    "reshuffle_differences",
    "verify",
]

RECORD_VERSION = 1

_KINDS = frozenset(
    cls.kind
    for cls in vars(russian_events).values()
    if isinstance(cls, type) and issubclass(cls, russian_events.RussianEvent)
) - {russian_events.RussianEvent.kind}
_ADDED_FIELDS = {
    "cards_dealt": frozenset({"audiences"}),
    "cards_exchanged": frozenset({"seat"}),
    "sixth_card_bought": frozenset({"seat", "blind"}),
}
"""Event fields added after records were first written: compared only where stored."""
_ADDED_KINDS = frozenset({"box_shown"})
"""Events the engine adds that records written before them lack: compared only when the
record holds some."""


def record(rnd: RussianRound, *, round_id: int | str | None = None) -> dict[str, Any]:
    """The record of a Russian Poker round (complete or not), from which it replays.

    ``events`` is the engine's log as JSON, each with its ``kind``: the boxes placed, the
    deal, every decision in order (exchange, sixth card, bet with its insurance, fold, buy
    or decline) and what followed from them (the dealer shown, each box settled).
    ``results`` repeats each settled box's net; ``deck`` is the whole order of the round's
    shoe.
    """
    void = next((e.reason for e in rnd.events if isinstance(e, russian_events.RoundVoided)), None)
    results = [
        {"box": e.box, "seat": e.seat, "net": e.settlement.net}
        for e in rnd.events
        if isinstance(e, russian_events.BoxSettled)
    ]
    players_net = sum(r["net"] for r in results)
    return {
        "game": "russian",
        "version": RECORD_VERSION,
        "round_id": round_id,
        # the rules the round opened with; a change of limits in its betting window is
        # among the events (limits_changed), replayed where it happened
        "rules": to_json(rnd.opening_config),
        "deck": format_cards(rnd.shoe.order, " "),
        "events": [event_json(e) for e in rnd.events],
        "phase": rnd.phase.value,
        "void": void,
        "results": results,
        "players_net": players_net,
        "house_net": -players_net,
    }


_LEGACY_RULES = {"failed_buy_ante": "paid", "bonus_on_fold": "stands"}
"""Rules added after records were first written, with the value a record without them was
played under (issue 28 made the seed's letter the default: a failed buy forfeits the Ante's
payment, a fold loses the Bonus)."""


def _config(rules: object) -> RussianConfig:
    if not isinstance(rules, Mapping):
        raise RecordError(f"the record's rules must be an object, not {rules!r}")
    unknown = sorted(set(rules) - {f.name for f in dataclasses.fields(RussianConfig)})
    if unknown:
        raise RecordError(f"unknown rules {unknown} in the record")
    try:
        return RussianConfig.from_dict({**_LEGACY_RULES, **rules})
    except (TypeError, ValueError) as exc:  # ConfigError is a ValueError
        raise RecordError(f"the record's rules are not valid: {exc}") from exc


def _whole(event: Mapping[str, Any], name: str) -> int:
    value = event[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name} must be a whole number, not {value!r}")
    return value


def _flag(event: Mapping[str, Any], name: str, default: bool | None = None) -> bool:
    value = event.get(name, default) if default is not None else event[name]
    if not isinstance(value, bool):
        raise RecordError(f"{name} must be true or false, not {value!r}")
    return value


def _placed(event: Mapping[str, Any]) -> PlaceBox:
    return PlaceBox(
        seat=_whole(event, "seat"),
        box=_whole(event, "box"),
        ante=_whole(event, "ante"),
        bonus=_whole(event, "bonus"),
        blind=_flag(event, "blind"),
        insurance=_whole(event, "insurance") if "insurance" in event else 0,
        sixth_card=_flag(event, "sixth_card", False),
    )


def _decision(rnd: RussianRound, kind: str, event: Mapping[str, Any]) -> RussianAction | None:
    """The action behind one recorded decision (``None``: the engine made the event)."""
    box = _whole(event, "box")
    seat = rnd.seat_of(box)
    if kind == "sixth_card_bought" and rnd.is_blind(box):
        return None  # bought in advance with the blind box: dealt by the engine after the deal
    if kind == "cards_exchanged":
        discarded = event["discarded"]
        if not isinstance(discarded, list) or not all(isinstance(c, str) for c in discarded):
            raise RecordError(f"discarded must be a list of cards, not {discarded!r}")
        return Exchange(seat=seat, box=box, discard=parse_cards(" ".join(discarded)))
    if kind == "sixth_card_bought":
        return SixthCard(seat=seat, box=box)
    if kind == "bet_placed":
        return PlaceBet(seat=seat, box=box, insurance=_whole(event, "insurance"))
    if kind == "folded":
        return Fold(seat=seat, box=box)
    if kind == "game_bought":
        return BuyGame(seat=seat, box=box)
    return DeclineBuy(seat=seat, box=box)


def _replay_event(rnd: RussianRound, event: Mapping[str, Any]) -> None:
    """Apply the action behind one recorded event; consequences are recomputed, not read."""
    kind = event["kind"]
    if kind not in _KINDS:
        raise RecordError(f"unknown event kind {kind!r}")
    if kind in ("dealer_revealed", "box_settled", "discards_reshuffled", "box_shown"):
        return  # the engine produces these itself; differences() compares them
    if kind == "limits_changed":
        rnd.change_limits({name: _whole(event, name) for name in LIMITS})
        return
    if kind == "round_voided":
        reason = event["reason"]
        if not isinstance(reason, str):
            raise RecordError(f"reason must be a string, not {reason!r}")
        rnd.void(reason)
        return
    action: RussianAction | None
    if kind == "cards_dealt":
        action = Deal()
    elif kind == "box_placed":
        action = _placed(event)
    else:
        action = _decision(rnd, kind, event)
    if action is not None:
        rnd.apply(action)


def replay(data: Mapping[str, Any]) -> RussianRound:
    """Re-run a recorded Russian Poker round through the engine.

    The replay deals from the record's ``deck`` under its ``rules`` and repeats, in order,
    the boxes placed and the decisions found in its ``events``; the cards drawn, the dealer's
    hand and every settlement are the engine's, not the record's. Records written before
    ``version`` 1 have no ``deck``: the recall JSON of ``GET /api/rounds/{id}`` reveals it.

    Raises:
        RecordError: the record is malformed, or a command it lists is refused.
    """
    if not isinstance(data, Mapping):
        raise RecordError(f"a round record is a JSON object, not {type(data).__name__}")
    if data.get("game") != "russian":
        raise RecordError(f"not a Russian Poker round record (game {data.get('game')!r})")
    version = data.get("version")
    if version is not None and version != RECORD_VERSION:
        raise RecordError(f"unsupported record version {version!r}")
    deck = data.get("deck")
    if not isinstance(deck, str) or not deck.strip():
        raise RecordError(
            "the record holds no deck: replay the JSON of GET /api/rounds/{id}, which reveals it"
        )
    if "rules" not in data:
        raise RecordError("malformed Russian Poker record: missing field 'rules'")
    config = _config(data["rules"])
    try:
        shoe = Shoe.parse(deck)
    except CroupierError as exc:
        raise RecordError(f"the record's deck is not valid: {exc}") from exc
    events = data.get("events")
    if not isinstance(events, list):
        raise RecordError(f"malformed Russian Poker record: events must be a list, not {events!r}")
    rnd = RussianRound(config, shoe, reshuffle=_recorded_reshuffles(events))
    for index, event in enumerate(events):
        kind = event.get("kind") if isinstance(event, Mapping) else None
        where = f"events[{index}] ({kind})"
        try:
            if not isinstance(event, Mapping):
                raise RecordError(f"an event is a JSON object, not {event!r}")
            _replay_event(rnd, event)
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from exc
        except CroupierError as exc:
            raise RecordError(f"the record does not replay: {where}: {exc}") from exc
        except KeyError as exc:
            raise RecordError(f"malformed Russian Poker record: {where}: no field {exc}") from exc
        except (TypeError, ValueError) as exc:
            raise RecordError(f"malformed Russian Poker record: {where}: {exc}") from exc
    return rnd


def _recorded_reshuffles(events: list[Any]) -> Reshuffler:
    """The reshuffles a record lists, handed back in turn (the replay checks each is an order
    of the discards it gathered; :func:`reshuffle_differences` checks them against the
    round's key)."""
    orders = [
        e.get("cards")
        for e in events
        if isinstance(e, Mapping) and e.get("kind") == "discards_reshuffled"
    ]

    def reshuffle(index: int, discards: tuple[Card, ...]) -> tuple[Card, ...]:
        if index >= len(orders):
            raise RecordError(
                f"the replay reshuffles the discards, the record has no reshuffle {index}"
            )
        cards = orders[index]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise RecordError(f"reshuffle {index}: cards must be a list of cards, not {cards!r}")
        return parse_cards(" ".join(cards))

    return reshuffle


def reshuffle_differences(data: Mapping[str, Any], *, key: str) -> list[str]:
    """Where the record's reshuffles differ from those ``key`` gives (empty: all match).

    At a server table ``key`` is the round's salt, revealed after the round: reshuffle ``k``
    must be :func:`croupier.deck.keyed_reshuffler` ``(salt)(k, discards)`` (docs/protocol.md
    "Fairness"), so the committed salt fixed every reshuffle before the first card was dealt.
    """
    reshuffle = keyed_reshuffler(key)
    out = []
    for event in data.get("events", []):
        if not isinstance(event, Mapping) or event.get("kind") != "discards_reshuffled":
            continue
        index = event.get("index")
        try:
            discards = parse_cards(" ".join(event["discards"]))
            cards = parse_cards(" ".join(event["cards"]))
        except (KeyError, TypeError, CroupierError) as exc:
            out.append(f"reshuffle {index}: malformed ({exc})")
            continue
        if not isinstance(index, int) or isinstance(index, bool):
            out.append(f"reshuffle {index!r}: the index is not a whole number")
            continue
        expected = tuple(reshuffle(index, discards))
        if expected != cards:
            out.append(
                f"reshuffle {index}: the record deals {format_cards(cards, ' ')}, the key "
                f"gives {format_cards(expected, ' ')}"
            )
    return out


def _settled_net(event: Any) -> int | None:
    """The net of a recorded ``box_settled`` event, if it is readable."""
    try:
        nets: list[object] = [o["net"] for o in event["settlement"]["outcomes"]]
    except (KeyError, TypeError):
        return None
    total = 0
    for net in nets:
        if isinstance(net, bool) or not isinstance(net, int):
            return None
        total += net
    return total


def _as_stored(mine: Any, theirs: Any) -> Any:
    """A replayed event without the fields added since ``theirs`` was recorded."""
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return mine
    added = _ADDED_FIELDS.get(mine.get("kind", ""), frozenset())
    return {k: v for k, v in mine.items() if k in theirs or k not in added}


def _event_differences(mine: list[Any], theirs: list[Any]) -> Iterator[str]:
    for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        found = first_difference(_as_stored(a, b), b)
        if found is None:
            continue
        path, x, y = found
        kind = a.get("kind")
        if kind == "box_settled":
            net, recorded = _settled_net(a), _settled_net(b)
            if net != recorded:
                yield (
                    f"box {a['box']} (seat {a['seat']}) settles to net {net} on replay, "
                    f"the record says {show(recorded)} (events[{index}])"
                )
                continue
        yield f"events[{index}]{path} ({kind}): {show(x)} on replay, the record says {show(y)}"
    if len(mine) < len(theirs):
        kind = theirs[len(mine)].get("kind") if isinstance(theirs[len(mine)], dict) else None
        yield (
            f"the record has {len(theirs)} events, the replay {len(mine)}: "
            f"the replay stops before events[{len(mine)}] ({kind})"
        )
    elif len(mine) > len(theirs):
        yield (
            f"the record has {len(theirs)} events, the replay {len(mine)}: "
            f"the record stops before events[{len(theirs)}] ({mine[len(theirs)]['kind']})"
        )


def differences(rnd: RussianRound, data: Mapping[str, Any]) -> list[str]:
    """Where the record ``data`` differs from the replayed round ``rnd``, event by event,
    then the outcome fields.

    Only what the record stores is compared (records written before ``version`` 1 have no
    ``results``, ``players_net`` or ``house_net``; older events lack later fields).
    """
    replayed = record(rnd, round_id=data.get("round_id"))
    theirs = list(data.get("events", []))
    stored = {e.get("kind") for e in theirs if isinstance(e, Mapping)}
    mine = [e for e in replayed["events"] if e["kind"] not in _ADDED_KINDS - stored]
    out = list(_event_differences(mine, theirs))
    if isinstance(data.get("rules"), Mapping):
        # a record written before a rule existed does not name it (_LEGACY_RULES)
        given = data["rules"]
        replayed["rules"] = {
            k: v for k, v in replayed["rules"].items() if k in given or k not in _LEGACY_RULES
        }
    for key in ("phase", "void", "rules"):
        found = key in data and first_difference(replayed[key], data[key])
        if found:
            path, x, y = found
            out.append(f"{key}{path}: {show(x)} on replay, the record says {show(y)}")
    if "results" in data:
        out.extend(_result_differences(replayed["results"], data["results"]))
    for key in ("players_net", "house_net"):
        if key in data and first_difference(replayed[key], data[key]) is not None:
            out.append(f"{key}: {replayed[key]} on replay, the record says {show(data[key])}")
    return out


def _result_differences(mine: list[dict[str, Any]], theirs: object) -> Iterator[str]:
    if not isinstance(theirs, list):
        yield f"results: a list on replay, the record says {show(theirs)}"
        return
    for a, b in zip(mine, theirs, strict=False):
        recorded = b.get("net", MISSING) if isinstance(b, dict) else b
        if first_difference(a, b) is not None:
            yield (
                f"results: box {a['box']} (seat {a['seat']}) settles to net {a['net']} "
                f"on replay, the record says {show(recorded)}"
            )
    if len(mine) != len(theirs):
        yield f"results: the record settles {len(theirs)} boxes, the replay {len(mine)}"


def verify(data: Mapping[str, Any]) -> list[str]:
    """Replay ``data`` and list every difference from it (empty: the round reproduces).

    Raises:
        RecordError: the record is malformed or does not replay at all.
    """
    return differences(replay(data), data)
