"""`croupier bench eval` prints a rate for every dtype and layout, and phevaluator's."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from croupier.cli.app import build_app


def test_bench_eval_reports_every_dtype_layout_and_the_peer() -> None:
    result = CliRunner().invoke(
        build_app(), ["bench", "eval", "--hands", "3000", "--scalar-hands", "300", "--repeats", "1"]
    )
    assert result.exit_code == 0, result.output
    rates = {
        name.strip(): float(rate.replace(",", ""))
        for name, rate in re.findall(r"│ ([^│]+?)\s*│\s*([\d,]+) │", result.output)
    }
    dtypes = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
    expected = [f"evaluate_batch, {d}" for d in dtypes] + [
        "evaluate_batch, int64, table[:, 1:8] of (N, 9)",
        "evaluate_batch, int8, transposed (7, N)",
        "evaluate_batch, >i4, big-endian",
        "phevaluator.evaluate_7cards (baseline)",
        "evaluate_ids(ids) -> int",
    ]
    for name in expected:
        assert rates.get(name, 0) > 0, (name, result.output)
    assert re.search(
        r"slowest of uint8, int32, int64: evaluate_batch, \w+ at [\d,.]+×", result.output
    )
