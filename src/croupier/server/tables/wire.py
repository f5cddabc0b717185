"""The table WebSocket protocol as typed schemas: every client message, server frame and table
event (version 1, ``docs/protocol.md``; ``docs/protocol.schema.json`` is generated from here).

Client messages are parsed once, by a union discriminated on ``type``
(:func:`parse_client_message`): unknown fields, wrong types, floats, strings or booleans where
an integer is expected are refused with an :class:`InvalidRequestError` naming the field; a
frame above :data:`MAX_FRAME_BYTES` or nested too deeply is refused before any work.

Server frames are :class:`msgspec.Struct` values encoded by one encoder (:func:`encode`); a
frame many connections receive is wrapped in :class:`Shared` and encoded once for all of them.
A field that a frame carries only sometimes is ``UNSET`` when absent (and then not sent).
Table events (``seated``, ``round_opened``, ``round_closed``...) are typed here too; a game
event inside an ``event`` frame is still the game adapter's mapping (``kind`` + fields).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Final, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from croupier.errors import CroupierError
from croupier.server.errors import InvalidRequestError
from croupier.server.errors import error_frame as _error_fields
from croupier.server.tables.wire_events import (
    CASH_EVENTS,
    TABLE_EVENTS,
    BoughtIn,
    CardsOpened,
    Chips,
    DecisionsOpen,
    HandStarting,
    Left,
    NotDealtIn,
    RebuyOffered,
    Reveal,
    RoundClosed,
    RoundOpened,
    SatIn,
    SatOut,
    Seated,
    TableChanged,
    TableEvent,
    TableIdle,
    Tally,
    TimedOut,
    Turn,
    Winner,
    YourTurn,
    round_closed,
)
from croupier.server.wallet.frames import Balance

__all__ = [
    "CASH_EVENTS",
    "CLIENT_MESSAGES",
    "MAX_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "RESULTS",
    "SERVER_FRAMES",
    "TABLE_EVENTS",
    "UNSET",
    "Ack",
    "ActMessage",
    "ActResult",
    "AuthMessage",
    "Balance",
    "BetMessage",
    "BetResult",
    "BoughtIn",
    "BuyInLimits",
    "BuyInMessage",
    "BuyInResult",
    "CardsOpened",
    "ClientMessage",
    "Closing",
    "DecisionsOpen",
    "ErrorFrame",
    "EventFrame",
    "HandStarting",
    "InvalidRequestError",
    "JoinMessage",
    "JoinResult",
    "LeaveMessage",
    "LeaveResult",
    "LeavingResult",
    "Left",
    "LobbyEntry",
    "NotDealtIn",
    "PingMessage",
    "Pong",
    "RebuyOffered",
    "Result",
    "ResyncMessage",
    "Reveal",
    "RoundClosed",
    "RoundOpened",
    "SatIn",
    "SatOut",
    "SeatEntry",
    "SeatEventFrame",
    "Seated",
    "ServerFrame",
    "Shared",
    "SitInMessage",
    "SitOutMessage",
    "SitResult",
    "Spots",
    "Stake",
    "State",
    "TableChanged",
    "TableEvent",
    "TableIdle",
    "TableState",
    "Tally",
    "TimedOut",
    "Timers",
    "Turn",
    "UserRef",
    "Welcome",
    "Winner",
    "YourTurn",
    "as_json",
    "encode",
    "error_frame",
    "parse_auth_message",
    "parse_client_message",
    "read_spots",
    "ref_of",
    "round_closed",
]

PROTOCOL_VERSION: Final = 1
MAX_FRAME_BYTES: Final = 16_384


def _invalid(message: str) -> InvalidRequestError:
    """A malformed frame's refusal (``reason`` ``message_invalid``: the client words it)."""
    return InvalidRequestError(message, reason="message_invalid")


def _doc(text: str) -> Meta:
    return Meta(description=text)


# -- client messages ---------------------------------------------------------------------------

Ref = str | int | None
Stake = Annotated[int, Meta(ge=0, le=10**12, description="minor units (cents)")]


class _Client(Struct, tag_field="type", forbid_unknown_fields=True, frozen=True, kw_only=True):
    v: Annotated[Literal[1], _doc("protocol version (only 1)")] = 1
    id: Annotated[Ref, _doc("quoted back as ``ref`` in the answer")] = None

    @property
    def type(self) -> str:
        """The message's ``type`` (its tag)."""
        tag: str = self.__struct_config__.tag  # type: ignore[assignment]
        return tag


class AuthMessage(_Client, tag="auth", frozen=True, kw_only=True):
    """The first frame of every socket: the session token from ``POST /api/auth/login``.
    `batch: true` asks for frames sent together as one JSON array (a live table's burst of
    events in one message instead of many); without it every frame is its own message."""

    token: Annotated[str, Meta(min_length=1, max_length=256)]
    batch: bool = False


class JoinMessage(_Client, tag="join", frozen=True, kw_only=True):
    """Take a seat: the given box on a casino table, else the lowest free one; on a live table seats
    are unlimited. Joining again returns the seat you have (one seat per account and table). At
    a table with a seat limit the wallet must hold the table's least bet (UTH: 2 × minimum
    Ante; Russian: the minimum Ante; Hold'em: the minimum buy-in), else `insufficient_funds`. A
    seat that lets `idle_rounds` rounds pass without playing (a table setting, default 3; while
    no round is played, each `betting_seconds` window counts; Hold'em: a hand not dealt in or
    timed out) is freed (`left` with `reason: "idle"`), and `join` is refused
    (`illegal_action`) for one `betting_seconds` window after."""

    seat: Annotated[int, Meta(ge=0, le=100_000)] | None = None


class LeaveMessage(_Client, tag="leave", frozen=True, kw_only=True):
    """Give the seat up; refused while the seat has bets in a round being played. At a cash
    table `after_hand: true` while dealt in marks the seat to leave when the hand ends (`false`
    unmarks it); the mark is kept by the server, so it holds if the tab is closed. Ack `{"seat",
    "leaving"}`. A seat whose user has no connection left is freed the same way (at once, or when
    the round it has bets in ends)."""

    after_hand: bool | None = None


class BetMessage(_Client, tag="bet", frozen=True, kw_only=True):
    """The round's opening bets, all at once: `bets` holds the spots of the table's game (one
    of the `...Spots` types; an unknown spot is refused, `unknown_spots`, naming it). UTH:
    `{"ante": A, "trips": T}` (Trips optional; the Blind equals the Ante and is placed with
    it; a `"blind"` spot may be sent but must equal the Ante). The first bet at an idle table
    opens a round. UTH, once your Ante is accepted: a second `bet` `{"trips": T}` (new key)
    adds Trips in the same betting window (seed 001), within the limits the round opened with;
    `staked` is `T`. `key` may not begin with `decision:` (the server's keys for decisions'
    stakes)."""

    key: Annotated[str, Meta(min_length=1, max_length=128, pattern=r"^(?!decision:)")]
    bets: Annotated[
        dict[Annotated[str, Meta(pattern=r"^[a-z_]{1,16}$")], Stake], Meta(max_length=8)
    ]


class Spots(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """The spots of one game's ``bet`` (each game's own subclass, in its ``<game>_wire``
    module): what :func:`read_spots` decodes a :class:`BetMessage`'s ``bets`` into once the
    table's game is known. A spot not sent is ``UNSET`` (or its default)."""

    game: ClassVar[str] = ""
    """The game's name as a refusal words it ("UTH")."""
    choices: ClassVar[frozenset[str]] = frozenset()
    """The spots that are a yes or no (0 or 1), refused as ``not_a_choice``."""


_S = TypeVar("_S", bound=Spots)


def read_spots(bets: Mapping[str, int], spots: type[_S]) -> _S:
    """``bets`` (a :class:`BetMessage`'s) as the game's ``spots``, decoded strictly.

    Raises:
        InvalidRequestError: a spot the game does not have (``unknown_spots``, each named), a
            yes-or-no spot that is not 0 or 1 (``not_a_choice``), an amount of the wrong type
            or out of bounds (naming the spot); nothing is changed.
    """
    known = spots.__struct_fields__
    unknown = sorted(set(bets) - set(known))
    if unknown:
        raise InvalidRequestError(
            f"unknown bet spots {unknown}; {spots.game} has {sorted(known)}",
            reason="unknown_spots",
            params={"spots": unknown},
        )
    try:
        return msgspec.convert(dict(bets), spots)
    except msgspec.ValidationError as exc:
        found = _WHERE.search(str(exc))
        spot = found.group(1).lstrip(".") if found is not None else ""
        if spot in spots.choices:
            raise InvalidRequestError(
                f"{spot} {bets[spot]!r} must be 0 or 1",
                reason="not_a_choice",
                params={"field": spot},
            ) from None
        raise _refusal("bet.bets", exc) from None


class ActMessage(_Client, tag="act", frozen=True, kw_only=True):
    """A decision. UTH: `check`, `fold`, `play` with `multiple` 4/3 (pre-flop), 2 (flop), 1 (river),
    or the action `"4x"`, `"3x"`, `"2x"`, `"1x"` (a table with other `play_multiples`,
    docs/rules.md, takes its own, up to `"10x"`). A `seat` other than yours is refused. A Play
    bet first moves `multiple × Ante` from your wallet to the table's escrow. `decision`: the
    id of the decision you answer (issued with your turn: `decisions_open`, `your_turn`, a
    cash table's `turn`, `state`'s `table.decision`); resent with it, a decision gets its first
    answer again (`replayed`) and changes nothing; one for a turn that has passed is refused
    (`stale_decision`). Without it, it is the decision your seat is asked for now. A detail
    the action does not take (`multiple` but for `play`, `amount` but for a Hold'em bet or
    raise or a Russian `bet`'s insurance, `cards` but for an exchange) is refused
    (`detail_not_for_action`), nothing done."""

    action: Annotated[str, Meta(pattern=r"^[a-z0-9_]{1,16}$")]
    multiple: Annotated[int, Meta(ge=1, le=10)] | None = None
    amount: Stake | None = None
    seat: Annotated[int, Meta(ge=0, description="your own seat; any other is refused")] | None = (
        None
    )
    cards: (
        Annotated[
            list[Annotated[str, Meta(pattern=r"^[2-9TJQKA][cdhs]$")]],
            Meta(min_length=1, max_length=5, description="Russian exchange: the discards"),
        ]
        | None
    ) = None
    decision: (
        Annotated[
            str,
            Meta(
                pattern=r"^[0-9]{1,18}-[0-9]{1,9}$",
                description="the id of the decision this answers (docs/protocol.md)",
            ),
        ]
        | None
    ) = None


class BuyInMessage(_Client, tag="buy_in", frozen=True, kw_only=True):
    """Cash tables (Hold'em) only: move `amount` from your wallet to your seat's stack. Between hands
    only (refused while your seat is dealt in the hand in play). The first buy-in must be
    within the table's `min_buy_in`..`max_buy_in`; a top-up may not take the stack above
    `max_buy_in`. `key` is an idempotency key like `bet.key`: resent while its chips are at the
    table, it is acknowledged with `replayed: true` and the stack and balance as they are now."""

    key: Annotated[str, Meta(min_length=1, max_length=128)]
    amount: Annotated[int, Meta(gt=0, le=10**12)]


class SitOutMessage(_Client, tag="sit_out", frozen=True, kw_only=True):
    """Cash tables: you are not dealt the hands that start from now on; seat and chips are kept. When
    you sit out already, acknowledged and broadcast to nobody."""


class SitInMessage(_Client, tag="sit_in", frozen=True, kw_only=True):
    """Cash tables: you are dealt in again from the next hand (the same when already in)."""


class ResyncMessage(_Client, tag="resync", frozen=True, kw_only=True):
    """After a reconnect: the events after `last_seq` (when the server still has them) and a fresh
    `state`."""

    last_seq: Annotated[int, Meta(ge=0)] = 0


class PingMessage(_Client, tag="ping", frozen=True, kw_only=True):
    """Answered with `pong`."""


ClientMessage = (
    JoinMessage
    | LeaveMessage
    | BetMessage
    | ActMessage
    | ResyncMessage
    | PingMessage
    | BuyInMessage
    | SitOutMessage
    | SitInMessage
)
CLIENT_MESSAGES: Final[tuple[type[_Client], ...]] = (
    AuthMessage,
    JoinMessage,
    LeaveMessage,
    BetMessage,
    ActMessage,
    BuyInMessage,
    SitOutMessage,
    SitInMessage,
    ResyncMessage,
    PingMessage,
)
_TYPES = ("join", "leave", "bet", "act", "resync", "ping", "buy_in", "sit_out", "sit_in")
_DECODER = msgspec.json.Decoder(ClientMessage)
_AUTH_DECODER = msgspec.json.Decoder(AuthMessage)


def _checked_size(raw: str | bytes) -> None:
    if len(raw) > MAX_FRAME_BYTES:
        raise _invalid(f"frame of {len(raw)} bytes is above {MAX_FRAME_BYTES}")


def _loaded(raw: str | bytes) -> dict[str, Any]:
    """The frame as a plain JSON object (only to explain a refusal), or refused saying why."""
    try:
        data: Any = msgspec.json.decode(raw)
    except RecursionError:
        raise _invalid("frame is nested too deeply") from None
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise _invalid("frame is not valid json") from None
    if not isinstance(data, dict):
        raise _invalid("frame is not a json object")
    if data.get("v", PROTOCOL_VERSION) != PROTOCOL_VERSION:
        raise _invalid(
            f"protocol version {data.get('v')!r} is not supported; this server speaks "
            f"{PROTOCOL_VERSION}"
        )
    return data


_WORDING: Final = (
    (re.compile(r"^Expected `int` >= (\S+)$"), r"input should be greater than or equal to \1"),
    (re.compile(r"^Expected `int` > (\S+)$"), r"input should be greater than \1"),
    (re.compile(r"^Expected `int` <= (\S+)$"), r"input should be less than or equal to \1"),
    (
        re.compile(r"^Expected `int( \| null)?`, got `(\w+)`$"),
        r"input should be a valid integer, not \2",
    ),
    (
        re.compile(r"^Expected `str( \| null)?`, got `(\w+)`$"),
        r"input should be a valid string, not \2",
    ),
    (re.compile(r".*'\^\(\?!decision:\)'$"), "a key may not begin with 'decision:' (the server's)"),
    (re.compile(r"^Expected `str` matching regex (.+)$"), r"string should match pattern \1"),
    (
        re.compile(r"^Object contains unknown field `(.+)`$"),
        r"extra inputs are not permitted: unknown field \1",
    ),
    (re.compile(r"^Object missing required field `(.+)`$"), r"field \1 is required"),
)
_WHERE = re.compile(r" - at (?:`key` in )?`\$(.*)`$")


def _refusal(
    kind: str, exc: msgspec.ValidationError, data: Mapping[str, Any] | None = None
) -> InvalidRequestError:
    """``exc`` worded as ``"<type>.<field>: <what is wrong>"`` (a bet's spot named)."""
    text = str(exc)
    found = _WHERE.search(text)
    path = ""
    if found is not None:
        text = text[: found.start()]
        path = found.group(1)
        if path == ".bets[...]" and data is not None:
            path = f".bets.{_bad_spot(data.get('bets'))}"
        path = path.replace("[", ".").replace("]", "")
    for pattern, wording in _WORDING:
        if pattern.match(text):
            text = pattern.sub(wording, text)
            break
    text = text[:1].lower() + text[1:]
    return _invalid(f"{kind}{path}: {text}")


def _bad_spot(bets: object) -> str:
    """The first spot of ``bets`` whose amount is refused (to name it in the refusal)."""
    if isinstance(bets, dict):
        for spot, amount in bets.items():
            try:
                msgspec.convert(amount, Stake)
            except msgspec.ValidationError:
                return str(spot)
    return "..."


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Parse one client frame (after ``auth``): decoded and checked in one pass.

    Raises:
        InvalidRequestError: too large, not JSON, nested too deeply, not an object, an
            unknown ``type``, an unsupported ``v``, unknown fields or fields of the wrong type;
            the message says which.
    """
    _checked_size(raw)
    try:
        message: ClientMessage = _DECODER.decode(raw)
        return message
    except RecursionError:
        raise _invalid("frame is nested too deeply") from None
    except msgspec.ValidationError as exc:  # (a DecodeError: caught first)
        data = _loaded(raw)
        kind = data.get("type")
        if kind not in _TYPES:
            raise _invalid(f"unknown message type {kind!r}; expected one of {_TYPES}") from None
        raise _refusal(str(kind), exc, data) from None
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise _invalid("frame is not valid json") from None


def parse_auth_message(raw: str | bytes) -> AuthMessage:
    """Parse a socket's first frame, which must be ``{"type": "auth", "token": ...}``.

    Raises:
        InvalidRequestError: anything else (the message says what was expected).
    """
    _checked_size(raw)
    try:
        return _AUTH_DECODER.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        pass
    data = _loaded(raw)
    if data.get("type") != "auth":
        raise _invalid(
            f"the first frame must be {{'type': 'auth', 'token': ...}}, not type "
            f"{data.get('type')!r}"
        )
    try:
        return msgspec.convert(data, AuthMessage)
    except msgspec.ValidationError as exc:
        raise _refusal("auth", exc) from None


def ref_of(raw: str | bytes) -> str | int | None:
    """The ``id`` of a frame that failed to parse, when it can still be read cheaply (never
    for a frame above :data:`MAX_FRAME_BYTES` or one nested too deeply)."""
    if len(raw) > MAX_FRAME_BYTES:
        return None
    try:
        data = msgspec.json.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None
    ref = data.get("id") if isinstance(data, dict) else None
    return ref if isinstance(ref, str | int) and not isinstance(ref, bool) else None


# -- server frames -----------------------------------------------------------------------------


class _Frame(Struct, tag_field="type", kw_only=True):
    pass


class Timers(Struct, kw_only=True):
    betting_seconds: float
    decision_seconds: float
    pause_seconds: float


class LobbyEntry(Struct, kw_only=True):
    """A table as the lobby lists it."""

    name: str
    title: str
    game: str
    status: str
    closed: Annotated[bool, _doc("an operator closed the table: no new bets, seats or buy-ins")]
    max_seats: int | None
    seats_taken: int
    rules: Annotated[dict[str, Any], _doc("the game's rules and limits")]
    timers: Timers
    round_id: int | None
    prices: Annotated[
        dict[str, dict[str, int]] | UnsetType,
        _doc(
            "what one unit of each amount of each opening bet stakes, as the game's engine "
            'prices it (UTH: `{"bet": {"ante": 2, "trips": 1}, "trips": {"trips": 1}}`, the '
            "Blind with the Ante; Russian Poker: `box` and `blind_box`): a client's total"
        ),
    ] = UNSET


class UserRef(Struct, kw_only=True):
    id: int
    username: str


class Welcome(_Frame, tag="welcome", kw_only=True):
    """The first frame after ``auth``: the table, who you are, your seat, the ``seq``."""

    v: int = PROTOCOL_VERSION
    table: LobbyEntry
    user: UserRef
    seat: int | None
    seq: int


class SeatEntry(Struct, kw_only=True):
    """A seat and who sits in it; a cash table adds the stack, whether the seat sits out or
    is dealt in the hand in play, whether it leaves when the hand ends, and the seconds left
    in its time bank (where the table has one)."""

    seat: int
    username: str
    stack: Chips | UnsetType = UNSET
    sitting_out: bool | UnsetType = UNSET
    in_hand: bool | UnsetType = UNSET
    leaving: bool | UnsetType = UNSET
    time_bank: float | UnsetType = UNSET


class BuyInLimits(Struct, kw_only=True):
    min: Chips
    max: Chips


class TableState(Struct, kw_only=True):
    """The table now: ``status`` (``idle``, ``betting``, ``playing``, ``pause``), the round,
    seconds to the deadline; casino and cash tables list the ``seats``."""

    name: str
    status: str
    closed: Annotated[bool, _doc("an operator closed the table")]
    round_id: int | None
    commitment: str | None
    deadline_in: float | None
    seats_taken: int
    your_seat: int | None
    decision: Annotated[
        str | UnsetType, _doc("the id of the decision your seat is asked for now")
    ] = UNSET
    seats: list[SeatEntry] | UnsetType = UNSET
    button: int | UnsetType | None = UNSET
    buy_in: BuyInLimits | UnsetType = UNSET


class State(_Frame, tag="state"):
    """A snapshot: the table and ``view``, what your seat may see; after a ``resync`` also
    ``resynced`` and ``complete`` (false when events were skipped)."""

    seq: int
    table: TableState
    view: Annotated[dict[str, Any] | None, _doc("the game's projection for your seat")]
    resynced: bool | UnsetType = UNSET
    complete: bool | UnsetType = UNSET


class EventFrame(_Frame, tag="event"):
    """A table event, numbered by ``seq`` (one counter per table)."""

    seq: int
    table: str
    event: Annotated[Any, _doc("a table event, or a game event (``kind`` + fields)")]


class SeatEventFrame(_Frame, tag="seat_event"):
    """An event for you alone (a live table's events about your seat; Hold'em
    ``cards_opened``): no ``seq``, not replayed by ``resync``."""

    table: str
    event: Annotated[Any, _doc("a table event, or a game event (``kind`` + fields)")]


class JoinResult(Struct, kw_only=True):
    """What ``join`` did: the seat taken (or the one you have)."""

    seat: int


class LeaveResult(Struct, kw_only=True):
    """What ``leave`` did: ``seat`` null (you sit nowhere now); a cash table adds the chips
    ``cashed_out`` to your wallet and its ``balance``."""

    seat: None
    cashed_out: Chips | UnsetType = UNSET
    balance: Chips | UnsetType = UNSET


class LeavingResult(Struct, kw_only=True):
    """What ``leave`` with ``after_hand`` did: whether the seat leaves when the hand ends."""

    seat: int
    leaving: bool


class BetResult(Struct, kw_only=True):
    """What ``bet`` did: the round, the seat, the money ``staked``, your wallet's
    ``balance`` after it, and whether it was a resend answered again (``replayed``)."""

    seat: int
    round_id: int | None
    staked: Chips
    balance: Chips
    replayed: bool


class ActResult(Struct, kw_only=True):
    """What ``act`` did: the seat, the ``action``, ``decision`` (its id); ``staked`` (a
    banked table's) and ``balance`` when money was held, ``replayed`` when resent,
    ``voided`` (and no decision) when the engine failed and the round was voided."""

    seat: int
    action: str
    decision: str | UnsetType = UNSET
    staked: Chips | UnsetType = UNSET
    balance: Chips | UnsetType = UNSET
    replayed: bool | UnsetType = UNSET
    voided: bool | UnsetType = UNSET


class BuyInResult(Struct, kw_only=True):
    """What ``buy_in`` did: the ``amount`` moved, the seat's ``stack`` and your wallet's
    ``balance`` after it, and whether it was a resend answered again (``replayed``)."""

    seat: int
    amount: Chips
    stack: Chips
    balance: Chips
    replayed: bool


class SitResult(Struct, kw_only=True):
    """What ``sit_out`` or ``sit_in`` did: whether the seat sits out now."""

    seat: int
    sitting_out: bool


Result = JoinResult | LeaveResult | LeavingResult | BetResult | ActResult | BuyInResult | SitResult
"""What a request did: one type per request kind."""
RESULTS: Final[tuple[type[Struct], ...]] = (
    JoinResult,
    LeaveResult,
    LeavingResult,
    BetResult,
    ActResult,
    BuyInResult,
    SitResult,
)


class Ack(_Frame, tag="ack"):
    """A request done: ``ref`` quotes its ``id``; ``result`` is what it did, a type per
    request kind."""

    ref: Ref
    result: Result


class ErrorFrame(_Frame, tag="error"):
    """A request refused (nothing changed), or the reason a socket is closed."""

    code: str
    message: str
    ref: Ref
    details: dict[str, Any] | UnsetType = UNSET
    reason: str | UnsetType = UNSET
    params: dict[str, Any] | UnsetType = UNSET
    retry_after: float | UnsetType = UNSET


class Pong(_Frame, tag="pong"):
    """The answer to ``ping``."""

    ref: Ref
    seq: int


class Closing(_Frame, tag="closing"):
    """The server is shutting down (rounds in play were voided)."""

    reason: str


ServerFrame = (
    Welcome | State | EventFrame | SeatEventFrame | Ack | ErrorFrame | Balance | Pong | Closing
)
SERVER_FRAMES: Final[tuple[type[Struct], ...]] = (
    Welcome,
    State,
    EventFrame,
    SeatEventFrame,
    Ack,
    ErrorFrame,
    Balance,
    Pong,
    Closing,
)


def error_frame(
    exc: CroupierError | None = None,
    *,
    code: str | None = None,
    message: str | None = None,
    ref: Ref = None,
    retry_after: float | None = None,
) -> ErrorFrame:
    """The error frame for ``exc`` (or an explicit code and message): code, details and
    reason as :func:`croupier.server.errors.error_frame` maps them."""
    fields = _error_fields(exc, code=code, message=message, ref=ref)
    fields.pop("type")
    frame = ErrorFrame(**fields)
    if retry_after is not None:
        frame.retry_after = round(retry_after, 3)
    return frame


# -- encoding ----------------------------------------------------------------------------------

_ENCODER = msgspec.json.Encoder()


def encode(frame: ServerFrame) -> str:
    """The frame as compact JSON text."""
    return _ENCODER.encode(frame).decode()


class Shared:
    """A frame many connections receive (a table event): encoded once, not once per player.
    It must not be changed once sent."""

    __slots__ = ("_text", "frame")

    def __init__(self, frame: ServerFrame) -> None:
        self.frame = frame
        self._text: str | None = None

    @classmethod
    def encoded(cls, text: str) -> Shared:
        """A frame that arrives encoded already (a cluster's gateway relays its owner's)."""
        shared = cls.__new__(cls)
        shared.frame = None  # type: ignore[assignment]
        shared._text = text
        return shared

    @property
    def text(self) -> str:
        """The frame as compact JSON."""
        if self._text is None:
            self._text = encode(self.frame)
        return self._text


def as_json(frame: object) -> dict[str, Any]:
    """A frame (or any schema value) as a client reads it, a plain JSON object: for the
    HTTP lobby, tests and tools."""
    if isinstance(frame, Shared):
        frame = frame.frame
    data: dict[str, Any] = msgspec.json.decode(_ENCODER.encode(frame))
    return data
