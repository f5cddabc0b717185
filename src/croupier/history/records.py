"""Round records: JSON documents from which a round can be recalled and replayed.

A UTH record holds the table config, the deck order, the bets, every decision in order
and the results. :func:`replay_uth` re-runs the round through the engine and
:func:`verify_uth` confirms the recorded settlement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.cards import format_cards
from croupier.deck import Shoe
from croupier.errors import CroupierError, RecordError
from croupier.games.uth import Phase, SeatResult, UthConfig, UthRound
from croupier.games.uth.events import (
    BetsPlaced,
    BetsWithdrawn,
    BettingClosed,
    Checked,
    Folded,
    PlayBet,
    RoundVoided,
)

__all__ = ["UTH_RECORD_VERSION", "replay_uth", "result_to_dict", "uth_record", "verify_uth"]

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
        "results": [result_to_dict(rnd.results[s]) for s in sorted(rnd.results)],
        "players_net": sum(r.net for r in rnd.results.values()),
        "house_net": -sum(r.net for r in rnd.results.values()),
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
    recorded = list(record.get("results", []))
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
