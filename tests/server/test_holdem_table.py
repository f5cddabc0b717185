"""Hold'em cash tables over WebSockets: buy-in, whole hands, rake, privacy, bad actions,
timers, recall through PHH, and a crash in the middle of a hand."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from server_cluster import (
    SQLITE_AND_CLUSTER,
    SQLITE_AND_CLUSTER_SLOW,
    THROUGH_CLUSTER_SLOW,
)
from server_testkit import (
    Seat,
    Server,
    ServerFactory,
    ShoeStack,
    TestClient,
    make_settings,
    table_ws,
    test_tables,
)

from croupier.history import holdem_phh as phh
from croupier.server.app import create_app
from croupier.server.db import Database
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.fairness import card_commitment, verify_openings
from croupier.server.tables.models import Round, RoundStatus, RoundVoid
from croupier.server.wallet import service as wallet

pytestmark = pytest.mark.timeout(60)

BUY_IN = 5_000
CREDIT = 20_000
# Blinds 50/100, rake 5 % capped at 200, no flop no drop.
HOLDEM = TableConfig(
    name="holdem",
    game="holdem",
    decision_seconds=30,
    pause_seconds=5,
    rules={
        "small_blind": 50,
        "big_blind": 100,
        "max_seats": 6,
        "min_buy_in": 2_000,
        "max_buy_in": 10_000,
        "rake_percent": 5,
        "rake_cap": 200,
    },
)
# Three seats, button seat 0: positions are seat 1 (small blind), seat 2 (big blind),
# seat 0 (button). Hole cards one at a time from the small blind (spec/holdem.md "A hand"):
# seat 0 As Ah, seat 1 Ks Kh, seat 2 7c 2d; burn 3s, flop Qd 9h 4s, burn 5c, turn Jc,
# burn 6d, river 8d.
THREE = "Ks 7c As Kh 2d Ah 3s Qd 9h 4s 5c Jc 6d 8d"
HOLES = {0: ("As", "Ah"), 1: ("Ks", "Kh"), 2: ("7c", "2d")}


def _server(url: str) -> Iterator[Server]:
    settings = make_settings(url)
    clock, shoes = ManualClock(), ShoeStack()
    app = create_app(settings, tables=[*test_tables(), HOLDEM], clock=clock, shoe_factory=shoes)
    with TestClient(app) as client:
        yield Server(app=app, client=client, clock=clock, shoes=shoes, settings=settings)


@pytest.fixture
def holdem(table_server: ServerFactory) -> Server:
    """The application with a Hold'em table, on the test's backend: SQLite, PostgreSQL, or
    through a two-process cluster (the test's app owns the table, every socket and request
    goes through a gateway process: tests/server/server_cluster.py)."""
    return table_server([*test_tables(), HOLDEM])


def _seat_down(server: Server, stack: ExitStack, names: list[str]) -> list[tuple[Seat, str]]:
    """Players join seats 0, 1, ... and buy in; the first hand waits for the pause."""
    seats = []
    for index, name in enumerate(names):
        _, token = server.player(name, credit=CREDIT)
        ws = stack.enter_context(table_ws(server.client, "holdem", token))
        seat = Seat(ws)
        seat.welcome()
        assert seat.request({"type": "join", "seat": index})["result"] == {"seat": index}
        ack = seat.request({"type": "buy_in", "key": f"in-{name}", "amount": BUY_IN})
        assert ack["type"] == "ack", ack
        assert ack["result"]["stack"] == BUY_IN and ack["result"]["balance"] == CREDIT - BUY_IN
        seats.append((seat, token))
    return seats


def _act(seat: Seat, action: str, amount: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "act", "action": action}
    if amount is not None:
        message["amount"] = amount
    frame = seat.request(message)
    assert frame["type"] == "ack", frame
    return frame


def _next(client: Seat, kind: str, /, **fields: Any) -> dict[str, Any]:
    """The next event of ``kind`` whose fields match."""

    def match(frame: dict[str, Any]) -> bool:
        event = frame.get("event", {})
        return bool(frame["type"] == "event" and event == {**event, "kind": kind, **fields})

    found: dict[str, Any] = client.until(match)["event"]
    return found


def _last_state(seat: Seat) -> dict[str, Any]:
    seat.request({"type": "ping"})
    return next(f for f in reversed(seat.frames) if f["type"] == "state")


def _play_three_handed(server: Server) -> tuple[list[Seat], list[str], dict[str, Any]]:
    """The scripted hand: seat 0 raises to 300, seat 1 calls, seat 2 folds; seat 0 bets 400
    on the flop and is called, then checks down; aces beat kings."""
    server.shoes.push(THREE)
    with ExitStack() as stack:
        seated = _seat_down(server, stack, ["alice", "bob", "carol"])
        seats = [s for s, _ in seated]
        tokens = [t for _, t in seated]
        a, b, c = seats
        server.clock.advance(5)
        opened = a.event("round_opened")
        assert opened["button"] == 0 and opened["seats"] == [1, 2, 0]
        turn = a.event("turn")
        assert turn["seat"] == 0
        state = _last_state(a)
        options = state["view"]["options"]
        assert options["actions"] == ["fold", "call", "raise", "all_in"]
        assert (options["to_call"], options["min_raise_to"], options["max_raise_to"]) == (
            100,
            200,
            5_000,
        )
        assert _last_state(b)["view"]["options"] is None  # not b's turn
        _act(a, "raise", 300)
        _act(b, "call")
        _act(c, "fold")
        _act(b, "check")
        _act(a, "bet", 400)
        _act(b, "call")
        for _ in range(2):  # turn and river
            _act(b, "check")
            _act(a, "check")
        closed = [s.event("round_closed") for s in seats]
        for seat, cashed in zip(seats, (5_725, 4_300, 4_900), strict=True):
            assert seat.request({"type": "leave"})["result"]["cashed_out"] == cashed
    return seats, tokens, closed[0] | {"opened": opened}


def _visible(recalled: dict[str, Any]) -> str:
    """What a recalled round shows, as text, without the hex of hashes and salts (in which
    "7c" or "2d" can appear by chance)."""
    shown = {k: v for k, v in recalled.items() if k not in ("leaves", "commitment", "openings")}
    cards = [card for _, card in (recalled.get("openings") or {}).values()]
    return json.dumps(shown) + " " + " ".join(cards)


@THROUGH_CLUSTER_SLOW
def test_a_three_handed_hand_settles_with_rake(holdem: Server) -> None:
    server = holdem
    _, tokens, closed = _play_three_handed(server)
    # Pot 300 + 300 + 100 + 400 + 400 = 1500; rake 5 % = 75 (spec/holdem.md "House").
    assert closed["status"] == "settled"
    assert closed["summary"]["rake"] == 75
    assert closed["summary"]["won"] == {"0": 1_425}
    assert closed["stacks"] == {"0": 5_725, "1": 4_300, "2": 4_900}
    # The card-by-card commitment: everyone can check every card they saw (board, burns,
    # the shown hands) but carol's folded cards stay closed, and so does the stub (issue 13:
    # 52 minus the opened cards minus your own would be the folded hand).
    reveal, opened = closed["reveal"], closed["opened"]
    assert "salt" not in reveal and "deck" not in reveal
    assert verify_openings(
        commitment=opened["commitment"], leaves=reveal["leaves"], openings=reveal["openings"]
    )
    public = {int(i): card for i, (_, card) in reveal["openings"].items()}
    dealt = THREE.split()
    assert {i: dealt[i] for i in public if i < len(dealt)} == {
        i: card for i, card in public.items() if i < len(dealt)
    }
    assert set(HOLES[2]).isdisjoint(public.values())
    assert set(HOLES[0]) | set(closed["summary"]["board"]) <= set(public.values())
    # Seed 002: alice bet the flop, the last bet of the hand, and shows first (issue 28); bob's
    # kings, beaten by her aces shown, are conceded unseen and stay closed too.
    assert set(HOLES[1]).isdisjoint(public.values())
    # Three hands (six cards), then burn, flop, burn, turn, burn, river: 14 cards dealt.
    assert set(public) == {i for i in range(14) if dealt[i] not in HOLES[2] + HOLES[1]}
    # The players left: their stacks went back to their wallets; the rake is in the rake account and nothing was created or lost.
    ledger = server.ledger()
    assert ledger["rake"] == 75 and ledger["escrow"] == 0
    assert ledger["player"] == 3 * CREDIT - 75 == -ledger["cashier"] - 75
    assert sum(ledger.values()) == 0
    for token, net in zip(tokens, (725, -700, -100), strict=True):
        assert server.balance(token) == CREDIT + net
    # Recall: the hand's PHH replays to the same stacks. Bob's recall shows his cards and the
    # shown ones, verified against the commitment, and nothing of carol's folded hand.
    recalled = server.client.get(
        "/api/rounds", headers={"Authorization": f"Bearer {tokens[1]}"}
    ).json()
    assert recalled[0]["salt"] is None and recalled[0]["deck"] is None
    assert verify_openings(
        commitment=recalled[0]["commitment"],
        leaves=recalled[0]["leaves"],
        openings=recalled[0]["openings"],
    )
    text = _visible(recalled[0])
    assert not any(card in text for card in HOLES[2])
    assert all(card in text for card in HOLES[1])
    carol = server.client.get(
        "/api/rounds", headers={"Authorization": f"Bearer {tokens[2]}"}
    ).json()[0]
    assert all(card in _visible(carol) for card in HOLES[2])  # her own cards, opened
    assert verify_openings(
        commitment=carol["commitment"], leaves=carol["leaves"], openings=carol["openings"]
    )
    # The operator recalls everything: the whole deck checks against the commitment.
    full = server.client.get(
        f"/api/rounds/{recalled[0]['id']}",
        headers={"Authorization": f"Bearer {server.operator_token()}"},
    ).json()
    assert full["deck"].startswith(THREE)
    assert card_commitment(salt=full["salt"], deck=full["deck"]) == full["commitment"]
    record = recalled[0]["record"]
    hand = phh.loads(record["phh"])
    assert hand.get("players") == ["bob", "carol", "alice"]
    replayed = phh.replay(hand).state
    assert replayed.stacks == (4_300, 4_900, 5_725) and replayed.house_net == 75
    (bob,) = recalled[0]["players"]  # a player's recall lists their own play only
    assert bob["seat"] == 1 and bob["returned"] - bob["staked"] == -700
    players = full["players"]
    assert len(players) == 3 and sum(p["staked"] - p["returned"] for p in players) == 75


@SQLITE_AND_CLUSTER_SLOW
def test_leaving_returns_the_stack_and_balances_are_conserved(holdem: Server) -> None:
    server = holdem
    server.shoes.push(THREE)
    with ExitStack() as stack:
        seated = _seat_down(server, stack, ["alice", "bob"])
        (a, ta), (b, tb) = seated
        server.clock.advance(5)
        a.event("round_opened")
        # Heads-up the button (seat 0) posts the small blind and acts first pre-flop.
        refused = a.request({"type": "leave"})
        assert refused["type"] == "error" and refused["code"] == "illegal_action"
        top_up = a.request({"type": "buy_in", "key": "more", "amount": 1_000})
        assert top_up["type"] == "error"
        _act(a, "fold")
        closed = a.event("round_closed")
        # No flop, no drop: bob wins the small blind, nothing raked.
        assert closed["stacks"] == {"0": 4_950, "1": 5_050} and closed["summary"]["rake"] == 0
        left = a.request({"type": "leave"})
        assert left["result"] == {"seat": None, "cashed_out": 4_950, "balance": CREDIT - 50}
        left = b.request({"type": "leave"})
        assert left["result"]["cashed_out"] == 5_050
    assert server.balance(ta) == CREDIT - 50 and server.balance(tb) == CREDIT + 50
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and ledger.get("rake", 0) == 0
    assert ledger["player"] == 2 * CREDIT == -ledger["cashier"]


@SQLITE_AND_CLUSTER_SLOW
def test_buy_in_limits_and_idempotency(holdem: Server) -> None:
    server = holdem
    _, token = server.player("alice", credit=CREDIT)
    with table_ws(server.client, "holdem", token) as ws:
        a = Seat(ws)
        a.welcome()
        assert a.request({"type": "buy_in", "key": "k0", "amount": 3_000})["type"] == "error"
        a.request({"type": "join"})
        low = a.request({"type": "buy_in", "key": "k1", "amount": 1_999})
        assert low["type"] == "error" and "below the table minimum" in low["message"]
        high = a.request({"type": "buy_in", "key": "k2", "amount": 10_001})
        assert high["type"] == "error" and "maximum" in high["message"]
        poor = a.request({"type": "buy_in", "key": "k3", "amount": 10_000})
        assert poor["type"] == "ack"
        assert a.request({"type": "buy_in", "key": "k4", "amount": 1})["type"] == "error"
        again = a.request({"type": "buy_in", "key": "k3", "amount": 10_000})
        assert again["result"]["replayed"] is True and again["result"]["stack"] == 10_000
        bets = a.request({"type": "bet", "key": "b", "bets": {"ante": 100}})
        assert bets["type"] == "error"
    # Disconnecting between hands cashes the stack out (the table handles the disconnect
    # after the socket closes -- through a cluster, after the gateway tells the owner: wait
    # for it).
    deadline = time.monotonic() + 10
    while server.balance(token) != CREDIT and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.balance(token) == CREDIT
    assert server.ledger()["escrow"] == 0


@SQLITE_AND_CLUSTER_SLOW
def test_illegal_actions_are_refused_and_change_nothing(holdem: Server) -> None:
    server = holdem
    server.shoes.push(THREE)
    with ExitStack() as stack:
        a, b, c = (s for s, _ in _seat_down(server, stack, ["alice", "bob", "carol"]))
        server.clock.advance(5)
        a.event("turn")
        before = _last_state(c)["view"]
        cases = [
            (b, {"action": "call"}, "illegal_action"),  # out of turn
            (a, {"action": "raise", "amount": 150}, "illegal_action"),  # below the minimum
            (a, {"action": "raise", "amount": 5_001}, "illegal_action"),  # more than the stack
            (a, {"action": "check"}, "illegal_action"),  # facing the big blind
            (a, {"action": "raise"}, "invalid_request"),  # no amount
            (a, {"action": "play", "multiple": 4}, "invalid_request"),  # another game's word
            (a, {"action": "fold", "seat": 1}, "forbidden"),  # another seat
            (a, {"action": "raise", "amount": -5}, "invalid_request"),
        ]
        for seat, body, code in cases:
            frame = seat.request({"type": "act", **body})
            assert frame["type"] == "error" and frame["code"] == code, (body, frame)
        assert _last_state(c)["view"] == before
        _act(a, "raise", 200)  # exactly the minimum is fine
        assert _last_state(c)["view"]["actor"] == 1


@SQLITE_AND_CLUSTER
def test_hole_cards_never_leak(holdem: Server) -> None:
    server = holdem
    seats, _, _ = _play_three_handed(server)
    for index, seat in enumerate(seats):
        shown_at = next(
            i
            for i, f in enumerate(seat.frames)
            if f["type"] == "event" and f["event"]["kind"] == "shown"
        )
        for position, frame in enumerate(seat.frames):
            text = json.dumps({k: v for k, v in frame.items() if k != "event"})
            if frame["type"] in ("event", "seat_event"):
                text = json.dumps(frame["event"])
            for other, cards in HOLES.items():
                if other == index:
                    continue
                # Folded cards are never shown; the others only from the showdown on.
                if other == 2 or position < shown_at:
                    assert not any(f'"{card}"' in text for card in cards), (index, frame)
        own = "\n".join(json.dumps(f) for f in seat.frames[:shown_at])
        assert all(f'"{card}"' in own for card in HOLES[index])
        burns = [
            f["event"]["card"]
            for f in seat.frames
            if f["type"] == "event" and f["event"]["kind"] == "card_burned"
        ]
        assert burns == [None, None, None]


@SQLITE_AND_CLUSTER_SLOW
def test_a_seat_that_does_not_act_checks_or_folds(holdem: Server) -> None:
    server = holdem
    server.shoes.push(THREE)
    with ExitStack() as stack:
        a, b = (s for s, _ in _seat_down(server, stack, ["alice", "bob"]))
        server.clock.advance(5)
        a.event("turn")
        _act(a, "call")  # the button completes the small blind
        _next(b, "turn", seat=1)
        server.clock.advance(30)  # bob could check: the timer checks for him
        assert b.event("timed_out") == {"kind": "timed_out", "seat": 1}
        assert b.event("checked")["seat"] == 1
        flop = b.event("board_dealt")
        assert len(flop["cards"]) == 3
        _act(b, "bet", 100)
        server.clock.advance(30)  # alice faces a bet: the timer folds her
        _next(a, "timed_out", seat=0)
        _next(a, "folded", seat=0)
        closed = a.event("round_closed")
        # Pot 200 after the flop: 5 % rake = 10.
        assert closed["stacks"] == {"0": 4_900, "1": 5_090} and closed["summary"]["rake"] == 10


def test_a_crash_mid_hand_restores_the_stacks(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    gen = _server(url)
    server = next(gen)
    server.shoes.push(THREE)
    server.shoes.push(THREE)
    with ExitStack() as stack:
        seated = _seat_down(server, stack, ["alice", "bob"])
        (a, ta), (b, tb) = seated
        server.clock.advance(5)
        a.event("round_opened")
        _act(a, "fold")  # hand 1: bob wins the small blind
        a.event("round_closed")
        server.clock.advance(5)
        second = a.event("round_opened")
        assert second["button"] == 1 and second["stacks"] == {"0": 4_950, "1": 5_050}
        b.event("turn")
        _act(b, "raise", 1_000)
        _act(a, "call")
        a.event("board_dealt")
        # Crash: the process dies with the hand in play -- no shut-down, no cash-out.
        table = server.app.state.tables.tables["holdem"]

        async def dead(reason: str) -> None:
            return None

        table._shutdown = dead
    with pytest.raises(StopIteration):
        next(gen)
    db = Database(url)
    with db.session() as session:
        row = session.get(Round, second["round_id"])
        assert row is not None and row.status == RoundStatus.OPEN.value
        assert wallet.check_ledger(session)["escrow"] == 2 * BUY_IN
    db.dispose()
    # Restart: the hand is voided (and the void recorded), every stack back as it stood
    # before the hand, and returned to the wallets.
    restarted = _server(url)
    server = next(restarted)
    assert server.balance(ta) == CREDIT - 50 and server.balance(tb) == CREDIT + 50
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and ledger["player"] == 2 * CREDIT and sum(ledger.values()) == 0
    with pytest.raises(StopIteration):
        next(restarted)
    db = Database(url)
    with db.session() as session:
        row = session.get(Round, second["round_id"])
        assert row is not None and row.status == RoundStatus.VOIDED.value
        void = session.query(RoundVoid).filter_by(round_id=second["round_id"]).one()
        assert "restarted" in void.reason
    db.dispose()


# Heads-up, button seat 0: bob (seat 1) gets Ks Kh, alice (seat 0) As Ah; board 2c 7d 9h 3s Jc.
MUCK = "Ks As Kh Ah 5h 2c 7d 9h 6s 3s 8d Jc"


@SQLITE_AND_CLUSTER_SLOW
def test_a_losing_hand_is_mucked_and_stays_private(holdem: Server) -> None:
    """spec/holdem.md "Winning": alice bet the river, so she shows first; bob's kings cannot
    win against her aces and are mucked. Nobody but bob ever sees them: not in a frame, not
    in the reveal, not in alice's recall; bob's own check opens them for him."""
    server = holdem
    server.shoes.push(MUCK)
    with ExitStack() as stack:
        (alice, alice_token), (bob, bob_token) = _seat_down(server, stack, ["alice", "bob"])
        server.clock.advance(5)
        assert alice.event("round_opened")["seats"] == [1, 0]
        _act(alice, "call")  # the button (small blind) completes
        _act(bob, "check")
        for _ in range(2):  # flop and turn
            _act(bob, "check")
            _act(alice, "check")
        _act(bob, "check")
        _act(alice, "bet", 200)
        _act(bob, "call")
        closed = alice.event("round_closed")
        bob.event("round_closed")
        # the private openings come right after round_closed
        alice.request({"type": "ping"})
        bob.request({"type": "ping"})
    kinds = [f["event"]["kind"] for f in alice.frames if f["type"] == "event"]
    assert "mucked" in kinds
    assert closed["summary"]["shown"] == {"0": ["As", "Ah"]}
    assert closed["summary"]["won"] == {"0": closed["summary"]["won"]["0"]}
    for frame in alice.frames:
        text = json.dumps(frame.get("event", frame))
        if frame.get("type") == "event" and frame["event"]["kind"] == "round_closed":
            reveal = frame["event"]["reveal"]
            text = json.dumps([card for _, card in reveal["openings"].values()])
        assert '"Ks"' not in text and '"Kh"' not in text, frame
    opened = [
        f["event"]
        for f in bob.frames
        if f["type"] == "seat_event" and f["event"]["kind"] == "cards_opened"
    ]
    assert len(opened) == 1 and sorted(c for _, c in opened[0]["openings"].values()) == ["Kh", "Ks"]
    assert verify_openings(
        commitment=closed["reveal"]["commitment"],
        leaves=closed["reveal"]["leaves"],
        openings={**closed["reveal"]["openings"], **opened[0]["openings"]},
    )
    auth = {"Authorization": f"Bearer {alice_token}"}
    mine = server.client.get("/api/rounds", headers=auth).json()[0]
    assert "Ks" not in _visible(mine) and "Kh" not in _visible(mine)
    theirs = server.client.get(
        "/api/rounds", headers={"Authorization": f"Bearer {bob_token}"}
    ).json()[0]
    assert "Ks" in _visible(theirs) and "Kh" in _visible(theirs)


def test_a_buy_in_resent_after_the_seat_was_left_is_round_voided(holdem: Server) -> None:
    """A retry after a lost ack from a player seated nowhere now (they left the seat since):
    a ``buy_in`` whose chips went back to the wallet is ``round_voided`` with the wallet's
    ``balance`` and ``stack`` 0, as docs/protocol.md says (it was ``not_seated``: found by
    red-teaming); one never taken is still ``not_seated``. Nothing moves."""
    with ExitStack() as stack:
        [(ada, token)] = _seat_down(holdem, stack, ["ada"])
        left = ada.request({"type": "leave"})
        assert left["type"] == "ack" and left["result"]["cashed_out"] == BUY_IN, left
        assert holdem.balance(token) == CREDIT
        resent = ada.request({"type": "buy_in", "key": "in-ada", "amount": BUY_IN})
        assert resent["type"] == "error" and resent["code"] == "round_voided", resent
        assert resent["details"] == {"balance": CREDIT, "stack": 0}, resent
        new = ada.request({"type": "buy_in", "key": "new", "amount": BUY_IN})
        assert new["type"] == "error" and new["reason"] == "not_seated", new
        assert holdem.balance(token) == CREDIT


def test_a_decision_resent_after_the_seat_was_left_is_answered_again(holdem: Server) -> None:
    """The same from a player who left after the hand: a decision resent with its id gets
    its first answer again; another decision under its id is ``stale_decision`` (its turn has
    passed), one without an id ``not_seated``."""
    with ExitStack() as stack:
        (button, token), _ = _seat_down(holdem, stack, ["button", "blind"])
        holdem.clock.advance(5)
        turn = button.event("turn")
        assert turn["seat"] == 0 and turn["decision"]
        fold = {"type": "act", "action": "fold", "decision": turn["decision"]}
        first = button.request(fold)
        assert first["type"] == "ack", first
        button.event("round_closed")
        assert button.request({"type": "leave"})["type"] == "ack"
        wallet_now = holdem.balance(token)
        assert wallet_now == CREDIT - 50  # the small blind, folded
        again = button.request(fold)
        assert again["type"] == "ack", again
        assert again["result"] == {**first["result"], "replayed": True}
        other = button.request({"type": "act", "action": "call", "decision": turn["decision"]})
        assert other["type"] == "error" and other["reason"] == "stale_decision", other
        bare = button.request({"type": "act", "action": "call"})
        assert bare["type"] == "error" and bare["reason"] == "not_seated", bare
        assert holdem.balance(token) == wallet_now
