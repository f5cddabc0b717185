"""The table events of the WebSocket protocol (inside ``event`` / ``seat_event`` frames):
``seated``, ``round_opened``, ``round_closed``... as typed :class:`msgspec.Struct` values, each
with its explicit wire name (``tag``), and the one builder of ``round_closed``. Part of the
protocol of :mod:`croupier.server.tables.wire`, which re-exports every name here; a game event
inside an ``event`` frame is the game adapter's mapping (``kind`` + fields).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from croupier.server.tables.winners import biggest_winners

__all__ = [
    "CASH_EVENTS",
    "TABLE_EVENTS",
    "BoughtIn",
    "BySeat",
    "CardsOpened",
    "Chips",
    "DecisionsOpen",
    "HandStarting",
    "Left",
    "NotDealtIn",
    "RebuyOffered",
    "Reveal",
    "RoundClosed",
    "RoundOpened",
    "SatIn",
    "SatOut",
    "Seated",
    "TableChanged",
    "TableEvent",
    "TableIdle",
    "Tally",
    "TimedOut",
    "Turn",
    "Winner",
    "YourTurn",
    "round_closed",
]


Chips = Annotated[int, Meta(description="minor units (cents)")]
BySeat = Annotated[dict[str, int], Meta(description="seat (as a string) -> minor units")]


class _Event(Struct, tag_field="kind", kw_only=True):
    pass


class Seated(_Event, tag="seated"):
    """A seat taken (at a live table: to that player only)."""

    seat: int
    username: str


class Left(_Event, tag="left"):
    """A seat given up or freed; ``reason``: ``idle`` when freed for not playing,
    ``self_excluded`` when a cash table cashed out a player who excluded themselves (before the
    next hand); a cash table says what went back to the wallet."""

    seat: int
    username: str
    cashed_out: Chips | UnsetType = UNSET
    reason: str | UnsetType = UNSET


class RoundOpened(_Event, tag="round_opened"):
    """A round opened: the deck's ``commitment`` before any card is dealt. Casino tables give
    ``betting_seconds``; a cash table the ``button``, the ``seats`` dealt in (small blind first,
    button last) and their ``stacks``."""

    round_id: int
    commitment: str
    betting_seconds: float | UnsetType = UNSET
    button: int | UnsetType = UNSET
    seats: list[int] | UnsetType = UNSET
    stacks: BySeat | UnsetType = UNSET


class DecisionsOpen(_Event, tag="decisions_open"):
    """A decision phase opened: ``pending_seats`` (casino tables) or ``pending`` (a count, at
    a live table) have ``decision_seconds`` to decide; ``decision`` is the id of each one's
    decision (an ``act`` carries it)."""

    phase: str
    decision_seconds: float
    decision: str | UnsetType = UNSET
    pending_seats: list[int] | UnsetType = UNSET
    pending: int | UnsetType = UNSET


class YourTurn(_Event, tag="your_turn"):
    """At a live table, to each seat that has to decide when a decision phase opens (a
    ``seat_event``, after ``decisions_open``): its ``legal`` actions in ``phase`` of round
    ``round_id`` with the ``decision``'s id, and the money each action that adds a bet moves
    from your wallet (``stakes``, action -> minor units: UTH's Play bets ``4x``... as the
    Ante's multiple). A casino table sends each seat its ``state`` instead (its view's
    ``legal``)."""

    phase: str
    legal: list[str]
    decision: str | UnsetType = UNSET
    round_id: int | UnsetType = UNSET
    stakes: (
        Annotated[dict[str, int], Meta(description="action -> minor units it stakes")] | UnsetType
    ) = UNSET


class Reveal(Struct, kw_only=True):
    """What proves the deal: the whole deck and its salt (banked games), or the card
    commitment's ``leaves`` and the ``openings`` of the cards everyone saw (Hold'em)."""

    commitment: str | None
    salt: str | UnsetType = UNSET
    deck: str | UnsetType = UNSET
    leaves: list[str] | UnsetType = UNSET
    openings: dict[str, list[str]] | UnsetType = UNSET


class Winner(Struct, kw_only=True):
    """One of a live round's biggest winners (seed 001: the winners are announced)."""

    name: str
    net: int


class RoundClosed(_Event, tag="round_closed"):
    """A round settled or voided. ``returns``: seat -> everything paid back (casino tables,
    not live ones); ``stacks``: seat -> chips after the hand (cash tables); ``winners``: a
    live table's biggest winners, largest first (at most five)."""

    round_id: int | None
    status: Literal["settled", "voided"]
    summary: dict[str, Any]
    reveal: Reveal
    returns: BySeat | UnsetType = UNSET
    stacks: BySeat | UnsetType = UNSET
    winners: list[Winner] | UnsetType = UNSET


class TableIdle(_Event, tag="table_idle"):
    """No round in play."""


class Tally(_Event, tag="tally"):
    """A live table's counts, when they change (at most once a second)."""

    seats_taken: int
    boxes_in_play: int
    pending: int


class BoughtIn(_Event, tag="bought_in"):
    """Cash tables: chips bought in; ``stack`` is the seat's chips now."""

    seat: int
    amount: Chips
    stack: Chips


class SatOut(_Event, tag="sat_out"):
    """Cash tables: a seat sits out; ``reason`` when the server sat it out (a responsible-
    gaming limit used up: ``wager_limit``, ``loss_limit``)."""

    seat: int
    reason: str | UnsetType = UNSET


class NotDealtIn(_Event, tag="not_dealt_in"):
    """Cash tables, to one player (a ``seat_event``): why their seat was not dealt the next
    hand (a responsible-gaming limit), with the error's ``reason``, ``params`` and text."""

    seat: int
    reason: str
    params: dict[str, Any]
    message: str


class RebuyOffered(_Event, tag="rebuy_offered"):
    """Cash tables, to one player (a ``seat_event``): their stack is empty after a hand; the
    seat is kept ``seconds`` (a table setting, ``rebuy_seconds``) for a buy-in between ``min``
    and ``max`` before it is freed (``left`` with ``reason: "busted"``)."""

    seat: int
    seconds: float
    min: Chips
    max: Chips


class TableChanged(_Event, tag="table_changed"):
    """An operator changed the table: ``closed`` (no new bets, seats or buy-ins), ``rules``
    from the next round on (as in the lobby), ``changed`` (field -> ``{"from", "to"}``),
    ``in_play`` (the round in play: its bets placed after the change take the new limits)."""

    closed: bool
    rules: dict[str, Any]
    changed: dict[str, Any]
    in_play: int | None


class SatIn(_Event, tag="sat_in"):
    """Cash tables: a seat is dealt in again."""

    seat: int


class HandStarting(_Event, tag="hand_starting"):
    """Cash tables: the next hand is dealt in ``in_seconds``."""

    in_seconds: float


class Turn(_Event, tag="turn"):
    """Cash tables: ``seat`` is to act; ``decision`` is the id of its decision; ``time_bank``:
    the seat's decision time ran out and ``decision_seconds`` more come from its time bank (a
    table setting, ``time_bank_seconds``)."""

    seat: int | None
    phase: str
    decision_seconds: float
    decision: str | UnsetType = UNSET
    time_bank: bool | UnsetType = UNSET


class TimedOut(_Event, tag="timed_out"):
    """Cash tables: ``seat`` did not act in time (it checks, or folds)."""

    seat: int


class CardsOpened(_Event, tag="cards_opened"):
    """Cash tables, to one player (a ``seat_event``): the openings of their own hole cards."""

    round_id: int | None
    seat: int
    openings: dict[str, list[str]]


TableEvent = (
    Seated
    | Left
    | RoundOpened
    | DecisionsOpen
    | YourTurn
    | RoundClosed
    | TableIdle
    | Tally
    | BoughtIn
    | SatOut
    | SatIn
    | HandStarting
    | Turn
    | TimedOut
    | CardsOpened
    | NotDealtIn
    | RebuyOffered
    | TableChanged
)
TABLE_EVENTS: Final[tuple[type[_Event], ...]] = (
    Seated,
    Left,
    RoundOpened,
    DecisionsOpen,
    YourTurn,
    RoundClosed,
    TableIdle,
    Tally,
    TableChanged,
)
CASH_EVENTS: Final[tuple[type[_Event], ...]] = (
    BoughtIn,
    SatOut,
    SatIn,
    HandStarting,
    Turn,
    TimedOut,
    CardsOpened,
    NotDealtIn,
    RebuyOffered,
)


def round_closed(
    *,
    round_id: int | None,
    status: Literal["settled", "voided"],
    summary: Mapping[str, Any],
    reveal: Reveal,
    returns: Mapping[int, int] | None = None,
    stacks: Mapping[int, int] | None = None,
    crowd: bool = False,
    names: Mapping[int, str] | None = None,
) -> RoundClosed:
    """The one ``round_closed`` event. At a live table (``crowd``) each seat had its own
    result as a ``seat_event``: everyone gets the totals and the round's biggest winners
    (``names``: seat -> display name), no ``returns`` and no per-seat ``results`` in the
    summary."""
    winners: list[Winner] | UnsetType = UNSET
    if crowd:
        top = biggest_winners(summary.get("results") or (), names or {})
        winners = [Winner(name=w["name"], net=w["net"]) for w in top]
    return RoundClosed(
        round_id=round_id,
        status=status,
        summary={k: v for k, v in summary.items() if not (crowd and k == "results")},
        reveal=reveal,
        returns=UNSET if returns is None or crowd else _by_seat(returns),
        stacks=UNSET if stacks is None else _by_seat(stacks),
        winners=winners,
    )


def _by_seat(amounts: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): int(amount) for seat, amount in sorted(amounts.items())}
