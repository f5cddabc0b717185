"""Issue 13, items 6, 7, 8 and 12: input built to break the server is refused, cheaply, with
a clear error, and changes nothing.

- 6: a frame announcing 14 MB is refused by the WebSocket layer from its header alone (close
  1009): the server never waits for, nor reads, the payload.
- 7: ``"[" * 15000`` (json.loads recurses) is answered with an ``error`` frame like any
  malformed message; the socket stays open and no traceback reaches the log.
- 8: ids beyond the database's integer range are refused (422), never a 500.
- 12: a Russian Poker bet with ``blind_bonus`` and no blind boxes is refused, naming the
  field; nothing is staked.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import struct
import time
import uuid

import pytest
from sec_testkit import SecServer

pytestmark = pytest.mark.timeout(90)


def _frame(payload: bytes, *, announced: int | None = None) -> bytes:
    """A masked client text frame carrying ``payload`` (its header may announce more)."""
    size = len(payload) if announced is None else announced
    if size < 126:
        header = struct.pack("!BB", 0x81, 0x80 | size)
    elif size < 2**16:
        header = struct.pack("!BBH", 0x81, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
    mask = os.urandom(4)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _close_code(sock: socket.socket, timeout: float) -> int | None:
    """Read server frames until a close frame; its code (``None`` if none came in time)."""
    sock.settimeout(timeout)
    buffer = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        while len(buffer) >= 2:
            opcode, length = buffer[0] & 0x0F, buffer[1] & 0x7F
            offset = 2
            if length == 126:
                (length,) = struct.unpack("!H", buffer[2:4])
                offset = 4
            elif length == 127:
                (length,) = struct.unpack("!Q", buffer[2:10])
                offset = 10
            if len(buffer) < offset + length:
                break
            payload, buffer = buffer[offset : offset + length], buffer[offset + length :]
            if opcode == 8:
                code: int = struct.unpack("!H", payload[:2])[0]
                return code
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return None
        if not chunk:
            return None
        buffer += chunk
    return None


def test_an_oversize_frame_is_refused_from_its_header(shared: SecServer) -> None:
    player = shared.player("huge", credit=1_000)
    with socket.create_connection(("127.0.0.1", shared.port), timeout=10) as sock:
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
        sock.sendall(_frame(json.dumps({"type": "auth", "token": player.token}).encode()))
        # 14 MB announced, 1 KB sent: a server that waits for the rest never answers.
        sock.sendall(_frame(b"[" * 1024, announced=14_000_000))
        assert _close_code(sock, timeout=5) == 1009  # "message too big"
    # The server is unharmed: another socket is served at once.
    ws = shared.socket("sec-uth", player.token)
    assert ws.request({"type": "ping"}, timeout=5) is not None


def test_deeply_nested_json_is_refused_like_any_malformed_frame(shared: SecServer) -> None:
    player = shared.player("nested", credit=1_000)
    ws = shared.socket("sec-uth", player.token)
    ws.send("[" * 15000)
    error = ws.wait_for(lambda f: f["type"] == "error", timeout=10)
    assert error is not None and error["code"] == "invalid_request"
    assert "nested" in error["message"]
    ws.send('{"type": "ping", "id": "p", "x": ' + "[" * 900 + "]" * 900 + "}")
    pong = ws.request({"type": "ping"}, timeout=5)  # the socket is still open
    assert pong is not None and pong["type"] == "pong"
    time.sleep(0.3)
    log = shared.log_text()
    assert "RecursionError" not in log and "Traceback" not in log


@pytest.mark.parametrize("huge", [2**31, 2**63, 2**70, 1180591620717411303424])
def test_ids_beyond_the_integer_range_are_refused_not_a_500(shared: SecServer, huge: int) -> None:
    player = shared.player("ids")
    operator = shared.operator()
    answers = [
        shared.http.get(f"/api/rounds/{huge}", headers=player.auth),
        shared.http.get(f"/api/operator/accounts/{huge}", headers=operator),
        shared.http.post(
            f"/api/operator/accounts/{huge}/credit",
            json={"amount": 100},
            headers={**operator, "Idempotency-Key": uuid.uuid4().hex},
        ),
        shared.http.post(f"/api/operator/accounts/{huge}/disable", headers=operator),
    ]
    for answer in answers:
        assert answer.status_code == 422, (answer.request.url, answer.text)
        assert answer.json()["error"]["code"] == "invalid_request"
    # The largest id that fits is looked up, and found missing.
    assert shared.http.get(f"/api/rounds/{2**31 - 1}", headers=player.auth).status_code == 404
    top = shared.http.get(f"/api/operator/accounts/{2**31 - 1}", headers=operator)
    assert top.status_code == 404


def test_a_blind_bonus_without_blind_boxes_is_refused(shared: SecServer) -> None:
    player = shared.player("bonus", credit=10_000)
    ws = shared.socket("sec-russian", player.token)
    assert ws.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    refused = ws.request(
        {"type": "bet", "key": uuid.uuid4().hex, "bets": {"ante": 100, "blind_bonus": 100}}
    )
    assert refused is not None and refused["type"] == "error", refused
    assert refused["code"] == "invalid_request" and "blind_bonus" in refused["message"]
    assert shared.balance(player.id) == 10_000
    # With a blind box the same bonus is taken: Ante 100, and 3 x 100 + 100 on the blind box.
    taken = ws.request(
        {
            "type": "bet",
            "key": uuid.uuid4().hex,
            "bets": {"ante": 100, "blind_boxes": 1, "blind_bonus": 100},
        }
    )
    assert taken is not None and taken["type"] == "ack", taken
    assert taken["result"]["staked"] == 500
    ws.close()


def _integer_parameters() -> list[tuple[str, str, str, str]]:
    """Every integer path or query parameter of every route: (method, path, where, name).

    Read from the app's own OpenAPI description, so a route added later is covered too."""
    from croupier.server.app import create_app
    from croupier.server.settings import Settings

    spec = create_app(Settings(api_docs=True), tables=[]).openapi()
    found = []
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                kinds = [schema.get("type")] + [s.get("type") for s in schema.get("anyOf", [])]
                if "integer" in kinds:
                    found.append((method.upper(), path, parameter["in"], parameter["name"]))
    return found


def test_no_integer_parameter_of_any_route_answers_500_to_a_huge_value(shared: SecServer) -> None:
    parameters = _integer_parameters()
    assert len({p for _, p, _, _ in parameters}) >= 4  # rounds, accounts, audit, statement...
    operator = {**shared.operator(), "Idempotency-Key": uuid.uuid4().hex}
    for method, path, where, name in parameters:
        for huge in (2**63, 2**70, -(2**70)):
            url = path
            for other in re.findall(r"{(\w+)}", path):
                url = url.replace(f"{{{other}}}", str(huge) if other == name else "1")
            params = {name: huge} if where == "query" else {}
            answer = shared.http.request(method, url, params=params, headers=operator, json={})
            assert answer.status_code != 500, (method, url, params, answer.text)
            assert answer.status_code in (400, 401, 403, 404, 409, 422), (method, url, answer.text)
