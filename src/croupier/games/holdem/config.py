"""Table options of a Texas Hold'em cash game: structure, forced bets, split policy, rake.

Per-player arrays (``antes``, ``blinds_or_straddles``) are in PHH position order: index 0 is
the small blind (first left of the button) ... the last index is the button. Heads-up they are
written the same way and applied reversed (spec/phh.md section 2): the button posts ``[0]``.

>>> config = HoldemConfig.cash(players=6, small_blind=1, big_blind=2)
>>> config.blinds_or_straddles
(1, 2, 0, 0, 0, 0)
>>> config.min_bet
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from croupier.chips import Chips
from croupier.errors import ConfigError

__all__ = [
    "EXACT_SCALE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "BettingStructure",
    "FirstToShow",
    "HoldemConfig",
    "HoldemTableConfig",
    "OddChip",
    "Rake",
    "ReopenRule",
    "ShowdownRule",
    "SplitPolicy",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 10

EXACT_SCALE = 2520
"""lcm(1..10): money counted in 1/2520 of a chip splits exactly among any 2..10 tied winners.

The ``exact`` split policy divides pots without remainder; a table (or a PHH replay) that uses
it counts money in units this much finer than its smallest chip (spec/holdem.md, Winning).
"""


class BettingStructure(StrEnum):
    """How much a player may bet; the value is the PHH variant letter (NT, PT, FT)."""

    NO_LIMIT = "N"
    POT_LIMIT = "P"
    FIXED_LIMIT = "F"

    @property
    def variant(self) -> str:
        """The PHH variant code of Texas Hold'em under this structure."""
        return self.value + "T"


class SplitPolicy(StrEnum):
    """How a pot is divided among tied winners (spec/holdem.md, Winning, Decision)."""

    LIVE = "live"
    """Whole shares; the remainder of each pot to the first tied winner left of the button."""
    EXACT = "exact"
    """Exact division; amounts must be counted in units fine enough (see ``EXACT_SCALE``)."""

    @property
    def unit(self) -> int:
        """Engine units per chip: ``EXACT_SCALE`` for ``exact``, else 1."""
        return EXACT_SCALE if self is SplitPolicy.EXACT else 1


class OddChip(StrEnum):
    """Who takes the odd chip of a pot split ``live`` (spec/holdem.md "Winning")."""

    POSITION = "position"
    """The first tied winner left of the button (seed 002: the worst position)."""
    SUIT = "suit"
    """The tied winner holding the highest card by rank, then suit: spades, hearts, diamonds,
    clubs (docs/rules.md, Robert's Rules of Poker)."""


class ShowdownRule(StrEnum):
    """Who may muck at showdown (spec/holdem.md "Winning")."""

    SEED = "seed"
    """Seed 002: the first to show (``first_to_show``: the last bettor or raiser) may not
    muck; a player may concede unseen only when a hand already shown beats theirs."""
    ANY_MUCK = "any-muck"
    """Any player may muck instead of showing (as most hand histories from other tools)."""


class FirstToShow(StrEnum):
    """Who shows first at showdown (spec/holdem.md "Winning")."""

    HAND = "hand"
    """Seed 002 ("Chi ha fatto l'ultima puntata o rilancio scopre per primo"): the last
    player who bet or raised in the hand, on any street; when nobody bet or raised, the
    first player left of the button."""
    RIVER = "river"
    """Robert's Rules of Poker: the last player who bet or raised on the final betting
    round; when nobody did, the first player left of the button."""


class ReopenRule(StrEnum):
    """Which bets and raises reopen the betting to players who already acted."""

    CASINO = "casino"
    """spec/holdem.md Decision: only a full bet or raise -- at least the street's minimum bet
    and the last full raise -- reopens; short all-ins reopen once they add up to one."""
    POKERKIT = "pokerkit"
    """PokerKit's rule, for replaying records it wrote: the first raise of a street is always
    full, however small (an all-in one chip over the big blind reopens)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rake:
    """The house's take: ``percent`` of the pots, at most ``cap``, none without a flop.

    >>> Rake(percent=Fraction(5, 100), cap=300).take(10_000, flop_dealt=True)
    300
    >>> Rake(percent=Fraction(5, 100)).take(1_010, flop_dealt=True)
    50
    >>> Rake(percent=Fraction(5, 100)).take(1_010, flop_dealt=False)
    0
    """

    percent: Fraction = Fraction(0)
    """Share of the total pot raked (rounded down to a whole unit)."""
    cap: int | None = None
    """Most raked from one hand, in minor units; ``None`` for no cap."""
    no_flop_no_drop: bool = True
    """Take nothing when the hand ends before the flop is dealt."""

    def __post_init__(self) -> None:
        if not 0 <= self.percent < 1:
            raise ConfigError(f"rake percent {self.percent} is outside [0, 1)")
        if self.cap is not None and self.cap < 0:
            raise ConfigError(f"rake cap {self.cap} is negative")

    def take(self, total: int, *, flop_dealt: bool) -> int:
        """The rake on a hand whose pots total ``total`` (spec/holdem.md, House)."""
        if self.no_flop_no_drop and not flop_dealt:
            return 0
        amount = total * self.percent.numerator // self.percent.denominator
        return amount if self.cap is None else min(amount, self.cap)


NO_RAKE = Rake()


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemConfig:
    """The rules of one hand: forced bets per position, bet sizes, split policy and rake.

    Raises:
        ConfigError: the arrays have a wrong length, an amount is negative, or the bet sizes
            required by ``structure`` are missing.
    """

    structure: BettingStructure = BettingStructure.NO_LIMIT
    antes: tuple[int, ...]
    """Ante of each position (big-blind ante: only index 1 non-zero)."""
    blinds_or_straddles: tuple[int, ...]
    """Small blind, big blind, then straddles, per position; zeros elsewhere."""
    min_bet: int = 0
    """No-/Pot-Limit: the smallest bet on every street (normally the big blind)."""
    small_bet: int = 0
    """Fixed-Limit: the bet and raise size pre-flop and on the flop."""
    big_bet: int = 0
    """Fixed-Limit: the bet and raise size on the turn and the river."""
    max_raises: int | None = None
    """Most bets and raises per street (blinds not counted); default 4 in Fixed-Limit."""
    ante_trimming: bool = False
    """PHH ``ante_trimming_status``: a short ante only wins what it matched."""
    split: SplitPolicy = SplitPolicy.LIVE
    rake: Rake = field(default=NO_RAKE)
    reopen: ReopenRule = ReopenRule.CASINO
    showdown: ShowdownRule = ShowdownRule.SEED
    odd_chip: OddChip = OddChip.POSITION
    first_to_show: FirstToShow = FirstToShow.HAND

    def __post_init__(self) -> None:
        players = len(self.antes)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ConfigError(f"{players} players is outside {MIN_PLAYERS}..{MAX_PLAYERS}")
        if len(self.blinds_or_straddles) != players:
            raise ConfigError(
                f"{len(self.blinds_or_straddles)} blinds or straddles for {players} players"
            )
        amounts = (*self.antes, *self.blinds_or_straddles, self.min_bet, self.small_bet)
        if any(amount < 0 for amount in (*amounts, self.big_bet)):
            raise ConfigError("forced bets and bet sizes cannot be negative")
        if self.structure is BettingStructure.FIXED_LIMIT:
            if self.small_bet <= 0 or self.big_bet <= 0:
                raise ConfigError("fixed-limit needs positive small_bet and big_bet")
        elif self.min_bet <= 0:
            raise ConfigError(f"min_bet {self.min_bet} must be positive in no-/pot-limit")
        if self.max_raises is not None and self.max_raises < 1:
            raise ConfigError(f"max_raises {self.max_raises} must be at least 1")
        choices = (
            ("showdown", ShowdownRule),
            ("odd_chip", OddChip),
            ("first_to_show", FirstToShow),
        )
        for name, kind in choices:
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                raise ConfigError(
                    f"{name} {value!r} is not one of {[m.value for m in kind]}"
                ) from None

    @property
    def players(self) -> int:
        """How many players the hand seats."""
        return len(self.antes)

    @property
    def raise_cap(self) -> int | None:
        """Bets and raises allowed per street (PokerKit's rule: four in Fixed-Limit)."""
        if self.max_raises is not None:
            return self.max_raises
        return 4 if self.structure is BettingStructure.FIXED_LIMIT else None

    def verify_stacks(self, stacks: Sequence[int]) -> None:
        """Check the starting stacks of a hand played under these rules.

        Raises:
            ConfigError: stacks do not match the number of players or are not positive, or
                an amount is not a whole multiple of the split policy's unit.
        """
        n = self.players
        if len(stacks) != n:
            raise ConfigError(f"{len(stacks)} stacks for {n} players")
        if any(stack <= 0 for stack in stacks):
            raise ConfigError(f"stacks {tuple(stacks)} must all be positive")
        unit = self.split.unit
        amounts = (*stacks, *self.antes, *self.blinds_or_straddles, self.min_bet)
        if any(a % unit for a in (*amounts, self.small_bet, self.big_bet)):
            # spec/holdem.md Winning, Decision `exact`: every pot must divide exactly among up
            # to ten winners, so money is counted in 1/EXACT_SCALE of a whole chip
            raise ConfigError(
                f"the exact split policy needs every amount in whole multiples of EXACT_SCALE"
                f" ({EXACT_SCALE} units per chip)"
            )

    def street_bet(self, street: int) -> int:
        """The minimum bet (No-/Pot-Limit) or fixed bet size (Fixed-Limit) on ``street``."""
        if self.structure is BettingStructure.FIXED_LIMIT:
            return self.small_bet if street < 2 else self.big_bet
        return self.min_bet

    def effective_ante(self, player: int) -> int:
        """The ante ``player`` posts: the arrays apply reversed heads-up (spec/phh.md 2)."""
        if len(self.antes) == 2:
            return self.antes[1 - player]
        return self.antes[player]

    def effective_blind(self, player: int) -> int:
        """The blind or straddle ``player`` posts (heads-up reversed, spec/phh.md 2)."""
        if len(self.blinds_or_straddles) == 2:
            return self.blinds_or_straddles[1 - player]
        return self.blinds_or_straddles[player]

    @classmethod
    def cash(
        cls,
        *,
        players: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        big_blind_ante: bool = False,
        straddle: int = 0,
        structure: BettingStructure = BettingStructure.NO_LIMIT,
        split: SplitPolicy = SplitPolicy.LIVE,
        rake: Rake = NO_RAKE,
        reopen: ReopenRule = ReopenRule.CASINO,
        showdown: ShowdownRule = ShowdownRule.SEED,
        odd_chip: OddChip = OddChip.POSITION,
        first_to_show: FirstToShow = FirstToShow.HAND,
    ) -> HoldemConfig:
        """A usual table: blinds, an optional ante (each player or the big blind's), an
        optional under-the-gun straddle; Fixed-Limit bets are the big blind and twice it.
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ConfigError(f"{players} players is outside {MIN_PLAYERS}..{MAX_PLAYERS}")
        if straddle and players < 3:
            raise ConfigError("a straddle needs three or more players")
        blinds = [small_blind, big_blind] + [0] * (players - 2)
        if straddle:
            blinds[2] = straddle
        if big_blind_ante:
            antes = [0] * players
            antes[1] = ante
        else:
            antes = [ante] * players
        fixed = structure is BettingStructure.FIXED_LIMIT
        return cls(
            structure=structure,
            antes=tuple(antes),
            blinds_or_straddles=tuple(blinds),
            min_bet=0 if fixed else big_blind,
            small_bet=big_blind if fixed else 0,
            big_bet=2 * big_blind if fixed else 0,
            split=split,
            rake=rake,
            reopen=reopen,
            showdown=showdown,
            odd_chip=odd_chip,
            first_to_show=first_to_show,
        )


_STRUCTURES = {
    "no-limit": BettingStructure.NO_LIMIT,
    "pot-limit": BettingStructure.POT_LIMIT,
    "fixed-limit": BettingStructure.FIXED_LIMIT,
    "nl": BettingStructure.NO_LIMIT,
    "pl": BettingStructure.POT_LIMIT,
    "fl": BettingStructure.FIXED_LIMIT,
}
_STRUCTURE_NAMES = {
    BettingStructure.NO_LIMIT: "no-limit",
    BettingStructure.POT_LIMIT: "pot-limit",
    BettingStructure.FIXED_LIMIT: "fixed-limit",
}


def _whole(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"{name} {value!r} must be a whole number >= {low}")
    return value


def _percent(value: object) -> Fraction:
    """A percentage given as a number or text (``5``, ``"2.5"``, ``"5/2"``) as a fraction."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise ConfigError(f"rake_percent {value!r} is not a number")
    try:
        return Fraction(Decimal(str(value))) / 100
    except (InvalidOperation, ValueError):
        pass
    try:
        return Fraction(str(value)) / 100
    except (ValueError, ZeroDivisionError):
        raise ConfigError(f"rake_percent {value!r} is not a number") from None


def _percent_text(share: Fraction) -> str:
    """A share as the percentage a table writes: ``"5"``, ``"2.5"`` (``"p/q"`` when it has
    no finite decimal form)."""
    percent = share * 100
    if percent.denominator == 1:
        return str(percent.numerator)
    text = format(Decimal(percent.numerator) / Decimal(percent.denominator), "f")
    return text if Fraction(Decimal(text)) == percent else str(percent)


_T = TypeVar("_T", ShowdownRule, OddChip, SplitPolicy, FirstToShow)


def _choice(name: str, value: Any, kind: type[_T]) -> _T:
    try:
        return kind(value)
    except ValueError:
        raise ConfigError(f"{name} {value!r} is not one of {[m.value for m in kind]}") from None


_ZERO, _HUNDRED = Chips(0), Chips(100)


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemTableConfig:
    """A cash table's rules: stakes, structure, seats, buy-ins, rake and the showdown
    options (docs/rules.md); each hand is played under :meth:`hand_config`.

    Amounts are in the table's units (minor units at a server table, chips at the
    terminal); under the ``exact`` split policy the engine counts ``EXACT_SCALE`` engine
    units per table unit (:meth:`hand_config` scales them). ``big_blind`` defaults to twice
    the small blind, the buy-ins to 40 and 100 big blinds.

    >>> config = HoldemTableConfig.from_dict({"small_blind": 50, "rake_percent": "2.5"})
    >>> config.big_blind, config.min_buy_in, config.rake.percent
    (100, 4000, Fraction(1, 40))
    >>> HoldemTableConfig.from_dict(config.to_dict()) == config
    True

    Raises:
        ConfigError: a wrong type, or amounts that do not fit together.
    """

    name: str = "Texas Hold'em"
    small_blind: Chips = _HUNDRED
    big_blind: Chips = _ZERO
    """0: twice the small blind."""
    ante: Chips = _ZERO
    structure: BettingStructure = BettingStructure.NO_LIMIT
    max_seats: int = 6
    min_buy_in: Chips = _ZERO
    """0: 40 big blinds."""
    max_buy_in: Chips = _ZERO
    """0: 100 big blinds."""
    rake: Rake = field(default=NO_RAKE)
    """spec/holdem.md "House": a percentage of each pot up to a cap, none without a flop."""
    showdown: ShowdownRule = ShowdownRule.SEED
    odd_chip: OddChip = OddChip.POSITION
    split: SplitPolicy = SplitPolicy.LIVE
    first_to_show: FirstToShow = FirstToShow.HAND

    def __post_init__(self) -> None:
        _whole("small_blind", self.small_blind, 1)
        if self.big_blind == 0:
            object.__setattr__(self, "big_blind", 2 * self.small_blind)
        big = _whole("big_blind", self.big_blind, 1)
        if big < self.small_blind:
            raise ConfigError(f"big blind {big} is below the small blind")
        _whole("ante", self.ante, 0)
        seats = _whole("max_seats", self.max_seats, MIN_PLAYERS)
        if seats > MAX_PLAYERS:
            raise ConfigError(f"max_seats {seats} is above {MAX_PLAYERS}")
        for name, blinds in (("min_buy_in", 40), ("max_buy_in", 100)):
            if getattr(self, name) == 0:
                object.__setattr__(self, name, blinds * big)
            _whole(name, getattr(self, name), 1)
        if self.min_buy_in > self.max_buy_in:
            raise ConfigError(f"min_buy_in {self.min_buy_in} is above max_buy_in")
        if self.min_buy_in < big + self.ante:
            raise ConfigError(f"min_buy_in {self.min_buy_in} does not cover the forced bets")
        object.__setattr__(self, "showdown", _choice("showdown", self.showdown, ShowdownRule))
        object.__setattr__(self, "odd_chip", _choice("odd_chip", self.odd_chip, OddChip))
        object.__setattr__(self, "split", _choice("split", self.split, SplitPolicy))
        object.__setattr__(
            self, "first_to_show", _choice("first_to_show", self.first_to_show, FirstToShow)
        )
        if not isinstance(self.structure, BettingStructure) or not isinstance(self.rake, Rake):
            raise ConfigError("structure and rake must be a BettingStructure and a Rake")

    def hand_config(self, players: int) -> HoldemConfig:
        """The engine's rules for a hand of ``players`` (amounts in engine units)."""
        unit = self.split.unit
        cap = self.rake.cap
        return HoldemConfig.cash(
            players=players,
            small_blind=self.small_blind * unit,
            big_blind=self.big_blind * unit,
            ante=self.ante * unit,
            structure=self.structure,
            split=self.split,
            rake=self.rake if unit == 1 or cap is None else replace(self.rake, cap=cap * unit),
            showdown=self.showdown,
            odd_chip=self.odd_chip,
            first_to_show=self.first_to_show,
        )

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready data, in the keys of a tables TOML (``split`` only when
        not the default)."""
        out: dict[str, Any] = {
            "name": self.name,
            "structure": _STRUCTURE_NAMES[self.structure],
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "max_seats": self.max_seats,
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
            "rake_percent": _percent_text(self.rake.percent),
            "rake_cap": self.rake.cap,
            "no_flop_no_drop": self.rake.no_flop_no_drop,
            "showdown": self.showdown.value,
            "odd_chip": self.odd_chip.value,
            "first_to_show": self.first_to_show.value,
        }
        if self.split is not SplitPolicy.LIVE:
            out["split"] = self.split.value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HoldemTableConfig:
        """Build from :meth:`to_dict` output or a TOML table; every key is optional.

        Raises:
            ConfigError: an unknown key, or a value that is not valid.
        """
        if not isinstance(data, Mapping):
            raise ConfigError(f"hold'em rules must be a table, not {data!r}")
        unknown = sorted(set(data) - _TABLE_KEYS)
        if unknown:
            raise ConfigError(
                f"unknown hold'em rules {unknown}; the settings are {sorted(_TABLE_KEYS)}"
            )
        options = {k: v for k, v in data.items() if k in _PLAIN_KEYS}
        if "name" in options:
            options["name"] = str(options["name"])
        if "structure" in data:
            structure = data["structure"]
            if structure not in _STRUCTURES:
                names = sorted(set(_STRUCTURE_NAMES.values()))
                raise ConfigError(f"structure {structure!r} is not one of {names}")
            options["structure"] = _STRUCTURES[structure]
        cap = data.get("rake_cap")
        no_flop = data.get("no_flop_no_drop", True)
        if not isinstance(no_flop, bool):
            raise ConfigError(f"no_flop_no_drop {no_flop!r} must be true or false")
        options["rake"] = Rake(
            percent=_percent(data.get("rake_percent", 0)),
            cap=None if cap is None else _whole("rake_cap", cap, 0),
            no_flop_no_drop=no_flop,
        )
        return cls(**options)


_PLAIN_KEYS = frozenset(
    {
        "name",
        "small_blind",
        "big_blind",
        "ante",
        "max_seats",
        "min_buy_in",
        "max_buy_in",
        "showdown",
        "odd_chip",
        "split",
        "first_to_show",
    }
)
_TABLE_KEYS = _PLAIN_KEYS | {"structure", "rake_percent", "rake_cap", "no_flop_no_drop"}
