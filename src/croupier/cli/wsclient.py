"""A lean WebSocket client for the bots (RFC 6455, text messages, no extensions).

Thousands of bots share one process, and in the load benchmark they share the machine with
the servers they measure: every microsecond a bot spends on a frame is taken from the
servers, and every frame a busy bot has not read yet adds to the latency it reports. The
general-purpose client (``websockets``) spends most of a bot's CPU in its own machinery (a
parser generator per connection, an assembler and queues per message). This one does only
what a bot needs, on an :class:`asyncio.Protocol`: the opening handshake (checked), masked
text frames out, unmasked frames in (text, fragments, ping answered, close), and nothing
else -- no compression, no keep-alive pings of its own.

    async with connect("ws://127.0.0.1:8000/ws/tables/live") as ws:
        await ws.send('{"type": "auth", ...}')
        frame = await ws.recv()

A dropped or closed connection raises :class:`ConnectionClosed` (an :class:`OSError`, as a
refused connection is) from :meth:`Client.recv` and :meth:`Client.send`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import ssl
import struct
from collections import deque
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

__all__ = ["Client", "ConnectionClosed", "HandshakeError", "connect"]

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""RFC 6455 section 1.3: appended to the key to make the accept value."""
_TEXT, _BINARY, _CONTINUATION, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


class ConnectionClosed(ConnectionError):
    """The connection is closed (by either side, or dropped)."""


class HandshakeError(ConnectionError):
    """The server did not accept the WebSocket (its status line says why)."""


def _masked(opcode: int, payload: bytes) -> bytes:
    """One final client frame: header, a fresh random mask (section 5.3), masked payload."""
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    mask = os.urandom(4)
    if not n:
        return header + mask
    # XOR of whole integers: one C operation, not a Python loop per byte.
    repeated = (mask * (n // 4 + 1))[:n]
    body = int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")
    return header + mask + body.to_bytes(n, "big")


class _Protocol(asyncio.Protocol):
    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.handshake: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.messages: deque[str] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.closed: str | None = None
        """Why the connection is closed (``None``: open)."""
        self.fragments: list[bytes] = []
        self.writable = asyncio.Event()
        self.writable.set()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.handshake.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buffer = bytes(self.buffer[: end + 4]), self.buffer[end + 4 :]
            self.handshake.set_result(head)
        try:
            self._frames()
        except ConnectionClosed as exc:
            self._close(str(exc))

    def _frames(self) -> None:
        buffer = self.buffer
        at, size = 0, len(buffer)
        while size - at >= 2:
            first, second = buffer[at], buffer[at + 1]
            length, start = second & 0x7F, at + 2
            if second & 0x80:
                raise ConnectionClosed("the server masked a frame (RFC 6455 section 5.1)")
            if length == 126:
                if size - start < 2:
                    break
                (length,) = struct.unpack_from("!H", buffer, start)
                start += 2
            elif length == 127:
                if size - start < 8:
                    break
                (length,) = struct.unpack_from("!Q", buffer, start)
                start += 8
            if length > self.max_size:
                raise ConnectionClosed(f"a frame of {length} bytes, over {self.max_size}")
            if size - start < length:
                break
            self._frame(first, bytes(buffer[start : start + length]))
            at = start + length
        if at:
            del buffer[:at]

    def _frame(self, first: int, payload: bytes) -> None:
        opcode, final = first & 0x0F, first & 0x80
        if opcode in (_TEXT, _BINARY, _CONTINUATION):
            if opcode != _CONTINUATION:
                self.fragments = []
            self.fragments.append(payload)
            if final:
                message = b"".join(self.fragments)
                self.fragments = []
                self.messages.append(message.decode("utf-8"))
                if self.waiter is not None and not self.waiter.done():
                    self.waiter.set_result(None)
        elif opcode == _PING:
            self.write(_masked(_PONG, payload))
        elif opcode == _CLOSE:
            code = struct.unpack_from("!H", payload)[0] if len(payload) >= 2 else 1005
            self.write(_masked(_CLOSE, payload[:2]))
            reason = payload[2:].decode("utf-8", "replace")
            raise ConnectionClosed(f"closed by the server: {code} {reason}".rstrip())

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self._close(f"connection lost: {exc}" if exc else "connection closed")
        self.writable.set()

    def _close(self, why: str) -> None:
        if self.closed is None:
            self.closed = why
        if not self.handshake.done():
            self.handshake.set_exception(ConnectionClosed(why))
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)
        if self.transport is not None:
            self.transport.close()


class Client:
    """One open WebSocket (from :func:`connect`)."""

    def __init__(self, protocol: _Protocol) -> None:
        self._protocol = protocol

    async def recv(self) -> str:
        """The next text message.

        Raises:
            ConnectionClosed: the connection is closed and every message was read.
        """
        protocol = self._protocol
        while not protocol.messages:
            if protocol.closed is not None:
                raise ConnectionClosed(protocol.closed)
            protocol.waiter = asyncio.get_running_loop().create_future()
            await protocol.waiter
        return protocol.messages.popleft()

    async def send(self, text: str) -> None:
        """Send a text message.

        Raises:
            ConnectionClosed: the connection is closed.
        """
        protocol = self._protocol
        if protocol.closed is not None:
            raise ConnectionClosed(protocol.closed)
        protocol.write(_masked(_TEXT, text.encode("utf-8")))
        if not protocol.writable.is_set():
            await protocol.writable.wait()

    async def close(self) -> None:
        """Say goodbye (1000) and close."""
        protocol = self._protocol
        if protocol.closed is None:
            protocol.write(_masked(_CLOSE, struct.pack("!H", 1000)))
            protocol._close("closed by the client")


def _request(host: str, path: str, key: str) -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode("ascii")


def _check(head: bytes, key: str) -> None:
    """Raise :class:`HandshakeError` unless ``head`` accepts the WebSocket of ``key``."""
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ", 2)
    if len(status) < 2 or status[1] != "101":
        raise HandshakeError(f"the server refused the WebSocket: {lines[0]}")
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    expected = base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest()).decode()
    if headers.get("sec-websocket-accept") != expected:
        raise HandshakeError("the server's Sec-WebSocket-Accept does not match the key")


@contextlib.asynccontextmanager
async def connect(
    url: str, *, max_size: int = 2**22, timeout: float = 10.0
) -> AsyncIterator[Client]:
    """An open WebSocket to ``url`` (``ws://`` or ``wss://``), closed on exit.

    Raises:
        HandshakeError: the server did not accept it.
        OSError: the connection failed.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"not a WebSocket URL: {url!r}")
    secure = parts.scheme == "wss"
    port = parts.port or (443 if secure else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    loop = asyncio.get_running_loop()
    _, protocol = await asyncio.wait_for(
        loop.create_connection(
            lambda: _Protocol(max_size),
            parts.hostname,
            port,
            ssl=ssl.create_default_context() if secure else None,
        ),
        timeout,
    )
    key = base64.b64encode(os.urandom(16)).decode()
    try:
        protocol.write(_request(parts.netloc, path, key))
        _check(await asyncio.wait_for(asyncio.shield(protocol.handshake), timeout), key)
        yield Client(protocol)
    finally:
        if protocol.closed is None:
            await Client(protocol).close()
