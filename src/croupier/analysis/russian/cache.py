"""A computed Russian Poker strategy kept in a file (NumPy ``.npz``), so that a second
analysis of the same table skips the class table's hours of work.

The file holds the :class:`~croupier.analysis.russian.ClassTable` and a key naming the table
options it was computed for; :func:`load_strategy` refuses a file computed for other options
or that does not hold every hand class.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from croupier.analysis.russian import ClassTable, Model
from croupier.errors import ConfigError
from croupier.games.russian import RussianConfig

__all__ = ["load_strategy", "save_strategy", "strategy_key"]

_NOT_STRATEGY = frozenset(
    {"ante_min", "ante_max", "bonus_min", "bonus_max", "max_players", "boxes"}
)
"""Settings that do not change how one box is best played."""


def strategy_key(config: RussianConfig) -> str:
    """The table options a strategy depends on, as canonical text.

    >>> strategy_key(RussianConfig()) == strategy_key(RussianConfig(ante_max=500))
    True
    >>> strategy_key(RussianConfig()) == strategy_key(RussianConfig(exchange_min=2))
    False
    """
    options = {k: v for k, v in config.to_dict().items() if k not in _NOT_STRATEGY}
    return json.dumps(options, sort_keys=True)


def save_strategy(path: Path, classes: ClassTable, config: RussianConfig) -> None:
    """Write ``classes``, computed under ``config``, to ``path``."""
    with open(path, "wb") as f:
        np.savez(
            f,
            codes=classes.codes,
            cards=classes.cards,
            weights=classes.weights,
            evs=classes.evs,
            decisions=classes.decisions,
            key=np.array(strategy_key(config)),
        )


def load_strategy(path: Path, model: Model) -> ClassTable:
    """The strategy kept in ``path``, for ``model``'s table.

    Raises:
        ConfigError: the file was computed for other table options, or does not hold every
            hand class of the model.
        OSError: the file cannot be read.
    """
    with np.load(path) as data:
        if str(data["key"]) != strategy_key(model.config):
            raise ConfigError(f"{path} was computed for other table options")
        classes = ClassTable(
            codes=data["codes"],
            cards=data["cards"],
            weights=data["weights"],
            evs=data["evs"],
            decisions=data["decisions"],
        )
    if not np.array_equal(classes.codes, np.unique(model.codes)):
        raise ConfigError(f"{path} does not hold the 134,459 hand classes")
    return classes
