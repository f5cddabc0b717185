"""Table configuration of Ultimate Texas Hold'em (spec/uth.md "Table", "Showdown")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from croupier.errors import ConfigError
from croupier.games.paytables import PayTable

__all__ = ["DEFAULT_BLIND", "DEFAULT_TRIPS", "MAX_BOXES", "UthConfig"]

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


@dataclass(frozen=True, slots=True, kw_only=True)
class UthConfig:
    """Limits and pay tables of one table; amounts in minor units.

    ``max_seats`` is 6 for a casino table and ``None`` for a live table with unlimited
    players (spec/uth.md "Table", Decision). On a live table every player plays the one
    player hand dealt face up (seed 001: "two face-up cards to the player"), so
    ``shared_hand`` must be set when seats are unlimited; a table dealing each box its own
    cards can seat at most 22 (2 cards each, the dealer's 2, a burn and the 5-card board).
    ``max_payout`` caps what one seat can win in one round (None: no cap).
    """

    name: str = "Ultimate Texas Hold'em"
    max_seats: int | None = 6
    shared_hand: bool = False
    ante_min: int = 100
    ante_max: int = 100_000
    trips_min: int = 100
    trips_max: int = 50_000
    blind_paytable: PayTable = field(default=DEFAULT_BLIND)
    trips_paytable: PayTable = field(default=DEFAULT_TRIPS)
    max_payout: int | None = None

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
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> UthConfig:
        """Build from :meth:`to_dict` output or a TOML table; unknown keys are refused."""
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown UTH table settings: {', '.join(sorted(unknown))}")
        kwargs = dict(data)
        for key, default in (("blind_paytable", "blind"), ("trips_paytable", "trips")):
            if key in kwargs and not isinstance(kwargs[key], PayTable):
                kwargs[key] = PayTable.from_mapping(default, kwargs[key])
        return cls(**kwargs)
