"""The self-play benchmark's three engines play one and the same game.

``benchmarks/holdem_selfplay.py`` compares croupier with pokerfast's FastHand and PokerKit; its
``check_same_workload`` deals the same cards to all three and drives them with one decision
stream, asserting the same player to act, the same fold and raise options and raise bounds at
every decision, and the same final stacks.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pokerkit")
pytest.importorskip("pokerfast")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "holdem_selfplay.py"


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("holdem_selfplay", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_three_engines_agree_decision_by_decision() -> None:
    decisions = _benchmark().check_same_workload(150, seed=19)
    assert decisions > 150 * 5  # a random-legal 6-max hand takes about ten decisions


@pytest.mark.slow
def test_three_engines_agree_on_many_hands() -> None:
    assert _benchmark().check_same_workload(3000, seed=1919) > 3000 * 5


def test_the_check_catches_a_different_game(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _benchmark()
    from croupier.games.holdem import HoldemConfig, ReopenRule

    # blinds 1/3 for croupier alone: the check must notice at the first decision
    monkeypatch.setattr(
        module,
        "CONFIG",
        HoldemConfig.cash(players=6, small_blind=1, big_blind=3, reopen=ReopenRule.POKERKIT),
    )
    with pytest.raises(AssertionError):
        module.check_same_workload(20, seed=19)
