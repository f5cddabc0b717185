"""The client messages of the table protocol, version 1: kept as the name the game adapters
import; the schemas live in :mod:`croupier.server.tables.wire` with every server frame."""

from __future__ import annotations

from croupier.server.tables.wire import (
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    ActMessage,
    AuthMessage,
    BetMessage,
    BuyInMessage,
    ClientMessage,
    JoinMessage,
    LeaveMessage,
    PingMessage,
    ResyncMessage,
    SitInMessage,
    SitOutMessage,
    parse_auth_message,
    parse_client_message,
    ref_of,
)

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
