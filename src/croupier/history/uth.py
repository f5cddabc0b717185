"""UTH round records: the JSON from which a round is recalled, replayed and verified.

A record holds the table config, the deck order, the bets, every decision in order and the
results. The same signatures as every game's records (:mod:`croupier.history.records`):

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.uth import Deal, PlaceBets, Play, UthConfig, UthRound
>>> rnd = UthRound(UthConfig(), Shoe(shuffled(seeded_source(3))))
>>> for action in (PlaceBets(seat=0, ante=1000), Deal(), Play(seat=0, multiple=4)):
...     _ = rnd.apply(action)
>>> data = record(rnd, round_id="7")
>>> verify(data), replay(data).results == rnd.results
([], True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from croupier.cards import format_cards
from croupier.chips import Chips
from croupier.deck import Shoe
from croupier.errors import CroupierError, RecordError
from croupier.games.uth import (
    AddTrips,
    Check,
    Deal,
    Fold,
    PlaceBets,
    Play,
    SeatResult,
    UthAction,
    UthConfig,
    UthRound,
)
from croupier.games.uth.events import (
    AntesReturned,
    BetsPlaced,
    BetsWithdrawn,
    BettingClosed,
    Checked,
    Folded,
    LimitsChanged,
    PlayBet,
    RoundVoided,
    TripsPlaced,
)
from croupier.history.records import to_json

__all__ = [
    "RECORD_VERSION",
    "differences",
    "record",
    "record_for_seats",
    "replay",
    "result_to_dict",
    "verify",
]

RECORD_VERSION = 1
_LEGACY_PHASES = {"void": "voided"}
"""Phase names of records written before the engines shared one naming."""


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


def record(
    rnd: UthRound,
    *,
    round_id: int | str | None = None,
    written: Mapping[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The record of a round (complete or not): what is needed to recall and replay it.
    ``written``: seat -> its result as :func:`result_to_dict` wrote it already (a table that
    sent each seat its result), used as it is.

    ``config`` is the table's as the round opened; when the house changed the limits during
    the betting window, ``limits_changed`` lists the new limits in order and a bet placed
    after the ``n``-th change says ``"limits": n`` (``"trips_limits"``: Trips added later)."""
    bets: dict[int, dict[str, int]] = {}
    actions: list[dict[str, Any]] = []
    closed = False
    void: str | None = None
    antes: list[list[int]] | None = None
    changes: list[dict[str, int]] = []
    for event in rnd.events:
        match event:
            case AntesReturned(antes=returned):
                antes = [[seat, ante] for seat, ante in returned]
            case LimitsChanged():
                changes.append(to_json(event))
            case BetsPlaced(seat=seat, ante=ante, trips=trips):
                bets[seat] = {"seat": seat, "ante": ante, "trips": trips}
                if changes:
                    bets[seat]["limits"] = len(changes)
            case TripsPlaced(seat=seat, trips=trips):
                bets[seat]["trips"] = trips  # added after the Ante (seed 001)
                if len(changes) != bets[seat].get("limits", 0):
                    bets[seat]["trips_limits"] = len(changes)
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
        "version": RECORD_VERSION,
        "round_id": round_id,
        "config": rnd.opening_config.to_dict(),
        **({"limits_changed": changes} if changes else {}),
        "deck": format_cards(rnd.shoe.order, " "),
        "bets": [bets[s] for s in sorted(bets)],
        "betting_closed": closed,
        "actions": actions,
        "void": void,
        "phase": rnd.phase.value,
        **({} if antes is None else {"antes_returned": antes}),
        # in the order settled: right to left (seed 003)
        "results": [
            (written or {}).get(result.seat) or result_to_dict(result)
            for result in rnd.results.values()
        ],
        "players_net": sum(r.net for r in rnd.results.values()),
        "house_net": -sum(r.net for r in rnd.results.values()),
    }


def record_for_seats(data: Mapping[str, Any], seats: Collection[int]) -> dict[str, Any]:
    """A live (shared-hand) round's record cut down to ``seats``: their bets, decisions and
    results, with the totals of those boxes; ``boxes_in_play`` keeps the table's count.

    On a shared-hand table the cards dealt do not depend on the boxes in play (one player
    hand for all), so the cut record replays and verifies like the whole one
    (:func:`verify`) -- what a player of a thousand-box round recalls.

    Raises:
        RecordError: not a shared-hand round (a casino table's deal depends on every box).
    """
    if not (data.get("config") or {}).get("shared_hand"):
        raise RecordError("only a shared-hand (live) round's record can be cut to some seats")
    keep = set(seats)
    results = [r for r in data.get("results", []) if r.get("seat") in keep]
    net = sum(int(r.get("net", 0)) for r in results)
    cut: dict[str, Any] = {}
    if "antes_returned" in data:
        cut["antes_returned"] = [a for a in data["antes_returned"] if a[0] in keep]
    return {
        **data,
        **cut,
        "bets": [b for b in data.get("bets", []) if b.get("seat") in keep],
        "actions": [a for a in data.get("actions", []) if a.get("seat") in keep],
        "results": results,
        "players_net": net,
        "house_net": -net,
        "boxes_in_play": len(data.get("bets", [])),
    }


def _decision(step: Mapping[str, Any]) -> UthAction:
    seat, action, timeout = int(step["seat"]), step["action"], bool(step.get("timeout"))
    if action == "check":
        return Check(seat=seat, timeout=timeout)
    if action == "fold":
        return Fold(seat=seat, timeout=timeout)
    if isinstance(action, str) and action.endswith("x") and action[:-1].isdigit():
        return Play(seat=seat, multiple=int(action[:-1]), timeout=timeout)
    raise RecordError(f"unknown action {action!r} in the record")


def _place_bets(rnd: UthRound, data: Mapping[str, Any]) -> None:
    """The record's bets, each checked against the limits it was placed under (the round's
    opening limits, or after the house's ``n``-th change: ``"limits": n``), then the last
    limits for the rest of the round."""
    changes = data.get("limits_changed") or []
    sets = [rnd.config.limits(), *changes]
    for bet in data["bets"]:
        seat, ante = int(bet["seat"]), int(bet["ante"])
        trips = Chips(int(bet.get("trips", 0)))
        if not changes:  # the usual round: one set of limits (a live round has thousands of bets)
            rnd.apply(PlaceBets(seat=seat, ante=Chips(ante), trips=trips))
            continue
        rnd.change_limits(sets[int(bet.get("limits", 0))])
        later = bet.get("trips_limits")
        alone = Chips(0) if later is not None else trips
        rnd.apply(PlaceBets(seat=seat, ante=Chips(ante), trips=alone))
        if later is not None:
            rnd.change_limits(sets[int(later)])
            rnd.apply(AddTrips(seat=seat, trips=trips))
    if changes:
        rnd.change_limits(sets[-1])


def replay(data: Mapping[str, Any]) -> UthRound:
    """Re-run a recorded round through the engine (its typed actions, in order).

    Raises:
        RecordError: the record is malformed, or an action it lists is refused.
    """
    if data.get("game") != "uth":
        raise RecordError(f"not a UTH round record (game {data.get('game')!r})")
    if data.get("version") != RECORD_VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}")
    try:
        rnd = UthRound(UthConfig.from_dict(data["config"]), Shoe.parse(data["deck"]))
        _place_bets(rnd, data)
        if data.get("betting_closed", True):
            rnd.apply(Deal())
        for step in data["actions"]:
            rnd.apply(_decision(step))
        if data.get("void"):
            rnd.void(str(data["void"]))
    except RecordError:
        raise
    except (KeyError, TypeError) as exc:
        raise RecordError(f"malformed UTH record: missing or wrong field {exc}") from exc
    except CroupierError as exc:
        raise RecordError(f"the record does not replay: {exc}") from exc
    return rnd


def differences(rnd: UthRound, data: Mapping[str, Any]) -> list[str]:
    """Where the record ``data`` differs from the replayed round ``rnd`` (empty: none): each
    seat's settlement, then the phase the round ends in."""
    out: list[str] = []
    replayed = [result_to_dict(rnd.results[s]) for s in sorted(rnd.results)]
    # compared seat by seat: records written before seed 003's right-to-left settlement
    # list the seats left to right
    recorded = sorted(data.get("results", []), key=lambda r: r.get("seat", 0))
    for mine, theirs in zip(replayed, recorded, strict=False):
        if mine != theirs:
            out.append(
                f"seat {mine['seat']} settles to net {mine['net']} on replay, "
                f"the record says {theirs.get('net')!r}"
            )
    if len(replayed) != len(recorded):
        out.append(f"the record settles {len(recorded)} seats, the replay {len(replayed)}")
    if "antes_returned" in data:
        # the Antes returned first when the dealer does not qualify (seed 003), right to left
        back = next((e.antes for e in rnd.events if isinstance(e, AntesReturned)), ())
        expected = [[seat, int(ante)] for seat, ante in back]
        if [[int(s), int(a)] for s, a in data["antes_returned"]] != expected:
            out.append(
                f"the record returns the Antes {data['antes_returned']}, the replay {expected}"
            )
    phase = data.get("phase", rnd.phase.value)
    if _LEGACY_PHASES.get(phase, phase) != rnd.phase.value:
        out.append(f"the record ends in phase {phase!r}, the replay in {rnd.phase}")
    return out


def verify(data: Mapping[str, Any]) -> list[str]:
    """Replay ``data`` and list where it differs from its record (empty: it reproduces).

    Raises:
        RecordError: the record is malformed or does not replay at all.
    """
    return differences(replay(data), data)
