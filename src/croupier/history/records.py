"""Round records: JSON documents from which a round can be recalled and replayed.

A UTH record holds the table config, the deck order, the bets, every decision in order
and the results. :func:`replay_uth` re-runs the round through the engine and
:func:`verify_uth` confirms the recorded settlement.

A Russian Poker record (:func:`russian_record`) holds the table's rules, the deck order and
the engine's whole event log, in which the boxes placed and every decision appear in order;
:func:`replay_russian` re-runs those commands on a fresh engine dealing from the same deck
and :func:`verify_russian` lists where the replay differs from the record.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from croupier.cards import Card, format_cards, parse_cards
from croupier.deck import Shoe, keyed_reshuffler
from croupier.errors import CroupierError, RecordError
from croupier.games.russian import RussianConfig, RussianRound
from croupier.games.russian import events as russian_events
from croupier.games.uth import Phase, SeatResult, UthConfig, UthRound
from croupier.games.uth.events import (
    BetsPlaced,
    BetsWithdrawn,
    BettingClosed,
    Checked,
    Folded,
    PlayBet,
    RoundVoided,
    TripsPlaced,
)

__all__ = [
    "RUSSIAN_RECORD_VERSION",
    "UTH_RECORD_VERSION",
    "replay_russian",
    "replay_uth",
    "result_to_dict",
    "russian_differences",
    "russian_record",
    "russian_reshuffle_differences",
    "to_json",
    "uth_record",
    "uth_record_for_seats",
    "verify_russian",
    "verify_uth",
]

UTH_RECORD_VERSION = 1


def result_to_dict(result: SeatResult) -> dict[str, Any]:
    """A seat's settlement as JSON-ready data."""
    return {
        "seat": result.seat,
        "comparison": result.comparison.value,
        "player_value": result.player_value,
        "dealer_value": result.dealer_value,
        "dealer_qualifies": result.dealer_qualifies,
        "bets": [
            {
                "bet": b.bet.value,
                "stake": b.stake,
                "outcome": b.outcome.value,
                "net": b.net,
                "line": b.line,
                "rounding": b.rounding,
                "capped": b.capped,
            }
            for b in result.bets
        ],
        "net": result.net,
    }


def uth_record(rnd: UthRound, *, round_id: str | None = None) -> dict[str, Any]:
    """The record of a round (complete or not): what is needed to recall and replay it."""
    bets: dict[int, dict[str, int]] = {}
    actions: list[dict[str, Any]] = []
    closed = False
    void: str | None = None
    for event in rnd.events:
        match event:
            case BetsPlaced(seat=seat, ante=ante, trips=trips):
                bets[seat] = {"seat": seat, "ante": ante, "trips": trips}
            case TripsPlaced(seat=seat, trips=trips):
                bets[seat]["trips"] = trips  # added after the Ante (seed 001)
            case BetsWithdrawn(seat=seat):
                bets.pop(seat, None)
            case BettingClosed():
                closed = True
            case PlayBet(seat=seat, multiple=multiple, timeout=timeout):
                actions.append({"seat": seat, "action": f"{multiple}x", "timeout": timeout})
            case Checked(seat=seat, timeout=timeout):
                actions.append({"seat": seat, "action": "check", "timeout": timeout})
            case Folded(seat=seat, timeout=timeout):
                actions.append({"seat": seat, "action": "fold", "timeout": timeout})
            case RoundVoided(reason=reason):
                void = reason
    return {
        "game": "uth",
        "version": UTH_RECORD_VERSION,
        "round_id": round_id,
        "config": rnd.config.to_dict(),
        "deck": format_cards(rnd.shoe.order, " "),
        "bets": [bets[s] for s in sorted(bets)],
        "betting_closed": closed,
        "actions": actions,
        "void": void,
        "phase": rnd.phase.value,
        # in the order settled: right to left (seed 003)
        "results": [result_to_dict(result) for result in rnd.results.values()],
        "players_net": sum(r.net for r in rnd.results.values()),
        "house_net": -sum(r.net for r in rnd.results.values()),
    }


def uth_record_for_seats(record: Mapping[str, Any], seats: Collection[int]) -> dict[str, Any]:
    """A live (shared-hand) round's record cut down to ``seats``: their bets, decisions and
    results, with the totals of those boxes; ``boxes_in_play`` keeps the table's count.

    On a shared-hand table the cards dealt do not depend on the boxes in play (one player
    hand for all), so the cut record replays and verifies like the whole one
    (:func:`verify_uth`) -- what a player of a thousand-box round recalls.

    Raises:
        RecordError: not a shared-hand round (a casino table's deal depends on every box).
    """
    if not (record.get("config") or {}).get("shared_hand"):
        raise RecordError("only a shared-hand (live) round's record can be cut to some seats")
    keep = set(seats)
    results = [r for r in record.get("results", []) if r.get("seat") in keep]
    net = sum(int(r.get("net", 0)) for r in results)
    return {
        **record,
        "bets": [b for b in record.get("bets", []) if b.get("seat") in keep],
        "actions": [a for a in record.get("actions", []) if a.get("seat") in keep],
        "results": results,
        "players_net": net,
        "house_net": -net,
        "boxes_in_play": len(record.get("bets", [])),
    }


def replay_uth(record: Mapping[str, Any]) -> UthRound:
    """Re-run a recorded round through the engine.

    Raises:
        RecordError: the record is malformed, or an action it lists is refused.
    """
    if record.get("game") != "uth":
        raise RecordError(f"not a UTH round record (game {record.get('game')!r})")
    if record.get("version") != UTH_RECORD_VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}")
    try:
        config = UthConfig.from_dict(record["config"])
        rnd = UthRound(config, Shoe.parse(record["deck"]))
        for bet in record["bets"]:
            rnd.place_bets(int(bet["seat"]), ante=int(bet["ante"]), trips=int(bet.get("trips", 0)))
        if record.get("betting_closed", True):
            rnd.close_betting()
        for step in record["actions"]:
            seat, action, timeout = int(step["seat"]), step["action"], bool(step.get("timeout"))
            if action == "check":
                rnd.check(seat, timeout=timeout)
            elif action == "fold":
                rnd.fold(seat, timeout=timeout)
            elif isinstance(action, str) and action.endswith("x") and action[:-1].isdigit():
                rnd.bet_play(seat, int(action[:-1]), timeout=timeout)
            else:
                raise RecordError(f"unknown action {action!r} in the record")
        if record.get("void"):
            rnd.void(str(record["void"]))
    except RecordError:
        raise
    except (KeyError, TypeError) as exc:
        raise RecordError(f"malformed UTH record: missing or wrong field {exc}") from exc
    except CroupierError as exc:
        raise RecordError(f"the record does not replay: {exc}") from exc
    return rnd


def verify_uth(record: Mapping[str, Any]) -> UthRound:
    """Replay ``record`` and check the settlement matches; return the replayed round.

    Raises:
        RecordError: the replay settles differently from the record.
    """
    rnd = replay_uth(record)
    replayed = [result_to_dict(rnd.results[s]) for s in sorted(rnd.results)]
    # compared seat by seat: records written before seed 003's right-to-left settlement
    # list the seats left to right
    recorded = sorted(record.get("results", []), key=lambda r: r.get("seat", 0))
    if replayed != recorded:
        for mine, theirs in zip(replayed, recorded, strict=False):
            if mine != theirs:
                raise RecordError(
                    f"seat {mine['seat']} settles to net {mine['net']} on replay, "
                    f"the record says {theirs.get('net')!r}"
                )
        raise RecordError(f"the record settles {len(recorded)} seats, the replay {len(replayed)}")
    if rnd.phase is not Phase(record.get("phase", rnd.phase.value)):
        raise RecordError(
            f"the record ends in phase {record.get('phase')!r}, the replay in {rnd.phase}"
        )
    return rnd


# -- Russian Poker ---------------------------------------------------------------------------

RUSSIAN_RECORD_VERSION = 1

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_MISSING = object()
_RUSSIAN_KINDS = frozenset(
    {
        "box_placed",
        "cards_dealt",
        "cards_exchanged",
        "sixth_card_bought",
        "bet_placed",
        "folded",
        "dealer_revealed",
        "discards_reshuffled",
        "game_bought",
        "buy_declined",
        "box_settled",
        "round_voided",
    }
)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def to_json(value: Any) -> Any:
    """Engine values as JSON: cards as notation, enums as values, dataclasses as objects.

    The one form records are written in and the server's tables send (a live table
    serialises thousands of views a round, so each class's fields are read once).
    """
    if value is None:
        return None
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, str | int):  # bool is an int
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    kind = type(value)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            return value
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
    return {name: to_json(getattr(value, name)) for name in names}


def _event_json(event: Any) -> dict[str, Any]:
    """``CardsExchanged(...)`` -> ``{"kind": "cards_exchanged", "box": ..., ...}``."""
    return {"kind": _CAMEL.sub("_", type(event).__name__).lower(), **to_json(event)}


def russian_record(
    rnd: RussianRound, *, shoe: Shoe, round_id: int | str | None = None
) -> dict[str, Any]:
    """The record of a Russian Poker round (complete or not), from which it replays.

    ``events`` is the engine's log as JSON, each with its ``kind``: the boxes placed, the
    deal, every decision in order (exchange, sixth card, bet with its insurance, fold, buy
    or decline) and what followed from them (the dealer shown, each box settled).
    ``results`` repeats each settled box's net.

    Args:
        rnd: the round.
        shoe: the shoe ``rnd`` deals from (its whole order is the record's ``deck``).
        round_id: the server's id of the round, if any.
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
        "version": RUSSIAN_RECORD_VERSION,
        "round_id": round_id,
        "rules": to_json(rnd.config),
        "deck": format_cards(shoe.order, " "),
        "events": [_event_json(e) for e in rnd.events],
        "phase": rnd.phase.value,
        "void": void,
        "results": results,
        "players_net": players_net,
        "house_net": -players_net,
    }


def _russian_config(rules: object) -> RussianConfig:
    if not isinstance(rules, Mapping):
        raise RecordError(f"the record's rules must be an object, not {rules!r}")
    unknown = sorted(set(rules) - {f.name for f in dataclasses.fields(RussianConfig)})
    if unknown:
        raise RecordError(f"unknown rules {unknown} in the record")
    try:
        return RussianConfig.from_dict(rules)
    except (TypeError, ValueError) as exc:  # ConfigError is a ValueError
        raise RecordError(f"the record's rules are not valid: {exc}") from exc


def _whole(event: Mapping[str, Any], name: str) -> int:
    value = event[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name} must be a whole number, not {value!r}")
    return value


def _replay_event(rnd: RussianRound, event: Mapping[str, Any]) -> None:
    """Apply the command behind one recorded event; consequences are recomputed, not read."""
    kind = event["kind"]
    if kind not in _RUSSIAN_KINDS:
        raise RecordError(f"unknown event kind {kind!r}")
    if kind in ("dealer_revealed", "box_settled", "discards_reshuffled"):
        return  # the engine produces these itself; russian_differences compares them
    if kind == "cards_dealt":
        rnd.deal()
        return
    if kind == "round_voided":
        reason = event["reason"]
        if not isinstance(reason, str):
            raise RecordError(f"reason must be a string, not {reason!r}")
        rnd.void(reason)
        return
    box = _whole(event, "box")
    if kind == "box_placed":
        blind = event["blind"]
        if not isinstance(blind, bool):
            raise RecordError(f"blind must be true or false, not {blind!r}")
        sixth = event.get("sixth_card", False)
        if not isinstance(sixth, bool):
            raise RecordError(f"sixth_card must be true or false, not {sixth!r}")
        rnd.place_box(
            _whole(event, "seat"),
            box=box,
            ante=_whole(event, "ante"),
            bonus=_whole(event, "bonus"),
            blind=blind,
            insurance=_whole(event, "insurance") if "insurance" in event else 0,
            sixth_card=sixth,
        )
        return
    seat = rnd.seat_of(box)
    if kind == "sixth_card_bought" and rnd.is_blind(box):
        return  # bought in advance with the blind box: dealt by the engine after the deal
    if kind == "cards_exchanged":
        discarded = event["discarded"]
        if not isinstance(discarded, list) or not all(isinstance(c, str) for c in discarded):
            raise RecordError(f"discarded must be a list of cards, not {discarded!r}")
        rnd.exchange(seat, box=box, discard=parse_cards(" ".join(discarded)))
    elif kind == "sixth_card_bought":
        rnd.sixth_card(seat, box=box)
    elif kind == "bet_placed":
        rnd.bet(seat, box=box, insurance=_whole(event, "insurance"))
    elif kind == "folded":
        rnd.fold(seat, box=box)
    elif kind == "game_bought":
        rnd.buy_game(seat, box=box)
    else:
        rnd.decline_buy(seat, box=box)


def replay_russian(record: Mapping[str, Any]) -> dict[str, Any]:
    """Re-run a recorded Russian Poker round through the engine; return the replayed record.

    The replay deals from the record's ``deck`` under its ``rules`` and repeats, in order,
    the boxes placed and the decisions found in its ``events``; the cards drawn, the dealer's
    hand and every settlement are the engine's, not the record's. Records written before
    ``version`` 1 have no ``deck``: the recall JSON of ``GET /api/rounds/{id}`` reveals it.

    Raises:
        RecordError: the record is malformed, or a command it lists is refused.
    """
    if not isinstance(record, Mapping):
        raise RecordError(f"a round record is a JSON object, not {type(record).__name__}")
    if record.get("game") != "russian":
        raise RecordError(f"not a Russian Poker round record (game {record.get('game')!r})")
    version = record.get("version")
    if version is not None and version != RUSSIAN_RECORD_VERSION:
        raise RecordError(f"unsupported record version {version!r}")
    deck = record.get("deck")
    if not isinstance(deck, str) or not deck.strip():
        raise RecordError(
            "the record holds no deck: replay the JSON of GET /api/rounds/{id}, which reveals it"
        )
    if "rules" not in record:
        raise RecordError("malformed Russian Poker record: missing field 'rules'")
    config = _russian_config(record["rules"])
    try:
        shoe = Shoe.parse(deck)
    except CroupierError as exc:
        raise RecordError(f"the record's deck is not valid: {exc}") from exc
    events = record.get("events")
    if not isinstance(events, list):
        raise RecordError(f"malformed Russian Poker record: events must be a list, not {events!r}")
    rnd = RussianRound(config=config, shoe=shoe, reshuffle=_recorded_reshuffles(events))
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
    return russian_record(rnd, shoe=shoe, round_id=record.get("round_id"))


def _recorded_reshuffles(events: list[Any]) -> Any:
    """The reshuffles a record lists, handed back in turn (the replay checks each is an order
    of the discards it gathered; :func:`russian_reshuffle_differences` checks them against
    the round's key)."""
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


def russian_reshuffle_differences(record: Mapping[str, Any], *, key: str) -> list[str]:
    """Where the record's reshuffles differ from those ``key`` gives (empty: all match).

    At a server table ``key`` is the round's salt, revealed after the round: reshuffle ``k``
    must be :func:`croupier.deck.keyed_reshuffler` ``(salt)(k, discards)`` (docs/protocol.md
    "Fairness"), so the committed salt fixed every reshuffle before the first card was dealt.
    """
    reshuffle = keyed_reshuffler(key)
    out = []
    for event in record.get("events", []):
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


def _show(value: Any) -> str:
    return "nothing" if value is _MISSING else json.dumps(value)


def _first_difference(mine: Any, theirs: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place (a path like ``.hands[0][1][2]``) where two JSON values differ."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            found = _first_difference(
                mine.get(key, _MISSING), theirs.get(key, _MISSING), f"{path}.{key}"
            )
            if found is not None:
                return found
        return None
    if isinstance(mine, list) and isinstance(theirs, list):
        for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            found = _first_difference(a, b, f"{path}[{index}]")
            if found is not None:
                return found
        if len(mine) != len(theirs):
            return f"{path} (length)", len(mine), len(theirs)
        return None
    if type(mine) is type(theirs) and mine == theirs:
        return None
    return path, mine, theirs


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


def _event_differences(mine: list[Any], theirs: list[Any]) -> Iterator[str]:
    for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        found = _first_difference(a, b)
        if found is None:
            continue
        path, x, y = found
        kind = a.get("kind")
        if kind == "box_settled":
            net, recorded = _settled_net(a), _settled_net(b)
            if net != recorded:
                yield (
                    f"box {a['box']} (seat {a['seat']}) settles to net {net} on replay, "
                    f"the record says {_show(recorded)} (events[{index}])"
                )
                continue
        yield f"events[{index}]{path} ({kind}): {_show(x)} on replay, the record says {_show(y)}"
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


def russian_differences(replayed: Mapping[str, Any], record: Mapping[str, Any]) -> list[str]:
    """Where ``record`` differs from its replay, event by event, then the outcome fields.

    Only what the record stores is compared (records written before ``version`` 1 have no
    ``results``, ``players_net`` or ``house_net``).
    """
    out = list(_event_differences(list(replayed["events"]), list(record.get("events", []))))
    for key in ("phase", "void", "rules"):
        found = key in record and _first_difference(replayed[key], record[key])
        if found:
            path, x, y = found
            out.append(f"{key}{path}: {_show(x)} on replay, the record says {_show(y)}")
    if "results" in record:
        mine, theirs = replayed["results"], record["results"]
        if not isinstance(theirs, list):
            out.append(f"results: a list on replay, the record says {_show(theirs)}")
        else:
            for a, b in zip(mine, theirs, strict=False):
                recorded = b.get("net", _MISSING) if isinstance(b, dict) else b
                if _first_difference(a, b) is not None:
                    out.append(
                        f"results: box {a['box']} (seat {a['seat']}) settles to net {a['net']} "
                        f"on replay, the record says {_show(recorded)}"
                    )
            if len(mine) != len(theirs):
                out.append(
                    f"results: the record settles {len(theirs)} boxes, the replay {len(mine)}"
                )
    for key in ("players_net", "house_net"):
        if key in record and _first_difference(replayed[key], record[key]) is not None:
            out.append(f"{key}: {replayed[key]} on replay, the record says {_show(record[key])}")
    return out


def verify_russian(record: Mapping[str, Any]) -> list[str]:
    """Replay ``record`` and list every difference from it (empty: the round reproduces).

    Raises:
        RecordError: the record is malformed or does not replay at all.
    """
    return russian_differences(replay_russian(record), record)
