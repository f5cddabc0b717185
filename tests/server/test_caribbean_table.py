"""Caribbean Stud Poker tables over WebSockets: bets, the Raise held from the wallet, the
settlement through the ledger, privacy of the hidden cards, the timeout's fold, the
progressive bet, recall with the deck commitment and a round voided by a shutdown."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER, SQLITE_AND_CLUSTER_SLOW
from server_testkit import (
    Seat,
    Server,
    ServerFactory,
    ShoeStack,
    TestClient,
    make_settings,
    table_ws,
)

from croupier.history import caribbean as caribbean_history
from croupier.server.app import create_app
from croupier.server.db import Database
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.fairness import verify
from croupier.server.tables.models import RoundVoid
from croupier.server.wallet import service as wallet

pytestmark = pytest.mark.timeout(60)


def _table(**rules: Any) -> TableConfig:
    return TableConfig(
        name="caribbean",
        game="caribbean",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules={"dealing": "hands", **rules},
    )


# Dealt as hands: alice (seat 0) two pair, bob (seat 1) nine high, the dealer Ace-King
# (qualifies) with the 4h, dealt last, face up.
ALICE = ("Ah", "Ad", "Kc", "Kd", "3s")
BOB = ("2c", "5d", "7h", "9s", "Jc")
DEALER = ("As", "Kh", "Qd", "8c", "4h")
DECK = " ".join((*ALICE, *BOB, *DEALER))
CREDIT = 10_000


@contextmanager
def _seated(server: Server, ta: str, tb: str) -> Iterator[tuple[Seat, Seat]]:
    """Alice (``ta``) at seat 0 and Bob (``tb``) at seat 1, welcomed and joined."""
    with (
        table_ws(server.client, "caribbean", ta) as wa,
        table_ws(server.client, "caribbean", tb) as wb,
    ):
        a, b = Seat(wa), Seat(wb)
        a.welcome()
        b.welcome()
        a.ok({"type": "join", "seat": 0})
        b.ok({"type": "join", "seat": 1})
        yield a, b


@SQLITE_AND_CLUSTER
def test_two_boxes_raise_and_fold_and_settle_through_the_wallet(
    table_server: ServerFactory,
) -> None:
    server = table_server([_table()])
    _, ta = server.player("alice", credit=CREDIT)
    _, tb = server.player("bob", credit=CREDIT)
    lobby = server.client.get("/api/tables").json()[0]
    assert lobby["game"] == "caribbean" and lobby["rules"]["max_seats"] == 6
    server.shoes.push(DECK)
    with (
        table_ws(server.client, "caribbean", ta) as wa,
        table_ws(server.client, "caribbean", tb) as wb,
    ):
        a, b = Seat(wa), Seat(wb)
        a.welcome()
        b.welcome()
        assert a.ok({"type": "join", "seat": 0}) == {"seat": 0}
        assert b.ok({"type": "join", "seat": 1}) == {"seat": 1}
        staked = a.ok({"type": "bet", "key": "a", "bets": {"ante": 100}})
        assert staked["staked"] == 100 and staked["balance"] == CREDIT - 100
        # bad bets are refused and change nothing
        unknown = b.request({"type": "bet", "key": "x", "bets": {"ante": 100, "blind": 100}})
        assert unknown["type"] == "error" and "unknown bet spots" in unknown["message"]
        nothing = b.request({"type": "bet", "key": "y", "bets": {"ante": 100, "progressive": 1}})
        assert nothing["type"] == "error" and "no progressive" in nothing["message"]
        low = b.request({"type": "bet", "key": "z", "bets": {"ante": 50}})
        assert low["type"] == "error" and "limits" in low["message"]
        assert server.balance(tb) == CREDIT
        assert b.ok({"type": "bet", "key": "b", "bets": {"ante": 100}})["staked"] == 100
        upcard = a.event("upcard_shown")
        assert upcard["card"] == "4h"
        view = a.state()["view"]
        while view is None or view["phase"] != "deciding":
            view = a.state()["view"]
        assert view["hand"] == list(ALICE) and view["upcard"] == "4h"
        assert view["legal"] == ["raise", "fold"] and view["prices"] == {"raise": 200}
        assert view["dealer"] is None
        nonsense = a.request({"type": "act", "action": "call"})
        assert nonsense["type"] == "error" and nonsense["code"] == "invalid_request"
        assert a.ok({"type": "act", "action": "raise"})["balance"] == CREDIT - 300
        again = a.request({"type": "act", "action": "fold"})
        assert again["type"] == "error" and again["code"] == "illegal_action"
        b.ok({"type": "act", "action": "fold"})
        closed = a.seen("round_closed")
        b.seen("round_closed")
    # Two pair beats a qualifying Ace-King: the Ante 1:1, the Raise 2:1 (docs/rules.md);
    # bob's fold loses his Ante.
    assert closed["status"] == "settled"
    assert closed["returns"] == {"0": 100 + 100 + 200 + 400, "1": 0}
    assert server.balance(ta) == CREDIT + 500 and server.balance(tb) == CREDIT - 100
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and ledger["house"] == -400 and sum(ledger.values()) == 0
    reveal = closed["reveal"]
    assert reveal["deck"].startswith(DECK)
    assert verify(salt=reveal["salt"], deck=reveal["deck"], commitment=reveal["commitment"])
    # Privacy: before the showdown neither sees the other's cards nor the dealer's down cards.
    for mine, theirs, seat in ((ALICE, BOB, a), (BOB, ALICE, b)):
        before = seat.text_before("dealer_revealed")
        for card in (*theirs, *DEALER[:4]):
            assert f'"{card}"' not in before, card
        assert all(f'"{card}"' in before for card in mine)
    # Recall: alice's round, its record replays to the same settlement (croupier caribbean
    # replay), and the deck is the one committed to.
    recalled = server.client.get(
        f"/api/rounds/{closed['round_id']}", headers={"Authorization": f"Bearer {ta}"}
    )
    assert recalled.status_code == 200, recalled.text
    data = recalled.json()
    assert verify(salt=data["salt"], deck=data["deck"], commitment=data["commitment"])
    assert caribbean_history.verify(data["record"]) == []


def test_each_players_decision_cost_in_the_history(table_server: ServerFactory) -> None:
    """``GET /api/rounds/{id}/costs`` (issue 32): alice folds her two pair, bob raises his
    nine high; each sees what his own decision cost against the advisor's best, exactly,
    in Antes and in money, and not the other's."""
    from fractions import Fraction

    from croupier.analysis.caribbean import advise

    server = table_server([_table()])
    _, ta = server.player("alice", credit=CREDIT)
    _, tb = server.player("bob", credit=CREDIT)
    server.shoes.push(DECK)
    with _seated(server, ta, tb) as (a, b):
        a.ok({"type": "bet", "key": "a", "bets": {"ante": 300}})
        b.ok({"type": "bet", "key": "b", "bets": {"ante": 100}})
        a.event("upcard_shown")
        a.ok({"type": "act", "action": "fold"})
        b.ok({"type": "act", "action": "raise"})
        closed = a.seen("round_closed")
        b.seen("round_closed")
    assert closed["status"] == "settled"
    url = f"/api/rounds/{closed['round_id']}/costs"
    mine = {}
    for token, hand, ante in ((ta, ALICE, 300), (tb, BOB, 100)):
        got = server.client.get(url, headers={"Authorization": f"Bearer {token}"})
        assert got.status_code == 200, got.text
        assert got.json()["game"] == "caribbean"
        (cost,) = got.json()["costs"]
        advice = advise(" ".join(hand), "4h")
        evs = {o.action: o.ev for o in advice.options}
        taken = "fold" if hand == ALICE else "raise"
        assert cost["taken"] == taken and cost["best"] == advice.best != taken
        assert Fraction(cost["cost_exact"]) == max(evs.values()) - evs[taken] > 0
        assert cost["cost_money"] == round(Fraction(cost["cost_exact"]) * ante)
        mine[cost["seat"]] = cost
    assert set(mine) == {0, 1}


@SQLITE_AND_CLUSTER_SLOW
def test_a_box_that_does_not_decide_folds(table_server: ServerFactory) -> None:
    server = table_server([_table()])
    _, token = server.player("alice", credit=CREDIT)
    server.shoes.push(DECK)
    with table_ws(server.client, "caribbean", token) as ws:
        a = Seat(ws)
        a.welcome()
        a.ok({"type": "join"})
        a.ok({"type": "bet", "key": "a", "bets": {"ante": 200}})
        a.event("decisions_open")
        server.clock.advance(20)
        folded = a.event("folded")
        assert folded["seat"] == 0 and folded["timeout"] is True
        closed = a.event("round_closed")
    assert closed["returns"] == {"0": 0}
    assert server.balance(token) == CREDIT - 200


@SQLITE_AND_CLUSTER_SLOW
def test_the_progressive_bet_added_after_the_ante_pays_its_prize(
    table_server: ServerFactory,
) -> None:
    """A flush pays the progressive's fixed 5,000 whatever the dealer holds, the bet itself
    collected (docs/rules.md "The progressive"); the table's meter shows in the lobby."""
    server = table_server([_table(progressive_bet=100, jackpot=1_000_000)])
    _, token = server.player("alice", credit=CREDIT)
    _, tb = server.player("bob", credit=CREDIT)
    lobby = server.client.get("/api/tables").json()[0]
    assert lobby["rules"]["jackpot"] == 1_000_000
    # alice a flush, bob junk; the dealer does not qualify (Q-J high): Ante 1:1, Raise pushes
    server.shoes.push("2h 5h 7h 9h Jh 2c 5d 7c 9s Kc 3c 4d 8s Jc Qd")
    with _seated(server, token, tb) as (a, b):
        a.ok({"type": "bet", "key": "a", "bets": {"ante": 100}})
        assert a.ok({"type": "bet", "key": "p", "bets": {"progressive": 1}})["staked"] == 100
        twice = a.request({"type": "bet", "key": "q", "bets": {"progressive": 1}})
        assert twice["type"] == "error"
        b.ok({"type": "bet", "key": "b", "bets": {"ante": 100}})
        a.event("decisions_open")
        a.ok({"type": "act", "action": "raise"})
        b.ok({"type": "act", "action": "fold"})
        closed = a.seen("round_closed")
    # the progressive bet is collected and the flush paid its 5,000 instead (docs/rules.md)
    assert closed["returns"] == {"0": 100 + 100 + 200 + 5_000, "1": 0}
    assert server.balance(token) == CREDIT + 100 - 100 + 5_000
    assert sum(server.ledger().values()) == 0


def test_shutdown_voids_the_round_in_play(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'shutdown.db'}")
    app = create_app(settings, tables=[_table()], clock=ManualClock())
    with TestClient(app) as client:
        server = Server(
            app=app, client=client, clock=ManualClock(), shoes=ShoeStack(), settings=settings
        )
        _, token = server.player("alice", credit=5_000)
        _, other = server.player("bob", credit=5_000)
        with (
            table_ws(client, "caribbean", token) as wa,
            table_ws(client, "caribbean", other) as wb,
        ):
            a, b = Seat(wa), Seat(wb)
            a.welcome()
            b.welcome()
            a.ok({"type": "join", "seat": 0})
            b.ok({"type": "join", "seat": 1})
            a.ok({"type": "bet", "key": "k", "bets": {"ante": 1_000}})
            b.ok({"type": "bet", "key": "l", "bets": {"ante": 500}})
            a.event("decisions_open")
            a.ok({"type": "act", "action": "raise"})
        # alice's Ante and Raise, bob's Ante are on the table when the server stops
        assert server.balance(token) == 2_000 and server.balance(other) == 4_500
    db = Database(settings.database_url)
    with db.session() as session:
        from sqlalchemy import select

        void = session.scalars(select(RoundVoid)).one()
        assert void.reason == "server shut down"
        assert wallet.check_ledger(session) == {"player": 10_000, "cashier": -10_000, "escrow": 0}
    db.dispose()


def test_the_hint_is_the_advisors_and_refuses_what_is_not_a_hand(
    table_server: ServerFactory,
) -> None:
    server = table_server([_table()])
    _, token = server.player("alice")
    auth = {"Authorization": f"Bearer {token}"}
    url = "/api/games/caribbean/advice"
    # Ace-King-Queen against an Ace: raise; Ace-Queen high against a King: fold (-1 Ante is
    # better than the Raise's -1.6093: croupier.analysis.caribbean.advisor)
    raised = server.client.get(url, params={"hand": "AsKdQh9c7d", "upcard": "Ac"}, headers=auth)
    assert raised.status_code == 200, raised.text
    assert raised.json()["best"] == "raise"
    folded = server.client.get(url, params={"hand": "AsQd9h7c5d", "upcard": "Kc"}, headers=auth)
    body = folded.json()
    assert body["best"] == "fold" and [o["action"] for o in body["options"]] == ["fold", "raise"]
    assert round(body["options"][1]["ev"], 4) == -1.6093
    for bad in ({"hand": "AsKd", "upcard": "Ac"}, {"hand": "AsKdQh9c7d", "upcard": "As"}, {}):
        refused = server.client.get(url, params=bad, headers=auth)
        assert refused.status_code in (400, 422), (bad, refused.text)
        assert refused.json()["error"]["message"]
    assert server.client.get(url, params={"hand": "AsKdQh9c7d", "upcard": "Ac"}).status_code == 401
    assert server.client.get("/api/games/nogame/advice", headers=auth).status_code == 404


def test_the_operators_theory_is_the_exact_return() -> None:
    """The table's theory is the shipped exact enumeration: house edge 5.2243 % of the Ante
    and element of risk 2.5553 % (Wizard of Odds: 5.224 %, 2.555 %)."""
    from croupier.server.tables.caribbean import THEORY

    ready = THEORY.table_return({"raise_multiple": 2, **_default_rules()}, None)
    assert ready["status"] == "ready"
    assert abs(ready["house_edge"] - 0.052243) < 5e-7
    assert abs(ready["element_of_risk"] - 0.025553) < 5e-7
    other = THEORY.table_return({**_default_rules(), "raise_multiple": 1}, None)
    assert other["status"] == "unavailable" and "raise_multiple" in other["reason"]


def _default_rules() -> dict[str, Any]:
    from croupier.games.caribbean import CaribbeanConfig

    return CaribbeanConfig().to_dict()


def _deciding(seat: Seat) -> dict[str, Any]:
    """The seat's latest ``state`` once it is asked to decide (its id in ``table.decision``)."""
    while True:
        state = seat.state()
        view = state["view"]
        if view is not None and view.get("phase") == "deciding" and state["table"].get("decision"):
            return state


@SQLITE_AND_CLUSTER
def test_a_resent_raise_is_held_once_and_a_passed_turn_is_stale(
    table_server: ServerFactory,
) -> None:
    """Issue 26's defect-2 attacks on the fourth game: a Raise resent is held once and
    answered with its first answer, also after the round closed; another action under the
    decision made is refused; a Raise after the timer folded the seat is ``stale_decision``;
    no money moves."""
    server = table_server([_table()])
    _, ta = server.player("ana", credit=CREDIT)
    _, tb = server.player("ben", credit=CREDIT)
    server.shoes.push(DECK)
    with _seated(server, ta, tb) as (a, b):
        a.ok({"type": "bet", "key": "a", "bets": {"ante": 100}})
        b.ok({"type": "bet", "key": "b", "bets": {"ante": 100}})
        mine = _deciding(a)["table"]["decision"]
        raise_ = {"type": "act", "action": "raise", "decision": mine}
        first = a.ok(raise_)
        assert first["staked"] == 200 and first["balance"] == CREDIT - 300
        again = a.ok(raise_)  # a client's retry: the first answer, nothing held twice
        assert again == {**first, "replayed": True}
        assert server.balance(ta) == CREDIT - 300
        other = a.request({"type": "act", "action": "fold", "decision": mine})
        assert other["type"] == "error", other
        assert server.balance(ta) == CREDIT - 300
        his = _deciding(b)["table"]["decision"]
        server.clock.advance(21)
        closed = a.seen("round_closed")
        late = b.request({"type": "act", "action": "raise", "decision": his})
        assert late["type"] == "error" and late["reason"] == "stale_decision", late
        after = a.ok(raise_)
        assert after == {**first, "replayed": True}
    assert closed["status"] == "settled"
    assert closed["returns"] == {"0": 100 + 100 + 200 + 400, "1": 0}
    assert server.balance(ta) == CREDIT + 500 and server.balance(tb) == CREDIT - 100
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and sum(ledger.values()) == 0
