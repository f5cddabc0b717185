"""Test helpers: what a cluster's gateways put on a table's stream, read back and delivered
again -- or a gateway's hold and its claim made by hand -- through the owner's own bus, as
any process of the cluster could (its messages sealed with the cluster's key)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from server_testkit import Seat, Server, table_ws
from sqlalchemy import select

from croupier.server.cluster import messages as m
from croupier.server.cluster.seal import Purpose
from croupier.server.db import Database
from croupier.server.tables import stakes
from croupier.server.tables.connection import Prepaid
from croupier.server.tables.models import Round
from croupier.server.tables.staking import stake_order

CREDIT = 10_000


def commands(server: Server, table: str) -> list[m.Command]:
    """Every command on ``table``'s stream so far."""
    import redis

    client = redis.Redis.from_url(str(server.settings.redis_url))
    seal = server.app.state.node.bus.seal
    stream = m.command_stream(table)
    out: list[m.Command] = []
    try:
        for _, fields in client.xrange(stream):
            opened = seal.open(Purpose.COMMAND, stream, fields[b"m"], fresh=False)
            out.extend(m.decode_commands(opened.payload, "test"))
    finally:
        client.close()
    return out


def _found(server: Server, table: str, match: Any, what: str) -> Any:
    deadline = time.monotonic() + 10
    while True:
        for command in commands(server, table):
            if match(command):
                return command
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def socket_of(server: Server, table: str, user_id: int) -> tuple[str, int]:
    """The gateway and socket number of ``user_id``'s socket at ``table``."""
    found = _found(
        server,
        table,
        lambda c: isinstance(c, m.Connect) and c.user_id == user_id,
        "the user's socket never connected",
    )
    return found.gateway, found.conn


def genuine(server: Server, table: str, ref: str) -> m.Submit:
    """The Submit the gateway put on the stream for the client's request ``ref``."""
    return _found(
        server,
        table,
        lambda c: isinstance(c, m.Submit) and json.loads(c.message).get("id") == ref,
        f"no submit for {ref}",
    )


def forge(server: Server, table: str, submit: m.Submit) -> None:
    """Put ``submit`` on ``table``'s stream."""
    bus = server.app.state.node.bus
    server.app.state.test_client.portal.call(bus.send, table, submit)


def resend(
    server: Server,
    table: str,
    submit: m.Submit,
    *,
    ref: str,
    message: dict[str, Any] | None = None,
    **changes: Any,
) -> None:
    """``submit`` delivered again (a new request number, its frame's id ``ref``), with
    another ``message`` if given, its prepaid hold's fields ``changes`` changed."""
    body = {**(json.loads(submit.message) if message is None else message), "id": ref}
    paid = submit.prepaid
    if changes:
        assert paid is not None
        paid = dataclasses.replace(paid, **changes)
    number = 10**7 + sum(map(ord, ref))
    forge(
        server,
        table,
        m.Submit(
            submit.gateway,
            submit.conn,
            number,
            json.dumps(body),
            paid,
            submit.user_id,
            submit.username,
        ),
    )


def gateway_bet_hold(
    server: Server,
    table: str,
    user: int,
    *,
    seat: int,
    amount: int,
    key: str,
    bets: dict[str, int],
) -> Prepaid:
    """A bet's stake held for ``table``'s round open for bets, as a gateway holds it."""
    stake = stake_order(user, seat=seat, amount=amount, key=key, bets=bets)
    round_id, answers = stakes.hold_in_window(server.app.state.db, table=table, stakes=[stake])
    assert round_id is not None and answers, answers
    return Prepaid.of(round_id, answers[0], seat=seat)


def gateway_decision_hold(
    server: Server,
    table: str,
    user: int,
    *,
    seat: int,
    turn: dict[str, Any],
    word: str,
    amount: int,
) -> Prepaid:
    """Decision ``word``'s stake of ``turn`` (a ``your_turn`` event), held as a gateway does."""
    stake = stake_order(user, seat=seat, amount=amount, decision=turn["decision"], word=word)
    round_id, answers = stakes.hold_in_window(
        server.app.state.db,
        table=table,
        stakes=[stake],
        decisions=(turn["round_id"], turn["phase"]),
    )
    assert round_id == turn["round_id"] and answers, answers
    return Prepaid.of(
        round_id, answers[0], seat=seat, phase=turn["phase"], decision=turn["decision"]
    )


def answer(seat: Seat, ref: str) -> dict[str, Any]:
    """The answer to request ``ref``."""
    return seat.after(0, lambda f: f.get("ref") == ref and f["type"] in ("ack", "error"))


def open_round(db: Database, table: str) -> int:
    """``table``'s one round open (in play, or recorded for the gateways' holds)."""
    deadline = time.monotonic() + 10
    while True:
        with db.session() as session:
            found = session.scalars(
                select(Round.id).where(Round.table_name == table, Round.status == "open")
            ).all()
        if len(found) == 1:
            return int(found[0])
        assert time.monotonic() < deadline, found
        time.sleep(0.05)


def your_turn(seat: Seat, phase: str) -> dict[str, Any]:
    """The seat's ``your_turn`` event of ``phase``."""
    return seat.after(
        0,
        lambda f: (
            f["type"] == "seat_event"
            and f["event"]["kind"] == "your_turn"
            and f["event"]["phase"] == phase
        ),
    )["event"]


@contextmanager
def seated(server: Server, table: str, names: list[str]) -> Iterator[list[tuple[int, str, Seat]]]:
    """Players ``names`` with :data:`CREDIT` each, seated at ``table``: (user, token, seat)."""
    with ExitStack() as stack:
        out = []
        for name in names:
            user, token = server.player(name, credit=CREDIT)
            seat = Seat(stack.enter_context(table_ws(server.client, table, token)))
            seat.welcome()
            assert seat.request({"type": "join"})["type"] == "ack"
            out.append((user, token, seat))
        yield out


def ledger_settled(server: Server) -> None:
    """The ledger balances and nothing is left in escrow."""
    totals = server.ledger()
    assert sum(totals.values()) == 0, totals
    assert totals.get("escrow", 0) == 0, totals
