"""Table configuration of Ultimate Texas Hold'em (spec/uth.md "Table", "Showdown")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from croupier.chips import Chips
from croupier.errors import ConfigError
from croupier.games.paytables import PayTable

__all__ = [
    "DEFAULT_BLIND",
    "DEFAULT_TRIPS",
    "LIMITS",
    "MAX_BOXES",
    "BlindRounding",
    "Dealing",
    "PlayMultiples",
    "UthConfig",
]

MAX_BOXES = 22
"""(52 - 2 dealer cards - 1 burn - 5 board) // 2 hole cards."""

# spec/uth.md "Showdown": the Blind table pays on a win; anything lower than a straight pushes.
DEFAULT_BLIND = PayTable.from_mapping(
    "blind",
    {
        "royal_flush": "500:1",
        "straight_flush": "50:1",
        "four_of_a_kind": "10:1",
        "full_house": "3:1",
        "flush": "3:2",
        "straight": "1:1",
    },
)
# spec/uth.md "Showdown": Trips pays on the player's own hand; below three of a kind it loses.
DEFAULT_TRIPS = PayTable.from_mapping(
    "trips",
    {
        "royal_flush": "50:1",
        "straight_flush": "40:1",
        "four_of_a_kind": "30:1",
        "full_house": "8:1",
        "flush": "7:1",
        "straight": "4:1",
        "three_of_a_kind": "3:1",
    },
)


LIMITS = ("ante_min", "ante_max", "trips_min", "trips_max", "bet_unit")
"""The settings a change during a betting window applies to at once, for the bets placed after
it (seed 003: "ki jih lahko vodstvo igralnice spremeni tudi med igro"); every other setting
takes effect from the next round."""

MAX_MULTIPLE = 10
"""The largest Play multiple a table may offer (the protocol's ``multiple`` bound)."""


class Dealing(StrEnum):
    """The order cards come off the deck (docs/rules.md "Dealing order"; docs/protocol.md
    "Fairness" gives the deck position of every card)."""

    SEED003 = "seed003"
    """Seed 003 (spec/uth.md "Dealing and decisions"): one card at a time to each box left to
    right, the dealer last, then a second round; a burn before the flop; the flop; the turn
    and river."""
    SEED000 = "seed000"
    """Seed 000: the five community cards first, then two cards to each box left to right,
    the dealer's two last; no burn."""


class BlindRounding(StrEnum):
    """How a fractional Blind payout (3:2 on an odd Blind) is rounded (docs/rules.md)."""

    DOWN = "down"
    """Down to the minor unit (spec/uth.md Decision; the default)."""
    UP = "up"
    """Up to the minor unit."""
    CHIP = "chip"
    """Down to a whole number of the table's smallest chip (``chip``)."""


@dataclass(frozen=True, slots=True)
class PlayMultiples:
    """The Play multiples allowed in each decision phase (spec/uth.md: 4x or 3x pre-flop,
    2x on the flop, 1x on the river), largest first.

    >>> PlayMultiples.from_value({"preflop": [3, 4], "flop": [2], "river": [1]}).preflop
    (4, 3)
    """

    preflop: tuple[int, ...] = (4, 3)
    flop: tuple[int, ...] = (2,)
    river: tuple[int, ...] = (1,)

    def __post_init__(self) -> None:
        for name in ("preflop", "flop", "river"):
            values = getattr(self, name)
            if (
                not isinstance(values, tuple)
                or not values
                or any(isinstance(m, bool) or not isinstance(m, int) for m in values)
                or not all(1 <= m <= MAX_MULTIPLE for m in values)
                or len(set(values)) != len(values)
            ):
                raise ConfigError(
                    f"play_multiples.{name} = {values!r} must be distinct whole numbers "
                    f"1..{MAX_MULTIPLE}, at least one"
                )
            object.__setattr__(self, name, tuple(sorted(values, reverse=True)))

    @classmethod
    def from_value(cls, value: object) -> PlayMultiples:
        """From ``{"preflop": [4, 3], "flop": [2], "river": [1]}`` (missing phases keep the
        spec's multiples).

        Raises:
            ConfigError: not such a table, an unknown phase, or invalid multiples.
        """
        if isinstance(value, PlayMultiples):
            return value
        if not isinstance(value, Mapping):
            raise ConfigError(f"play_multiples must be a table of phases, not {value!r}")
        unknown = sorted(set(value) - {"preflop", "flop", "river"})
        if unknown:
            raise ConfigError(f"play_multiples: unknown phases {unknown}; use preflop, flop, river")
        phases: dict[str, tuple[int, ...]] = {}
        for name, multiples in value.items():
            if not isinstance(multiples, Sequence) or isinstance(multiples, str):
                raise ConfigError(f"play_multiples.{name} = {multiples!r} is not a list")
            phases[name] = tuple(multiples)
        return cls(**phases)

    def to_dict(self) -> dict[str, list[int]]:
        """``{"preflop": [4, 3], "flop": [2], "river": [1]}``."""
        return {"preflop": list(self.preflop), "flop": list(self.flop), "river": list(self.river)}


_ANTE_MIN, _ANTE_MAX = Chips(100), Chips(100_000)
_TRIPS_MIN, _TRIPS_MAX = Chips(100), Chips(50_000)
_CHIP = Chips(100)


@dataclass(frozen=True, slots=True, kw_only=True)
class UthConfig:
    """Limits and pay tables of one table; amounts in minor units.

    ``max_seats`` is 6 for a casino table and ``None`` for a live table with unlimited
    players (spec/uth.md "Table", Decision). On a live table every player plays the one
    player hand dealt face up (seed 001: "two face-up cards to the player"), so
    ``shared_hand`` must be set when seats are unlimited; a table dealing each box its own
    cards can seat at most 22 (2 cards each, the dealer's 2, a burn and the 5-card board).
    ``max_payout`` caps what one seat can win in one round (None: no cap). The options real
    casinos vary are in docs/rules.md: ``play_multiples``, ``trips_needs_win``,
    ``blind_rounding`` (with ``chip``), ``dealing`` and ``bet_unit``.
    """

    name: str = "Ultimate Texas Hold'em"
    max_seats: int | None = 6
    shared_hand: bool = False
    ante_min: Chips = _ANTE_MIN
    ante_max: Chips = _ANTE_MAX
    trips_min: Chips = _TRIPS_MIN
    trips_max: Chips = _TRIPS_MAX
    blind_paytable: PayTable = field(default=DEFAULT_BLIND)
    trips_paytable: PayTable = field(default=DEFAULT_TRIPS)
    max_payout: Chips | None = None
    play_multiples: PlayMultiples = field(default_factory=PlayMultiples)
    trips_needs_win: bool = False
    """Trips pays only when the player's hand beats the dealer's, and pushes otherwise (Isle
    Casino Pompano Park); off: whatever the dealer has (seeds 000, 001, 003)."""
    blind_rounding: BlindRounding = BlindRounding.DOWN
    chip: Chips = _CHIP
    """The smallest chip, in minor units (``blind_rounding = "chip"``)."""
    dealing: Dealing = Dealing.SEED003
    bet_unit: Chips | None = None
    """Every Ante and Trips is a whole multiple of this many minor units (seed 003: bets are
    "večkratniki osnovne stave", multiples of the base unit). Not given: 1 minor unit, or one
    ``chip`` under ``blind_rounding = "chip"``, where the unit must be whole chips (so only
    the part chip of a fractional Blind payout, 3:2 on an odd number of chips, is rounded)."""

    def __post_init__(self) -> None:
        for name in ("ante_min", "ante_max", "trips_min", "trips_max"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigError(
                    f"{name} must be a positive whole number of minor units, not {value!r}"
                )
        if self.ante_min > self.ante_max:
            raise ConfigError(f"ante_min {self.ante_min} is above ante_max {self.ante_max}")
        if self.trips_min > self.trips_max:
            raise ConfigError(f"trips_min {self.trips_min} is above trips_max {self.trips_max}")
        if self.max_seats is not None and (
            not isinstance(self.max_seats, int) or self.max_seats < 1
        ):
            raise ConfigError(
                f"max_seats must be a positive integer or None, not {self.max_seats!r}"
            )
        if self.max_seats is None and not self.shared_hand:
            raise ConfigError("a table with unlimited seats must deal one shared player hand")
        if not self.shared_hand and self.max_seats is not None and self.max_seats > MAX_BOXES:
            raise ConfigError(
                f"max_seats {self.max_seats} needs more cards than a deck has; "
                f"at most {MAX_BOXES} boxes when each is dealt its own hand"
            )
        if self.max_payout is not None and (
            not isinstance(self.max_payout, int) or self.max_payout <= 0
        ):
            raise ConfigError(
                f"max_payout must be a positive amount or None, not {self.max_payout!r}"
            )
        self._check_options()

    def _check_options(self) -> None:
        if not isinstance(self.play_multiples, PlayMultiples):
            raise ConfigError("play_multiples must be a PlayMultiples")
        if not isinstance(self.trips_needs_win, bool):
            raise ConfigError(
                f"trips_needs_win must be true or false, not {self.trips_needs_win!r}"
            )
        for name, kind in (("blind_rounding", BlindRounding), ("dealing", Dealing)):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                raise ConfigError(
                    f"{name} = {value!r} is not one of {[m.value for m in kind]}"
                ) from None
        if isinstance(self.chip, bool) or not isinstance(self.chip, int) or self.chip <= 0:
            raise ConfigError(
                f"chip must be a positive whole number of minor units, not {self.chip!r}"
            )
        self._check_unit()

    def _check_unit(self) -> None:
        """``bet_unit`` (spec/uth.md "Showdown": bets are multiples of the table's unit)."""
        chips = self.blind_rounding is BlindRounding.CHIP
        if self.bet_unit is None:
            object.__setattr__(self, "bet_unit", self.chip if chips else Chips(1))
        unit = self.bet_unit
        if isinstance(unit, bool) or not isinstance(unit, int) or unit <= 0:
            raise ConfigError(
                f"bet_unit must be a positive whole number of minor units, not {unit!r}"
            )
        if chips and unit % self.chip:
            raise ConfigError(
                f"bet_unit {unit} is not a whole number of chips ({self.chip}): under "
                f'blind_rounding = "chip" every Ante must be whole chips'
            )
        for spot in ("ante", "trips"):
            low, high = self.bounds(spot)
            if low > high:
                raise ConfigError(
                    f"no {spot} between {spot}_min {getattr(self, spot + '_min')} and "
                    f"{spot}_max {getattr(self, spot + '_max')} is a multiple of the bet unit "
                    f"{unit}"
                )

    def limits(self) -> dict[str, int]:
        """The table's :data:`LIMITS`."""
        return {name: getattr(self, name) for name in LIMITS}

    def with_limits(self, limits: Mapping[str, Any]) -> UthConfig:
        """This config with other :data:`LIMITS` (checked whole, as any config).

        Raises:
            ConfigError: a setting that is not one of the limits, or limits refused.
        """
        other = sorted(set(limits) - set(LIMITS))
        if other:
            raise ConfigError(f"{other} are not limits; the limits are {list(LIMITS)}")
        return replace(self, **limits)

    def bounds(self, spot: str) -> tuple[int, int]:
        """The least and the most ``spot`` (``"ante"`` or ``"trips"``) may be: the table's
        limits brought in to whole multiples of ``bet_unit``.

        >>> UthConfig(ante_min=120, ante_max=1000, bet_unit=50).bounds("ante")
        (150, 1000)
        """
        unit = self.bet_unit or 1
        low, high = getattr(self, f"{spot}_min"), getattr(self, f"{spot}_max")
        return -(-low // unit) * unit, high - high % unit

    @classmethod
    def casino(cls, **overrides: Any) -> UthConfig:
        """A casino table: 6 boxes, each dealt its own hand (seed 003)."""
        return cls(**{"max_seats": 6, "shared_hand": False, **overrides})

    @classmethod
    def live(cls, **overrides: Any) -> UthConfig:
        """A live table: unlimited players sharing one player hand (seed 001)."""
        return cls(
            **{
                "name": "Ultimate Texas Hold'em Live",
                "max_seats": None,
                "shared_hand": True,
                **overrides,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (for round records and the server's table list)."""
        return {
            "name": self.name,
            "max_seats": self.max_seats,
            "shared_hand": self.shared_hand,
            "ante_min": self.ante_min,
            "ante_max": self.ante_max,
            "trips_min": self.trips_min,
            "trips_max": self.trips_max,
            "blind_paytable": self.blind_paytable.to_mapping(),
            "trips_paytable": self.trips_paytable.to_mapping(),
            "max_payout": self.max_payout,
            "play_multiples": self.play_multiples.to_dict(),
            "trips_needs_win": self.trips_needs_win,
            "blind_rounding": self.blind_rounding.value,
            "chip": self.chip,
            "dealing": self.dealing.value,
            "bet_unit": self.bet_unit,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> UthConfig:
        """Build from :meth:`to_dict` output or a TOML table; unknown keys are refused.

        TOML has no null: a shared-hand (live) table without ``max_seats``, or with
        ``max_seats`` 0 or ``"unlimited"``, seats any number of players (spec/uth.md
        "Table").

        >>> UthConfig.from_dict({"shared_hand": True}).max_seats is None
        True
        """
        if not isinstance(data, Mapping):
            raise ConfigError(f"UTH table settings must be a table, not {data!r}")
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown UTH table settings: {', '.join(sorted(unknown))}")
        kwargs = dict(data)
        seats = kwargs.get("max_seats")
        if (
            (type(seats) is int and seats == 0)
            or seats == "unlimited"
            or (kwargs.get("shared_hand") and "max_seats" not in kwargs)
        ):
            kwargs["max_seats"] = None
        for key, default in (("blind_paytable", "blind"), ("trips_paytable", "trips")):
            if key in kwargs and not isinstance(kwargs[key], PayTable):
                kwargs[key] = PayTable.from_mapping(default, kwargs[key])
        if "play_multiples" in kwargs:
            kwargs["play_multiples"] = PlayMultiples.from_value(kwargs["play_multiples"])
        return cls(**kwargs)

    def multiples(self, phase: str) -> tuple[int, ...]:
        """The Play multiples allowed in ``phase`` (``"pre-flop"``, ``"flop"``, ``"river"``)."""
        m = self.play_multiples
        return {"pre-flop": m.preflop, "flop": m.flop, "river": m.river}[phase]
