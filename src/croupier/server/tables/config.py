"""Table settings, read from a TOML file (``croupier serve --config tables.toml``).

Each ``[[tables]]`` entry names a table and its game; ``[tables.rules]`` goes to the game's
own config (for UTH, :meth:`croupier.games.uth.config.UthConfig.from_dict`). See
``croupier/server/default_tables.toml``.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from croupier.errors import ConfigError

__all__ = ["DEFAULT_TABLES", "TableConfig", "load_tables", "parse_tables"]

DEFAULT_TABLES = "default_tables.toml"


class TableConfig(BaseModel):
    """One table: what game, its name, its timers; the game's own rules in ``rules``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")
    """The table's id in URLs (``/ws/tables/<name>``)."""
    game: str = Field(pattern=r"^[a-z]+$")
    title: str = ""
    enabled: bool = True
    betting_seconds: float = Field(default=15.0, gt=0, le=3600)
    """How long betting stays open after the first bet of a round."""
    decision_seconds: float = Field(default=20.0, gt=0, le=3600)
    """How long each decision phase waits before timing out the seats that have not acted
    (spec/uth.md "Dealing and decisions": a seat that does not act checks, or folds at the
    river)."""
    pause_seconds: float = Field(default=5.0, ge=0, le=3600)
    """The pause after a result before the next round can open."""
    idle_rounds: int = Field(default=3, ge=1, le=1000)
    """A seat whose player lets this many rounds pass without playing is freed (issue 13,
    seat squatting): a round played without a bet from the seat, or while no round is played
    a ``betting_seconds`` window without one. At a cash table: a hand not dealt in (no chips,
    sitting out) or timed out. Tables without a seat limit (the live table) never free
    seats."""
    time_bank_seconds: float = Field(default=0.0, ge=0, le=3600)
    """Cash tables: each seat's time bank, the seconds it may take beyond ``decision_seconds``
    over its whole stay at the table (used when a decision's time runs out; what is not used
    is kept). 0: none."""
    rebuy_seconds: float = Field(default=60.0, ge=0, le=3600)
    """Cash tables: how long the seat of a player whose stack a hand emptied is kept for a
    rebuy (offered at once) before it is freed."""
    win_alert: int | None = Field(default=None, gt=0)
    """A player's win in one round at or above this (minor units) is a significant event
    (``None``: the server's ``win_alert`` setting)."""
    rules: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _title(self) -> TableConfig:
        if not self.title:
            object.__setattr__(self, "title", self.name)
        return self


def parse_tables(text: str, *, source: str = "tables.toml") -> list[TableConfig]:
    """Parse a tables TOML document.

    Raises:
        ConfigError: not TOML, no tables, an invalid entry, or a name used twice.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source} is not valid TOML: {exc}") from None
    entries = data.get("tables")
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{source} has no [[tables]] entries")
    tables: list[TableConfig] = []
    for index, entry in enumerate(entries):
        try:
            tables.append(TableConfig.model_validate(entry))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ConfigError(
                f"{source} table #{index + 1}: {where}: {first['msg']}".lower()
            ) from None
    names = [t.name for t in tables]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ConfigError(f"{source} names tables twice: {', '.join(duplicates)}")
    return tables


def load_tables(path: Path | None = None) -> list[TableConfig]:
    """The tables in ``path``, or the default tables shipped in the package."""
    if path is None:
        text = resources.files("croupier.server").joinpath(DEFAULT_TABLES).read_text("utf-8")
        return parse_tables(text, source=DEFAULT_TABLES)
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read tables file {str(path)!r}: {exc.strerror}") from None
    return parse_tables(text, source=str(path))
