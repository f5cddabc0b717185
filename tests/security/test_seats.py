"""Issue 13, item 3: nobody squats the seats of a table.

At the three kinds of tables with a seat limit (UTH casino, Russian Poker, Hold'em cash):
an account whose wallet cannot cover the table minimum (a cash table: the minimum buy-in)
takes no seat; an account holds one seat per table; a seated player who lets
``idle_rounds`` rounds (or, with no round played, ``betting_seconds`` windows) pass
without playing is freed, and waits a window before sitting again.
"""

from __future__ import annotations

import time

import pytest
from sec_testkit import SecServer

pytestmark = pytest.mark.timeout(90)

TABLES = ("sec-squat-uth", "sec-squat-russian", "sec-squat-cash")
MINIMUM = {"sec-squat-uth": 200, "sec-squat-russian": 100, "sec-squat-cash": 2_000}


@pytest.mark.parametrize("table", TABLES)
def test_accounts_that_cannot_play_take_no_seat(shared: SecServer, table: str) -> None:
    for credit in (0, MINIMUM[table] - 1):
        broke = shared.player("broke", credit=credit)
        ws = shared.socket(table, broke.token)
        for message in ({"type": "join"}, {"type": "join", "seat": 1}):
            refused = ws.request(message)
            assert refused is not None and refused["code"] == "insufficient_funds", refused
            assert str(MINIMUM[table]) in refused["message"]
        ws.close()
    state = shared.http.get("/api/tables").json()
    assert next(t for t in state if t["name"] == table)["seats_taken"] == 0


@pytest.mark.parametrize("table", TABLES)
def test_an_idle_seat_is_freed_and_one_account_holds_one_seat(
    shared: SecServer, table: str
) -> None:
    squatter = shared.player("squat", credit=MINIMUM[table])
    ws = shared.socket(table, squatter.token)
    seat = ws.request({"type": "join", "seat": 2})
    assert seat is not None and seat["result"]["seat"] == 2, seat
    # One seat per account: another seat is refused, a second socket finds the same one.
    assert ws.request({"type": "join", "seat": 3})["code"] == "conflict"  # type: ignore[index]
    second = shared.socket(table, squatter.token)
    assert second.request({"type": "join"})["result"]["seat"] == 2  # type: ignore[index]
    # Never playing: freed after idle_rounds = 2 windows of betting_seconds = 1.
    started = time.monotonic()
    left = ws.wait_for(
        lambda f: (
            f["type"] in ("event", "seat_event")
            and f["event"]["kind"] == "left"
            and f["event"].get("reason") == "idle"
        ),
        timeout=15,
    )
    assert left is not None and left["event"]["seat"] == 2
    assert time.monotonic() - started >= 1.0
    tables = shared.http.get("/api/tables").json()
    assert next(t for t in tables if t["name"] == table)["seats_taken"] == 0
    # Sitting again at once is refused; after a window it is allowed.
    again = ws.request({"type": "join"})
    assert again is not None and again["code"] == "illegal_action", again
    time.sleep(1.2)
    back = ws.request({"type": "join"})
    assert back is not None and back["type"] == "ack", back
    assert shared.balance(squatter.id) == MINIMUM[table]  # nothing was taken from anybody
    ws.close()
    second.close()


def test_a_seat_that_lets_rounds_pass_is_freed(shared: SecServer) -> None:
    """Rounds are played at the table (another player bets each one); the squatter never
    bets, and is freed once ``idle_rounds`` rounds have closed without it."""
    player = shared.player("plays", credit=100_000)
    squatter = shared.player("sits", credit=10_000)
    ws = shared.socket("sec-squat-uth", player.token)
    sq = shared.socket("sec-squat-uth", squatter.token)
    assert ws.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    sq_seat = sq.request({"type": "join"})["result"]["seat"]  # type: ignore[index]
    closed = 0
    start = 0
    while closed < 2:
        bet = ws.request({"type": "bet", "key": f"k{closed}-{player.name}", "bets": {"ante": 100}})
        assert bet is not None and bet["type"] == "ack", bet
        start = ws.index_of("round_closed", start=start, timeout=30) + 1
        closed += 1
    left = sq.wait_for(lambda f: f["type"] == "event" and f["event"]["kind"] == "left", timeout=10)
    assert left is not None and left["event"]["seat"] == sq_seat
    assert left["event"].get("reason") == "idle"
    # The player who bet keeps the seat.
    state = shared.http.get("/api/tables").json()
    assert next(t for t in state if t["name"] == "sec-squat-uth")["seats_taken"] == 1
    ws.close()
    sq.close()
