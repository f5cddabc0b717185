"""Hold'em hand records: the JSON a table keeps of a hand, with the hand in PHH
(:mod:`croupier.history.holdem_phh`), from which it replays.

The same signatures as every game's records (:mod:`croupier.history.records`). A record
holds the PHH text (seats and player names in it), the physical ``seats`` in position order,
the ``button``, the starting and finishing stacks, the rake, who held what and who showed
(for recall), the board and the burns, and the ``void`` reason of a voided hand.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.holdem import CashHand, Fold, HoldemConfig, Raise
>>> hand = CashHand(HoldemConfig.cash(players=3, small_blind=1, big_blind=2),
...                 Shoe(shuffled(seeded_source(1))), stacks=(100, 100, 100))
>>> for action in (Raise(seat=2, to=6), Fold(seat=0), Fold(seat=1)):
...     _ = hand.apply(action)
>>> data = record(hand, round_id=9, seats=(4, 0, 2), names=("ann", "bob", "cy"), button=2)
>>> data["finishing_stacks"], verify(data), replay(data).stacks
([99, 98, 103], [], (99, 98, 103))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from croupier.errors import CroupierError, RecordError
from croupier.games.holdem import CashHand
from croupier.games.holdem.events import CardBurned, RoundVoided
from croupier.history import holdem_phh as phh

__all__ = ["differences", "record", "replay", "verify"]


def record(
    hand: CashHand,
    *,
    round_id: int | str | None = None,
    table: str | None = None,
    seats: Sequence[int] | None = None,
    names: Sequence[str] | None = None,
    button: int | None = None,
) -> dict[str, Any]:
    """The record of a hand (complete, voided or not): the PHH and what recall needs.

    Args:
        hand: the hand.
        round_id: the server's id of the hand, if any.
        table: the table's name (in the PHH).
        seats: the physical seat of each player, in position order (default: the positions).
        names: the players' names, in position order.
        button: the button's physical seat.
    """
    seats = tuple(range(hand.players)) if seats is None else tuple(seats)
    void = next((e.reason for e in hand.events if isinstance(e, RoundVoided)), None)
    fields: dict[str, Any] = {}
    if table is not None:
        fields["table"] = table
    if round_id is not None:
        fields["hand"] = round_id
    fields["seats"] = [s + 1 for s in seats]
    if names is not None:
        fields["players"] = list(names)
    holes = {
        str(seats[p]): [str(c) for c in cards]
        for p in range(hand.players)
        if (cards := hand.hole_cards(p)) is not None
    }
    shown = [] if void else [seats[p] for p in range(hand.players) if hand.shown(p)]
    return {
        "game": "holdem",
        "format": "phh",
        "phh": phh.dumps(phh.from_hand(hand, **fields)),
        "seats": list(seats),
        "button": button,
        "starting_stacks": list(hand.starting_stacks),
        "finishing_stacks": list(hand.stacks) if hand.is_over else None,
        "rake": 0 if void else hand.house_net,
        "void": void,
        # For recall: who held what, and who showed (a player recalls only their own
        # cards and the shown ones).
        "hole_cards": holes,
        "shown": shown,
        "board": [str(c) for c in hand.board],
        "burns": [str(e.card) for e in hand.events if isinstance(e, CardBurned)],
    }


def _history(data: Mapping[str, Any]) -> phh.HandHistory:
    if not isinstance(data, Mapping) or data.get("game") != "holdem":
        game = data.get("game") if isinstance(data, Mapping) else None
        raise RecordError(f"not a hold'em hand record (game {game!r})")
    text = data.get("phh")
    if not isinstance(text, str):
        raise RecordError("malformed hold'em record: no PHH text in 'phh'")
    try:
        return phh.loads(text)
    except CroupierError as exc:
        raise RecordError(f"the record's PHH does not read: {exc}") from exc


def replay(data: Mapping[str, Any]) -> CashHand:
    """Re-run a recorded hand through the engine from its PHH (hidden hole cards, written
    ``????`` in a player's recall, replay as unknown).

    Raises:
        RecordError: the record is malformed, or an action it lists is refused.
    """
    return phh.replay(_history(data), strict=False).state


def differences(hand: CashHand, data: Mapping[str, Any]) -> list[str]:
    """Where the record ``data`` differs from the replayed ``hand``: the starting and
    finishing stacks and the rake it stores (a voided hand's stacks are its starting ones)."""
    out = []
    for key, mine in (
        ("starting_stacks", list(hand.starting_stacks)),
        ("finishing_stacks", list(hand.stacks) if hand.is_over else None),
        ("rake", hand.house_net if hand.is_over else 0),
    ):
        if (
            key in data
            and data[key] != mine
            and not (key != "starting_stacks" and data.get("void"))
        ):
            out.append(f"{key}: {mine} on replay, the record says {data[key]}")
    return out


def verify(data: Mapping[str, Any]) -> list[str]:
    """Replay ``data`` and list where it differs from its record and from its PHH's own
    ``finishing_stacks`` (empty: the hand reproduces).

    Raises:
        RecordError: the record is malformed or does not replay at all.
    """
    history = _history(data)
    replayed = phh.replay(history, strict=False)
    out = differences(replayed.state, data)
    written = history.finishing_stacks
    if written is not None and replayed.unsettled is None:
        expected = tuple(Fraction(s) for s in written)
        if replayed.finishing_stacks != expected:
            mine = ", ".join(phh.format_amount(s) for s in replayed.finishing_stacks)
            out.append(f"the PHH's finishing_stacks: {mine} on replay")
    return out
