"""Caribbean Stud Poker mathematics: the exact analysis, the strategy advisor, the simulator.

>>> advise("AsKdQh9c7d", "Ac").best
'raise'
"""

from __future__ import annotations

from croupier.analysis.caribbean.advisor import Advice, Option, advise
from croupier.analysis.caribbean.exact import (
    FULL_DECK,
    STRATEGIES,
    ExactResult,
    Strategy,
    analyze_exact,
)
from croupier.analysis.caribbean.progressive import progressive_return
from croupier.analysis.caribbean.simulate import SimulationResult, simulate
from croupier.analysis.caribbean.strategy import decision, load_summary

__all__ = [
    "FULL_DECK",
    "STRATEGIES",
    "Advice",
    "ExactResult",
    "Option",
    "SimulationResult",
    "Strategy",
    "advise",
    "analyze_exact",
    "decision",
    "load_summary",
    "progressive_return",
    "simulate",
]
