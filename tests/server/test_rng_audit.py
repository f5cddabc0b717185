"""`croupier rng audit` over the decks stored in a database, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from server_testkit import Seat, Server, table_ws
from sqlalchemy import update
from typer.testing import CliRunner

from croupier.cards import cards_from_ids, format_cards
from croupier.cli.rng import app as rng_app
from croupier.deck import seeded_source, shuffled
from croupier.server.db import Database
from croupier.server.reports.decks import read_decks
from croupier.server.rng import live_shoe
from croupier.server.tables import rounds
from croupier.server.tables.fairness import commit, deck_text
from croupier.server.tables.models import Round, RoundStatus


def _store(db: Database, decks: list[str], *, table: str = "t", game: str = "uth") -> None:
    with db.session() as session:
        for deck in decks:
            row = rounds.open_round(
                session,
                table=table,
                game=game,
                commitment=commit(salt="s", deck=deck),
                salt="s",
                deck=deck,
            )
            row.status = RoundStatus.SETTLED.value


def _naive_decks(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        order = list(range(52))
        for i, j in enumerate(rng.integers(0, 52, size=52)):
            order[i], order[j] = order[j], order[i]
        out.append(format_cards(cards_from_ids(order), " "))
    return out


def test_read_decks_takes_closed_rounds_and_skips_bad_ones(db: Database) -> None:
    good = [deck_text(live_shoe()) for _ in range(3)]
    _store(db, good[:2], table="a")
    _store(db, good[2:], table="b", game="russian")
    _store(db, ["As Kd"], table="a")  # not a whole deck
    with db.session() as session:
        rounds.open_round(session, table="a", game="uth", commitment="c", salt="s", deck=good[0])
    with db.session() as session:
        everything = read_decks(session)
        only_b = read_decks(session, table="b")
        only_uth = read_decks(session, game="uth")
    assert everything.rounds == 4 and everything.skipped == 1  # the open round is not read
    assert [format_cards(cards_from_ids(d), " ") for d in everything.decks.tolist()] == good
    assert only_b.decks.shape == (1, 52) and only_uth.rounds == 3


def test_cli_passes_live_shuffles_and_writes_json_and_plot(
    db: Database, db_url: str, tmp_path: Path
) -> None:
    _store(db, [deck_text(live_shoe()) for _ in range(600)])
    out, png = tmp_path / "rng.json", tmp_path / "rng.png"
    for _ in range(3):  # a fresh sample after a 4.9 % false alarm (tests/analysis)
        result = CliRunner().invoke(
            rng_app, ["audit", "--database", db_url, "--json", str(out), "--plot", str(png)]
        )
        if result.exit_code == 0:
            break
        with db.session() as session:
            session.execute(update(Round).values(deck="x"))
        _store(db, [deck_text(live_shoe()) for _ in range(600)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["passed"] is True and data["decks"] == 600
    assert data["tests"][0]["name"] == "card x position chi-square"
    assert all(t["df"] is None or t["df"] == 2601 for t in data["tests"])
    assert "PASS" in result.output and "p-value" in result.output
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_cli_fails_a_broken_shuffler(db: Database, db_url: str) -> None:
    _store(db, _naive_decks(1500, seed=4))
    result = CliRunner().invoke(rng_app, ["audit", "--database", db_url])
    assert result.exit_code == 1
    assert "FAIL" in result.output


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_cli_small_sample_and_bad_dates(db: Database, db_url: str) -> None:
    source = seeded_source(40)
    _store(db, [format_cards(shuffled(source), " ") for _ in range(40)])
    result = CliRunner().invoke(rng_app, ["audit", "--database", db_url, "--since", "2020-01-01"])
    assert result.exit_code == 0 and "NOT ENOUGH DATA" in result.output
    bad = CliRunner().invoke(rng_app, ["audit", "--database", db_url, "--since", "yesterday"])
    assert bad.exit_code == 2 and "--since" in bad.output


def test_a_dealt_round_is_read_as_revealed(server: Server) -> None:
    _, token = server.player("alice", credit=100_000)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        assert seat.request({"type": "join"})["type"] == "ack"
        assert seat.request({"type": "bet", "key": "b1", "bets": {"ante": 1_000}})["type"] == "ack"
        seat.request({"type": "act", "action": "play", "multiple": 4})
        closed = seat.seen("round_closed")
    with server.app.state.db.session() as session:
        sample = read_decks(session)
    assert sample.rounds == 1
    assert format_cards(cards_from_ids(sample.decks[0].tolist()), " ") == closed["reveal"]["deck"]


def test_the_console_runs_the_battery_over_http(server: Server) -> None:
    db: Database = server.app.state.db
    _store(db, _naive_decks(1500, seed=4), table="broken")
    headers = {"Authorization": f"Bearer {server.operator_token()}"}
    everything = server.client.get("/api/operator/reports/rng", headers=headers).json()
    assert everything["decks"] == 1500 and everything["passed"] is False
    assert {t["name"] for t in everything["tests"] if t["passed"] is False}
    none = server.client.get(
        "/api/operator/reports/rng", params={"table": "casino"}, headers=headers
    ).json()
    assert none["decks"] == 0 and none["passed"] is None
    bad = server.client.get(
        "/api/operator/reports/rng", params={"since": "yesterday"}, headers=headers
    )
    assert bad.status_code == 422 and "since" in bad.json()["error"]["message"]
    _, token = server.player("alice")
    player = server.client.get(
        "/api/operator/reports/rng", headers={"Authorization": f"Bearer {token}"}
    )
    assert player.status_code == 403
