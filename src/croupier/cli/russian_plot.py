"""The decision map of Russian Poker's exact strategy (`croupier russian analyze --exact
--plot FILE.png`): the first decision by the shape of the first five cards."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from croupier.analysis.russian.exact import ClassSolution
    from croupier.analysis.russian.results import ExactResult

__all__ = ["decision_map_png"]

COLOURS = (
    "#9e9e9e",  # fold
    "#2e7d32",  # stand
    "#6a1b9a",  # sixth card
    "#1565c0",  # exchange 1
    "#00838f",  # exchange 2
    "#ef6c00",  # exchange 3
    "#c62828",  # exchange 4
    "#212121",  # exchange 5
)
_RANKS = "23456789TJQKA"


def _grid(ax: Any, counts: Any, title: str, ylabel: str, xlabel: str, upper: bool) -> None:
    """One 13 x 13 panel: each cell coloured by its most common decision, shaded by how
    dominant it is; ranks high to low from the top left."""
    from matplotlib.colors import to_rgb

    image = np.ones((13, 13, 3))
    total = counts.sum(axis=2)
    for i in range(13):
        for j in range(13):
            r, c = 12 - i, 12 - j
            if total[r, c] == 0:
                continue
            kind = int(np.argmax(counts[r, c]))
            share = counts[r, c, kind] / total[r, c]
            colour = np.array(to_rgb(COLOURS[kind]))
            image[i, j] = 1 - (1 - colour) * (0.35 + 0.65 * share)
            if share < 0.99:
                ax.text(j, i, f"{100 * share:.0f}", ha="center", va="center", fontsize=5)
    ax.imshow(image, interpolation="nearest")
    ax.set_xticks(range(13), list(reversed(_RANKS)), fontsize=7)
    ax.set_yticks(range(13), list(reversed(_RANKS)), fontsize=7)
    ax.set_title(title, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_xlabel(xlabel, fontsize=8)
    del upper


def decision_map_png(solution: ClassSolution, result: ExactResult, path: Path) -> None:
    """Draw the decision map: no-pair hands by their two highest ranks, one pair by its
    rank and highest kicker, and two pair or better by category."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    from croupier.analysis.russian.summary import KINDS, MADE, decision_map

    dmap = decision_map(solution.classes.cards, solution.classes.weights, result.choice)
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.6), gridspec_kw={"width_ratios": [1, 1, 0.8]})
    _grid(axes[0], dmap.no_pair, "No pair: highest and second rank", "highest", "second", True)
    _grid(axes[1], dmap.pairs, "One pair: its rank and highest kicker", "pair", "kicker", False)
    made = dmap.made / np.maximum(dmap.made.sum(axis=1, keepdims=True), 1)
    left = np.zeros(len(MADE))
    for kind in range(len(KINDS)):
        axes[2].barh(MADE, made[:, kind], left=left, color=COLOURS[kind])
        left += made[:, kind]
    axes[2].invert_yaxis()
    axes[2].set_xlim(0, 1)
    axes[2].set_title("Two pair or better (share of hands)", fontsize=9)
    axes[2].tick_params(labelsize=7)
    fig.legend(
        handles=[Patch(color=c, label=k) for c, k in zip(COLOURS, KINDS, strict=True)],
        loc="lower center",
        ncol=8,
        fontsize=8,
        frameon=False,
    )
    ev = float(result.ev)
    fig.suptitle(
        "Russian Poker, the exact optimal first decision "
        f"(house edge {-100 * ev:.4f}% per Ante); cell numbers: the main decision's share "
        "when below 100%",
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0.06, 1, 0.95))
    fig.savefig(path, dpi=150)
    plt.close(fig)
