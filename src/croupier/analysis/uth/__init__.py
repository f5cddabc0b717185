"""Ultimate Texas Hold'em mathematics: exact analysis, strategy advisor, simulator.

>>> advise("AsKs").best
'4x'
"""

from __future__ import annotations

from croupier.analysis.uth.advisor import Advice, Option, advise
from croupier.analysis.uth.exact import (
    ExactResult,
    Outcome,
    PreflopEntry,
    analyze_exact,
    trips_return,
)
from croupier.analysis.uth.paytables import DEFAULT_BLIND, DEFAULT_TRIPS, PayTable, from_engine
from croupier.analysis.uth.simulate import STRATEGIES, SimulationResult, simulate

__all__ = [
    "DEFAULT_BLIND",
    "DEFAULT_TRIPS",
    "STRATEGIES",
    "Advice",
    "ExactResult",
    "Option",
    "Outcome",
    "PayTable",
    "PreflopEntry",
    "SimulationResult",
    "advise",
    "analyze_exact",
    "from_engine",
    "simulate",
    "trips_return",
]
