"""Who is asking: the client address a request came from, behind trusted proxies or not.

By default the address is the socket's peer. Behind a reverse proxy every request comes from
the proxy, so the server must read ``X-Forwarded-For`` -- but only from a proxy it trusts
(``CROUPIER_TRUSTED_PROXIES``, addresses or networks), or anybody could name any address and
slip out of the per-address login throttle. The forwarded list is read from the right (the
address the nearest proxy saw) past every trusted proxy; the first address that is not one is
the client.

>>> from ipaddress import ip_network
>>> trusted = [ip_network("10.0.0.0/8")]
>>> forwarded_client("10.0.0.5", "203.0.113.9, 198.51.100.7, 10.0.0.2", trusted)
'198.51.100.7'
>>> forwarded_client("192.0.2.1", "203.0.113.9", trusted)
'192.0.2.1'
"""

from __future__ import annotations

from collections.abc import Sequence
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

    from croupier.server.settings import Settings

__all__ = ["client_address", "forwarded_client", "trusted_networks"]

Network = IPv4Network | IPv6Network


def trusted_networks(entries: Sequence[str]) -> list[Network]:
    """The trusted proxies as networks (a bare address is a network of one)."""
    return [ip_network(entry.strip(), strict=False) for entry in entries if entry.strip()]


def _trusted(address: str, trusted: Sequence[Network]) -> bool:
    try:
        ip = ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def forwarded_client(peer: str, forwarded_for: str | None, trusted: Sequence[Network]) -> str:
    """The client's address given the socket ``peer`` and its ``X-Forwarded-For``."""
    if not forwarded_for or not _trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, trusted):
            return hop
    return hops[0] if hops else peer


def client_address(connection: HTTPConnection, settings: Settings) -> str:
    """The address of the client of ``connection`` (a request or a WebSocket)."""
    peer = connection.client.host if connection.client is not None else "unknown"
    if not settings.trusted_proxies:
        return peer
    trusted = trusted_networks(settings.trusted_proxies)
    return forwarded_client(peer, connection.headers.get("x-forwarded-for"), trusted)
