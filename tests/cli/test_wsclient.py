"""The bots' lean WebSocket client (``croupier.cli.wsclient``) against a scripted server
written here from RFC 6455: the handshake checked, masked frames that unmask to what was
sent, frames in pieces and in fragments, pings answered, a close, a refused upgrade. (Against
the real server the bots' tests play whole rounds on it: tests/web/test_bots.py.)"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import struct
from collections.abc import Awaitable, Callable

import pytest

from croupier.cli import wsclient

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

Script = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def _frame(opcode: int, payload: bytes, *, final: bool = True) -> bytes:
    """A server's frame (unmasked)."""
    first = (0x80 if final else 0) | opcode
    n = len(payload)
    if n < 126:
        return struct.pack("!BB", first, n) + payload
    if n < 1 << 16:
        return struct.pack("!BBH", first, 126, n) + payload
    return struct.pack("!BBQ", first, 127, n) + payload


async def _client_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """A client's frame, unmasked (the client must mask every frame)."""
    first, second = await reader.readexactly(2)
    assert second & 0x80, "a client frame must be masked"
    n = second & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", await reader.readexactly(2))
    elif n == 127:
        (n,) = struct.unpack("!Q", await reader.readexactly(8))
    mask = await reader.readexactly(4)
    data = await reader.readexactly(n)
    return first & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def _accept(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, accept: str | None = None
) -> str:
    """Read the upgrade request and answer 101 (``accept``: a wrong value to send instead);
    the request's path."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode()
    lines = head.split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    assert headers["upgrade"] == "websocket" and headers["sec-websocket-version"] == "13"
    key = headers["sec-websocket-key"]
    value = accept or base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
    writer.write(
        (
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Accept: {value}\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    return lines[0].split(" ")[1]


def _run(script: Script, client: Callable[[str], Awaitable[object]]) -> object:
    handlers: list[asyncio.Task[None]] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        handlers.append(asyncio.current_task())  # type: ignore[arg-type]
        try:
            await script(reader, writer)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def main() -> object:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            return await asyncio.wait_for(client(f"ws://127.0.0.1:{port}/ws/tables/live"), 10)
        finally:
            if handlers:
                await asyncio.wait(handlers, timeout=2)
            for task in handlers:
                task.cancel()
            await asyncio.gather(*handlers, return_exceptions=True)
            server.close()
            await server.wait_closed()

    return asyncio.run(main())


def test_messages_both_ways_in_pieces_fragments_and_every_length() -> None:
    long_text = "é" * 40_000  # 80,000 bytes: a 64-bit length
    seen: dict[str, object] = {}

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen["path"] = await _accept(reader, writer)
        # A message whose frame comes byte by byte, with the next one in the same read.
        data = _frame(0x1, b'{"type":"welcome"}') + _frame(0x1, b"x" * 300)
        for i in range(len(data)):
            writer.write(data[i : i + 1])
            await writer.drain()
        # One message in three fragments, a ping between two of them.
        writer.write(_frame(0x1, b"frag", final=False) + _frame(0x9, b"beat"))
        writer.write(_frame(0x0, b"men", final=False) + _frame(0x0, b"ted"))
        writer.write(_frame(0x1, long_text.encode()))
        await writer.drain()
        seen["pong"] = await _client_frame(reader)
        seen["got"] = [await _client_frame(reader) for _ in range(3)]
        writer.write(_frame(0x1, b"bye"))
        await writer.drain()
        seen["close"] = await _client_frame(reader)

    async def client(url: str) -> object:
        async with wsclient.connect(url) as ws:
            got = [await ws.recv() for _ in range(4)]
            for text in ("", "short", "ü" * 100):  # 0, 5 and 200 bytes: the 7- and 16-bit
                await ws.send(text)
            got.append(await ws.recv())
        return got

    got = _run(script, client)
    assert got == ['{"type":"welcome"}', "x" * 300, "fragmented", long_text, "bye"]
    assert seen["path"] == "/ws/tables/live"
    assert seen["pong"] == (0xA, b"beat")
    assert seen["got"] == [(0x1, b""), (0x1, b"short"), (0x1, ("ü" * 100).encode())]
    assert seen["close"] == (0x8, struct.pack("!H", 1000))


def test_a_close_from_the_server_ends_the_messages() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _accept(reader, writer)
        writer.write(_frame(0x1, b"last") + _frame(0x8, struct.pack("!H", 1008) + b"policy"))
        await writer.drain()
        await _client_frame(reader)  # the client answers the close

    async def client(url: str) -> object:
        async with wsclient.connect(url) as ws:
            first = await ws.recv()
            with pytest.raises(wsclient.ConnectionClosed, match="1008 policy"):
                await ws.recv()
            with pytest.raises(wsclient.ConnectionClosed):
                await ws.send("too late")
        return first

    assert _run(script, client) == "last"


def test_a_dropped_connection_raises_connection_closed_an_os_error() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _accept(reader, writer)
        writer.close()

    async def client(url: str) -> object:
        async with wsclient.connect(url) as ws:
            with pytest.raises(OSError):  # what the bots reconnect on
                await ws.recv()
        return True

    assert _run(script, client) is True


@pytest.mark.parametrize("wrong", ["status", "accept"])
def test_an_upgrade_refused_or_answered_wrong_is_refused(wrong: str) -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if wrong == "status":
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
        else:
            await _accept(reader, writer, accept="bm90IHRoZSBrZXk=")
        await asyncio.sleep(0.5)

    async def client(url: str) -> object:
        with pytest.raises(wsclient.HandshakeError) as raised:
            async with wsclient.connect(url):
                pass
        return str(raised.value)

    message = _run(script, client)
    assert ("403 Forbidden" if wrong == "status" else "Sec-WebSocket-Accept") in str(message)


def test_a_masked_or_oversized_frame_from_the_server_closes_the_connection() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _accept(reader, writer)
        writer.write(_frame(0x1, b"z" * 2_000))
        await writer.drain()
        await asyncio.sleep(0.5)

    async def client(url: str) -> object:
        async with wsclient.connect(url, max_size=1_000) as ws:
            with pytest.raises(wsclient.ConnectionClosed, match="over 1000"):
                await ws.recv()
        return True

    assert _run(script, client) is True
    with pytest.raises(ValueError, match="not a WebSocket URL"):
        asyncio.run(wsclient.connect("http://127.0.0.1:1/x").__aenter__())
