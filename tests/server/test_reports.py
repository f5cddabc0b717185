"""The daily report over HTTP and from the command line, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import functools
import io
import time
from typing import Any

import pytest
from server_testkit import Seat, Server, make_settings, table_ws
from typer.testing import CliRunner

from croupier.analysis.russian.figure import RUSSIAN_ANALYSIS
from croupier.analysis.uth import DEFAULT_TRIPS
from croupier.analysis.uth.moments import exact_outcomes, load_default_outcomes, moments
from croupier.cli.report import app as report_app
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.evaluator import HandCategory
from croupier.games.russian import RussianConfig, RussianRound
from croupier.history import russian as russian_history
from croupier.server.base import utcnow
from croupier.server.db import Database
from croupier.server.reports.daily import daily_report, to_json
from croupier.server.reports.theory import TheoryBook
from croupier.server.tables.models import Round, RoundPlayer, RoundStatus
from croupier.server.tables.registry import theories
from croupier.server.tables.uth_theory import blind_lookup

ONE_SEAT = "As 2c Ah 7d 3s Ad Kc 9h 4s Jc"  # test_tables_ws: the seat wins 5,500 net


def _today() -> str:
    """The UTC day now: read after a round is played, so a run across midnight asks for the
    day the round was recorded on."""
    return utcnow().date().isoformat()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play_one_round(server: Server, token: str, *, ante: int, trips: int) -> None:
    server.shoes.push(ONE_SEAT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        assert seat.request({"type": "join"})["type"] == "ack"
        bet = seat.request({"type": "bet", "key": "b1", "bets": {"ante": ante, "trips": trips}})
        assert bet["type"] == "ack", bet
        seat.request({"type": "act", "action": "play", "multiple": 4})
        assert seat.seen("round_closed")["status"] == "settled"


def _report(server: Server, **params: str) -> Any:
    return server.client.get(
        "/api/operator/reports/daily", params=params, headers=_auth(server.operator_token())
    )


def test_a_played_round_in_the_daily_report(server: Server) -> None:
    _, token = server.player("alice", credit=100_000)
    _play_one_round(server, token, ante=1_000, trips=500)
    response = _report(server, date=_today())
    assert response.status_code == 200, response.text
    (row,) = response.json()["tables"]
    # stakes 1,000 + 1,000 + 500 + 4,000 (4x); paid back 12,000 (test_tables_ws)
    assert (row["table"], row["game"], row["rounds"], row["players"]) == ("casino", "uth", 1, 1)
    assert (row["wagered"], row["paid"], row["ggr"]) == (6_500, 12_000, -5_500)
    assert row["hold"] == pytest.approx(-5_500 / 6_500)
    m = moments(load_default_outcomes(), DEFAULT_TRIPS)
    ret = row["return"]
    assert ret["base"] == 1_500 and ret["actual"] == pytest.approx(1 + 5_500 / 1_500)
    expected = 1 + float(1_000 * m.ev_main + 500 * m.ev_trips) / 1_500
    assert ret["theoretical"] == pytest.approx(expected)
    low, high = ret["interval"]
    sd = m.box(1_000, 500)[1] ** 0.5
    assert high - low == pytest.approx(2 * 1.959964 * sd / 1_500, rel=1e-5)
    theory = row["theory"]
    assert theory["status"] == "ready" and round(theory["return_per_ante"], 6) == 0.978150
    assert round(theory["trips_return"], 6) == 0.965021
    csv_response = _report(server, date=_today(), format="csv")
    assert csv_response.headers["content-type"].startswith("text/csv")
    (line,) = list(csv.DictReader(io.StringIO(csv_response.text)))
    assert line["table"] == "casino" and line["ggr"] == "-5500" and line["status"] == "ready"
    assert float(line["theoretical_return"]) == pytest.approx(expected, abs=1e-6)


def test_a_day_without_rounds_is_empty(server: Server) -> None:
    assert _report(server, date="2020-02-29").json() == {
        "date": "2020-02-29",
        "currency_minor_units": True,
        "tables": [],
    }


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"date": "2026-13-01"}, "date"),
        ({"date": "yesterday"}, "date"),
        ({"date": "2999-01-01"}, "date"),
        ({}, "date"),
        ({"date": "2020-01-01", "format": "xml"}, "format"),
    ],
)
def test_bad_report_requests_name_the_field(
    server: Server, params: dict[str, str], field: str
) -> None:
    response = _report(server, **params)
    assert response.status_code == 422
    assert response.json()["error"]["message"].split()[0].rstrip(":").endswith(field)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_players_cannot_read_reports(server: Server) -> None:
    _, token = server.player("alice")
    response = server.client.get(
        "/api/operator/reports/daily", params={"date": _today()}, headers=_auth(token)
    )
    assert response.status_code == 403


# -- Russian Poker and Hold'em rows from stored rounds -----------------------------------------


def _store(
    db: Database,
    *,
    table: str,
    game: str,
    record: dict[str, Any],
    money: list[tuple[int, int, int]],
) -> None:
    with db.session() as session:
        row = Round(
            table_name=table, game=game, status=RoundStatus.SETTLED.value, commitment="c",
            salt="s", deck="d", record=record, closed_at=utcnow(),
        )  # fmt: skip
        session.add(row)
        session.flush()
        for user, staked, returned in money:
            session.add(
                RoundPlayer(round_id=row.id, user_id=user, seat=0, staked=staked, returned=returned)
            )


def _russian_record(seed: int) -> dict[str, Any]:
    shoe = Shoe(shuffled(seeded_source(seed)))
    game = RussianRound(config=RussianConfig(), shoe=shoe)
    game.place_box(0, box=0, ante=1_000, bonus=500)
    game.place_box(0, box=1, ante=1_000, blind=True)
    game.deal()
    for _ in range(10):
        if game.can_bet(0, box=0):
            game.bet(0, box=0)
        elif game.can_decline_buy(0, box=0):
            game.decline_buy(0, box=0)
    return russian_history.record(game, round_id=seed)


def test_russian_and_holdem_rows(db: Database, make_user: Any) -> None:
    user = make_user("alice")
    nets = []
    for seed in range(1, 4):
        record = _russian_record(seed)
        nets.append(next(r["net"] for r in record["results"] if r["box"] == 0))
        total = sum(r["net"] for r in record["results"])
        _store(
            db,
            table="russian",
            game="russian",
            record=record,
            money=[(user, 10_000, 10_000 + total)],
        )
    _store(db, table="holdem-nl", game="holdem", record={"rake": 150}, money=[(user, 2_000, 1_850)])
    rules = {"holdem-nl": {"rake_percent": 5, "rake_cap": 300, "no_flop_no_drop": True}}
    with db.session() as session:
        rows = daily_report(
            session, day=utcnow().date(), book=TheoryBook(), games=theories(), rules=rules
        )
    data = {r["table"]: r for r in to_json(rows, day=utcnow().date())["tables"]}
    russian = data["russian"]
    assert russian["rounds"] == 3 and russian["theory"]["uncovered_boxes"] == 3  # blind boxes
    assert russian["return"]["base"] == 3 * 1_500
    assert russian["return"]["actual"] == pytest.approx(1 + sum(nets) / 4_500)
    bonus = russian["theory"]["bonus_return"]
    expected = 1 + (1_000 * RUSSIAN_ANALYSIS.ev_per_ante + 500 * (bonus - 1)) / 1_500
    assert russian["return"]["theoretical"] == pytest.approx(expected)
    low, high = russian["return"]["interval"]
    assert low < expected < high
    holdem = data["holdem-nl"]
    assert holdem["ggr"] == 150 and holdem["hold"] == pytest.approx(0.075)
    assert holdem["return"] is None and holdem["theory"]["rake_percent"] == 5


# -- theory for other pay tables --------------------------------------------------------------

_SMALL = tuple(c for c in range(52) if c // 4 >= 10)
_OTHER_BLIND = {
    HandCategory.ROYAL_FLUSH: (500, 1),
    HandCategory.STRAIGHT_FLUSH: (50, 1),
    HandCategory.FOUR_OF_A_KIND: (10, 1),
    HandCategory.FULL_HOUSE: (3, 1),
    HandCategory.FLUSH: (2, 1),  # not the spec's 3:2
    HandCategory.STRAIGHT: (1, 1),
}


def test_the_book_computes_other_blind_tables_in_a_worker() -> None:
    book = TheoryBook(compute=functools.partial(exact_outcomes, deck=_SMALL))
    try:
        assert blind_lookup(book, _OTHER_BLIND).status == "computing"
        deadline = time.monotonic() + 120
        while (lookup := blind_lookup(book, _OTHER_BLIND)).status == "computing":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert lookup.status == "ready" and lookup.outcomes is not None
        assert lookup.outcomes == exact_outcomes(lookup.outcomes.blind, deck=_SMALL)
        bad = functools.partial(exact_outcomes, deck=(0, 1, 2, 3, 4, 5, 6, 7, 8))
        failing = TheoryBook(compute=bad)
        blind_lookup(failing, _OTHER_BLIND)
        while (lookup := blind_lookup(failing, _OTHER_BLIND)).status == "computing":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert lookup.status == "unavailable" and "rank" in lookup.reason
        failing.close()
    finally:
        book.close()
    assert blind_lookup(book, {HandCategory.FLUSH: (3, 0)}).status == "unavailable"


def test_a_table_with_changed_trips_shows_its_return(db_url: str) -> None:
    from server_testkit import ShoeStack, TestClient

    from croupier.server.app import create_app
    from croupier.server.tables.clock import ManualClock
    from croupier.server.tables.config import TableConfig

    trips = {"royal_flush": "50:1", "straight_flush": "40:1", "four_of_a_kind": "30:1",
             "full_house": "8:1", "flush": "6:1", "straight": "5:1", "three_of_a_kind": "3:1"}  # fmt: skip
    table = TableConfig(
        name="casino", game="uth", betting_seconds=10, decision_seconds=20, pause_seconds=0,
        rules={"max_seats": 6, "trips_paytable": trips},
    )  # fmt: skip
    settings = make_settings(db_url)
    clock, shoes = ManualClock(), ShoeStack()
    app = create_app(settings, tables=[table], clock=clock, shoe_factory=shoes)
    with TestClient(app) as client:
        server = Server(
            app=app,
            client=client,
            clock=clock,
            shoes=shoes,
            settings=settings,
        )
        _, token = server.player("alice", credit=100_000)
        _play_one_round(server, token, ante=1_000, trips=500)
        (row,) = _report(server, date=_today()).json()["tables"]
    changed = {**DEFAULT_TRIPS, HandCategory.FLUSH: (6, 1), HandCategory.STRAIGHT: (5, 1)}
    m = moments(load_default_outcomes(), changed)
    assert row["theory"]["trips_return"] == pytest.approx(float(m.trips_return))
    assert round(row["theory"]["trips_return"], 6) != 0.965021


# -- the command line ---------------------------------------------------------------------------


def test_cli_prints_the_same_report(db: Database, db_url: str, make_user: Any) -> None:
    user = make_user("alice")
    _store(
        db, table="russian", game="russian", record=_russian_record(7), money=[(user, 4_000, 2_500)]
    )
    table = CliRunner().invoke(
        report_app, ["daily", "--date", _today(), "--database", db_url], env={"COLUMNS": "200"}
    )
    assert table.exit_code == 0, table.output
    assert "russian" in table.output and "40.00 €" in table.output and "15.00 €" in table.output
    as_csv = CliRunner().invoke(
        report_app, ["daily", "--date", _today(), "--database", db_url, "--format", "csv"]
    )
    (line,) = list(csv.DictReader(io.StringIO(as_csv.output)))
    assert line["wagered"] == "4000" and line["ggr"] == "1500"
    bad = CliRunner().invoke(report_app, ["daily", "--date", "2026-02-30", "--database", db_url])
    assert bad.exit_code == 2 and "--date" in bad.output
