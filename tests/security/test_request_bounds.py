"""Issue 27, item 2: no request can freeze the tables. Tried over real HTTP against
``croupier serve`` (raw sockets where a client library would not send what an attacker does):

- a body whose ``Content-Length`` passes its route's limit is answered 413 at once, before a
  byte of it is sent (the server waited for the whole 16 MB body before this test's fix);
- a chunked body is cut off with 413 as soon as it passes the limit, long before its end
  (the server read 16 MB and answered 422);
- an operator's table rules may be larger than any other body, up to their own limit;
- a body trickling in is refused with 408; a request line and headers above their limit get
  431, a head trickling in gets the connection closed;
- meanwhile a player at a table is answered as usual.

What a flood does to other players' pings is measured by ``benchmarks/body_flood.py``.
"""

from __future__ import annotations

import json
import socket
import time

import pytest
from sec_testkit import SecServer, ServerFactory

pytestmark = pytest.mark.timeout(120)


def _connect(server: SecServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def _head(path: str, headers: dict[str, str], method: str = "POST") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _response(sock: socket.socket, timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of the response read from ``sock`` (a timeout: the
    server answered nothing)."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"closed without an answer: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(status_line.split()[1]), headers, body


def _error(body: bytes) -> dict[str, object]:
    found: dict[str, object] = json.loads(body)["error"]
    return found


def test_a_body_announced_too_large_is_refused_before_it_is_sent(shared: SecServer) -> None:
    with _connect(shared) as sock:
        sock.sendall(
            _head(
                "/api/auth/login",
                {"Content-Type": "application/json", "Content-Length": str(16 * 2**20)},
            )
        )
        # Nothing of the 16 MB is sent: a server that waits for it never answers.
        status, headers, body = _response(sock)
    assert status == 413
    assert headers["connection"] == "close"
    error = _error(body)
    assert error["reason"] == "body_too_large" and error["params"] == {"limit": 8192}
    assert "content-security-policy" in headers  # the API's answer, with its headers


def test_a_chunked_body_is_cut_off_once_past_the_limit(shared: SecServer) -> None:
    chunk = b"a" * 4096
    sent = 0
    with _connect(shared) as sock:
        sock.sendall(
            _head(
                "/api/auth/login",
                {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
            )
        )
        answered = None
        try:
            for _ in range(16 * 2**20 // len(chunk)):
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                if sent % (64 * 1024) == 0:
                    sock.setblocking(False)
                    try:
                        peeked = sock.recv(1, socket.MSG_PEEK)
                    except BlockingIOError:
                        peeked = b""
                    sock.setblocking(True)
                    if peeked:
                        break
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server closed the connection: it stopped reading
        answered = _response(sock)
    status, _, body = answered
    assert status == 413, body
    assert _error(body)["reason"] == "body_too_large"
    # Cut off: the answer came while the client was still sending (what it sent past the
    # limit sat in the two sockets' kernel buffers, a few MB on loopback), not at the end.
    assert sent < 16 * 2**20, sent


def test_an_operators_table_rules_may_be_larger_than_other_bodies(shared: SecServer) -> None:
    rules = {
        "name": "sec-big-rules",
        "game": "uth",
        "betting_seconds": 30,
        "decision_seconds": 30,
        "rules": {"max_seats": 6},
        "status": "closed",
    }
    padded = json.dumps(rules) + " " * 20_000  # valid JSON, 20 KB
    response = shared.http.post(
        "/api/operator/tables",
        content=padded,
        headers={**shared.operator(), "Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text
    credentials = json.dumps({"username": "nobody-at-all", "password": "x" * 12}) + " " * 20_000
    refused = shared.http.post(
        "/api/auth/login", content=credentials, headers={"Content-Type": "application/json"}
    )
    assert refused.status_code == 413 and refused.json()["error"]["reason"] == "body_too_large"
    too_big = json.dumps(rules | {"name": "sec-huge-rules"}) + " " * 70_000
    response = shared.http.post(
        "/api/operator/tables",
        content=too_big,
        headers={**shared.operator(), "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["error"]["params"] == {"limit": 65536}
    assert (
        shared.http.get(
            "/api/operator/tables/sec-huge-rules", headers=shared.operator()
        ).status_code
        == 404
    )


def test_slow_bodies_and_heads_are_cut_off_and_big_heads_refused(
    make_server: ServerFactory,
) -> None:
    server = make_server(
        env={"CROUPIER_HTTP_READ_SECONDS": "2", "CROUPIER_HTTP_HEAD_MAX_BYTES": "4096"}
    )
    with _connect(server) as sock:
        sock.sendall(
            _head("/api/auth/login", {"Content-Type": "application/json", "Content-Length": "64"})
        )
        sock.sendall(b"{")
        started = time.monotonic()
        status, _, body = _response(sock, timeout=10)
    assert status == 408 and _error(body)["reason"] == "body_too_slow"
    assert time.monotonic() - started < 8
    with _connect(server) as sock:
        sock.sendall(b"GET /api/health?" + b"a=1&" * 2000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _, body = _response(sock)
    assert status == 431 and _error(body)["reason"] == "head_too_large"
    with _connect(server) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        sock.settimeout(10)
        closed = False
        try:
            for _ in range(20):
                time.sleep(0.5)
                sock.sendall(b"X-Slow: 1\r\n")
        except OSError:
            closed = True
        if not closed:
            closed = sock.recv(1) == b""
    assert closed
    # The server is unharmed.
    assert server.http.get("/api/health").status_code == 200


def test_a_player_is_answered_while_bodies_are_refused(shared: SecServer) -> None:
    player = shared.player("steady", credit=1_000)
    ws = shared.socket("sec-uth", player.token)
    for _ in range(5):
        with _connect(shared) as sock:
            sock.sendall(
                _head(
                    "/api/auth/login",
                    {"Content-Type": "application/json", "Content-Length": str(16 * 2**20)},
                )
            )
            sock.sendall(b"x" * 65536)
            assert _response(sock)[0] == 413
        assert ws.request({"type": "ping"}, timeout=5) is not None


def _ws_frame(payload: bytes, *, opcode: int, fin: bool) -> bytes:
    """A masked client frame (a fragment when ``fin`` is false)."""
    import os
    import struct

    first = (0x80 if fin else 0) | opcode
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", first, 0x80 | size)
    elif size < 2**16:
        header = struct.pack("!BBH", first, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", first, 0x80 | 127, size)
    mask = os.urandom(4)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_websocket_message_in_fragments_is_capped_like_one_frame(shared: SecServer) -> None:
    """16 KB is the cap of a message, whether it comes in one frame or in fragments of
    8 KB that add up to more (close 1009, "message too big")."""
    import base64
    import os
    import struct

    player = shared.player("fragments", credit=1_000)
    with _connect(shared) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            (
                f"GET /ws/tables/sec-uth HTTP/1.1\r\nHost: 127.0.0.1:{shared.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        response = b""
        while b"\r\n\r\n" not in response:
            response += sock.recv(4096)
        assert response.startswith(b"HTTP/1.1 101"), response
        auth = json.dumps({"type": "auth", "token": player.token}).encode()
        sock.sendall(_ws_frame(auth, opcode=1, fin=True))
        part = b" " * 8192
        try:
            sock.sendall(_ws_frame(part, opcode=1, fin=False))
            for _ in range(3):
                sock.sendall(_ws_frame(part, opcode=0, fin=False))
        except OSError:
            pass  # closed already
        sock.settimeout(5)
        data = b""
        code = None
        deadline = time.monotonic() + 5
        while code is None and time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, OSError):
                break
            if not chunk:
                break
            data += chunk
            at = 0
            while at + 2 <= len(data):
                opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
                offset = at + 2
                if length == 126:
                    (length,) = struct.unpack("!H", data[offset : offset + 2])
                    offset += 2
                if offset + length > len(data):
                    break
                if opcode == 8:
                    (code,) = struct.unpack("!H", data[offset : offset + 2])
                    break
                at = offset + length
    assert code == 1009
