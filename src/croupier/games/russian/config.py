"""Table settings for Russian Poker: limits, options and pay tables as validated data.

Every decision where casinos differ (spec/russian.md) is a field here.

>>> config = RussianConfig()
>>> config.bet_paytable.pay(Combination.STRAIGHT), config.bonus_paytable.pay(HandCategory.STRAIGHT)
(4, 40)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import IntEnum, StrEnum
from typing import Any

from croupier.chips import Chips
from croupier.errors import ConfigError
from croupier.evaluator import HandCategory

__all__ = [
    "LIMITS",
    "BetPaytable",
    "BonusOnFold",
    "BonusPaytable",
    "Combination",
    "DuplicateRankStraights",
    "FailedBuyAnte",
    "RussianConfig",
]


class Combination(IntEnum):
    """A paying combination on the Bet (spec/russian.md "Bet pay table"), lowest first."""

    ACE_KING = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """The display name (``"Ace-King"``, ``"Two pair"``)."""
        return (
            "Ace-King" if self is Combination.ACE_KING else self.name.replace("_", " ").capitalize()
        )


class DuplicateRankStraights(StrEnum):
    """How a six-card hand such as K-Q-J-T-9-9 is paid (spec/russian.md "Two combinations")."""

    TWO_STRAIGHTS = "two_straights"
    """Two straights (the default)."""
    STRAIGHT_PLUS_PAIR = "straight_plus_pair"
    """A straight and a pair."""


class FailedBuyAnte(StrEnum):
    """The Ante of a box that bought the dealer's game when the bought game still does not
    qualify (spec/russian.md "Dealer and settlement")."""

    FORFEIT = "forfeit"
    """Not paid: the player gave up the Ante's even-money payment to buy, so it is returned
    and the fee is lost (seed 004's letter; Senator: "If no game was bought for Dealer, ANTE
    is not paid"). The default."""
    PAID = "paid"
    """Paid 1:1 as if the game had not been bought (the fee is still lost)."""


class BonusOnFold(StrEnum):
    """What a folded box's Bonus does (spec/russian.md "Bonus")."""

    LOST = "lost"
    """Lost with the box's other bets (seed 004: "altrimenti perde le puntate fatte"). The
    default."""
    STANDS = "stands"
    """Settled on the first five cards whatever happens to the main bets."""


LIMITS = ("ante_min", "ante_max", "bonus_min", "bonus_max")
"""The settings a change during a betting window applies to at once, for the boxes placed
after it; every other setting takes effect from the next round."""

_CHOICES: dict[str, type[StrEnum]] = {
    "duplicate_rank_straights": DuplicateRankStraights,
    "failed_buy_ante": FailedBuyAnte,
    "bonus_on_fold": BonusOnFold,
}
"""The settings that take one of a few words, and their words."""


def _check_odds(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"pay table entry {name} = {value!r} is not a whole number >= 0")


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPaytable:
    """Odds to 1 paid on the Bet per combination (spec/russian.md, standard table)."""

    royal_flush: int = 100
    straight_flush: int = 50
    four_of_a_kind: int = 20
    full_house: int = 7
    flush: int = 5
    straight: int = 4
    three_of_a_kind: int = 3
    two_pair: int = 2
    pair: int = 1
    ace_king: int = 1

    def __post_init__(self) -> None:
        previous = -1
        for combination in Combination:
            odds = getattr(self, combination.name.lower())
            _check_odds(combination.name.lower(), odds)
            if odds < previous:
                raise ConfigError(
                    f"{combination.label} pays {odds}, less than a lower combination ({previous})"
                )
            previous = odds

    def pay(self, combination: Combination) -> int:
        """The odds to 1 of ``combination``."""
        value: int = getattr(self, combination.name.lower())
        return value

    def as_tuple(self) -> tuple[int, ...]:
        """The odds indexed by :class:`Combination` value (for kernels)."""
        return tuple(self.pay(c) for c in Combination)


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusPaytable:
    """Odds to 1 on the Bonus by the category of the first five cards (0 = the bet loses).

    The default is Casino Aragon's table (spec/russian.md "Bonus").
    """

    royal_flush: int = 1000
    straight_flush: int = 500
    four_of_a_kind: int = 200
    full_house: int = 70
    flush: int = 50
    straight: int = 40
    three_of_a_kind: int = 0
    two_pair: int = 0
    pair: int = 0
    high_card: int = 0

    def __post_init__(self) -> None:
        for category in HandCategory:
            _check_odds(category.name.lower(), getattr(self, category.name.lower()))

    def pay(self, category: HandCategory) -> int:
        """The odds to 1 for a first five of ``category`` (0: the Bonus loses)."""
        value: int = getattr(self, category.name.lower())
        return value

    def as_tuple(self) -> tuple[int, ...]:
        """The odds indexed by :class:`HandCategory` value (for kernels)."""
        return tuple(self.pay(c) for c in HandCategory)


_ANTE_MIN = Chips(100)
_ANTE_MAX = Chips(10_000)
_BONUS_MIN = Chips(100)
_BONUS_MAX = Chips(2_500)
_MAX_PAYOUT = Chips(5_000_000)
_DECK = 52
_BOOLS = (
    "dealer_upcard",
    "rebuy_same_rank",
    "ante_pays_on_win",
    "blind_insurance",
    "blind_sixth_card",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RussianConfig:
    """Everything a Russian Poker table posts. Amounts are :data:`Chips` (minor units).

    Raises:
        ConfigError: a limit or option out of range.
    """

    ante_min: Chips = _ANTE_MIN
    """Smallest Ante per box."""
    ante_max: Chips = _ANTE_MAX
    """Largest Ante per box."""
    bonus_min: Chips = _BONUS_MIN
    """Smallest Bonus bet when one is placed (0 means no Bonus)."""
    bonus_max: Chips = _BONUS_MAX
    """Largest Bonus bet."""
    max_payout: Chips | None = _MAX_PAYOUT
    """Maximum paid on a box's Bet (the two combinations), spec "Table"; ``None``: no cap.

    Decision: the cap applies to the pay-table win on the Bet; the Bonus, the Ante and the
    insurance are paid besides it."""
    max_players: int = 4
    """Players per table (seed: four)."""
    boxes: int = 6
    """Betting boxes on the layout."""
    bet_multiple: int = 2
    """The Bet is this many Antes (spec: 2)."""
    draw_fee_multiple: int = 1
    """Fee, in Antes, to exchange cards or buy a sixth card (spec: 1)."""
    buy_fee_multiple: int = 1
    """Fee, in Antes, to buy the dealer's game (spec: 1)."""
    insurance_min_multiple: int = 1
    """Smallest insurance, in Antes (spec: 1)."""
    dealer_upcard: bool = False
    """Show the dealer's last card face up (spec Decision; off as in the seed)."""
    rebuy_same_rank: bool = True
    """When buying the dealer's game, replace again while the new card has the rank of the
    card it replaced (spec Decision; on)."""
    duplicate_rank_straights: DuplicateRankStraights = DuplicateRankStraights.TWO_STRAIGHTS
    """How K-Q-J-T-9-9 is paid."""
    bet_paytable: BetPaytable = field(default_factory=BetPaytable)
    """Odds on the Bet."""
    bonus_paytable: BonusPaytable = field(default_factory=BonusPaytable)
    """Odds on the Bonus."""
    ante_pays_on_win: bool = False
    """Pay the Ante 1:1 besides the Bet when the player beats a qualifying dealer (Royal
    Casino Riga); off: the Ante is returned (seed 004)."""
    open_boxes_per_player: int = 1
    """Open boxes a player may hold (seed: one; Aragon, Senator, Corona, Sochi: two). A
    player sees an open box's cards only once their earlier open box has decided."""
    exchange_min: int = 1
    """Fewest cards an exchange may replace (seed: 1; Corona: 2)."""
    exchange_max: int = 5
    """Most cards an exchange may replace (seed: 5)."""
    blind_insurance: bool = False
    """A blind box may place insurance with its Ante, unseen (Corona): it stands only if the
    box ends with three of a kind or better, up to the hand's limit; otherwise it returns."""
    blind_sixth_card: bool = False
    """A blind box may buy its sixth card in advance, with its Ante (Sochi): the fee is
    placed with the box and the card dealt right after the deal, in box order."""
    failed_buy_ante: FailedBuyAnte = FailedBuyAnte.FORFEIT
    """A bought dealer's game that still does not qualify: the Ante is returned unpaid
    (``forfeit``, seed 004) or paid 1:1 (``paid``)."""
    bonus_on_fold: BonusOnFold = BonusOnFold.LOST
    """A folded box's Bonus is lost with its other bets (``lost``, seed 004) or settled on
    the first five cards all the same (``stands``)."""

    def __post_init__(self) -> None:
        for name in ("ante_min", "ante_max", "bonus_min", "bonus_max"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{name} = {value!r} is not a whole amount >= 0")
        if not 0 < self.ante_min <= self.ante_max:
            raise ConfigError(
                f"ante limits {self.ante_min}..{self.ante_max} are not 0 < min <= max"
            )
        if not 0 < self.bonus_min <= self.bonus_max:
            raise ConfigError(
                f"bonus limits {self.bonus_min}..{self.bonus_max} are not 0 < min <= max"
            )
        if self.max_payout is not None and (
            isinstance(self.max_payout, bool)
            or not isinstance(self.max_payout, int)
            or self.max_payout <= 0
        ):
            raise ConfigError(f"max_payout = {self.max_payout!r} is not a positive amount")
        if not 1 <= self.max_players <= 4:
            raise ConfigError(f"max_players = {self.max_players} is outside 1..4 (seed: four)")
        # one deck: the dealer's five and five per box must fit with room to draw
        if not 1 <= self.boxes <= 8:
            raise ConfigError(f"boxes = {self.boxes} is outside 1..8")
        for name in (
            "bet_multiple",
            "draw_fee_multiple",
            "buy_fee_multiple",
            "insurance_min_multiple",
        ):
            value = getattr(self, name)
            # spec/russian.md: 2, 1, 1, 1; a table keeps them within ten Antes
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
                raise ConfigError(f"{name} = {value!r} is not a whole number from 1 to 10")
        if not isinstance(self.bet_paytable, BetPaytable):
            raise ConfigError("bet_paytable must be a BetPaytable")
        if not isinstance(self.bonus_paytable, BonusPaytable):
            raise ConfigError("bonus_paytable must be a BonusPaytable")
        for name, kind in _CHOICES.items():
            object.__setattr__(self, name, _choice(name, getattr(self, name), kind))
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} = {getattr(self, name)!r} must be true or false")
        self._check_draws()

    def _check_draws(self) -> None:
        opens = self.open_boxes_per_player
        if isinstance(opens, bool) or not isinstance(opens, int) or not 1 <= opens <= 2:
            raise ConfigError(f"open_boxes_per_player = {opens!r} is outside 1..2")
        low, high = self.exchange_min, self.exchange_max
        for name, value in (("exchange_min", low), ("exchange_max", high)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{name} = {value!r} is not a whole number")
        if not 1 <= low <= high <= 5:
            raise ConfigError(f"exchange range {low}..{high} is not 1 <= min <= max <= 5")
        # spec/russian.md "Table": the round's discards are reshuffled when the deck runs
        # out, so a round never needs more cards than are out of play at one time.
        # A buy under rebuy_same_rank may draw the three other cards of the replaced rank
        # before one that stands; an exchange holds its discards while it draws.
        needed = max(
            self.most_cards_in_play + (3 if self.rebuy_same_rank else 0),
            self.most_cards_in_play - self.most_open_boxes - 1 + high,
        )
        if needed > _DECK:
            raise ConfigError(
                f"{self.boxes} boxes with {opens} open box(es) per player can need "
                f"{needed} cards at once (sixth cards, bought dealer's games and their "
                f"re-draws included); one deck has {_DECK}"
            )

    @property
    def most_open_boxes(self) -> int:
        """The most open boxes one round can have."""
        return min(self.boxes, self.max_players * self.open_boxes_per_player)

    @property
    def most_cards_in_play(self) -> int:
        """The most cards a round holds at one time: the dealer's five, five per box, a sixth
        card per box that may buy one, and the card each open box may buy for the dealer
        (the last one being drawn included)."""
        opens = self.most_open_boxes
        sixths = self.boxes if self.blind_sixth_card else opens
        return 5 + 5 * self.boxes + sixths + opens

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready data (pay tables as objects, enums as values)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, BetPaytable | BonusPaytable):
                value = {g.name: getattr(value, g.name) for g in fields(value)}
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RussianConfig:
        """Build from :meth:`to_dict` output or a TOML table; every field is optional.

        Raises:
            ConfigError: an unknown setting, or a value that is not valid.
        """
        if not isinstance(data, Mapping):
            raise ConfigError(f"russian poker rules must be a table, not {data!r}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(
                f"unknown russian poker rules {unknown}; the settings are {sorted(names)}"
            )
        options = dict(data)
        for key, table in (("bet_paytable", BetPaytable), ("bonus_paytable", BonusPaytable)):
            if key in options and not isinstance(options[key], table):
                options[key] = _paytable(key, table, options[key])
        for name, kind in _CHOICES.items():
            if name in options:
                options[name] = _choice(name, options[name], kind)
        cap = options.get("max_payout", _MAX_PAYOUT)
        if cap == "none" or (type(cap) is int and cap == 0):
            options["max_payout"] = None  # TOML has no null: 0 or "none" means no cap
        return cls(**options)


def _choice(name: str, value: Any, kind: type[StrEnum]) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise ConfigError(f"{name} = {value!r} is not one of {[m.value for m in kind]}") from None


def _paytable(
    key: str, table: type[BetPaytable] | type[BonusPaytable], value: object
) -> BetPaytable | BonusPaytable:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{key} must be a table of odds, not {value!r}")
    names = {f.name for f in fields(table)}
    unknown = sorted(set(value) - names)
    if unknown:
        raise ConfigError(f"{key}: unknown lines {unknown}; the lines are {sorted(names)}")
    try:
        return table(**value)
    except ConfigError as exc:
        raise ConfigError(f"{key}: {exc}") from None
