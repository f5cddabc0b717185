"""Russian Poker tables over WebSockets: an open box and a blind box, exchange, settlement,
privacy of hidden cards, refused decisions and the decision timer."""

from __future__ import annotations

import pytest
from server_cluster import SQLITE_AND_CLUSTER, SQLITE_AND_CLUSTER_SLOW
from server_testkit import Seat, Server, ServerFactory, table_ws, test_tables

from croupier.server.tables.config import TableConfig
from croupier.server.tables.fairness import verify

pytestmark = pytest.mark.timeout(60)

RUSSIAN = TableConfig(
    name="russian", game="russian", betting_seconds=10, decision_seconds=20, pause_seconds=0
)
# Box 0 (alice, open) Ah As Ad 7c 2h; box 1 (alice, blind) Kh Ks 8d 8h 2c; box 2 (bob, open)
# Qc Jd 9s 5c 3d; dealer Kd Qd 9c 5s 5h (a pair: qualifies); then 4c 4d for an exchange.
DECK = "Ah As Ad 7c 2h Kh Ks 8d 8h 2c Qc Jd 9s 5c 3d Kd Qd 9c 5s 5h 4c 4d"
ALICE_BLIND = ("Kh", "Ks", "8d", "8h", "2c")
ALICE_OPEN = ("Ah", "As", "Ad", "7c", "2h")
BOB = ("Qc", "Jd", "9s", "5c", "3d", "4c", "4d")
DEALER = ("Kd", "Qd", "9c", "5s", "5h")
CREDIT = 10_000


@pytest.fixture
def russian(table_server: ServerFactory) -> Server:
    """The application with a Russian Poker table, on SQLite or through a two-process cluster
    (the test's app owns the table, every socket and request goes through a gateway process:
    tests/server/server_cluster.py)."""
    return table_server([*test_tables(), RUSSIAN])


@SQLITE_AND_CLUSTER
def test_open_and_blind_boxes_play_a_round(russian: Server) -> None:
    server = russian
    _, ta = server.player("alice", credit=CREDIT)
    _, tb = server.player("bob", credit=CREDIT)
    server.shoes.push(DECK)
    with (
        table_ws(server.client, "russian", ta) as wa,
        table_ws(server.client, "russian", tb) as wb,
    ):
        a, b = Seat(wa), Seat(wb)
        a.welcome()
        b.welcome()
        assert a.ok({"type": "join", "seat": 0}) == {"seat": 0}
        assert b.ok({"type": "join", "seat": 1}) == {"seat": 1}
        # One open box and one blind box: 100 + (100 Ante + 200 Bet) = 400.
        staked = a.ok({"type": "bet", "key": "a", "bets": {"ante": 100, "blind_boxes": 1}})
        assert staked["staked"] == 400 and staked["balance"] == CREDIT - 400
        assert b.ok({"type": "bet", "key": "b", "bets": {"ante": 100}})["staked"] == 100
        dealt = b.event("cards_dealt")
        assert dealt["hands"] == [[0, None], [1, None], [2, list(BOB[:5])]]
        assert dealt["dealer"] is None
        # Box 0 decides first: bob is out of turn; nonsense is refused and changes nothing.
        out_of_turn = b.request({"type": "act", "action": "bet"})
        assert out_of_turn["type"] == "error" and out_of_turn["code"] == "illegal_action"
        no_cards = a.request({"type": "act", "action": "exchange"})
        assert no_cards["code"] == "invalid_request"
        view = a.state()["view"]
        while view is None or view["to_act_seat"] != 0:
            view = a.state()["view"]
        assert view["legal"] == ["exchange", "sixth_card", "bet", "fold"]
        assert a.ok({"type": "act", "action": "bet"})["balance"] == CREDIT - 600
        # Bob exchanges 5c 3d (fee 1x Ante) for 4c 4d, then bets; insurance needs trips.
        b.ok({"type": "act", "action": "exchange", "cards": ["5c", "3d"]})
        insured = b.request({"type": "act", "action": "bet", "amount": 100})
        assert insured["type"] == "error" and "three of a kind" in insured["message"]
        assert b.ok({"type": "act", "action": "bet"})["balance"] == CREDIT - 400
        closed = a.seen("round_closed")
        b.seen("round_closed")
    # Dealer pair of fives qualifies. Trips of aces: Bet 3:1 (600), Ante returned; the blind
    # box's two pair: Bet 2:1 (400); bob's fours lose Ante, Bet and the fee.
    assert closed["status"] == "settled"
    assert closed["returns"] == {"0": 100 + 200 + 600 + 100 + 200 + 400, "1": 0}
    assert server.balance(ta) == CREDIT + 1_000 and server.balance(tb) == CREDIT - 400
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and ledger["house"] == -600 and sum(ledger.values()) == 0
    reveal = closed["reveal"]
    assert reveal["deck"].startswith(DECK)
    assert verify(salt=reveal["salt"], deck=reveal["deck"], commitment=reveal["commitment"])
    # Privacy: until the showdown bob sees none of alice's cards nor the dealer's; alice
    # never sees her blind box or bob's cards before it, nor the dealer's before they show.
    bob_before = b.text_before("dealer_revealed")
    alice_before = a.text_before("dealer_revealed")
    for card in (*ALICE_OPEN, *ALICE_BLIND, *DEALER):
        assert f'"{card}"' not in bob_before, card
    for card in (*ALICE_BLIND, *BOB, *DEALER):
        assert f'"{card}"' not in alice_before, card
    assert all(f'"{card}"' in alice_before for card in ALICE_OPEN)


@SQLITE_AND_CLUSTER_SLOW
def test_a_box_that_does_not_decide_folds(russian: Server) -> None:
    server = russian
    _, token = server.player("alice", credit=CREDIT)
    server.shoes.push(DECK)
    with table_ws(server.client, "russian", token) as ws:
        a = Seat(ws)
        a.welcome()
        a.ok({"type": "join"})
        a.ok({"type": "bet", "key": "a", "bets": {"ante": 100, "bonus": 100}})
        a.event("decisions_open")
        server.clock.advance(20)
        folded = a.event("folded")
        assert folded["box"] == 0
        closed = a.event("round_closed")
    # The Ante is lost; the Bonus on a hand below a straight loses too (spec "Bonus").
    assert closed["returns"] == {"0": 0}
    assert server.balance(token) == CREDIT - 200


_FAILED_BUY_RULES = [
    ({}, 0, -100),
    ({"failed_buy_ante": "paid", "bonus_on_fold": "stands"}, 100, 4_000),
]


# Both tables' rules on SQLite in `make test`, the default rules through the cluster too (the
# rules are the owner's: the gateway's path is the same); the other rules through the cluster
# in `make test-all`.
@pytest.mark.parametrize(
    ("rules", "ante", "bonus", "db_url"),
    [
        pytest.param(
            rules,
            ante,
            bonus,
            backend,
            id=f"rules{i}-{ante}-{bonus}-{backend}",
            marks=[] if backend == "sqlite" else [pytest.mark.postgres, *[pytest.mark.slow] * i],
        )
        for backend in ("sqlite", "cluster")
        for i, (rules, ante, bonus) in enumerate(_FAILED_BUY_RULES)
    ],
    indirect=["db_url"],
)
def test_a_failed_buy_and_a_folded_bonus_at_a_server_table(
    table_server: ServerFactory, rules: dict[str, str], ante: int, bonus: int
) -> None:
    """Issue 28, seed 004: by default a bought game that still does not qualify leaves the
    Ante unpaid, and a fold loses the Bonus; the table's rules may say otherwise."""
    table = TableConfig(
        name="russian",
        game="russian",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules=rules,
    )
    server = table_server([table])
    lobby = server.client.get("/api/tables").json()[0]["rules"]
    assert lobby["failed_buy_ante"] == rules.get("failed_buy_ante", "forfeit")
    _, ta = server.player("alice", credit=CREDIT)
    _, tb = server.player("bob", credit=CREDIT)
    # alice: trips of Aces; bob: a dealt straight; the dealer's K-Q-9-5-4 does not qualify;
    # alice's buy gives the dealer 7h for the King: Q-9-7-5-4, still not qualified
    server.shoes.push("Ah As Ad 7c 2h 9h 8s 7d 6c 5h Kd Qd 9c 5s 4h 7h")
    with (
        table_ws(server.client, "russian", ta) as wa,
        table_ws(server.client, "russian", tb) as wb,
    ):
        a, b = Seat(wa), Seat(wb)
        a.welcome()
        b.welcome()
        a.ok({"type": "join", "seat": 0})
        b.ok({"type": "join", "seat": 1})
        a.ok({"type": "bet", "key": "a", "bets": {"ante": 100}})
        b.ok({"type": "bet", "key": "b", "bets": {"ante": 100, "bonus": 100}})
        b.event("cards_dealt")
        view = a.state()["view"]
        while view is None or view["to_act_seat"] != 0:
            view = a.state()["view"]
        a.ok({"type": "act", "action": "bet"})
        b.ok({"type": "act", "action": "fold"})
        a.ok({"type": "act", "action": "buy"})
        closed = a.seen("round_closed")
    assert closed["status"] == "settled"
    # alice: Ante (paid or not), Bet pushed, the buy fee lost; bob: Ante lost, Bonus
    assert server.balance(ta) == CREDIT + ante - 100
    assert server.balance(tb) == CREDIT - 100 + bonus
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and sum(ledger.values()) == 0


@SQLITE_AND_CLUSTER_SLOW
def test_limits_changed_in_the_betting_window_apply_to_the_boxes_after(
    table_server: ServerFactory,
) -> None:
    """Seed 003's "tudi med igro" at a Russian Poker table (issue 28): the boxes placed after an
    operator's change of the limits are checked against the new ones; those placed stand."""
    server = table_server([RUSSIAN])
    tokens = [server.player(name, credit=CREDIT)[1] for name in ("alice", "bob", "carol")]
    server.shoes.push(DECK)
    operator = {"Authorization": f"Bearer {server.operator_token()}"}
    with (
        table_ws(server.client, "russian", tokens[0]) as wa,
        table_ws(server.client, "russian", tokens[1]) as wb,
        table_ws(server.client, "russian", tokens[2]) as wc,
    ):
        a, b, c = Seat(wa), Seat(wb), Seat(wc)
        for number, seat in enumerate((a, b, c)):
            seat.welcome()
            seat.ok({"type": "join", "seat": number})  # carol sits: betting stays open
        a.ok({"type": "bet", "key": "a", "bets": {"ante": 100}})
        changed = server.client.patch(
            "/api/operator/tables/russian", json={"min_bet": 500}, headers=operator
        )
        assert changed.status_code == 200, changed.text
        assert a.event("limits_changed")["ante_min"] == 500
        low = b.request({"type": "bet", "key": "b", "bets": {"ante": 100}})
        assert low["type"] == "error" and low["params"]["min"] == 500, low
        b.ok({"type": "bet", "key": "b2", "bets": {"ante": 500}})
        server.clock.advance(10)
        a.event("cards_dealt")
    ledger = server.ledger()
    assert sum(ledger.values()) == 0


# Olga's open box Ah As Ad 7c 2h; the dealer Qs Qd 9c 5s 3h; then 4d for her exchange.
OLGA = "Ah As Ad 7c 2h Qs Qd 9c 5s 3h 4d 6c 7d"


@SQLITE_AND_CLUSTER_SLOW
def test_the_bet_after_an_exchange_has_its_own_time(russian: Server) -> None:
    """A box that exchanged at the last second of its turn decides its Bet in a turn of its
    own, with the table's full decision time announced (``decisions_open``): it used to have
    what was left of the first (the box folded a second later, its Ante and fee lost).
    Found by red-teaming."""
    server = russian
    _, token = server.player("olga", credit=CREDIT)
    server.shoes.push(OLGA)
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        seat.ok({"type": "bet", "key": "k", "bets": {"ante": 100}})
        first = seat.event("decisions_open")
        server.clock.advance(RUSSIAN.decision_seconds - 1)
        mark = len(seat.frames)
        exchanged = seat.ok(
            {"type": "act", "action": "exchange", "cards": ["2h"], "decision": first["decision"]}
        )
        assert exchanged["staked"] == 100  # the exchange fee: the Ante
        opened = seat.after(
            mark, lambda f: f["type"] == "event" and f["event"]["kind"] == "decisions_open"
        )["event"]
        assert opened["decision"] != first["decision"]
        assert opened["decision_seconds"] == RUSSIAN.decision_seconds
        seat.request({"type": "ping"})
        state = next(f for f in reversed(seat.frames) if f["type"] == "state")["table"]
        assert state["decision"] == opened["decision"]
        assert state["deadline_in"] > RUSSIAN.decision_seconds - 2
        server.clock.advance(2)  # past the first turn's deadline: the box still decides
        bet = seat.ok({"type": "act", "action": "bet", "decision": opened["decision"]})
        assert bet["staked"] == 200
        closed = seat.event("round_closed")
        assert closed["returns"]["0"] > 0  # trips against a qualifying dealer
        # The first turn's id is spent: resent, it gets its first answer.
        again = seat.request(
            {"type": "act", "action": "exchange", "cards": ["2h"], "decision": first["decision"]}
        )
        assert again["type"] == "ack" and again["result"] == {**exchanged, "replayed": True}
