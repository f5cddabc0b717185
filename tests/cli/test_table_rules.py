"""Every table setting of every game reaches the command line through one mechanism:
``--config FILE`` and ``--rule KEY=VALUE`` (croupier.cli.rules), read by the game's own
``from_dict``, for ``settle``, ``replay``, ``play`` and ``analyze``.

``RULES`` gives a value other than the default for every field of ``UthConfig``,
``RussianConfig``, ``HoldemTableConfig`` and ``CaribbeanConfig`` (a test fails when a field is
added without one); each value, given as a ``--rule``, must reach the config a command builds, and change
what a command computes where it changes the rules.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from croupier.cli import holdem, russian, uth
from croupier.cli.caribbean_play import table_config as caribbean_table
from croupier.cli.holdem_play import table_config as holdem_table
from croupier.cli.russian import table_config as russian_table
from croupier.cli.uth_play import table_config as uth_table
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.games.caribbean import CaribbeanConfig
from croupier.games.holdem import HoldemTableConfig
from croupier.games.russian import RussianConfig
from croupier.games.uth import UthConfig

runner = CliRunner()

# field -> (the --rule value, the field as the config's to_dict writes it)
RULES: dict[str, dict[str, tuple[str, Any]]] = {
    "uth": {
        "name": ('"Chiasso"', "Chiasso"),
        "max_seats": ("4", 4),
        "shared_hand": ("true", True),
        "ante_min": ("200", 200),
        "ante_max": ("5000", 5000),
        "trips_min": ("300", 300),
        "trips_max": ("400", 400),
        "blind_paytable": (
            '{royal_flush = "100:1", flush = "1:1"}',
            {"royal_flush": "100:1", "flush": "1:1"},
        ),
        "trips_paytable": ('{straight = "5:1"}', {"straight": "5:1"}),
        "max_payout": ("100000", 100000),
        "play_multiples": ("{preflop = [3]}", {"preflop": [3], "flop": [2], "river": [1]}),
        "trips_needs_win": ("true", True),
        "blind_rounding": ('"up"', "up"),
        "chip": ("500", 500),
        "dealing": ("seed000", "seed000"),
        "bet_unit": ("50", 50),
    },
    "russian": {
        "ante_min": ("50", 50),
        "ante_max": ("20000", 20000),
        "bonus_min": ("50", 50),
        "bonus_max": ("1000", 1000),
        "max_payout": ("300000", 300000),
        "max_players": ("3", 3),
        "boxes": ("5", 5),
        "bet_multiple": ("3", 3),
        "draw_fee_multiple": ("2", 2),
        "buy_fee_multiple": ("2", 2),
        "insurance_min_multiple": ("2", 2),
        "dealer_upcard": ("true", True),
        "rebuy_same_rank": ("false", False),
        "duplicate_rank_straights": ("straight_plus_pair", "straight_plus_pair"),
        "bet_paytable": (
            "{royal_flush = 200}",
            {**RussianConfig().to_dict()["bet_paytable"], "royal_flush": 200},
        ),
        "bonus_paytable": (
            "{flush = 60}",
            {**RussianConfig().to_dict()["bonus_paytable"], "flush": 60},
        ),
        "ante_pays_on_win": ("true", True),
        "open_boxes_per_player": ("2", 2),
        "exchange_min": ("2", 2),
        "exchange_max": ("4", 4),
        "blind_insurance": ("true", True),
        "blind_sixth_card": ("true", True),
        "failed_buy_ante": ("paid", "paid"),
        "bonus_on_fold": ("stands", "stands"),
    },
    "holdem": {
        "name": ('"Lugano"', "Lugano"),
        "small_blind": ("50", 50),
        "big_blind": ("150", 150),
        "ante": ("10", 10),
        "structure": ("pot-limit", "pot-limit"),
        "max_seats": ("9", 9),
        "min_buy_in": ("3000", 3000),
        "max_buy_in": ("50000", 50000),
        "rake_percent": ('"2.5"', "2.5"),
        "rake_cap": ("300", 300),
        "no_flop_no_drop": ("false", False),
        "showdown": ("any-muck", "any-muck"),
        "odd_chip": ("suit", "suit"),
        "split": ("exact", "exact"),
        "first_to_show": ("river", "river"),
    },
    "caribbean": {
        "name": ('"Aruba"', "Aruba"),
        "max_seats": ("7", 7),
        "ante_min": ("200", 200),
        "ante_max": ("5000", 5000),
        "raise_multiple": ("1", 1),
        "raise_paytable": (
            '{royal_flush = "250:1"}',
            {**CaribbeanConfig().to_dict()["raise_paytable"], "royal_flush": "250:1"},
        ),
        "max_payout": ("50000", 50000),
        "progressive_bet": ("100", 100),
        "progressive_paytable": (
            "{flush = 7500}",
            {**CaribbeanConfig().to_dict()["progressive_paytable"], "flush": 7500},
        ),
        "dealing": ("hands", "hands"),
    },
}
# HoldemTableConfig writes the rake's three settings from one field
HOLDEM_FIELDS = {f.name for f in dataclasses.fields(HoldemTableConfig)} - {"rake"} | {
    "rake_percent",
    "rake_cap",
    "no_flop_no_drop",
}
BUILD = {
    "uth": lambda rules: uth_table(None, rules),
    "russian": lambda rules: russian_table(None, rules),
    "holdem": lambda rules: holdem_table(None, rules),
    "caribbean": lambda rules: caribbean_table(None, rules),
}


def _rules(game: str, *, skip: frozenset[str] = frozenset()) -> list[str]:
    return [f"{key}={text}" for key, (text, _) in RULES[game].items() if key not in skip]


def test_every_setting_of_every_game_has_a_rule_here() -> None:
    assert set(RULES["uth"]) == {f.name for f in dataclasses.fields(UthConfig)}
    assert set(RULES["russian"]) == {f.name for f in dataclasses.fields(RussianConfig)}
    assert set(RULES["holdem"]) == HOLDEM_FIELDS
    assert set(RULES["caribbean"]) == {f.name for f in dataclasses.fields(CaribbeanConfig)}


@pytest.mark.parametrize(
    ("game", "key"), [(game, key) for game in sorted(RULES) for key in RULES[game]]
)
def test_each_rule_reaches_the_config(game: str, key: str) -> None:
    text, expected = RULES[game][key]
    config = BUILD[game]([f"{key}={text}"])
    written = config.to_dict()[key]
    assert written == expected
    assert written != type(config)().to_dict().get(key), "the value must differ from the default"


def test_rules_combine_with_a_config_file_and_a_servers_tables_toml(tmp_path: Path) -> None:
    plain = tmp_path / "table.toml"
    plain.write_text("ante_pays_on_win = true\nexchange_min = 2\n", encoding="utf-8")
    config = russian.table_config(plain, ["exchange_min=3"])
    assert config.ante_pays_on_win and config.exchange_min == 3  # the rule after the file
    tables = tmp_path / "tables.toml"
    tables.write_text(
        '[[tables]]\nname = "nl"\ngame = "holdem"\n[tables.rules]\nodd_chip = "suit"\n',
        encoding="utf-8",
    )
    assert holdem.table_config(tables, None).odd_chip.value == "suit"


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (["exchange_min=9"], "exchange range"),
        (["no_such_setting=1"], "unknown russian poker rules"),
        (["exchange_min"], "is not KEY=VALUE"),
    ],
)
def test_a_bad_rule_is_refused_naming_it(rules: list[str], message: str) -> None:
    result = runner.invoke(russian.app, ["settle", *[f"--rule={r}" for r in rules]], input="")
    assert result.exit_code == 2 and message in result.output


# -- the commands take them -------------------------------------------------------------------

UTH_LINE = {
    "player": "AsKd",
    "dealer": "9c9d",
    "board": "AhAc4c5s8d",
    "ante": 1000,
    "trips": 500,
    "action": "4x",
}
RUSSIAN_LINE = {"player": "AsAdAh7c2h", "dealer": "KdQd9c5s5h", "ante": 100}
HOLDEM_LINE = {
    "board": "AhKh4c5s9c",
    "players": [
        {"cards": "2h2c", "put_in": 101},
        {"cards": "2s2d", "put_in": 101},
        {"put_in": 1, "folded": True},
    ],
}


def _settle(app: typer.Typer, line: dict[str, Any], *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["settle", *args], input=json.dumps(line) + "\n")
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.output)
    return answer


def test_settle_takes_every_setting_and_the_rules_change_the_answers() -> None:
    # trips of aces beat the dealer's nines: Trips 3:1 either way; the 4x Play 1:1
    assert _settle(uth.app, UTH_LINE)["trips"] == 1500
    assert (
        _settle(uth.app, UTH_LINE, "--rule", 'trips_paytable={three_of_a_kind="9:1"}')["trips"]
        == 4500
    )
    every = [
        a
        for r in _rules("uth", skip=frozenset({"max_seats", "ante_min", "trips_min", "trips_max"}))
        for a in ("--rule", r)
    ]
    assert "error" not in _settle(uth.app, UTH_LINE | {"action": "3x"}, *every)
    # seed 004: the Ante is returned; Royal Casino Riga pays it 1:1
    assert _settle(russian.app, RUSSIAN_LINE)["ante"] == 0
    assert _settle(russian.app, RUSSIAN_LINE, "--rule", "ante_pays_on_win=true")["ante"] == 100
    every = [
        a
        for r in _rules("russian", skip=frozenset({"ante_min", "bet_multiple"}))
        for a in ("--rule", r)
    ]
    assert "total" in _settle(russian.app, RUSSIAN_LINE, *every)
    # two pairs of deuces split 201: the odd chip left of the button, or to the spade
    live = _settle(holdem.app, HOLDEM_LINE, "--rule", "odd_chip=position")
    suit = _settle(holdem.app, HOLDEM_LINE, "--rule", "odd_chip=suit")
    # 203 split two ways: the odd chip to the first winner left of the button (p1), or to
    # the highest card by suit (p2's deuce of spades)
    assert (live["p1"], live["p2"]) == (1, 0) and (suit["p1"], suit["p2"]) == (0, 1)
    raked = _settle(holdem.app, HOLDEM_LINE, "--rule", "rake_percent=10", "--rule", "rake_cap=5")
    assert raked["rake"] == 5
    every = [a for r in _rules("holdem") for a in ("--rule", r)]
    assert "p1" in _settle(holdem.app, HOLDEM_LINE, *every)


def _uth_record(path: Path) -> Path:
    from croupier.games.uth import Deal, PlaceBets, Play, UthRound
    from croupier.history import uth as uth_history

    rnd = UthRound(UthConfig(), Shoe(shuffled(seeded_source(5))))
    for action in (PlaceBets(seat=0, ante=1000, trips=500), Deal(), Play(seat=0, multiple=4)):
        rnd.apply(action)
    path.write_text(json.dumps(uth_history.record(rnd, round_id="5")), encoding="utf-8")
    return path


def test_replay_under_other_rules_reports_what_would_differ(tmp_path: Path) -> None:
    record = _uth_record(tmp_path / "round.json")
    assert runner.invoke(uth.app, ["replay", str(record)]).exit_code == 0
    other = runner.invoke(
        uth.app, ["replay", str(record), "--rule", 'trips_paytable={straight_flush="1:1"}']
    )
    settled = json.loads(record.read_text())["results"][0]
    trips = next(b for b in settled["bets"] if b["bet"] == "trips")
    # the replay reproduces unless the other table pays this seat's Trips differently
    assert (other.exit_code == 0) == (trips["outcome"] != "won"), other.output


def test_play_and_analyze_take_the_rules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # a table with a Trips minimum of 600: the terminal states it and plays under it
    result = runner.invoke(
        uth.app,
        ["play", "--seed", "2", "--rule", "trips_min=600", "--rule", "trips_max=900"],
        input="q\n",
    )
    assert "Trips €6.00 to €9.00" in result.output
    result = runner.invoke(
        russian.app, ["play", "--seed", "3", "--rule", "exchange_min=2"], input="e\n1\nf\nn\n"
    )
    assert result.exit_code == 0, result.output
    assert "an exchange (2 to 5 cards)" in result.output
    assert "exchange from 2 to 5 cards at this table" in result.output  # one card refused
    result = runner.invoke(
        holdem.app, ["play", "--seed", "1", "--hands", "1", "--rule", "odd_chip=suit"], input="q\n"
    )
    assert result.exit_code == 0, result.output
    import croupier.analysis.russian as analysis

    seen: list[RussianConfig] = []

    def model(config: RussianConfig, **_: object) -> object:
        seen.append(config)
        raise SystemExit(0)

    monkeypatch.setattr(analysis, "build_model", model)
    runner.invoke(
        russian.app, ["analyze", "--rule", "ante_pays_on_win=true", "--rule", "exchange_max=3"]
    )
    assert seen and seen[0].ante_pays_on_win and seen[0].exchange_max == 3
