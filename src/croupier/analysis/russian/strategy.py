"""The exact optimal strategy shipped as data: the first-round option of every class.

``data/exact_strategy.npz`` holds, for each of the 134,459 suit classes of first hands (the
spec's default rules): its code (five card ids sorted, six bits each, the smallest image
under the suit permutations), its weight, the best option's column (:data:`.exact.OPTION_NAMES`)
and value, and how far ahead of the runner-up it is. ``croupier russian analyze --exact
--strategy-out FILE`` writes such a file for any rules; ``load_exact_strategy()`` reads the
shipped one, and
``strategy.decide("Ah Kd 7c 5s 2h")`` names the best first-round option of a hand.
``data/exact.json`` holds the run's figures as exact fractions (``load_exact_figures()``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import permutations
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.russian.exact import OPTION_NAMES, ClassSolution
from croupier.analysis.russian.results import ExactResult
from croupier.analysis.russian.summary import ClassTable
from croupier.cards import Card, parse_cards
from croupier.errors import ConfigError, InvalidCardsError
from croupier.games.russian.config import RussianConfig

if TYPE_CHECKING:
    from croupier.analysis.russian import HouseEdge

__all__ = [
    "ExactFigures",
    "ExactStrategy",
    "class_code",
    "load_exact_figures",
    "load_exact_strategy",
    "save_exact_strategy",
    "simulate_exact_strategy",
    "strategy_arrays",
]

_PERMS = tuple(permutations(range(4)))


def class_code(ids: Iterable[int]) -> int:
    """The class code of five card ids (the smallest image under the 24 suit permutations)."""
    cards = list(ids)
    best = 1 << 62
    for perm in _PERMS:
        mapped = sorted((c & ~3) | perm[c & 3] for c in cards)
        code = 0
        for c in mapped:
            code = (code << 6) | c
        best = min(best, code)
    return best


@dataclass(frozen=True, slots=True)
class ExactStrategy:
    """The first-round option of every class, with its value and its lead."""

    codes: npt.NDArray[np.int64]
    weights: npt.NDArray[np.int64]
    choice: npt.NDArray[np.int8]
    value: npt.NDArray[np.float64]
    """The chosen option's value, Antes (stored to single precision: the exact figures are
    the run's, :func:`load_exact_figures`)."""
    lead: npt.NDArray[np.float64]
    """How much better the choice is than any other option (at least; Antes, single
    precision; 0 for a tie)."""
    rules: str
    """The analysed rules (JSON)."""

    options: tuple[str, ...] = OPTION_NAMES

    def index(self, hand: str | Iterable[Card]) -> int:
        """The row of a hand's class.

        Raises:
            InvalidCardsError: not five distinct cards.
        """
        cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
        ids = sorted(c.id for c in cards)
        if len(ids) != 5 or len(set(ids)) != 5:
            raise InvalidCardsError(f"a first hand is five distinct cards, not {len(ids)}")
        row = int(np.searchsorted(self.codes, class_code(ids)))
        return row

    def decide(self, hand: str | Iterable[Card]) -> str:
        """The best first-round option for ``hand``, with discards named by the hand's own
        cards sorted by id (as :data:`.exact.OPTION_NAMES`)."""
        cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
        column = int(self.choice[self.index(cards)])
        if column < 3:
            return OPTION_NAMES[column]
        # the class's discard mask is over the representative; map it to this hand
        return f"exchange:{_own_mask(sorted(c.id for c in cards), column - 2)}"


def _own_mask(ids: list[int], mask: int) -> int:
    """Translate a discard mask over the class representative to the hand ``ids``."""
    best = None
    for perm in _PERMS:
        mapped = [(c & ~3) | perm[c & 3] for c in ids]
        order = sorted(range(5), key=lambda j: mapped[j])
        code = 0
        for j in order:
            code = (code << 6) | mapped[j]
        if best is None or code < best[0]:
            best = (code, order)
    assert best is not None
    out = 0
    for position, j in enumerate(best[1]):
        if mask >> position & 1:
            out |= 1 << j
    return out


def strategy_arrays(solution: ClassSolution, result: ExactResult) -> dict[str, Any]:
    """An exact run's strategy as the arrays of a strategy file, its classes in code order
    (the same order for every rule set: the classes are the full deck's)."""
    cards = solution.classes.cards
    codes = np.zeros(len(cards), dtype=np.int64)
    for j in range(5):
        codes = (codes << 6) | cards[:, j]
    order = np.argsort(codes)
    rows = np.arange(len(cards))
    value = solution.bounds[rows, result.choice, 0]
    others = solution.bounds[:, :, 1].copy()
    others[rows, result.choice] = -np.inf
    others[:, ~solution.rules.allowed] = -np.inf
    lead = value - others.max(axis=1)
    return {
        "code_steps": np.diff(codes[order], prepend=0).astype(np.uint32),
        "weights": solution.classes.weights[order].astype(np.uint8),
        "choice": result.choice[order].astype(np.int8),
        "value": value[order].astype(np.float32),
        "lead": lead[order].astype(np.float32),
        "rules": np.array(solution.rules.key),
    }


def save_exact_strategy(path: Path, solution: ClassSolution, result: ExactResult) -> None:
    """Write the strategy of an exact run."""
    with open(path, "wb") as f:
        np.savez_compressed(f, **strategy_arrays(solution, result))


@cache
def _shipped() -> ExactStrategy:
    source = resources.files("croupier.analysis.russian") / "data" / "exact_strategy.npz"
    with resources.as_file(source) as path:
        return _read(path)


def _read(path: Path) -> ExactStrategy:
    with np.load(path) as data:
        return ExactStrategy(
            codes=np.cumsum(data["code_steps"], dtype=np.int64),
            weights=data["weights"].astype(np.int64),
            choice=data["choice"],
            value=data["value"].astype(np.float64),
            lead=data["lead"].astype(np.float64),
            rules=str(data["rules"]),
        )


def load_exact_strategy(path: Path | None = None) -> ExactStrategy:
    """The shipped strategy (the spec's rules), or the one in ``path``.

    Raises:
        ConfigError: the file cannot be read as a strategy.
    """
    if path is None:
        return _shipped()
    try:
        return _read(path)
    except (OSError, KeyError, ValueError) as exc:
        raise ConfigError(f"{path} is not an exact strategy file: {exc}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class ExactFigures:
    """The shipped figures of the exact run of the spec's default rules (``data/exact.json``,
    written by ``croupier russian analyze --exact --json``)."""

    exact: bool
    """Whether the lower and upper bounds of the optimal return met."""
    figures: dict[str, Fraction]
    """Every figure by name (``"house edge per Ante"``, ``"EV per Ante (player)"``, ...)."""
    ev_upper: Fraction
    decisions: dict[str, tuple[Fraction, Fraction]]
    """Each first decision's share of hands and contribution to the EV per Ante."""
    rules: dict[str, object]

    @property
    def house_edge(self) -> Fraction:
        """House edge per Ante of the optimal strategy."""
        return self.figures["house edge per Ante"]


@cache
def load_exact_figures() -> ExactFigures:
    """The shipped exact figures (the spec's default rules, one box, no payout cap)."""
    source = resources.files("croupier.analysis.russian") / "data" / "exact.json"
    return figures_from_json(json.loads(source.read_text(encoding="utf-8")))


def figures_from_json(data: dict[str, Any]) -> ExactFigures:
    """:class:`ExactFigures` from what ``--json`` writes (the shipped figures, each option's)."""
    return ExactFigures(
        exact=bool(data["exact"]),
        figures={k: Fraction(v["fraction"]) for k, v in data["figures"].items()},
        ev_upper=Fraction(data["ev_upper"]["fraction"]),
        decisions={
            d["decision"]: (Fraction(d["hands"]), Fraction(d["value"])) for d in data["decisions"]
        },
        rules=data["rules"],
    )


def simulate_exact_strategy(
    *,
    rounds: int,
    seed: int,
    config: RussianConfig | None = None,
    strategy: ExactStrategy | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> HouseEdge:
    """Deal ``rounds`` real rounds (shuffled decks, card removal) and play the exact
    strategy's first decision (default: the shipped one) in the simulator of
    :func:`croupier.analysis.russian.house_edge`. After the draw the simulator bets by the
    model's value (no card removal), never insures and buys the dealer's game by its exact
    value, so its edge estimates the exact strategy's up to the model's Bet decisions."""
    from croupier.analysis.russian import build_model, house_edge

    table = strategy or load_exact_strategy()
    model = build_model(config, on_progress=on_progress)
    empty = np.zeros((0, 0))
    classes = ClassTable(
        codes=table.codes,
        cards=empty.astype(np.int64),
        weights=table.weights,
        evs=empty,
        decisions=table.choice.astype(np.int64),
    )
    return house_edge(model, classes, rounds=rounds, seed=seed, on_progress=on_progress)
