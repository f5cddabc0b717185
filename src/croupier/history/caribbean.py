"""Caribbean Stud round records: the JSON from which a round is recalled, replayed and verified.

A record holds the table config, the deck order, the jackpot meter the round was dealt with,
the bets, every decision in order and the results. The same signatures as every game's
records (:mod:`croupier.history.records`):

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.caribbean import CaribbeanConfig, CaribbeanRound, Deal, PlaceBets, Raise
>>> rnd = CaribbeanRound(CaribbeanConfig(), Shoe(shuffled(seeded_source(3))))
>>> for action in (PlaceBets(seat=0, ante=1000), Deal(), Raise(seat=0)):
...     _ = rnd.apply(action)
>>> data = record(rnd, round_id="7")
>>> verify(data), replay(data).results == rnd.results
([], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.cards import format_cards
from croupier.chips import Chips
from croupier.deck import Shoe
from croupier.errors import CroupierError, RecordError
from croupier.games.caribbean import (
    AddProgressive,
    BoxResult,
    CaribbeanAction,
    CaribbeanConfig,
    CaribbeanRound,
    Deal,
    Fold,
    PlaceBets,
    Raise,
)
from croupier.games.caribbean.events import (
    BetsPlaced,
    BetsWithdrawn,
    BettingClosed,
    Folded,
    ProgressivePlaced,
    Raised,
    RoundVoided,
)

__all__ = ["RECORD_VERSION", "differences", "record", "replay", "result_to_dict", "verify"]

RECORD_VERSION = 1
GAME = "caribbean"
"""The record's ``game``."""


def result_to_dict(result: BoxResult) -> dict[str, Any]:
    """A box's settlement as JSON-ready data."""
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


def record(rnd: CaribbeanRound, *, round_id: int | str | None = None) -> dict[str, Any]:
    """The record of a round (complete or not): what is needed to recall and replay it."""
    bets: dict[int, dict[str, Any]] = {}
    actions: list[dict[str, Any]] = []
    closed = False
    void: str | None = None
    for event in rnd.events:
        match event:
            case BetsPlaced(seat=seat, ante=ante, progressive=progressive):
                bets[seat] = {"seat": seat, "ante": ante, "progressive": progressive}
            case ProgressivePlaced(seat=seat, amount=amount):
                bets[seat]["progressive"] = amount
            case BetsWithdrawn(seat=seat):
                bets.pop(seat, None)
            case BettingClosed():
                closed = True
            case Raised(seat=seat, timeout=timeout):
                actions.append({"seat": seat, "action": "raise", "timeout": timeout})
            case Folded(seat=seat, timeout=timeout):
                actions.append({"seat": seat, "action": "fold", "timeout": timeout})
            case RoundVoided(reason=reason):
                void = reason
    results = list(rnd.results.values())
    return {
        "game": GAME,
        "version": RECORD_VERSION,
        "round_id": round_id,
        "config": rnd.config.to_dict(),
        "deck": format_cards(rnd.shoe.order, " "),
        "jackpot": rnd.jackpot,
        "bets": [bets[s] for s in sorted(bets)],
        "betting_closed": closed,
        "actions": actions,
        "void": void,
        "phase": rnd.phase.value,
        # in the order settled: right to left
        "results": [result_to_dict(r) for r in results],
        "players_net": sum(r.net for r in results),
        "house_net": -sum(r.net for r in results),
        "jackpot_paid": rnd.jackpot_paid,
    }


def _decision(step: Mapping[str, Any]) -> CaribbeanAction:
    seat, action, timeout = int(step["seat"]), step["action"], bool(step.get("timeout"))
    if action == "raise":
        return Raise(seat=seat, timeout=timeout)
    if action == "fold":
        return Fold(seat=seat, timeout=timeout)
    raise RecordError(f"unknown action {action!r} in the record")


def _bets(bet: Mapping[str, Any]) -> list[CaribbeanAction]:
    seat, ante, side = int(bet["seat"]), Chips(int(bet["ante"])), int(bet.get("progressive", 0))
    if side < 0:
        raise RecordError(f"seat {seat}'s progressive bet {side} is negative")
    placed: list[CaribbeanAction] = [PlaceBets(seat=seat, ante=ante)]
    return [*placed, AddProgressive(seat=seat)] if side else placed


def replay(data: Mapping[str, Any]) -> CaribbeanRound:
    """Re-run a recorded round through the engine (its typed actions, in order).

    Raises:
        RecordError: the record is malformed, or an action it lists is refused.
    """
    if data.get("game") != GAME:
        raise RecordError(f"not a Caribbean Stud round record (game {data.get('game')!r})")
    if data.get("version") != RECORD_VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}")
    try:
        config = CaribbeanConfig.from_dict(data["config"])
        rnd = CaribbeanRound(config, Shoe.parse(data["deck"]), jackpot=int(data.get("jackpot", 0)))
        for bet in data["bets"]:
            for action in _bets(bet):
                rnd.apply(action)
            recorded, placed = int(bet.get("progressive", 0)), rnd.box(int(bet["seat"])).progressive
            if recorded != placed:
                raise RecordError(
                    f"seat {bet['seat']}'s progressive bet is {recorded} in the record, "
                    f"the table's is {placed}"
                )
        if data.get("betting_closed", True):
            rnd.apply(Deal())
        for step in data["actions"]:
            rnd.apply(_decision(step))
        if data.get("void"):
            rnd.void(str(data["void"]))
    except RecordError:
        raise
    except CroupierError as exc:
        raise RecordError(f"the record does not replay: {exc}") from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed Caribbean Stud record: missing or wrong field {exc}") from exc
    return rnd


def differences(rnd: CaribbeanRound, data: Mapping[str, Any]) -> list[str]:
    """Where the record ``data`` differs from the replayed round ``rnd`` (empty: none): each
    box's settlement, the jackpot paid, then the phase the round ends in."""
    out: list[str] = []
    replayed = [result_to_dict(rnd.results[s]) for s in sorted(rnd.results)]
    recorded = sorted(data.get("results", []), key=lambda r: r.get("seat", 0))
    for mine, theirs in zip(replayed, recorded, strict=False):
        if mine != theirs:
            out.append(
                f"seat {mine['seat']} settles to net {mine['net']} on replay, "
                f"the record says {theirs.get('net')!r}"
            )
    if len(replayed) != len(recorded):
        out.append(f"the record settles {len(recorded)} boxes, the replay {len(replayed)}")
    paid = data.get("jackpot_paid", rnd.jackpot_paid)
    if paid != rnd.jackpot_paid:
        out.append(f"the record pays {paid!r} from the jackpot, the replay {rnd.jackpot_paid}")
    phase = data.get("phase", rnd.phase.value)
    if phase != rnd.phase.value:
        out.append(f"the record ends in phase {phase!r}, the replay in {rnd.phase}")
    return out


def verify(data: Mapping[str, Any]) -> list[str]:
    """Replay ``data`` and list where it differs from its record (empty: it reproduces).

    Raises:
        RecordError: the record is malformed or does not replay at all.
    """
    return differences(replay(data), data)
