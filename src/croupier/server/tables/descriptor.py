"""What a game tells the server about itself (issue 31): one :class:`GameDescriptor` per game,
given by the game's own files (``server/tables/<game>_descriptor.py``) and served by the
registry (:mod:`.registry`, ``GET /api/games``).

A descriptor names the game and its title (a locale key), its table settings
(:class:`Setting`: each rule's kind, bounds, default and choices -- the operator's console
builds its forms from them and the server checks an operator's new or changed table against
them), the rules whose range the lobby shows, its theory of the return for the reports and
the monitor, its advisor, the valuation of its decisions for the history, and how a closed
round is recalled. Nothing here names a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, NoReturn

from croupier.server.errors import InvalidRequestError
from croupier.server.rounds.store import RecallView
from croupier.server.rounds.theory import GameTheory
from croupier.server.tables.games import FactoryBuilder, OperatorSettings
from croupier.server.tables.wire import Spots
from croupier.server.wallet.service import MAX_AMOUNT

__all__ = [
    "KINDS",
    "Advisor",
    "Costs",
    "GameDescriptor",
    "Setting",
    "check_settings",
    "choice",
    "count",
    "flag",
    "money",
    "multiples",
    "paytable",
]

KINDS = ("money", "count", "percent", "flag", "choice", "paytable", "multiples")
"""``money``: whole minor units; ``count``: a whole number of things (seats, boxes, a
multiple); ``percent``: a number of per cent, as a number or decimal text (``5``, ``"2.5"``);
``flag``: true or false; ``choice``: one of :attr:`Setting.choices`; ``paytable``: a table of
lines (each one of :attr:`Setting.choices`, any case, spaces or hyphens for underscores) ->
odds to 1, a whole number from 0 (or ``"n:d"`` text where :attr:`Setting.fractions`);
``multiples``: a table of keys (:attr:`Setting.choices`) -> a non-empty list of distinct whole
numbers from :attr:`Setting.low` to :attr:`Setting.high` (UTH's Play multiples per street)."""

_RATIO = re.compile(r"^\s*\d{1,9}\s*(:\s*[1-9]\d{0,8}\s*)?$")

Advisor = Callable[[Mapping[str, str]], dict[str, Any]]
"""A game's strategy advisor (the table's Hint): the query's fields -> the options' EVs,
best first (raises ``CroupierError`` for a query it refuses)."""

Costs = Callable[[Mapping[str, Any], set[int]], "list[dict[str, Any]] | None"]
"""A game's decision costs: a recorded round and the caller's seats -> each decision's cost
against the best one (``GET /api/rounds/{id}/costs``; ``None`` where it cannot value them)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Setting:
    """One rule of a game's table an operator sets (``[tables.rules]``)."""

    name: str
    """The rule (``ante_min``)."""
    kind: str
    """One of :data:`KINDS`."""
    default: Any
    """What the game takes when the rule is not given (``None``: nothing, e.g. no cap)."""
    low: int | None = None
    """The least value (``money`` and ``count``)."""
    high: int | None = None
    """The greatest value (``money`` and ``count``)."""
    choices: tuple[str, ...] = ()
    """The values a ``choice`` may take; the lines of a ``paytable``; the keys of
    ``multiples``."""
    fractions: bool = False
    """A ``paytable``'s odds may be ``"n:d"`` text (otherwise whole numbers only)."""
    optional: bool = False
    """``null`` is a value (no cap)."""
    at_most: str | None = None
    """Another setting this one may not exceed (``ante_min`` -> ``ante_max``)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"setting {self.name}: kind {self.kind!r} is not one of {KINDS}")

    def json(self) -> dict[str, Any]:
        """The setting as ``GET /api/games`` serves it."""
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "min": self.low,
            "max": self.high,
            "choices": list(self.choices) or None,
            "optional": self.optional,
            "at_most": self.at_most,
            "fractions": self.fractions,
        }

    def check(self, value: Any) -> None:
        """Raise ``InvalidRequestError`` naming this setting for a value it does not take."""
        if value is None and self.optional:
            return
        if self.kind == "flag":
            if not isinstance(value, bool):
                self._refuse(value, "setting_type", "true or false")
            return
        if self.kind == "choice":
            if value not in self.choices:
                raise InvalidRequestError(
                    f"rules.{self.name}: {value!r} is not one of {list(self.choices)}",
                    reason="setting_not_a_choice",
                    params={"setting": self.name, "choices": list(self.choices)},
                )
            return
        if self.kind == "paytable":
            self._check_paytable(value)
            return
        if self.kind == "multiples":
            self._check_multiples(value)
            return
        if self.kind == "percent":
            number = _number(value)
            if number is None:
                self._refuse(value, "setting_type", "a number of per cent")
        elif isinstance(value, bool) or not isinstance(value, int):
            self._refuse(value, "setting_type", "a whole number")
        else:
            number = Decimal(value)
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            money = self.kind == "money"
            bounds = {"min": self.low, "max": self.high} if money else {"low": self.low}
            if not money:
                bounds["high"] = self.high
            raise InvalidRequestError(
                f"rules.{self.name}: {value} is outside {self.low}..{self.high}",
                reason="setting_out_of_range" if money else "setting_count_out_of_range",
                params={"setting": self.name, **bounds},
            )

    def _check_paytable(self, value: Any) -> None:
        if not isinstance(value, Mapping) or not value:
            self._refuse(value, "setting_type", "a table of lines and their odds")
        for line, odds in value.items():
            key = str(line).strip().lower().replace(" ", "_").replace("-", "_")
            if key not in self.choices:
                raise InvalidRequestError(
                    f"rules.{self.name}.{line}: not a line of this pay table; the lines are "
                    f"{list(self.choices)}",
                    reason="setting_unknown_line",
                    params={"setting": self.name, "line": str(line), "lines": list(self.choices)},
                )
            whole = not isinstance(odds, bool) and isinstance(odds, int) and 0 <= odds < 10**9
            ratio = self.fractions and isinstance(odds, str) and _RATIO.match(odds) is not None
            if not (whole or ratio):
                wanted = "odds like 5 or '3:2'" if self.fractions else "a whole number from 0"
                raise InvalidRequestError(
                    f"rules.{self.name}.{line}: {odds!r} is not {wanted}",
                    reason="setting_odds",
                    params={"setting": self.name, "line": str(line)},
                )

    def _check_multiples(self, value: Any) -> None:
        if not isinstance(value, Mapping):
            self._refuse(value, "setting_type", "a table of lists of multiples")
        for key, multiples in value.items():
            if key not in self.choices:
                raise InvalidRequestError(
                    f"rules.{self.name}.{key}: not one of {list(self.choices)}",
                    reason="setting_unknown_line",
                    params={"setting": self.name, "line": str(key), "lines": list(self.choices)},
                )
            ok = (
                isinstance(multiples, Sequence)
                and not isinstance(multiples, str)
                and len(multiples) > 0
                and all(isinstance(m, int) and not isinstance(m, bool) for m in multiples)
                and len(set(multiples)) == len(multiples)
                and all(
                    (self.low is None or m >= self.low) and (self.high is None or m <= self.high)
                    for m in multiples
                )
            )
            if not ok:
                raise InvalidRequestError(
                    f"rules.{self.name}.{key}: {multiples!r} is not a list of distinct whole "
                    f"numbers from {self.low} to {self.high}",
                    reason="setting_multiples",
                    params={
                        "setting": self.name,
                        "line": str(key),
                        "low": self.low,
                        "high": self.high,
                    },
                )

    def _refuse(self, value: Any, reason: str, wanted: str) -> NoReturn:
        raise InvalidRequestError(
            f"rules.{self.name}: {value!r} is not {wanted}",
            reason=reason,
            params={"setting": self.name, "kind": self.kind},
        )


def _number(value: Any) -> Decimal | None:
    """A percentage given as a number or decimal text, or ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def check_settings(settings: tuple[Setting, ...], rules: Mapping[str, Any]) -> None:
    """Check every rule of ``rules`` a setting describes, then each ``at_most`` pair both of
    whose rules are given (a rule left out takes the game's own default, which may follow
    from the others: Hold'em's buy-ins from the big blind).

    Raises:
        InvalidRequestError: the first rule refused, named (``params.setting``); a minimum
            above its maximum (``limit_order``).
    """
    by_name = {s.name: s for s in settings}
    for name in sorted(rules):
        if name in by_name:
            by_name[name].check(rules[name])
    for s in settings:
        if s.at_most is None or s.name not in rules or s.at_most not in rules:
            continue
        low, high = rules[s.name], rules[s.at_most]
        if isinstance(low, int) and isinstance(high, int) and low > high:
            raise InvalidRequestError(
                f"rules.{s.name}: {low} is above {s.at_most} {high}",
                reason="limit_order",
                params={"field": s.name, "amount": low, "other": s.at_most, "other_amount": high},
            )


def money(
    name: str,
    default: int | None,
    *,
    low: int = 1,
    at_most: str | None = None,
    optional: bool = False,
) -> Setting:
    """An amount in minor units from ``low`` to the wallet's largest; ``optional`` (or a
    ``None`` default): ``null`` is a value (no cap)."""
    return Setting(
        name=name,
        kind="money",
        default=None if default is None else int(default),
        low=low,
        high=MAX_AMOUNT,
        optional=optional or default is None,
        at_most=at_most,
    )


def count(name: str, default: int, low: int, high: int, *, at_most: str | None = None) -> Setting:
    """A whole number of things from ``low`` to ``high``."""
    return Setting(
        name=name, kind="count", default=int(default), low=low, high=high, at_most=at_most
    )


def choice(name: str, default: str, choices: tuple[str, ...]) -> Setting:
    """One of a few words (``choices``), ``default`` among them."""
    return Setting(
        name=name, kind="choice", default=str(default), choices=tuple(str(c) for c in choices)
    )


def flag(name: str, default: bool) -> Setting:
    """True or false."""
    return Setting(name=name, kind="flag", default=bool(default))


def paytable(
    name: str, default: Mapping[str, Any], lines: tuple[str, ...], *, fractions: bool = False
) -> Setting:
    """A pay table: its ``lines`` -> odds to 1 (``fractions``: ``"n:d"`` text too)."""
    return Setting(
        name=name, kind="paytable", default=dict(default), choices=lines, fractions=fractions
    )


def multiples(
    name: str, default: Mapping[str, list[int]], keys: tuple[str, ...], low: int, high: int
) -> Setting:
    """A table of ``keys`` -> lists of distinct multiples from ``low`` to ``high``."""
    return Setting(
        name=name, kind="multiples", default=dict(default), choices=keys, low=low, high=high
    )


_NO_SETTINGS = OperatorSettings(limits={})


@dataclass(frozen=True, slots=True, kw_only=True)
class GameDescriptor:
    """A game the server can host, as its own files describe it."""

    name: str
    """The game's name (``tables.toml``'s ``game``, the wire's, the URLs')."""
    build: FactoryBuilder
    """The game's factory for one table's configuration."""
    title: str = ""
    """The locale key of the game's title (``game.<name>`` when empty)."""
    settings: tuple[Setting, ...] = ()
    """The table's settings an operator sets (the console's forms, the server's checks)."""
    lobby_limits: Mapping[str, str] = field(default_factory=dict)
    """The lobby's line of a table's limits: each placeholder of :attr:`lobby_text` -> the
    setting it shows (``{"min": "ante_min", "max": "ante_max"}``). The client formats each
    value by its setting's kind (money in the player's euros, a count as a number, a choice
    or a flag by the locale key ``<game>.<setting>.<value>``), the setting's default where a
    table leaves it out; a new game needs no lobby code."""
    lobby_text: str = ""
    """The locale key of that line (``"Ante {min}–{max}"``); empty: ``<game>.limits``."""
    operator: OperatorSettings = _NO_SETTINGS
    """How an operator's change to a running table names the game's rules."""
    theory: GameTheory | None = None
    """The game's return to player for the operator's figures (``None``: no theory)."""
    theory_text: str = ""
    """The locale key of the console's line for a ready theoretical return (its figures as
    ``ret``, ``trips``, ``risk``, ``lo``, ``hi``); empty: the figure alone."""
    recall_view: RecallView | None = None
    """What a player may see of a closed round (``None``: all of it, the deck revealed)."""
    advisor: Advisor | None = None
    """The game's Hint (``GET /api/games/{game}/advice``), ``None``: none."""
    advice_path: str | None = None
    """An older path of the advisor kept for the clients that use it."""
    costs: Costs | None = None
    """What each decision in a recorded round cost (the history), ``None``: not valued."""
    spots: type[Spots] | None = None
    """The spots of the game's ``bet`` (its ``<game>_wire`` module), ``None``: no ``bet``."""

    def __post_init__(self) -> None:
        named = {s.name for s in self.settings}
        unknown = [rule for rule in self.lobby_limits.values() if rule not in named]
        if unknown:
            raise ValueError(f"game {self.name}: lobby_limits {unknown} are not its settings")

    def check_rules(self, rules: Mapping[str, Any]) -> None:
        """:func:`check_settings` of this game's settings."""
        check_settings(self.settings, rules)

    def json(self) -> dict[str, Any]:
        """The descriptor as ``GET /api/games`` serves it (the console, the client)."""
        theory = self.theory
        return {
            "name": self.name,
            "title": self.title or f"game.{self.name}",
            "settings": [s.json() for s in self.settings],
            "lobby_limits": list(self.lobby_limits.values()),
            "lobby_text": self.lobby_text or f"{self.name}.limits",
            "lobby_params": dict(self.lobby_limits),
            "limits": dict(self.operator.limits),
            "paytables": dict(self.operator.paytables),
            "whole_odds": self.operator.whole_odds,
            "lines_removable": self.operator.lines_removable,
            "theory": None
            if theory is None
            else {
                "rake_only": theory.basis is None,
                "basis": theory.basis,
                "method": theory.method,
                "text": self.theory_text or None,
            },
            "advisor": self.advisor is not None,
            "costs": self.costs is not None,
        }
