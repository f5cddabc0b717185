"""Every table setting of a game from the command line, one way for every command:
``--config FILE`` (a TOML table of settings) and ``--rule KEY=VALUE`` (repeatable).

The settings go to the game's own ``from_dict`` (``UthConfig``, ``RussianConfig``,
``HoldemTableConfig``), so the command line takes exactly what a server table takes in its
``[tables.rules]``, checked the same way. ``--config`` reads a file of settings: the keys at
its top level, or under a ``[uth]`` / ``[russian]`` / ``[holdem]`` table, or the ``rules`` of
the first ``[[tables]]`` entry of the game in a server's tables TOML. Each ``--rule`` then
sets one key; the value is read as TOML (``500``, ``true``, ``"seed000"``, ``[4, 3]``,
``{flop = [2]}``), else taken as text; a dotted key sets a key inside a table
(``--rule bonus_paytable.flush=60``).

>>> read_rules(None, ["ante_pays_on_win=true", "exchange_min=2", "bonus_paytable.flush=60"],
...            game="russian")
{'ante_pays_on_win': True, 'exchange_min': 2, 'bonus_paytable': {'flush': 60}}
>>> read_rules(None, ["dealing=seed000", "play_multiples.preflop=[3]"], game="uth")
{'dealing': 'seed000', 'play_multiples': {'preflop': [3]}}
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from croupier.errors import ConfigError

__all__ = ["ConfigFile", "Rules", "build_config", "read_rules"]

ConfigFile = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="A TOML file of table settings (the game's [tables.rules] keys, or a [uth] / "
        "[russian] / [holdem] table, or a server's tables TOML).",
    ),
]
Rules = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        help='One table setting KEY=VALUE, the value in TOML (500, true, "seed000", '
        "[4, 3]); a dotted KEY sets a key inside a table. Repeatable; applied after --config.",
    ),
]

_C = TypeVar("_C")


def _from_file(path: Path, game: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise typer.BadParameter(f"{path}: {exc.strerror}", param_hint="--config") from exc
    except tomllib.TOMLDecodeError as exc:
        raise typer.BadParameter(f"{path} is not TOML: {exc}", param_hint="--config") from exc
    if isinstance(data.get(game), dict):
        return dict(data[game])
    tables = data.get("tables")
    if isinstance(tables, list):
        for table in tables:
            if isinstance(table, dict) and table.get("game") == game:
                return dict(table.get("rules", {}))
        raise typer.BadParameter(f"{path} has no {game} table", param_hint="--config")
    return data


def _value(text: str) -> Any:
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def read_rules(
    config: Path | None,
    rules: list[str] | None,
    *,
    game: str,
    base: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The settings of ``base`` (a command's own options), then ``--config``, then each
    ``--rule``, as a mapping for the game's ``from_dict``.

    Raises:
        typer.BadParameter: a file that cannot be read, a rule that is not KEY=VALUE.
    """
    data = dict(base or {})
    if config is not None:
        data.update(_from_file(config, game))
    for rule in rules or ():
        key, sep, text = rule.partition("=")
        path = [part.strip() for part in key.split(".")]
        if not sep or not all(path):
            raise typer.BadParameter(f"{rule!r} is not KEY=VALUE", param_hint="--rule")
        target = data
        for part in path[:-1]:
            inner = target.get(part)
            if not isinstance(inner, dict):
                inner = target[part] = {} if inner is None else _copy(inner, part, rule)
            target = inner
        target[path[-1]] = _value(text.strip())
    return data


def _copy(value: object, part: str, rule: str) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return dict(value)
    raise typer.BadParameter(f"{rule!r}: {part} is not a table of settings", param_hint="--rule")


def build_config(from_dict: Callable[[dict[str, Any]], _C], data: dict[str, Any]) -> _C:
    """``from_dict(data)``, its refusal worded as a bad command-line parameter.

    Raises:
        typer.BadParameter: a setting the game does not know or a value it refuses.
    """
    try:
        return from_dict(data)
    except ConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="--config / --rule") from exc
    except TypeError as exc:  # a value of the wrong kind inside a setting's table
        raise typer.BadParameter(str(exc), param_hint="--config / --rule") from exc
