"""`croupier uth analyze` / `simulate` through a Typer app that registers them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from croupier.cli.uth_analysis import register


@pytest.fixture
def app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def test_simulate_prints_and_plots(app: typer.Typer, tmp_path: Path) -> None:
    plot = tmp_path / "convergence.png"
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "--hands",
            "200000",
            "--strategy",
            "simple",
            "--seed",
            "4",
            "--task-rounds",
            "50000",
            "--plot",
            str(plot),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "return per Ante" in result.output and "rounds/s" in result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_simulate_refuses_unknown_strategy(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["simulate", "--hands", "10", "--strategy", "lucky"])
    assert result.exit_code != 0


def test_analyze_needs_exact(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["analyze"])
    assert result.exit_code == 2


@pytest.mark.slow
def test_analyze_exact_writes_json_and_png(app: typer.Typer, tmp_path: Path) -> None:
    out, png = tmp_path / "uth.json", tmp_path / "uth.png"
    result = CliRunner().invoke(app, ["analyze", "--exact", "--json", str(out), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert round(data["house_edge"], 5) == 0.02185
    assert len(data["preflop"]) == 169
    assert {e["hand"]: e["decision"] for e in data["preflop"]}["K2s"] == "4x"
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_simulate_on_a_local_dask_cluster(app: typer.Typer) -> None:
    args = ["simulate", "--hands", "100000", "--strategy", "simple", "--seed", "8"]
    args += ["--task-rounds", "25000"]
    alone = CliRunner().invoke(app, args)
    dask = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert alone.exit_code == 0 and dask.exit_code == 0, dask.output

    def estimate(output: str) -> str:
        return next(line for line in output.splitlines() if "return per Ante" in line)

    assert estimate(alone.output) == estimate(dask.output)
    assert "Dask local cluster of 2 workers" in dask.output


def test_config_pay_tables(app: typer.Typer, tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[trips_paytable]\nthree_of_a_kind = "3:1"\n', encoding="utf-8")
    result = CliRunner().invoke(
        app, ["simulate", "--hands", "20000", "--strategy", "simple", "--config", str(config)]
    )
    assert result.exit_code == 0, result.output
    bad = tmp_path / "bad.toml"
    bad.write_text('[trips_paytable]\nthree_of_a_kind = "x"\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", "--hands", "10", "--config", str(bad)])
    assert result.exit_code != 0


def test_analyze_takes_the_play_multiples_of_a_table_config(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact analysis of a table with other Play multiples gets them (docs/rules.md); the
    simulator, which plays the spec's, refuses such a table instead of a wrong figure."""
    import croupier.analysis.uth as uth
    from croupier.games.uth.config import PlayMultiples

    config = tmp_path / "table.toml"
    config.write_text("[play_multiples]\npreflop = [3]\n", encoding="utf-8")
    seen: list[PlayMultiples] = []

    def fake(**kwargs: object) -> object:
        seen.append(kwargs["multiples"])  # type: ignore[arg-type]
        raise SystemExit(0)

    monkeypatch.setattr(uth, "analyze_exact", fake)
    CliRunner().invoke(app, ["analyze", "--exact", "--config", str(config)])
    assert seen == [PlayMultiples(preflop=(3,))]
    refused = CliRunner().invoke(app, ["simulate", "--hands", "10", "--config", str(config)])
    assert refused.exit_code != 0 and "Play multiples" in refused.output
