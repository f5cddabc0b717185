"""The bus's seal (issue 27), on its own: what opens and what does not. The cluster's tests
(``tests/cluster/test_bus_security.py``) try the same from outside against real processes."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.server.cluster.seal import (
    MARGIN_SECONDS,
    ChannelGuard,
    Purpose,
    Refused,
    Seal,
    StreamGuard,
)

KEY = "k" * 40


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@given(payload=st.binary(max_size=2000), place=st.text(min_size=1, max_size=40))
def test_a_sealed_message_opens_with_its_bytes_where_it_was_sealed_for(
    payload: bytes, place: str
) -> None:
    seal = Seal(KEY, max_age=60)
    opened = seal.open(Purpose.COMMAND, place, seal.seal(Purpose.COMMAND, place, payload))
    assert opened.payload == payload and opened.boot == seal.boot


@given(payload=st.binary(max_size=300), place=st.text(min_size=1, max_size=40))
def test_the_mac_is_the_documented_one(payload: bytes, place: str) -> None:
    """The seal's MAC, computed here from the module's description: HMAC-SHA256 under the key
    derived from the shared secret, over the version, the purpose, the place and the header,
    each length-prefixed (4 bytes, big-endian), then the payload. Processes of two versions
    of croupier in one cluster open each other's messages only while this holds."""
    seal = Seal(KEY, max_age=60)
    sealed = seal.seal(Purpose.FRAMES, place, payload)
    head, _, rest = sealed.partition(b":")
    version, boot, counter, ms, mac = head.split(b".")
    assert rest == payload
    key = hmac.new(KEY.encode(), b"croupier cluster bus v1", hashlib.sha256).digest()
    expected = hmac.new(key, digestmod=hashlib.sha256)
    header = b".".join((version, boot, counter, ms))
    for part in (b"1", b"frames", place.encode(), header):
        expected.update(len(part).to_bytes(4, "big") + part)
    expected.update(payload)
    assert mac == expected.hexdigest().encode()


def test_what_does_not_open() -> None:
    clock = Clock()
    seal = Seal(KEY, max_age=60, clock=clock)
    sealed = seal.seal(Purpose.COMMAND, "croupier:table:a:in", b'{"type":"connect"}')
    other_key = Seal("j" * 40, max_age=60, clock=clock)
    cases = {
        "unsealed": b'{"type":"connect"}',
        "another key": other_key.seal(Purpose.COMMAND, "croupier:table:a:in", b"{}"),
        "another stream": None,
        "another purpose": None,
        "payload altered": sealed.replace(b"connect", b"c0nnect"),
        "header altered": sealed.replace(b".1.", b".2.", 1),
    }
    for what, raw in cases.items():
        purpose, place = Purpose.COMMAND, "croupier:table:a:in"
        if what == "another stream":
            raw, place = sealed, "croupier:table:b:in"
        if what == "another purpose":
            raw, purpose = sealed, Purpose.FRAMES
        assert raw is not None
        with pytest.raises(Refused):
            seal.open(purpose, place, raw)
    clock.now += 61
    with pytest.raises(Refused, match="older than 60 s"):
        seal.open(Purpose.COMMAND, "croupier:table:a:in", sealed)
    assert seal.open(Purpose.LOBBY, "a", seal.seal(Purpose.LOBBY, "a", b"x"), fresh=False)


def test_the_key_is_never_in_its_repr_and_a_short_key_is_refused() -> None:
    assert KEY not in repr(Seal(KEY, max_age=60))
    with pytest.raises(ValueError, match="at least 32"):
        Seal("short", max_age=60)


def test_a_stream_reader_takes_each_message_once_and_nothing_from_before_it_began() -> None:
    clock = Clock()
    sender = Seal(KEY, max_age=60, clock=clock)
    old = sender.open(Purpose.COMMAND, "s", sender.seal(Purpose.COMMAND, "s", b"old"))
    clock.now += MARGIN_SECONDS + 1
    guard = StreamGuard(since=clock.now)
    with pytest.raises(Refused, match="before this reader began"):
        guard.admit(old)
    first = sender.open(Purpose.COMMAND, "s", sender.seal(Purpose.COMMAND, "s", b"1"))
    second = sender.open(Purpose.COMMAND, "s", sender.seal(Purpose.COMMAND, "s", b"2"))
    guard.admit(first)
    guard.admit(second)
    for again in (first, second):
        with pytest.raises(Refused, match="taken before"):
            guard.admit(again)
    # What was stored before the reader began, within the margin, counts as read.
    late = StreamGuard(since=clock.now)
    late.seen(second)
    with pytest.raises(Refused):
        late.admit(first)


def test_a_channel_reader_takes_out_of_order_messages_once_and_forgets_them_later() -> None:
    clock = Clock()
    sender = Seal(KEY, max_age=10, clock=clock)
    guard = ChannelGuard(since=clock.now, max_age=10)
    sealed = [sender.seal(Purpose.FRAMES, "g", b"%d" % i) for i in range(5)]
    opened = [sender.open(Purpose.FRAMES, "g", s) for s in sealed]
    for message in reversed(opened):
        guard.admit(message, now=clock.now)
    for message in opened:
        with pytest.raises(Refused, match="taken before"):
            guard.admit(message, now=clock.now)
    clock.now += 12
    guard.admit(
        sender.open(Purpose.FRAMES, "g", sender.seal(Purpose.FRAMES, "g", b"x")), now=clock.now
    )
    assert len(guard._taken) == 1  # the old ones forgotten: their age refuses them now
    with pytest.raises(Refused, match="older than"):
        sender.open(Purpose.FRAMES, "g", sealed[0])
