"""The exact figures of the engine's options that change Russian Poker's main game.

``data/exact.json`` holds the spec's default rules (:func:`.strategy.load_exact_figures`);
``data/exact_variants.json`` holds the same figures for a table that changes one analysed
rule (``failed_buy_ante = "paid"``, the Ante paid on a win, an exchange range), each written
by ``croupier russian analyze --exact --rule K=V --json F`` and gathered with the command and
the time the run took. Each entry also keeps a few classes drawn from its run (the hand, the
chosen first decision and its exact value, and standing's exact value) so that tests can value
them again independently. ``data/exact_variants_strategy.npz`` holds each entry's strategy: the
first-round option of every suit class, in the classes' order of the default's
``exact_strategy.npz`` (:meth:`ExactVariant.strategy`; about 6 kB an option: the choices'
values and leads, four times as large, are not shipped; the entry's command with
``--strategy-out FILE`` writes them).

An exchange range needs no run of its own when it holds every exchange size the optimal
strategy of the same rules uses: the optimum over fewer options is at most the optimum over
all, and the strategy that reaches it is still allowed, so the figures are the same
(:func:`exact_figures_for`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from croupier.analysis.russian.exact import OPTION_NAMES, ClassSolution, exact_rules
from croupier.analysis.russian.results import ExactResult
from croupier.analysis.russian.strategy import (
    ExactFigures,
    ExactStrategy,
    figures_from_json,
    load_exact_figures,
    load_exact_strategy,
)
from croupier.cards import DECK
from croupier.games.russian.config import RussianConfig

__all__ = [
    "ExactVariant",
    "exact_figures_for",
    "figures_from_json",
    "load_exact_variants",
    "sample_classes",
    "variant_name",
]

_KINDS = ("stand", "sixth card", *(f"exchange {k}" for k in range(1, 6)))


@dataclass(frozen=True, slots=True, kw_only=True)
class ExactVariant:
    """One option's exact figures."""

    option: str
    """The setting changed (``"failed_buy_ante"``, ``"exchange_min"``, ...)."""
    value: Any
    """Its value for this entry."""
    figures: ExactFigures
    command: str
    """The command that computes it."""
    seconds: float | None
    """Wall time of the run (``None``: derived from another run without summing)."""
    note: str
    samples: tuple[dict[str, str], ...]
    """Classes drawn from the run: ``hand``, ``choice`` (an :data:`.exact.OPTION_NAMES`
    column over the hand's cards sorted by id), ``value`` and ``stand`` (exact fractions)."""

    @property
    def config(self) -> RussianConfig:
        """The analysed table."""
        return RussianConfig.from_dict(self.figures.rules)

    @property
    def name(self) -> str:
        """``option=value`` (the value in JSON)."""
        return variant_name(self.option, self.value)

    def strategy(self) -> ExactStrategy:
        """The option's optimal first-round strategy, every suit class (shipped; its
        ``value`` and ``lead`` are not: NaN)."""
        return _variant_strategies()[self.name]


def variant_name(option: str, value: Any) -> str:
    """How an entry is named in the strategy file: ``option=`` its value in JSON."""
    return f"{option}={json.dumps(value, sort_keys=True)}"


@cache
def _variant_strategies() -> dict[str, ExactStrategy]:
    default = load_exact_strategy()
    source = resources.files("croupier.analysis.russian") / "data" / "exact_variants_strategy.npz"
    out = {}
    with resources.as_file(source) as path, np.load(path) as data:
        for i, name in enumerate(data["names"].tolist()):
            out[str(name)] = ExactStrategy(
                codes=default.codes,
                weights=default.weights,
                choice=data["choice"][i],
                value=np.full(len(default.codes), np.nan),
                lead=np.full(len(default.codes), np.nan),
                rules=str(data["rules"][i]),
            )
    return out


@cache
def load_exact_variants() -> tuple[ExactVariant, ...]:
    """The shipped figures of the options (``data/exact_variants.json``)."""
    source = resources.files("croupier.analysis.russian") / "data" / "exact_variants.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    return tuple(
        ExactVariant(
            option=entry["option"],
            value=entry["value"],
            figures=figures_from_json(entry),
            command=entry["command"],
            seconds=entry["run_seconds"],
            note=entry.get("note", ""),
            samples=tuple(entry.get("samples", ())),
        )
        for entry in data["variants"]
    )


def _used_sizes(figures: ExactFigures) -> set[int]:
    return {int(name.split()[1]) for name in figures.decisions if name.startswith("exchange ")}


def exact_figures_for(config: RussianConfig) -> ExactFigures | None:
    """The shipped exact figures of a table's rules, or ``None`` when none were computed.

    A table matches a shipped run when every rule the analysis reads is the run's, except
    that its exchange range may differ as long as it holds every exchange size the run's
    optimal strategy uses (the module's docstring). The rules the analysis does not read
    (limits, the payout cap, boxes, the Bonus) do not matter; a table with ``dealer_upcard``
    has no figure.
    """
    if config.dealer_upcard:
        return None
    try:
        rules = exact_rules(config)
    except ValueError:
        return None
    runs = [load_exact_figures(), *(v.figures for v in load_exact_variants())]
    for figures in runs:
        theirs = exact_rules(RussianConfig.from_dict(figures.rules))
        if theirs.key != rules.key:
            continue
        low, high = rules.exchange_min, rules.exchange_max
        same_range = (theirs.exchange_min, theirs.exchange_max) == (low, high)
        if same_range or all(low <= k <= high for k in _used_sizes(figures)):
            return figures
    return None


def sample_classes(
    solution: ClassSolution, result: ExactResult, *, seed: int = 32
) -> list[dict[str, str]]:
    """One class drawn by weight for each first decision the strategy takes besides
    folding: its hand, choice, exact value and standing's exact value."""
    rng = np.random.default_rng(seed)
    choice = result.choice
    kind = np.array([-1 if o == 0 else 0 if o == 1 else 1 if o == 2 else 1 + (o - 2).bit_count()
                     for o in choice.tolist()])  # fmt: skip
    weights = solution.classes.weights.astype(float)
    out = []
    for k, name in enumerate(_KINDS):
        rows = np.flatnonzero(kind == k)
        if not len(rows):
            continue
        row = int(rng.choice(rows, p=weights[rows] / weights[rows].sum()))
        o = int(choice[row])
        out.append(
            {
                "decision": name,
                "hand": " ".join(str(DECK[int(c)]) for c in solution.classes.cards[row]),
                "choice": OPTION_NAMES[o],
                "value": str(solution.total(row, o)),
                "stand": str(solution.total(row, 1)),
            }
        )
    return out
