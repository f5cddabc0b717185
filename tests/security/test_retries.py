"""Issue 13, item 11: a request retried after a restart is answered with what is true now.

A UTH bet and a Hold'em buy-in are taken; the server is killed (SIGKILL) and started again,
which voids the round in play and returns the stack to the wallet. The client retries each
request with its first idempotency key, as a client does when its answer was lost: the
answer is ``round_voided`` with the balance now (the money back), never the pre-crash
answer nor a bare ``idempotency_conflict``; a new key then works.
"""

from __future__ import annotations

import pytest
from sec_testkit import ServerFactory

pytestmark = pytest.mark.timeout(120)

CREDIT = 50_000


def test_retries_after_a_restart_say_the_round_was_voided(make_server: ServerFactory) -> None:
    server = make_server()
    bettor = server.player("retry-bet", credit=CREDIT)
    buyer = server.player("retry-buy", credit=CREDIT)
    bet = {"type": "bet", "key": "bet-before-crash", "bets": {"ante": 500, "trips": 100}}
    buy = {"type": "buy_in", "key": "buy-before-crash", "amount": 5_000}
    uth = server.socket("sec-uth", bettor.token)
    cash = server.socket("sec-cash", buyer.token)
    assert uth.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    assert cash.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    taken = uth.request(bet)
    assert taken is not None and taken["result"]["balance"] == CREDIT - 1_100
    bought = cash.request(buy)
    assert bought is not None and bought["result"]["balance"] == CREDIT - 5_000

    server.restart()  # SIGKILL in the middle of the round, then a start that voids it

    uth = server.socket("sec-uth", bettor.token)
    cash = server.socket("sec-cash", buyer.token)
    assert uth.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    assert cash.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    for ws, message, player in ((uth, bet, bettor), (cash, buy, buyer)):
        retried = ws.request(message)
        assert retried is not None and retried["type"] == "error", retried
        assert retried["code"] == "round_voided", retried
        assert retried["details"]["balance"] == CREDIT == server.balance(player.id)
    # Nothing was taken twice, and a new key works.
    again = uth.request({**bet, "key": "bet-after-crash"})
    assert again is not None and again["result"]["balance"] == CREDIT - 1_100
    rebought = cash.request({**buy, "key": "buy-after-crash"})
    assert rebought is not None and rebought["result"]["stack"] == 5_000
    assert rebought["result"]["balance"] == CREDIT - 5_000
    # A retry of a buy-in whose chips are still at the table is a replay, stated as of now.
    replay = cash.request({**buy, "key": "buy-after-crash"})
    assert replay is not None and replay["result"]["replayed"] is True
    assert replay["result"]["stack"] == 5_000 and replay["result"]["balance"] == CREDIT - 5_000
