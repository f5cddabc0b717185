"""An operator's change to a table (``PATCH /api/operator/tables/{name}``), checked whole.

The request speaks the same words for every game (``min_bet``, ``max_bet``, ``max_payout``,
``paytables``, ``status``) and each game's own limits by the names its
:class:`~croupier.server.tables.games.OperatorSettings` (from the registry) gives them (a side
bet's ``<spot>_min`` and ``<spot>_max``); those settings map them to the game's own rules, so a
new game's side bet needs nothing here. A change is checked by
building the game's configuration from the new rules, as the table will, so a change the
table would refuse is refused here and nothing is stored. A UTH Blind table must also be one
the exact analysis can count (:func:`croupier.analysis.uth.paytables.check_exact_blind`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from croupier.errors import ConfigError, IllegalActionError
from croupier.server.errors import InvalidRequestError
from croupier.server.floor.models import TableStatus
from croupier.server.tables.config import TableConfig
from croupier.server.tables.games import OperatorSettings
from croupier.server.tables.registry import available_games, descriptor, operator_settings
from croupier.server.wallet.service import MAX_AMOUNT

__all__ = [
    "Patched",
    "TablePatch",
    "build",
    "check_rules",
    "limit_pairs",
    "limits",
    "patched",
    "paytables",
]

Limit = Annotated[int, Field(strict=True, ge=1, le=MAX_AMOUNT)]
Payout = Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT)]
Line = StrictStr | StrictInt | None


class TablePatch(BaseModel):
    """What an operator may change at run time (minor units; any subset).

    Besides the fields every game has, a game's own limits come by the names its
    :class:`~croupier.server.tables.games.OperatorSettings` gives them (``trips_min``...):
    any other field is taken here as an amount (a whole number of minor units from 1 to
    :data:`MAX_AMOUNT`, else refused naming it) and refused by :func:`patched` unless the
    table's game has it (``field_not_for_game``)."""

    model_config = ConfigDict(extra="allow")

    __pydantic_extra__: dict[str, Limit] = Field(init=False)

    min_bet: Limit | None = None
    max_bet: Limit | None = None
    max_payout: Payout | None = None
    """``0`` or ``null``: no cap."""
    paytables: dict[str, dict[str, Line]] | None = None
    """Lines to change: ``{"trips": {"flush": "6:1", "straight": 5}}`` (UTH odds as ``"n:d"``
    or a whole number to 1; ``null`` removes a UTH line); Russian Poker ``bet`` / ``bonus``
    lines take whole numbers to 1."""
    status: Literal["open", "closed"] | None = None


def build(config: TableConfig) -> Any:
    """The game's factory for ``config`` (what the table manager builds), with the exact
    analysis' own check of a UTH table's pay tables.

    Raises:
        InvalidRequestError: no engine for the game.
        ConfigError: rules the game refuses, or a UTH pay table the analysis cannot count.
    """
    builders = available_games()
    builder = builders.get(config.game)
    if builder is None:
        raise InvalidRequestError(
            f"game: {config.game!r} has no engine; the games are {sorted(builders)}",
            reason="game_unknown",
            params={"game": config.game, "games": sorted(builders)},
        )
    factory = builder(config)
    operator_settings(config.game).check_factory(factory)
    return factory


def check_rules(game: str, rules: Mapping[str, Any]) -> None:
    """``rules`` checked against the game's table settings (its descriptor's schema: kinds,
    bounds, choices), before the game's own configuration sees them.

    Raises:
        InvalidRequestError: a rule out of its bounds or of the wrong kind, naming it
            (``params.setting``).
    """
    described = descriptor(game)
    if described is not None:
        described.check_rules(rules)


def limits(game: str, described: Mapping[str, Any]) -> dict[str, Any]:
    """A table's limits under the request's names (``described``: the factory's
    ``describe()``)."""
    fields = operator_settings(game).limits
    return {field: described.get(rule) for field, rule in fields.items()}


def paytables(game: str, described: Mapping[str, Any]) -> dict[str, Any]:
    """A table's pay tables under the request's names (``described``: the factory's
    ``describe()``)."""
    names = operator_settings(game).paytables
    return {name: described.get(rule) for name, rule in names.items()}


@dataclass(frozen=True, slots=True, kw_only=True)
class Patched:
    """A change, checked: the new configuration and status, and what changed."""

    config: TableConfig
    status: TableStatus
    changed: dict[str, Any]
    """Each field given: ``{"from": old, "to": new}`` (pay tables: the lines)."""


def _merge_paytable(
    settings: OperatorSettings, name: str, current: Mapping[str, Any], lines: Mapping[str, Any]
) -> dict[str, Any]:
    known = set(current) if settings.paytable_lines is None else set(settings.paytable_lines)
    table = dict(current)
    for line, value in lines.items():
        key = line.strip().lower().replace(" ", "_").replace("-", "_")
        if key not in known:
            raise InvalidRequestError(
                f"paytables.{name}.{line}: not a line of the {name} pay table; the lines are "
                f"{sorted(known)}",
                reason="paytable_unknown_line",
                params={"paytable": name, "line": line},
            )
        if value is None:
            if not settings.lines_removable:
                raise InvalidRequestError(
                    f"paytables.{name}.{line}: every line of this pay table stays; pay 0 instead",
                    reason="paytable_line_required",
                    params={"paytable": name, "line": line},
                )
            table.pop(key, None)
        elif settings.whole_odds and not isinstance(value, int):
            raise InvalidRequestError(
                f"paytables.{name}.{line}: {value!r} is not a whole number of odds to 1",
                reason="paytable_bad_odds",
                params={"paytable": name, "line": line},
            )
        else:
            table[key] = value
    return table


def limit_pairs(game: str) -> list[tuple[str, str]]:
    """Each (minimum, maximum) pair of the request's limit fields of ``game``: its
    descriptor's settings that must be at most another (``at_most``), under the names the
    game's :class:`OperatorSettings` gives them (``trips_min``/``trips_max``; Hold'em's
    ``min_buy_in``/``max_buy_in`` as ``min_bet``/``max_bet``). The game says it once; a new
    side bet needs nothing here."""
    described = descriptor(game)
    if described is None:
        return []
    field_of = {rule: field for field, rule in operator_settings(game).limits.items()}
    return [
        (field_of[s.name], field_of[s.at_most])
        for s in described.settings
        if s.at_most is not None and s.name in field_of and s.at_most in field_of
    ]


def _check_order(game: str, merged: Mapping[str, Any]) -> None:
    for low, high in limit_pairs(game):
        a, b = merged.get(low), merged.get(high)
        if isinstance(a, int) and isinstance(b, int) and a > b:
            raise InvalidRequestError(
                f"{low}: {a} is above {high} {b}",
                reason="limit_order",
                params={"field": low, "amount": a, "other": high, "other_amount": b},
            )


def patched(
    config: TableConfig, patch: TablePatch, *, status: TableStatus, described: Mapping[str, Any]
) -> Patched:
    """``config`` with ``patch`` applied, checked as the table will check it.

    ``described`` is the running factory's ``describe()`` (every rule, defaults included).

    Raises:
        InvalidRequestError: nothing to change, a field the game does not have, an unknown
            pay-table line, a minimum above its maximum.
        IllegalActionError: a change to a closed table that does not reopen it
            (``reason`` ``table_closed``).
        ConfigError: rules the game refuses, or a pay table the exact analysis cannot count.
    """
    given = patch.model_fields_set
    if not given:
        raise InvalidRequestError("nothing to change: give a limit, paytables or status")
    new_status = TableStatus(patch.status) if patch.status is not None else status
    if status is TableStatus.CLOSED and new_status is TableStatus.CLOSED and given != {"status"}:
        raise IllegalActionError(
            f"table {config.name!r} is closed: reopen it (status: open) to change it",
            reason="table_closed",
            params={"table": config.name},
        )
    game, settings = config.game, operator_settings(config.game)
    fields = settings.limits
    rules = dict(config.rules)
    current = limits(game, described)
    merged = dict(current)
    changed: dict[str, Any] = {}
    for field in sorted(given - {"status", "paytables"}):
        if field not in fields:
            raise InvalidRequestError(
                f"{field}: not a setting of a {game} table; it has {sorted(fields) or 'none'}",
                reason="field_not_for_game",
                params={"field": field, "game": game},
            )
        value = getattr(patch, field)  # a game's own limit too (pydantic's extras)
        if field == "max_payout" and value == 0:
            value = None
        merged[field] = rules[fields[field]] = value
        changed[field] = {"from": current.get(field), "to": value}
    _check_order(game, merged)
    check_rules(game, {fields[f]: rules[fields[f]] for f in changed})
    for name, lines in (patch.paytables or {}).items():
        rule = settings.paytables.get(name)
        if rule is None:
            raise InvalidRequestError(
                f"paytables.{name}: a {game} table has no such pay table; it has "
                f"{sorted(settings.paytables) or 'none'}",
                reason="paytable_unknown",
                params={"paytable": name, "game": game},
            )
        before = dict(described.get(rule) or {})
        rules[rule] = _merge_paytable(settings, name, before, lines)
        _check_paytable(settings, name, rule, rules[rule])
        changed[f"paytables.{name}"] = {"from": before, "to": rules[rule]}
    if new_status is not status:
        changed["status"] = {"from": status.value, "to": new_status.value}
    new = config.model_copy(update={"rules": rules})
    named = ", ".join(sorted(given - {"status"})) or "status"
    try:
        build(new)
    except ConfigError as exc:
        if exc.reason is not None:
            raise
        raise ConfigError(
            f"{named}: {exc}", reason="table_rules", params={"fields": named}
        ) from None
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{named}: {exc}") from None
    return Patched(config=new, status=new_status, changed=changed)


def _check_paytable(
    settings: OperatorSettings, name: str, rule: str, table: Mapping[str, Any]
) -> None:
    try:
        settings.check_paytable(name, rule, table)
    except ConfigError as exc:
        raise ConfigError(
            f"paytables.{name}: {exc}", reason="paytable_invalid", params={"paytable": name}
        ) from None
