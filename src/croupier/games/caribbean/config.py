"""Table settings of Caribbean Stud Poker (docs/rules.md "Caribbean Stud Poker").

Every option real casinos vary is a field: the Raise's pay table and multiple, a maximum
payout, the progressive side bet and its prizes, the dealing order. Amounts are minor units.

>>> config = CaribbeanConfig()
>>> config.raise_paytable.line_for(HandCategory.FULL_HOUSE).label, config.progressive_bet
('Full house 7:1', None)
>>> CaribbeanConfig.from_dict(config.to_dict()) == config
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from croupier.chips import Chips
from croupier.errors import ConfigError
from croupier.evaluator import HandCategory
from croupier.games.paytables import PayTable

__all__ = [
    "DEFAULT_PROGRESSIVE",
    "DEFAULT_RAISE",
    "MAX_BOXES",
    "CaribbeanConfig",
    "Dealing",
    "Prize",
    "ProgressiveTable",
]

MAX_BOXES = 9
"""(52 - the dealer's 5) // 5 cards a box: the most boxes one deck deals."""

# docs/rules.md "Caribbean Stud Poker": the Raise pays by the player's hand when it beats a
# qualifying dealer (SkyCity Darwin, Crown Melbourne; Wizard of Odds' "U.S. rules"); a winning
# high card (Ace-King) pays as a pair
DEFAULT_RAISE = PayTable.from_mapping(
    "raise",
    {
        "royal_flush": "100:1",
        "straight_flush": "50:1",
        "four_of_a_kind": "20:1",
        "full_house": "7:1",
        "flush": "5:1",
        "straight": "4:1",
        "three_of_a_kind": "3:1",
        "two_pair": "2:1",
        "pair": "1:1",
        "high_card": "1:1",
    },
)


class Dealing(StrEnum):
    """The order cards come off the deck (docs/rules.md); the dealer's up card is the last
    card the dealer is dealt either way."""

    ONE_AT_A_TIME = "one_at_a_time"
    """One card at a time to each box left to right and to the dealer last, five times
    round (Bicycle's rules of the game; Crown Melbourne)."""
    HANDS = "hands"
    """Five cards to each box in turn, then five to the dealer (a shuffler that delivers
    hands)."""


_NOTHING = Chips(0)


@dataclass(frozen=True, slots=True)
class Prize:
    """What the progressive pays one hand category: ``percent`` of the jackpot meter, or a
    fixed ``amount`` (exactly one of them is not zero)."""

    category: HandCategory
    percent: int = 0
    amount: Chips = _NOTHING

    @property
    def label(self) -> str:
        """``"Royal flush 100%"``, ``"Flush 5000"``."""
        what = f"{self.percent}%" if self.percent else str(self.amount)
        return f"{self.category.label} {what}"


@dataclass(frozen=True, slots=True)
class ProgressiveTable:
    """The progressive side bet's prizes, by the player's own five cards.

    Raises:
        ConfigError: a category twice, a percentage outside 1..100, an amount that is not a
            positive whole number, a prize that is both or neither.
    """

    prizes: tuple[Prize, ...]

    def __post_init__(self) -> None:
        seen: set[HandCategory] = set()
        for prize in self.prizes:
            name = prize.category.name.lower()
            if prize.category in seen:
                raise ConfigError(f"progressive_paytable lists {name} twice")
            seen.add(prize.category)
            for part in (prize.percent, prize.amount):
                if isinstance(part, bool) or not isinstance(part, int) or part < 0:
                    raise ConfigError(
                        f"progressive_paytable.{name}: {part!r} is not a whole number"
                    )
            if bool(prize.percent) == bool(prize.amount):
                raise ConfigError(
                    f"progressive_paytable.{name} must pay a percentage of the jackpot or an "
                    "amount, not both or neither"
                )
            if prize.percent > 100:
                raise ConfigError(
                    f"progressive_paytable.{name} pays {prize.percent}% of the jackpot; at most 100"
                )

    def prize_for(self, category: HandCategory) -> Prize | None:
        """The prize of ``category``, or ``None``."""
        return next((p for p in self.prizes if p.category is category), None)

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> ProgressiveTable:
        """From ``{"royal_flush": "100%", "flush": 5000}``: a percentage of the meter as
        ``"N%"``, a fixed prize in minor units.

        Raises:
            ConfigError: not such a table, an unknown category, a value of neither kind.
        """
        if isinstance(mapping, ProgressiveTable):
            return mapping
        if not isinstance(mapping, Mapping):
            raise ConfigError(f"progressive_paytable must be a table of prizes, not {mapping!r}")
        prizes = []
        for key, value in mapping.items():
            try:
                category = HandCategory[str(key).strip().upper().replace(" ", "_")]
            except KeyError:
                raise ConfigError(f"progressive_paytable: unknown hand category {key!r}") from None
            if isinstance(value, str) and value.strip().endswith("%"):
                try:
                    percent = int(value.strip()[:-1])
                except ValueError:
                    raise ConfigError(
                        f"progressive_paytable.{key} = {value!r} is not a percentage like '10%'"
                    ) from None
                prizes.append(Prize(category, percent=percent))
            elif isinstance(value, int) and not isinstance(value, bool):
                prizes.append(Prize(category, amount=Chips(value)))
            else:
                raise ConfigError(
                    f"progressive_paytable.{key} = {value!r} is neither a percentage of the "
                    "jackpot ('10%') nor an amount in minor units"
                )
        return cls(tuple(sorted(prizes, key=lambda p: p.category, reverse=True)))

    def to_mapping(self) -> dict[str, str | int]:
        """``{"royal_flush": "100%", ..., "flush": 5000}``, best hand first."""
        return {
            p.category.name.lower(): f"{p.percent}%" if p.percent else int(p.amount)
            for p in sorted(self.prizes, key=lambda p: p.category, reverse=True)
        }


# docs/rules.md: the commonest progressive table (a 1.00 bet; table-games-online.com,
# caribbean-poker-stud.com list 100 % / 10 % of the meter for the royal and the straight
# flush); the fixed prizes are Wizard of Odds' "table 3" (500, 100, 50)
DEFAULT_PROGRESSIVE = ProgressiveTable.from_mapping(
    {
        "royal_flush": "100%",
        "straight_flush": "10%",
        "four_of_a_kind": 50_000,
        "full_house": 10_000,
        "flush": 5_000,
    }
)

_ANTE_MIN, _ANTE_MAX = Chips(100), Chips(10_000)


def _by_line(table: Mapping[Any, Any]) -> dict[str, Any]:
    """A pay table's lines under their category's name as the rules' tables write it
    (``"Royal Flush"``, ``"straight-flush"`` -> ``royal_flush``, ``straight_flush``), so that a
    line given replaces the rules' line instead of standing beside it."""
    return {str(k).strip().lower().replace(" ", "_").replace("-", "_"): v for k, v in table.items()}


def _whole(name: str, value: object, *, low: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"{name} = {value!r} is not a whole number of at least {low}")


@dataclass(frozen=True, slots=True, kw_only=True)
class CaribbeanConfig:
    """Everything a Caribbean Stud table posts. Amounts are :data:`Chips` (minor units).

    Raises:
        ConfigError: a limit or option out of range.
    """

    name: str = "Caribbean Stud Poker"
    max_seats: int = 6
    """Boxes on the layout, one player each (1..9; casinos: 6 or 7)."""
    ante_min: Chips = _ANTE_MIN
    ante_max: Chips = _ANTE_MAX
    raise_multiple: int = 2
    """The Raise is this many Antes (the rules: 2; Bicycle's home rules: 1)."""
    raise_paytable: PayTable = field(default=DEFAULT_RAISE)
    """What the Raise pays by the player's hand when it beats a qualifying dealer; every
    category must be listed (a winning Ace-King pays by the high-card line)."""
    max_payout: Chips | None = None
    """The most the Raise wins on one box (its stake back besides); ``None``: no cap."""
    progressive_bet: Chips | None = None
    """The progressive side bet's one amount; ``None``: the table has no progressive."""
    progressive_paytable: ProgressiveTable = field(default=DEFAULT_PROGRESSIVE)
    dealing: Dealing = Dealing.ONE_AT_A_TIME

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ConfigError(f"name = {self.name!r} must be a table name")
        _whole("max_seats", self.max_seats)
        if self.max_seats > MAX_BOXES:
            raise ConfigError(
                f"max_seats = {self.max_seats}: one deck deals at most {MAX_BOXES} boxes "
                "of five cards beside the dealer's five"
            )
        _whole("ante_min", self.ante_min)
        _whole("ante_max", self.ante_max)
        if self.ante_min > self.ante_max:
            raise ConfigError(f"ante_min {self.ante_min} is above ante_max {self.ante_max}")
        _whole("raise_multiple", self.raise_multiple)
        if self.raise_multiple > 10:
            raise ConfigError(f"raise_multiple = {self.raise_multiple} is above 10")
        if not isinstance(self.raise_paytable, PayTable):
            raise ConfigError("raise_paytable must be a PayTable")
        missing = [c.name.lower() for c in HandCategory if self.raise_paytable.line_for(c) is None]
        if missing:
            raise ConfigError(
                f"raise_paytable must pay every hand that can beat the dealer; missing {missing}"
            )
        for name in ("max_payout", "progressive_bet"):
            value = getattr(self, name)
            if value is not None:
                _whole(name, value)
        if not isinstance(self.progressive_paytable, ProgressiveTable):
            raise ConfigError("progressive_paytable must be a ProgressiveTable")
        try:
            object.__setattr__(self, "dealing", Dealing(self.dealing))
        except ValueError:
            raise ConfigError(
                f"dealing = {self.dealing!r} is not one of {[m.value for m in Dealing]}"
            ) from None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (for round records and the server's table list)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, PayTable | ProgressiveTable):
                value = value.to_mapping()
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CaribbeanConfig:
        """Build from :meth:`to_dict` output or a TOML table; every field is optional.

        TOML has no null: ``max_payout`` or ``progressive_bet`` of 0 or ``"none"`` means none.
        The lines of a ``raise_paytable`` or ``progressive_paytable`` given replace those of the
        rules' tables (a progressive prize of 0 removes its line).

        >>> config = CaribbeanConfig.from_dict(
        ...     {"progressive_bet": 100, "raise_paytable": {"royal_flush": "250:1"}})
        >>> config.progressive_bet, config.raise_paytable.to_mapping()["royal_flush"]
        (100, '250:1')

        Raises:
            ConfigError: an unknown setting, or a value that is not valid.
        """
        if not isinstance(data, Mapping):
            raise ConfigError(f"Caribbean Stud table settings must be a table, not {data!r}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(
                f"unknown Caribbean Stud settings {unknown}; the settings are {sorted(names)}"
            )
        options = dict(data)
        if "raise_paytable" in options and not isinstance(options["raise_paytable"], PayTable):
            table = options["raise_paytable"]
            if not isinstance(table, Mapping):
                raise ConfigError(f"raise_paytable must be a table of odds, not {table!r}")
            # the lines given replace the rules' (every hand is paid: none can be left out)
            lines = {**DEFAULT_RAISE.to_mapping(), **_by_line(table)}
            options["raise_paytable"] = PayTable.from_mapping("raise", lines)
        side = options.get("progressive_paytable")
        if side is not None and not isinstance(side, ProgressiveTable):
            if not isinstance(side, Mapping):
                raise ConfigError(f"progressive_paytable must be a table of prizes, not {side!r}")
            # the prizes given replace the default ones; a prize of 0 removes its line
            prizes = {**DEFAULT_PROGRESSIVE.to_mapping(), **_by_line(side)}
            options["progressive_paytable"] = ProgressiveTable.from_mapping(
                {k: v for k, v in prizes.items() if not (type(v) is int and v == 0)}
            )
        for name in ("max_payout", "progressive_bet"):
            value = options.get(name)
            if value == "none" or (type(value) is int and value == 0):
                options[name] = None
        return cls(**options)
