"""The table WebSocket protocol, version 1 (documented in ``docs/protocol.md``).

A socket's first frame authenticates it: ``{"type": "auth", "token": ...}`` (the token never
travels in the URL, where access logs would keep it). After that every frame is one JSON
object with a ``type``. Client frames may carry an ``id`` (string or
integer) that the server quotes back as ``ref`` in the ``ack`` or ``error`` it answers with.
Server frames that change what a client knows carry ``seq``: one counter per table, one step
per table event, the same for everybody at the table (a gap means a missed frame: send
``resync``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

from croupier.server.errors import InvalidRequestError

__all__ = [
    "MAX_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "ActMessage",
    "AuthMessage",
    "BetMessage",
    "BuyInMessage",
    "ClientMessage",
    "JoinMessage",
    "LeaveMessage",
    "PingMessage",
    "ResyncMessage",
    "SitInMessage",
    "SitOutMessage",
    "parse_auth_message",
    "parse_client_message",
    "ref_of",
]

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 16_384

Ref = StrictStr | StrictInt | None
Stake = Annotated[int, Field(strict=True, ge=0, le=10**12)]


class _Client(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1
    id: Ref = Field(default=None)


class AuthMessage(_Client):
    """The first frame of every socket: the session token from ``POST /api/auth/login``."""

    type: Literal["auth"]
    token: StrictStr = Field(min_length=1, max_length=256)


class JoinMessage(_Client):
    """Take a seat (a given box at a casino table, or any free one)."""

    type: Literal["join"]
    seat: Annotated[int, Field(strict=True, ge=0, le=100_000)] | None = None


class LeaveMessage(_Client):
    """Give the seat up (refused while the seat has bets in the current round). At a cash
    table ``after_hand: true`` leaves once the hand in play ends (``false`` cancels that)."""

    type: Literal["leave"]
    after_hand: bool | None = None


class BetMessage(_Client):
    """Place the round's opening bets, all at once: spot name -> amount in minor units.

    ``key`` is the idempotency key: a resend with the same key and bets is acknowledged
    without betting twice; with other bets it is refused.
    """

    type: Literal["bet"]
    key: StrictStr = Field(min_length=1, max_length=128)
    bets: dict[Annotated[str, Field(pattern=r"^[a-z_]{1,16}$")], Stake] = Field(max_length=8)


class ActMessage(_Client):
    """A decision: ``action`` is the game's word (UTH: ``check``, ``play``, ``fold``;
    Hold'em: ``fold``, ``check``, ``call``, ``bet``/``raise`` with ``amount`` = the street
    total to bet or raise to, ``all_in``)."""

    type: Literal["act"]
    action: StrictStr = Field(pattern=r"^[a-z0-9_]{1,16}$")
    multiple: Annotated[int, Field(strict=True, ge=1, le=10)] | None = None
    amount: Stake | None = None
    seat: Annotated[int, Field(strict=True, ge=0)] | None = None
    """Optional: a client may name its own seat; any other seat is refused."""
    cards: (
        Annotated[
            list[Annotated[str, Field(pattern=r"^[2-9TJQKA][cdhs]$")]],
            Field(min_length=1, max_length=5),
        ]
        | None
    ) = None
    """Russian Poker ``exchange``: the cards to discard, in notation (``["7c", "2h"]``)."""


class BuyInMessage(_Client):
    """Cash tables (Hold'em): move ``amount`` from the wallet to the seat's stack.

    Taken between hands only; the first buy-in is within the table's minimum and maximum,
    a top-up may not take the stack above the maximum. ``key`` is the idempotency key.
    """

    type: Literal["buy_in"]
    key: StrictStr = Field(min_length=1, max_length=128)
    amount: Annotated[int, Field(strict=True, gt=0, le=10**12)]


class SitOutMessage(_Client):
    """Cash tables: skip the hands that start from now on (the seat and chips are kept)."""

    type: Literal["sit_out"]


class SitInMessage(_Client):
    """Cash tables: be dealt in again from the next hand."""

    type: Literal["sit_in"]


class ResyncMessage(_Client):
    """After a reconnect: the last ``seq`` the client saw; missed events and a snapshot
    follow."""

    type: Literal["resync"]
    last_seq: Annotated[int, Field(strict=True, ge=0)] = 0


class PingMessage(_Client):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[
    JoinMessage
    | LeaveMessage
    | BetMessage
    | ActMessage
    | ResyncMessage
    | PingMessage
    | BuyInMessage
    | SitOutMessage
    | SitInMessage,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_TYPES = ("join", "leave", "bet", "act", "resync", "ping", "buy_in", "sit_out", "sit_in")


_AUTH_ADAPTER: TypeAdapter[AuthMessage] = TypeAdapter(AuthMessage)


def _load(raw: str | bytes) -> dict[str, Any]:
    """The JSON object of a frame, refused when too large, not JSON or nested too deeply
    (``json.loads`` recurses: ``"[" * 15000`` would raise ``RecursionError``)."""
    import json

    if len(raw) > MAX_FRAME_BYTES:
        raise InvalidRequestError(
            f"frame of {len(raw)} bytes is above {MAX_FRAME_BYTES}", reason="message_invalid"
        )
    try:
        data: Any = json.loads(raw)
    except RecursionError:
        raise InvalidRequestError("frame is nested too deeply", reason="message_invalid") from None
    except (ValueError, UnicodeDecodeError):
        raise InvalidRequestError("frame is not valid json", reason="message_invalid") from None
    if not isinstance(data, dict):
        raise InvalidRequestError("frame is not a json object", reason="message_invalid")
    if data.get("v", PROTOCOL_VERSION) != PROTOCOL_VERSION:
        raise InvalidRequestError(
            f"protocol version {data.get('v')!r} is not supported; this server speaks "
            f"{PROTOCOL_VERSION}",
            reason="message_invalid",
        )
    return data


def _validate(adapter: TypeAdapter[Any], data: dict[str, Any], kind: str) -> Any:
    from pydantic import ValidationError

    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(p) for p in first["loc"][1:]] or [str(first["loc"][0])]
        if kind == "auth":
            loc = [str(p) for p in first["loc"]]
        raise InvalidRequestError(
            f"{kind}.{'.'.join(loc)}: {first['msg']}".lower(), reason="message_invalid"
        ) from None


def parse_auth_message(raw: str | bytes) -> AuthMessage:
    """Parse a socket's first frame, which must be ``{"type": "auth", "token": ...}``.

    Raises:
        InvalidRequestError: anything else (the message says what was expected).
    """
    data = _load(raw)
    if data.get("type") != "auth":
        raise InvalidRequestError(
            f"the first frame must be {{'type': 'auth', 'token': ...}}, not type "
            f"{data.get('type')!r}",
            reason="message_invalid",
        )
    message: AuthMessage = _validate(_AUTH_ADAPTER, data, "auth")
    return message


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Parse one client frame (after ``auth``).

    Raises:
        InvalidRequestError: too large, not JSON, nested too deeply, not an object, an
            unknown ``type``, an unsupported ``v``, or fields of the wrong type; the message
            says which.
    """
    data = _load(raw)
    kind = data.get("type")
    if kind not in _TYPES:
        raise InvalidRequestError(
            f"unknown message type {kind!r}; expected one of {_TYPES}", reason="message_invalid"
        )
    message: ClientMessage = _validate(_ADAPTER, data, str(kind))
    return message


def ref_of(raw: str | bytes) -> str | int | None:
    """The ``id`` of a frame that failed to parse, when it can still be read cheaply (never
    for a frame above :data:`MAX_FRAME_BYTES` or one nested too deeply)."""
    import json

    if len(raw) > MAX_FRAME_BYTES:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    ref = data.get("id") if isinstance(data, dict) else None
    return ref if isinstance(ref, str | int) and not isinstance(ref, bool) else None
