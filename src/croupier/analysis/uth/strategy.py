"""The optimal strategy for the default pay tables, shipped as package data.

``data/preflop.json`` (the 169 pre-flop EVs as exact fractions) and ``data/flop_bet.npz`` (for
each canonical flop and two-card hand, whether 2x is optimal; bit-packed) are written by
:func:`write_strategy_data` from a full :func:`~croupier.analysis.uth.analyze_exact` run
(``python benchmarks/uth_exact.py --write-data``); a test checks they match a fresh run.
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from croupier.analysis.uth._symmetry import class_name, deck_symmetry
from croupier.analysis.uth.exact import FULL_DECK, ExactResult, PreflopEntry
from croupier.errors import ConfigError

__all__ = [
    "DATA_DIR",
    "load_flop_bet",
    "load_preflop",
    "preflop_codes",
    "write_strategy_data",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
"""Where the package data lives in a source checkout."""

_CODES = {"4x": 4, "3x": 3, "check": 0}


def write_strategy_data(result: ExactResult, directory: Path = DATA_DIR) -> list[Path]:
    """Write the pre-flop table and the flop decisions of a full-deck run; returns the paths."""
    if result.flop_bet.shape != (1755, 1326):
        raise ConfigError("strategy data comes from a full-deck run")
    directory.mkdir(parents=True, exist_ok=True)
    preflop = [
        {
            "hand": e.hand,
            "ev_4x": str(e.ev_4x),
            "ev_3x": str(e.ev_3x),
            "ev_check": str(e.ev_check),
            "decision": e.decision,
        }
        for e in result.preflop
    ]
    summary = {
        "ev_per_ante": str(result.ev_per_ante),
        "average_total_bet": str(result.average_total_bet),
        "trips": str(result.trips),
        "preflop": preflop,
    }
    json_path = directory / "preflop.json"
    json_path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    npz_path = directory / "flop_bet.npz"
    np.savez_compressed(npz_path, bits=np.packbits(result.flop_bet.astype(np.uint8), axis=None))
    return [json_path, npz_path]


def _data(name: str) -> bytes:
    return resources.files("croupier.analysis.uth").joinpath("data", name).read_bytes()


@cache
def load_summary() -> dict[str, object]:
    """The shipped figures (exact strings) and pre-flop table."""
    loaded: dict[str, object] = json.loads(_data("preflop.json"))
    return loaded


@cache
def load_preflop() -> tuple[PreflopEntry, ...]:
    """The 169 pre-flop entries for the default pay tables."""
    rows = load_summary()["preflop"]
    assert isinstance(rows, list)
    return tuple(
        PreflopEntry(
            hand=row["hand"],
            ev_4x=Fraction(row["ev_4x"]),
            ev_3x=Fraction(row["ev_3x"]),
            ev_check=Fraction(row["ev_check"]),
            decision=row["decision"],
        )
        for row in rows
    )


@cache
def load_flop_bet() -> npt.NDArray[np.uint8]:
    """Shape (1755, 1326): 1 where 2x is the optimal flop action (default pay tables)."""
    with np.load(io.BytesIO(_data("flop_bet.npz"))) as data:
        bits = data["bits"]
    flat = np.unpackbits(bits)[: 1755 * 1326]
    return flat.reshape(1755, 1326).astype(np.uint8)


def preflop_codes(entries: tuple[PreflopEntry, ...]) -> npt.NDArray[np.int64]:
    """Per two-card hand of the full deck (pair index): 4, 3 or 0 (check)."""
    by_hand = {e.hand: _CODES[e.decision] for e in entries}
    sym = deck_symmetry(FULL_DECK)
    return np.array([by_hand[class_name(int(c))] for c in sym.pair_class], dtype=np.int64)
