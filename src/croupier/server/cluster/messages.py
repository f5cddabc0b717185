"""What the processes of a cluster say to each other over Redis (issue 18).

Gateway to owner, on the table's stream (:func:`command_stream`): a socket connected
(:class:`Connect`) or gone (:class:`Disconnect`), a client's request (:class:`Submit`, the
client's own JSON, validated again by the owner), an operator's change
(:class:`Reconfigure`). One entry of the stream holds the commands a gateway sent together,
in order (:func:`encode_commands`): one seal, one entry and one decoding for a batch of a
thousand bets, not one each.

Owner to gateway, on the gateway's channel (:func:`gateway_channel`): :class:`Frames`, what
the table sent to that gateway's sockets since the last batch, each frame encoded once with
the sockets it goes to (``None``: every socket of that gateway at the table), and which
requests were answered.

To everyone, on :data:`CLUSTER_CHANNEL`: :class:`TakenOver` (a table changed owner: its
round in play was voided) and :class:`UserNotice` (a user's sessions revoked, or a balance
frame after a cashier's credit, for whichever gateway holds that user's sockets).

Every message is a msgspec struct decoded strictly: one that does not validate is logged and
dropped (:func:`decode`), never applied.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import msgspec

from croupier.server.tables.connection import Prepaid

__all__ = [
    "CLUSTER_CHANNEL",
    "ClusterMessage",
    "Command",
    "Connect",
    "Disconnect",
    "Frames",
    "Item",
    "Reconfigure",
    "Submit",
    "TakenOver",
    "TurnOffer",
    "UserNotice",
    "command_stream",
    "decode_cluster",
    "decode_commands",
    "decode_frames",
    "encode",
    "encode_commands",
    "gateway_channel",
    "node_key",
]

log = logging.getLogger(__name__)

CLUSTER_CHANNEL = "croupier:cluster"

_Id = msgspec.Meta(ge=0, le=2**53)
_Name = msgspec.Meta(min_length=1, max_length=128)


def command_stream(table: str) -> str:
    """The Redis Stream of table ``table``'s commands."""
    return f"croupier:table:{table}:in"


def gateway_channel(node: str) -> str:
    """The Redis channel of the frames for gateway ``node``'s sockets."""
    return f"croupier:gateway:{node}"


def node_key(node: str) -> str:
    """The key a live process keeps refreshed (its heartbeat)."""
    return f"croupier:node:{node}"


class Connect(msgspec.Struct, tag="connect", frozen=True):
    gateway: str
    conn: int
    user_id: int
    username: str


class Disconnect(msgspec.Struct, tag="disconnect", frozen=True):
    gateway: str
    conn: int


class Submit(msgspec.Struct, tag="submit", frozen=True):
    gateway: str
    conn: int
    request: int
    message: str
    """The client's frame as it sent it (the owner parses it again)."""
    prepaid: Prepaid | None = None
    """A bet whose stake this gateway held for the round in betting (issue 18)."""
    user_id: int = 0
    username: str = ""
    """The socket's player: an owner that does not know the socket (it connected to the
    table's previous owner, or its gateway was taken for dead) connects it first."""


class Reconfigure(msgspec.Struct, tag="reconfigure", frozen=True):
    config: dict[str, Any]
    closed: bool
    changed: dict[str, Any]


Command = Connect | Disconnect | Submit | Reconfigure


class TurnOffer(msgspec.Struct, array_like=True, frozen=True):
    """A seat's turn to decide at a live table, as its ``your_turn`` gives it: the round and
    phase, the legal actions, the stake of each that adds one, the decision's id."""

    round_id: int
    phase: str
    legal: list[str]
    stakes: dict[str, int]
    decision: str


class Item(msgspec.Struct, array_like=True, frozen=True):
    """One frame for some of a gateway's sockets, a request answered, or a socket to close.

    The gateway learns what it needs of a frame from typed fields, never from its text
    (issue 26): ``seated``/``seat``, the seat of the one socket a frame is for, as the
    owner's table has it after the frame; ``turn``, the turn a ``your_turn`` offers."""

    text: str | None = None
    conns: list[int] | None = None
    """The sockets it goes to; ``None``: every socket of the gateway at the table."""
    answered: int = 0
    """A request id: its answer has been sent (the gateway's ``submit`` returns)."""
    close: int = 0
    """A close code: close ``conns`` once the frames before are written."""
    seated: bool = False
    """The frame is for one socket and ``seat`` is that socket's seat now."""
    seat: int | None = None
    turn: TurnOffer | None = None
    """The frame is a ``your_turn``: the turn it offers its sockets."""


class Frames(msgspec.Struct, tag="frames", frozen=True):
    table: str
    token: int
    items: list[Item]


class TakenOver(msgspec.Struct, tag="taken_over", frozen=True):
    table: str
    owner: str
    token: int
    frame: str | None = None
    """What every socket at the table gets first (the interrupted round's void)."""


class UserNotice(msgspec.Struct, tag="user", frozen=True):
    """Sessions ended, or a frame for a user's sockets, wherever they are."""

    origin: str
    """The process it happened on (which applied it already)."""
    kind: Literal["revoke_token", "revoke_user", "frame"]
    user_id: int | None = None
    token_hash: str | None = None
    reason: str = ""
    frame: str | None = None
    """A frame for every socket of the user (a ``balance`` after a cashier's credit)."""


ClusterMessage = TakenOver | UserNotice

_encoder = msgspec.json.Encoder()
_commands = msgspec.json.Decoder(list[Command] | Command)
_command = msgspec.json.Decoder(Command)
_raw_list = msgspec.json.Decoder(list[msgspec.Raw])
_frames = msgspec.json.Decoder(Frames)
_cluster = msgspec.json.Decoder(ClusterMessage)


def encode(message: msgspec.Struct) -> bytes:
    return _encoder.encode(message)


def _decode(decoder: msgspec.json.Decoder[Any], raw: bytes | str, where: str) -> Any:
    try:
        return decoder.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        log.error("dropped a message on %s that does not validate: %s", where, exc)
        return None


def encode_commands(commands: list[Command]) -> bytes:
    """Commands for one stream entry, in the order they are to be applied."""
    return _encoder.encode(commands)


def decode_commands(raw: bytes | str, where: str) -> list[Command]:
    """The commands of one stream entry, in order (an entry of one command alone, as
    processes before batching wrote, is read too). A command that does not validate is
    logged and dropped, the others of its entry taken, as when each had its own entry."""
    try:
        found: list[Command] | Command = _commands.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        items: list[msgspec.Raw] | None = _decode(_raw_list, raw, where)
        listed = (_decode(_command, item, where) for item in items or ())
        return [command for command in listed if command is not None]
    return found if isinstance(found, list) else [found]


def decode_frames(raw: bytes | str, where: str) -> Frames | None:
    found: Frames | None = _decode(_frames, raw, where)
    return found


def decode_cluster(raw: bytes | str, where: str) -> ClusterMessage | None:
    found: ClusterMessage | None = _decode(_cluster, raw, where)
    return found
