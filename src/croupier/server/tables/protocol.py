"""The client messages of the table protocol, version 1: kept as the name the game adapters
import; the schemas live in :mod:`croupier.server.tables.wire` with every server frame."""

from __future__ import annotations

from croupier.server.errors import InvalidRequestError
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
    "refuse_details",
    "stray_detail",
]


_DETAILS = ("multiple", "amount", "cards")
"""The fields of an ``act`` that only some actions take."""


def refuse_details(act: ActMessage, game: str, *taken: str) -> None:
    """Refuse an ``act`` carrying a detail its action does not take: a ``raise`` with an
    ``amount`` at a Caribbean Stud table (its Raise is fixed), a ``fold`` with ``cards``, a
    ``"4x"`` with another ``multiple``. A client that believes it asked for something else
    is told so, and nothing is done (found by red-teaming: such details were ignored).

    Raises:
        InvalidRequestError: ``detail_not_for_action``, naming the field and the action.
    """
    name = stray_detail(act, *taken)
    if name is not None:
        raise InvalidRequestError(
            f"{game}'s {act.action!r} takes no {name!r}: nothing was done",
            reason="detail_not_for_action",
            params={"field": name, "action": act.action},
        )


def stray_detail(act: ActMessage, *taken: str) -> str | None:
    """The first detail ``act`` carries that is not in ``taken`` (``None``: none)."""
    for name in _DETAILS:
        if name not in taken and getattr(act, name) is not None:
            return name
    return None
