"""`croupier russian settle` and `croupier russian play`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from croupier.cli.russian import app

runner = CliRunner()

ISSUE_LINE = {
    "player": "AhKhQhJhTh",
    "initial": "AhKhQhJh2c",
    "draw": "exchange",
    "dealer": "QsJd5c4h2d",
    "dealer_draws": "Kc7d",
    "ante": 100,
    "bonus": 0,
    "action": "bet",
    "insurance": 0,
    "buy": False,
}


def settle(*records: object, args: tuple[str, ...] = ()) -> list[dict[str, int | str]]:
    text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n"
    result = runner.invoke(app, ["settle", *args], input=text)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def test_issue_example() -> None:
    # the dealer (Q-J-5-4-2) does not qualify: Ante 1:1, Bet pushes, exchange fee lost
    assert settle(ISSUE_LINE) == [
        {"ante": 100, "bet": 0, "fee": -100, "insurance": 0, "bonus": 0, "buy": 0, "total": 0}
    ]


def test_buy_and_insurance() -> None:
    # Kc replaces the Queen: K-J-5-4-2 still does not qualify; insurance pays 1:1; the Ante,
    # whose payment was given up to buy, is returned unpaid (seed 004; issue 28)
    line = ISSUE_LINE | {"buy": True, "insurance": 500}
    assert settle(line)[0] == {
        "ante": 0,
        "bet": 0,
        "fee": -100,
        "insurance": 500,
        "bonus": 0,
        "buy": -100,
        "total": 300,
    }
    # the option: the Ante is paid 1:1 after a failed buy
    assert settle(line, args=("--rule", "failed_buy_ante=paid"))[0]["ante"] == 100


def test_qualified_royal_with_bonus_on_the_first_five() -> None:
    line = ISSUE_LINE | {"dealer": "AsKd5c4h2d", "bonus": 10}
    del line["dealer_draws"]
    assert settle(line)[0] == {
        "ante": 0,
        "bet": 20000,
        "fee": -100,
        "insurance": 0,
        "bonus": -10,
        "buy": 0,
        "total": 19890,
    }


def test_max_payout_option() -> None:
    line = ISSUE_LINE | {"dealer": "AsKd5c4h2d"}
    assert settle(line, args=("--max-payout", "5000"))[0]["bet"] == 5000


def test_defaults_and_fold() -> None:
    out = settle({"player": "8h8sAcKd5h", "dealer": "QsJd5c4h2d", "ante": 50, "action": "fold"})
    assert out[0] == {
        "ante": -50,
        "bet": 0,
        "fee": 0,
        "insurance": 0,
        "bonus": 0,
        "buy": 0,
        "total": -50,
    }
    six = settle({"player": "8h8sAcKd5h9c", "dealer": "QsQd5c4h2d", "ante": 50})
    assert six[0]["fee"] == -50 and six[0]["ante"] == -50 and six[0]["bet"] == -100


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dealer": "QsJd5c4hAh"}, "appears more than once"),
        ({"dealer_draws": "2c"}, "appears more than once"),  # a discarded card
        ({"draw": "none"}, "first five"),
        ({"draw": "sixth"}, "sixth card"),
        ({"initial": "AhKhQhJhTh"}, "replaces 1 to 5"),
        ({"insurance": 100, "player": "AhKhQhJh3c", "initial": "AhKhQhJh2c"}, "three of a kind"),
        ({"insurance": 100, "action": "fold"}, "folded"),
        ({"buy": True, "dealer": "QsQd5c4h2d"}, "does not qualify"),
        ({"buy": True, "dealer_draws": ""}, "more cards"),
        ({"ante": -5}, "ante"),
        ({"ante": True}, "ante"),
        ({"action": "raise"}, "action"),
        ({"draw": "twice"}, "draw"),
        ({"player": "AhKhQhJhXx"}, "cannot read"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_bad_lines_report_an_error_and_the_run_goes_on(
    change: dict[str, object], message: str
) -> None:
    out = settle(ISSUE_LINE | change, "not json", [1, 2], ISSUE_LINE)
    assert message in str(out[0]["error"])
    assert "not JSON" in str(out[1]["error"])
    assert "object" in str(out[2]["error"])
    assert out[3]["total"] == 0


def test_settle_reads_a_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "lines.jsonl"
    path.write_text(json.dumps(ISSUE_LINE) + "\n\n" + json.dumps(ISSUE_LINE) + "\n")
    result = runner.invoke(app, ["settle", str(path)])
    assert result.exit_code == 0
    assert len(result.output.splitlines()) == 2


def test_play_one_round_then_leave() -> None:
    # seed 3 deals Q-7-3-T-T; exchange Q and 7, bet, buy the game (which still does not
    # qualify: the Ante is not paid), then leave
    result = runner.invoke(
        app, ["play", "--seed", "3", "--boxes", "2", "--bonus", "5"], input="e\n1 2\nb\ny\nn\n"
    )
    assert result.exit_code == 0, result.output
    assert "Pair of Tens" in result.output
    assert "Settlement" in result.output and "blind" in result.output
    assert "You leave with 985 chips (-15)" in result.output


def test_play_rejects_bad_answers_and_ends_at_end_of_input() -> None:
    result = runner.invoke(app, ["play", "--seed", "3"], input="x\ns\nf\n")
    assert result.exit_code == 0, result.output
    assert "answer one of" in result.output
    assert "You leave with 980 chips (-20)" in result.output


@pytest.mark.slow
def test_analyze_runs_end_to_end_with_a_stand_only_strategy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """The command's plumbing (progress, tables, CSV); the class table is stubbed for speed."""
    from pathlib import Path

    import numpy as np

    import croupier.analysis.russian as analysis

    def stand_only(model: analysis.Model, **_: object) -> analysis.ClassTable:
        codes, weights = np.unique(model.codes, return_counts=True)
        evs = np.zeros((len(codes), 34))
        evs[:, 1] = 1.0
        return analysis.ClassTable(
            codes=codes,
            cards=analysis._decode(codes),
            weights=weights,
            evs=evs,
            decisions=np.ones(len(codes), dtype=np.int64),
        )

    monkeypatch.setattr(analysis, "class_table", stand_only)
    path = Path(str(tmp_path)) / "classes.csv"
    cache = Path(str(tmp_path)) / "strategy.npz"
    args = ["analyze", "--rounds", "64000", "--strategy", str(cache)]
    result = runner.invoke(app, [*args, "--output", str(path)])
    assert result.exit_code == 0, result.output
    assert cache.exists()
    again = runner.invoke(app, args)  # loads the saved strategy: same seed, same figures
    assert again.exit_code == 0, again.output
    edge_line = next(line for line in result.output.splitlines() if "per Ante" in line)
    assert edge_line in again.output
    other = runner.invoke(app, [*args, "--no-rebuy-same-rank"])
    assert other.exit_code != 0  # a cache computed for other options is refused
    assert "house edge per Ante" in result.output and "Strategy by the first five" in result.output
    lines = path.read_text().splitlines()
    assert len(lines) == 134_459 + 1
    assert lines[0].startswith("hand,weight,best,fold,stand,sixth,exchange:1")


def test_play_tells_what_was_wrong_with_the_cards_to_exchange_and_enter_goes_back() -> None:
    # seed 3 deals Q-7-3-T-T
    answers = "e\n9\n2 2\nAh\nzz\n\nf\nn\n"
    result = runner.invoke(app, ["play", "--seed", "3"], input=answers)
    assert result.exit_code == 0, result.output
    assert "9 is not a position: use 1 to 5" in result.output
    assert "a card is named twice" in result.output
    assert "Ah is not one of your cards" in result.output
    assert "name cards like 7c or Qh" in result.output
    assert "exchange fee" not in result.output  # Enter went back: nothing was exchanged
    assert "You leave with 990 chips (-10)" in result.output  # the fold lost the Ante only
