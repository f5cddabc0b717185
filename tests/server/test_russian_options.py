"""Russian Poker at a full server table and with every rule option (issue 17 items 1 and 2).

A 4-player, 6-box table where every open box exchanges five cards and then buys the dealer's
game plays to the end: the discards are reshuffled, and the reshuffle is the one the round's
revealed salt gives. Every engine option is a table setting, refused with a clear error when
it is not valid, and changes the settlement as docs/rules.md says.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER, SQLITE_AND_CLUSTER_SLOW
from server_testkit import Seat, Server, ServerFactory, table_ws

from croupier.errors import ConfigError
from croupier.history import russian as russian_history
from croupier.server.tables.config import TableConfig, parse_tables
from croupier.server.tables.fairness import verify
from croupier.server.tables.russian import RussianFactory

pytestmark = pytest.mark.timeout(90)

# boxes 0..5 get 2-6 of each suit, 7-J of clubs and of diamonds; the dealer Q-J-9-8-7
# offsuit does not qualify, so every box that stood may buy the dealer's game
FULL = (
    "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 2h 3h 4h 5h 6h 2s 3s 4s 5s 6s 7c 8c 9c Tc Jc "
    "7d 8d 9d Td Jd Qh Js 9h 8s 7h"
)
CREDIT = 100_000


def _table(**rules: Any) -> TableConfig:
    return TableConfig(
        name="russian",
        game="russian",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules=rules,
    )


@pytest.fixture
def make_server(table_server: ServerFactory) -> Any:
    """``make_server(**rules)``: a whole server with one Russian Poker table of ``rules``, on
    SQLite or through a two-process cluster (tests/server/server_cluster.py)."""

    def build(**rules: Any) -> Server:
        return table_server([_table(**rules)])

    return build


def _turn(seat: Seat, number: int) -> dict[str, Any]:
    """Wait until it is ``number``'s seat's turn; return the view."""
    while True:
        view: dict[str, Any] | None = seat.state()["view"]
        if view is not None and view["to_act_seat"] == number:
            return view


@SQLITE_AND_CLUSTER
def test_full_table_exchanges_five_and_buys_to_the_end(make_server: Any) -> None:
    server: Server = make_server()
    names = ("alice", "bob", "carol", "dave")
    tokens = [server.player(n, credit=CREDIT)[1] for n in names]
    server.shoes.push(FULL)
    with ExitStack() as stack:
        seats = []
        for token in tokens:
            ws = stack.enter_context(table_ws(server.client, "russian", token))
            seat = Seat(ws)
            seat.welcome()
            seats.append(seat)
        for number, seat in enumerate(seats):
            assert seat.ok({"type": "join", "seat": number}) == {"seat": number}
        # alice and bob add a blind box each: 4 open + 2 blind = the 6 boxes
        for number, seat in enumerate(seats):
            bets = {"ante": 100, "blind_boxes": 1} if number < 2 else {"ante": 100}
            seat.ok({"type": "bet", "key": f"k{number}", "bets": bets})
        for number, seat in enumerate(seats):
            view = _turn(seat, number)
            mine = next(b for b in view["boxes"] if b["seat"] == number and not b["blind"])
            seat.ok({"type": "act", "action": "exchange", "cards": mine["cards"]})
            seat.ok({"type": "act", "action": "bet"})
        # the fourth exchange needed the discards: everyone saw a reshuffle, not its cards
        reshuffled = seats[0].seen("discards_reshuffled")
        assert reshuffled["cards"] is None and reshuffled["discards"] is None
        assert reshuffled["count"] == 15
        for number, seat in enumerate(seats):
            _turn(seat, number)
            seat.ok({"type": "act", "action": "buy"})
        closed = seats[0].seen("round_closed")
    assert closed["status"] == "settled"
    reveal = closed["reveal"]
    assert verify(salt=reveal["salt"], deck=reveal["deck"], commitment=reveal["commitment"])
    operator = server.client.get(
        f"/api/rounds/{closed['round_id']}",
        headers={"Authorization": f"Bearer {server.operator_token()}"},
    ).json()
    record = operator["record"]
    assert [e["kind"] for e in record["events"]].count("discards_reshuffled") == 1
    assert russian_history.verify(record) == []
    # the reshuffle is the one the committed salt fixed before the first card was dealt
    assert russian_history.reshuffle_differences(record, key=reveal["salt"]) == []
    assert russian_history.reshuffle_differences(record, key="0" * 32) != []
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and sum(ledger.values()) == 0


EVERY_OPTION = {
    "ante_min": 200,
    "ante_max": 20_000,
    "bonus_min": 200,
    "bonus_max": 5_000,
    "max_payout": 1_000_000,
    "max_players": 3,
    "boxes": 5,
    "bet_multiple": 3,
    "draw_fee_multiple": 2,
    "buy_fee_multiple": 2,
    "insurance_min_multiple": 2,
    "dealer_upcard": True,
    "rebuy_same_rank": False,
    "duplicate_rank_straights": "straight_plus_pair",
    "bet_paytable": {"royal_flush": 200, "straight": 5, "ace_king": 1},
    "bonus_paytable": {"straight": 30, "three_of_a_kind": 5},
    "ante_pays_on_win": True,
    "open_boxes_per_player": 2,
    "exchange_min": 2,
    "exchange_max": 4,
    "blind_insurance": True,
    "blind_sixth_card": True,
}


def test_every_engine_option_is_a_table_setting() -> None:
    factory = RussianFactory(_table(name="Riga", **EVERY_OPTION))
    described = factory.describe()
    for key, value in EVERY_OPTION.items():
        if isinstance(value, dict):
            assert {k: described[key][k] for k in value} == value
        else:
            assert described[key] == value, key
    assert described["name"] == "Riga"
    # the same through a tables TOML file
    toml = "\n".join(
        [
            '[[tables]]\nname = "riga"\ngame = "russian"\n[tables.rules]',
            "ante_pays_on_win = true\nopen_boxes_per_player = 2\nexchange_min = 2",
            'duplicate_rank_straights = "straight_plus_pair"',
            "[tables.rules.bet_paytable]\nstraight = 5",
        ]
    )
    (table,) = parse_tables(toml)
    config = RussianFactory(table).config
    assert config.ante_pays_on_win and config.exchange_min == 2
    assert config.bet_paytable.straight == 5


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"colour": "red"}, "unknown russian poker rules \\['colour'\\]"),
        ({"exchange_min": 0}, "exchange range 0..5"),
        ({"open_boxes_per_player": 3}, "open_boxes_per_player = 3 is outside 1..2"),
        ({"ante_pays_on_win": "yes"}, "ante_pays_on_win = 'yes' must be true or false"),
        ({"bet_paytable": {"straight": 9}}, "bet_paytable: Flush pays 5, less than"),
        ({"bet_paytable": {"five_aces": 9}}, "bet_paytable: unknown lines \\['five_aces'\\]"),
        ({"duplicate_rank_straights": "both"}, "duplicate_rank_straights = 'both'"),
        ({"boxes": 8}, "one deck has 52"),
        ({"insurance_min_multiple": 0}, "insurance_min_multiple = 0"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(rules: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        RussianFactory(_table(**rules))


def _play_one(server: Server, deck: str, bets: dict[str, int], acts: list[dict[str, Any]]) -> Any:
    _, token = server.player(f"p{len(server.shoes.decks)}{len(acts)}", credit=CREDIT)
    server.shoes.push(deck)
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        seat.ok({"type": "bet", "key": "k", "bets": bets})
        for act in acts:
            _turn(seat, 0)
            seat.ok({"type": "act", **act})
        return seat.seen("round_closed")


# box 0: Kh Kd Ks 7c 2h (three kings); the dealer Qs Qd 9c 5s 3h qualifies with a pair
TRIPS_VS_PAIR = "Kh Kd Ks 7c 2h Qs Qd 9c 5s 3h"


@SQLITE_AND_CLUSTER_SLOW
def test_ante_paid_on_win_changes_the_settlement(make_server: Any) -> None:
    plain = _play_one(make_server(), TRIPS_VS_PAIR, {"ante": 100}, [{"action": "bet"}])
    riga = _play_one(
        make_server(ante_pays_on_win=True), TRIPS_VS_PAIR, {"ante": 100}, [{"action": "bet"}]
    )
    # seed 004: Bet 3:1 (600) and the Ante returned; Riga pays the Ante 1:1 besides
    assert plain["returns"] == {"0": 100 + 200 + 600}
    assert riga["returns"] == {"0": 100 + 100 + 200 + 600}


@SQLITE_AND_CLUSTER_SLOW
def test_exchange_range_and_blind_choices_at_the_table(make_server: Any) -> None:
    server = make_server(exchange_min=2, blind_insurance=True, blind_sixth_card=True)
    _, token = server.player("zoe", credit=CREDIT)
    # box 0 (open) 7c 7d 2h 3s 9c; box 1 (blind) Ah As Ad 4c 5d; dealer Qs Qd 9d 5s 3h
    # qualifies; the blind box's sixth card comes next: Ac (four aces)
    server.shoes.push("7c 7d 2h 3s 9c Ah As Ad 4c 5d Qs Qd 9d 5s 3h Ac Kc Kd")
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        bets = {"ante": 100, "blind_boxes": 1, "blind_insurance": 300, "blind_sixth": 1}
        # open 100; blind 100 Ante + 200 Bet + 300 insurance + 100 sixth-card fee
        assert seat.ok({"type": "bet", "key": "k", "bets": bets})["staked"] == 800
        _turn(seat, 0)
        one = seat.request({"type": "act", "action": "exchange", "cards": ["9c"]})
        assert one["type"] == "error" and "2 to 5" in one["message"]
        seat.ok({"type": "act", "action": "exchange", "cards": ["2h", "3s"]})
        seat.ok({"type": "act", "action": "fold"})
        closed = seat.seen("round_closed")
    # open box: Ante and fee lost; blind box: four aces (Ac) beat the queens: Bet 20:1 (4000),
    # Ante returned, insurance lost (the dealer qualifies), fee lost
    assert closed["returns"] == {"0": 100 + 200 + 4_000}


@SQLITE_AND_CLUSTER_SLOW
def test_two_open_boxes_at_a_server_table(make_server: Any) -> None:
    """open_boxes_per_player 2 (Aragon, Senator, Corona, Sochi): one bet places two open boxes;
    the player sees the second box's cards only once the first has decided."""
    with _seated_at_two_boxes(make_server) as (server, _, seat):
        # box 0 Ah As Ad 7c 2h, box 1 Kh Ks 8d 8h 2c; dealer Qs Qd 9c 5s 3h qualifies
        deal = "Ah As Ad 7c 2h Kh Ks 8d 8h 2c Qs Qd 9c 5s 3h"
        # The refused bet below may shuffle already: one process shuffles a round for it and
        # drops it; a cluster's owner shuffles the next round it recorded and keeps it for
        # the next bet (nextround.NextRound.shuffled). The deal is pushed for either.
        server.shoes.push(deal)
        one = seat.request({"type": "bet", "key": "x", "bets": {"ante": 100, "open_boxes": 3}})
        assert one["type"] == "error" and "open_boxes 3 is outside 1..2" in one["message"]
        server.shoes.push(deal)
        staked = seat.ok({"type": "bet", "key": "k", "bets": {"ante": 100, "open_boxes": 2}})
        assert staked["staked"] == 200
        view = _turn(seat, 0)
        cards = {b["box"]: b["cards"] for b in view["boxes"]}
        assert cards == {0: ["Ah", "As", "Ad", "7c", "2h"], 1: None}
        seat.ok({"type": "act", "action": "bet"})
        view = _turn(seat, 0)
        assert view["to_act"] == 1
        assert {b["box"]: b["cards"] for b in view["boxes"]}[1] == ["Kh", "Ks", "8d", "8h", "2c"]
        seat.ok({"type": "act", "action": "bet"})
        closed = seat.seen("round_closed")
    # trips of aces: Bet 3:1 (600); two pair: Bet 2:1 (400); Antes returned
    assert closed["returns"] == {"0": 100 + 200 + 600 + 100 + 200 + 400}
    one_box = make_server()
    _, other = one_box.player("ivan", credit=CREDIT)
    with table_ws(one_box.client, "russian", other) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        refused = seat.request({"type": "bet", "key": "k", "bets": {"ante": 100, "open_boxes": 2}})
        assert refused["type"] == "error" and "outside 1..1" in refused["message"]


@contextmanager
def _seated_at_two_boxes(make_server: Any) -> Iterator[tuple[Server, str, Seat]]:
    """A player seated at a table of two open boxes each: the server, their token, the seat."""
    server: Server = make_server(open_boxes_per_player=2)
    _, token = server.player("olga", credit=CREDIT)
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        yield server, token, seat


@contextmanager
def _two_boxes_open(make_server: Any) -> Iterator[tuple[Server, str, Seat]]:
    """:func:`_seated_at_two_boxes`, with both boxes bet and the first's turn open (its
    ``decisions_open`` read)."""
    with _seated_at_two_boxes(make_server) as (server, token, seat):
        server.shoes.push("Ah As Ad 7c 2h Kh Ks 8d 8h 2c Qs Qd 9c 5s 3h")
        seat.ok({"type": "bet", "key": "k", "bets": {"ante": 100, "open_boxes": 2}})
        assert seat.event("decisions_open")["pending_seats"] == [0]
        yield server, token, seat


@pytest.mark.timeout(30)
def test_the_second_open_box_gets_its_own_timer_after_the_first_times_out(
    make_server: Any,
) -> None:
    """Both open boxes are one seat's: when the first times out (and folds), the second's
    turn opens with ``decisions_open`` and a timer of its own (docs/protocol.md), so an
    absent player's round still ends. The timer's firing used to leave the seat pending
    with no timer at all: the round waited for ever."""
    with _two_boxes_open(make_server) as (server, token, seat):
        server.clock.advance(20)
        assert seat.event("folded")["box"] == 0
        assert seat.event("decisions_open")["pending_seats"] == [0]
        view = seat.state()["view"]
        assert (view["to_act"], view["legal"]) == (1, ["exchange", "sixth_card", "bet", "fold"])
        server.clock.advance(20)
        assert seat.event("folded")["box"] == 1
        closed = seat.event("round_closed")
    assert closed["returns"] == {"0": 0}
    assert server.balance(token) == CREDIT - 200


@pytest.mark.timeout(30)
def test_the_second_open_box_gets_its_own_timer_after_the_first_decides(
    make_server: Any,
) -> None:
    """When the player decides on the first of its two open boxes, the second's turn opens
    with ``decisions_open`` and a whole timer of its own, as when the first timed out. It
    used to keep what was left of the first box's timer, without ``decisions_open``: a player
    who took 15 of the 20 seconds on the first box had 5 for the second."""
    with _two_boxes_open(make_server) as (server, _, seat):
        server.clock.advance(15)
        seat.ok({"type": "act", "action": "fold"})
        opened = seat.event("decisions_open")
        assert opened["pending_seats"] == [0] and opened["decision_seconds"] == 20
        assert seat.state()["table"]["deadline_in"] == 20
        server.clock.advance(10)  # the first box's timer would have run out by now
        assert seat.ok({"type": "act", "action": "fold"})["action"] == "fold"
        closed = seat.event("round_closed")
    assert closed["returns"] == {"0": 0}


def test_an_option_table_shows_its_own_exact_return() -> None:
    """The operator's figure of a table with an analysed option is that option's shipped exact
    run (issue 32, deliverable 2), not the default's; an option with no run says so."""
    from fractions import Fraction

    from croupier.analysis.russian.strategy import load_exact_figures
    from croupier.analysis.russian.variants import load_exact_variants
    from croupier.server.tables.russian import THEORY

    default = THEORY.table_return({}, None)
    assert default["status"] == "ready"
    assert Fraction(default["return_exact"]) == 1 - load_exact_figures().house_edge
    for variant in load_exact_variants():
        rules = {variant.option: variant.value}
        figure = THEORY.table_return(rules, None)
        assert figure["status"] == "ready", (rules, figure)
        assert Fraction(figure["return_exact"]) == 1 - variant.figures.house_edge
        assert figure["options"] == [variant.option]
    paid = THEORY.table_return({"failed_buy_ante": "paid"}, None)
    assert Fraction(paid["return_exact"]) != Fraction(default["return_exact"])
    # fees of 2x the Ante: no exact run, the reason names the setting changed
    other = THEORY.table_return({"draw_fee_multiple": 2}, None)
    assert other["status"] == "unavailable" and "draw_fee_multiple" in other["reason"]
    both = THEORY.table_return({"failed_buy_ante": "paid", "rebuy_same_rank": False}, None)
    assert both["status"] == "unavailable"
