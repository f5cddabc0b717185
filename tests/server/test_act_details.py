"""An ``act`` carrying a detail its action does not take is refused, nothing done (found by
red-teaming, issue 26: a Caribbean ``raise`` with ``"amount": 50`` held the fixed Raise of
two Antes, and the bot that sent it was never told it had not raised 50). Each game takes
its details only where they mean something (docs/protocol.md, ``act``): UTH's ``multiple``
with ``play``, Hold'em's ``amount`` with a bet or a raise, Russian Poker's ``cards`` with an
exchange and ``amount`` (the insurance) with a ``bet``; Caribbean Stud takes none. The
decision sent again as it should be is then taken, for what the rules price it."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER_SLOW
from server_testkit import Seat, Server, ServerFactory, table_ws

from croupier.server.tables.config import TableConfig

pytestmark = [SQLITE_AND_CLUSTER_SLOW, pytest.mark.timeout(120)]

CREDIT = 100_000


def _table(name: str, game: str, **rules: Any) -> TableConfig:
    return TableConfig(
        name=name,
        game=game,
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=5,
        rules=rules,
    )


TABLES = [
    _table("casino", "uth", max_seats=6),
    _table("caribbean", "caribbean", dealing="hands"),
    _table("russian", "russian"),
    _table("holdem", "holdem", small_blind=50, big_blind=100, min_buy_in=2_000),
]


def _refused(server: Server, token: str, seat: Seat, act: dict[str, Any], field: str) -> None:
    before = server.balance(token)
    frame = seat.request({"type": "act", **act})
    assert frame["type"] == "error", (act, frame)
    assert (frame["code"], frame["reason"]) == ("invalid_request", "detail_not_for_action")
    assert frame["params"] == {"field": field, "action": act["action"]}, frame
    assert server.balance(token) == before


def _taken(seat: Seat, act: dict[str, Any], staked: int) -> None:
    frame = seat.request({"type": "act", **act})
    assert frame["type"] == "ack", (act, frame)
    assert frame["result"]["staked"] == staked and not frame["result"].get("replayed"), frame


def _seated(server: Server, stack: ExitStack, table: str, token: str) -> Seat:
    seat = Seat(stack.enter_context(table_ws(server.client, table, token)))
    seat.welcome()
    assert seat.request({"type": "join"})["type"] == "ack"
    return seat


@pytest.fixture
def server(table_server: ServerFactory) -> Server:
    return table_server(TABLES)


def test_banked_games_refuse_details_their_decisions_do_not_take(server: Server) -> None:
    _, token = server.player("ann", credit=CREDIT)
    with ExitStack() as stack:
        uth = _seated(server, stack, "casino", token)
        assert uth.request({"type": "bet", "key": "u", "bets": {"ante": 100}})["type"] == "ack"
        uth.state()  # the only seat has bet: the deal
        _refused(server, token, uth, {"action": "4x", "multiple": 3}, "multiple")
        _refused(server, token, uth, {"action": "check", "amount": 100}, "amount")
        _refused(server, token, uth, {"action": "fold", "cards": ["As"]}, "cards")
        _taken(uth, {"action": "play", "multiple": 4}, 400)

        carib = _seated(server, stack, "caribbean", token)
        assert carib.request({"type": "bet", "key": "c", "bets": {"ante": 100}})["type"] == "ack"
        carib.event("decisions_open")
        _refused(server, token, carib, {"action": "raise", "amount": 50}, "amount")
        _refused(server, token, carib, {"action": "raise", "multiple": 10}, "multiple")
        _taken(carib, {"action": "raise"}, 200)

        russian = _seated(server, stack, "russian", token)
        frame = russian.request({"type": "bet", "key": "r", "bets": {"ante": 100}})
        assert frame["type"] == "ack", frame
        russian.event("decisions_open")
        _refused(server, token, russian, {"action": "fold", "cards": ["As"]}, "cards")
        _refused(server, token, russian, {"action": "sixth_card", "amount": 100}, "amount")
        _refused(server, token, russian, {"action": "bet", "multiple": 2}, "multiple")
        _taken(russian, {"action": "sixth_card"}, 100)


def test_holdem_takes_an_amount_with_a_bet_or_a_raise_only(server: Server) -> None:
    _, ta = server.player("ann", credit=CREDIT)
    _, tb = server.player("bob", credit=CREDIT)
    with ExitStack() as stack:
        a = _seated(server, stack, "holdem", ta)
        b = _seated(server, stack, "holdem", tb)
        for seat, key in ((a, "a"), (b, "b")):
            frame = seat.request({"type": "buy_in", "key": key, "amount": 5_000})
            assert frame["type"] == "ack", frame
        server.clock.advance(5)  # the pause before the first hand
        turn = a.until(lambda f: f.get("type") == "event" and f["event"]["kind"] == "turn")
        actor, token = (a, ta) if turn["event"]["seat"] == 0 else (b, tb)
        _refused(server, token, actor, {"action": "call", "amount": 100}, "amount")
        _refused(server, token, actor, {"action": "fold", "cards": ["As"]}, "cards")
        _refused(
            server, token, actor, {"action": "raise", "amount": 300, "multiple": 2}, "multiple"
        )
        frame = actor.request({"type": "act", "action": "raise", "amount": 300})
        assert frame["type"] == "ack", frame
