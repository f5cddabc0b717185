"""Hold'em hands <-> PHH, the Poker Hand History format (TOML; spec/phh.md).

A ``.phh`` file is one hand; a ``.phhs`` file holds many as tables ``[1]``, ``[2]``...
Amounts keep their exact decimal value (``decimal.Decimal`` for non-integral ones); replaying
scales them to integer minor units by a per-hand power of ten, times ``EXACT_SCALE`` for the
``exact`` split policy, so halves such as ``10112.5`` come out exactly.

>>> hand = loads('''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ['d dh p1 AsAd', 'd dh p2 ????', 'd dh p3 7h2c', 'p3 cbr 6', 'p1 f', 'p2 f']
... ''')
>>> replay(hand).finishing_stacks
(Fraction(99, 1), Fraction(98, 1), Fraction(103, 1))
>>> loads(dumps(hand)) == hand
True
"""

from __future__ import annotations

import datetime as dt
import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import IO, Any

from croupier.cards import Card, format_cards, parse_cards
from croupier.errors import CroupierError, NotationError, RecordError
from croupier.games.holdem.config import (
    EXACT_SCALE,
    BettingStructure,
    FirstToShow,
    HoldemConfig,
    OddChip,
    Rake,
    ReopenRule,
    ShowdownRule,
    SplitPolicy,
)
from croupier.games.holdem.events import (
    BoardDealt,
    Called,
    Checked,
    Folded,
    HoleDealt,
    Mucked,
    Raised,
    Shown,
)
from croupier.games.holdem.state import CashHand, Phase

__all__ = [
    "HandHistory",
    "Replay",
    "dump",
    "dump_all",
    "dumps",
    "dumps_all",
    "format_amount",
    "from_hand",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "replay",
]

Amount = int | Decimal
"""A PHH amount as read: ``int`` when integral in the file, else an exact ``Decimal``."""

_VARIANTS = {structure.variant: structure for structure in BettingStructure}
_KNOWN = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
    "finishing_stacks",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandHistory:
    """One hand as recorded in PHH; ``fields`` keeps every other key in file order."""

    variant: str
    antes: tuple[Amount, ...]
    blinds_or_straddles: tuple[Amount, ...]
    starting_stacks: tuple[Amount, ...]
    actions: tuple[str, ...]
    min_bet: Amount | None = None
    small_bet: Amount | None = None
    big_bet: Amount | None = None
    ante_trimming_status: bool = False
    finishing_stacks: tuple[Amount, ...] | None = None
    fields: tuple[tuple[str, Any], ...] = field(default=())

    @property
    def players(self) -> int:
        return len(self.starting_stacks)

    def get(self, key: str, default: Any = None) -> Any:
        """A descriptive field (``players``, ``event``, ``hand``...) or ``default``."""
        for name, value in self.fields:
            if name == key:
                return value
        return default

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> HandHistory:
        """Build from a parsed TOML table.

        Raises:
            RecordError: a required field is missing or malformed.
        """
        try:
            variant = str(data["variant"])
            if variant not in _VARIANTS:
                raise RecordError(f"variant {variant!r} is not Texas hold'em (NT, PT, FT)")

            def amounts(key: str) -> tuple[Amount, ...]:
                return tuple(_amount(value) for value in data[key])

            def optional(key: str) -> Amount | None:
                return _amount(data[key]) if key in data else None

            finishing = amounts("finishing_stacks") if "finishing_stacks" in data else None
            return cls(
                variant=variant,
                antes=amounts("antes"),
                blinds_or_straddles=amounts("blinds_or_straddles"),
                starting_stacks=amounts("starting_stacks"),
                actions=tuple(str(action) for action in data["actions"]),
                min_bet=optional("min_bet"),
                small_bet=optional("small_bet"),
                big_bet=optional("big_bet"),
                ante_trimming_status=bool(data.get("ante_trimming_status", False)),
                finishing_stacks=finishing,
                fields=tuple((k, v) for k, v in data.items() if k not in _KNOWN),
            )
        except KeyError as exc:
            raise RecordError(f"PHH hand is missing the field {exc.args[0]!r}") from None
        except TypeError as exc:
            raise RecordError(f"PHH hand has a malformed field: {exc}") from None


def _amount(value: Any) -> Amount:
    if isinstance(value, bool):
        raise RecordError(f"amount {value!r} is not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise RecordError(f"amount {value} is not finite (unknown stacks are not supported)")
        return value
    if isinstance(value, float):
        return _amount(Decimal(repr(value)))
    raise RecordError(f"amount {value!r} is not a number")


# -- reading -----------------------------------------------------------------------------


def _parse(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise NotationError(f"not valid TOML: {exc}") from None


def loads(text: str) -> HandHistory:
    """Read one hand from the text of a ``.phh`` file."""
    return HandHistory.from_mapping(_parse(text))


def loads_all(text: str) -> tuple[HandHistory, ...]:
    """Read every hand of a ``.phhs`` file (tables ``[1]``, ``[2]``... in index order)."""
    data = _parse(text)
    try:
        keys = sorted(data, key=int)
    except ValueError:
        raise RecordError("a .phhs file holds only tables named [1], [2], ...") from None
    return tuple(HandHistory.from_mapping(data[key]) for key in keys)


def load(fp: IO[bytes] | IO[str]) -> HandHistory:
    """Read one hand from an open ``.phh`` file."""
    return loads(_text(fp.read()))


def load_all(fp: IO[bytes] | IO[str]) -> tuple[HandHistory, ...]:
    """Read every hand from an open ``.phhs`` file."""
    return loads_all(_text(fp.read()))


def _text(content: bytes | str) -> str:
    return content.decode("utf-8") if isinstance(content, bytes) else content


# -- writing -----------------------------------------------------------------------------


def _toml_string(text: str) -> str:
    if "'" not in text and all(c == "\t" or (c >= " " and c != "\x7f") for c in text):
        return f"'{text}'"
    escapes = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    escaped = "".join(
        escapes.get(c, c) if c in escapes or (c >= " " and c != "\x7f") else f"\\u{ord(c):04x}"
        for c in text
    )
    return f'"{escaped}"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        text = format(value, "f")
        return text if "." in text else text + ".0"
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{" + inner + "}"
    raise RecordError(f"cannot write {value!r} in TOML")


def _toml_key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    return key if bare else _toml_string(key)


def dumps(hand: HandHistory) -> str:
    """Write one hand as the text of a ``.phh`` file."""
    lines = [f"variant = {_toml_value(hand.variant)}"]
    lines.append(f"ante_trimming_status = {_toml_value(hand.ante_trimming_status)}")
    lines.append(f"antes = {_toml_value(hand.antes)}")
    lines.append(f"blinds_or_straddles = {_toml_value(hand.blinds_or_straddles)}")
    for key in ("min_bet", "small_bet", "big_bet"):
        value = getattr(hand, key)
        if value is not None:
            lines.append(f"{key} = {_toml_value(value)}")
    lines.append(f"starting_stacks = {_toml_value(hand.starting_stacks)}")
    lines.append(f"actions = {_toml_value(hand.actions)}")
    lines.extend(f"{_toml_key(key)} = {_toml_value(value)}" for key, value in hand.fields)
    if hand.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_toml_value(hand.finishing_stacks)}")
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[HandHistory]) -> str:
    """Write hands as the text of a ``.phhs`` file."""
    return "\n".join(f"[{index}]\n{dumps(hand)}" for index, hand in enumerate(hands, 1))


def dump(hand: HandHistory, fp: IO[str]) -> None:
    """Write one hand to an open text file."""
    fp.write(dumps(hand))


def dump_all(hands: Iterable[HandHistory], fp: IO[str]) -> None:
    """Write hands to an open text file as a ``.phhs``."""
    fp.write(dumps_all(hands))


def from_hand(state: CashHand, **fields: Any) -> HandHistory:
    """The PHH record of a hand played by the engine (amounts in its integer units).

    Forced bets, burns, returned bets and pot awards are not written (spec/phh.md 4); a
    rake, the ``exact`` split policy, the casino reopening rule, the seed's showdown rule and
    the odd chip by suit are kept in the user keys ``_rake_percent``, ``_rake_cap``,
    ``_split``, ``_reopen``, ``_showdown`` and ``_odd_chip``. ``finishing_stacks`` is written
    once the hand is over.
    """
    config = state.config
    actions: list[str] = []
    for event in state.events:
        match event:
            case HoleDealt(seat=seat, cards=cards):
                actions.append(f"d dh p{seat + 1} {_cards_text(cards)}")
            case BoardDealt(cards=cards):
                actions.append(f"d db {format_cards(cards)}")
            case Folded(seat=seat):
                actions.append(f"p{seat + 1} f")
            case Checked(seat=seat) | Called(seat=seat):
                actions.append(f"p{seat + 1} cc")
            case Raised(seat=seat, to=to):
                actions.append(f"p{seat + 1} cbr {to}")
            case Shown(seat=seat, cards=cards):
                actions.append(f"p{seat + 1} sm {_cards_text(cards)}")
            case Mucked(seat=seat):
                actions.append(f"p{seat + 1} sm")
    extra: dict[str, Any] = {}
    if config.rake.percent:
        extra["_rake_percent"] = str(config.rake.percent)
        if config.rake.cap is not None:
            extra["_rake_cap"] = config.rake.cap
        extra["_rake_no_flop_no_drop"] = config.rake.no_flop_no_drop
    if config.split is SplitPolicy.EXACT:
        extra["_split"] = "exact"
    if config.reopen is not ReopenRule.POKERKIT:
        extra["_reopen"] = config.reopen.value
    if config.showdown is not ShowdownRule.ANY_MUCK:
        extra["_showdown"] = config.showdown.value
    if config.odd_chip is not OddChip.POSITION:
        extra["_odd_chip"] = config.odd_chip.value
    if config.showdown is not ShowdownRule.ANY_MUCK or config.first_to_show is not FirstToShow.HAND:
        extra["_first_to_show"] = config.first_to_show.value
    extra.update(fields)
    fixed = config.structure is BettingStructure.FIXED_LIMIT
    return HandHistory(
        variant=config.structure.variant,
        antes=config.antes,
        blinds_or_straddles=config.blinds_or_straddles,
        starting_stacks=state.starting_stacks,
        actions=tuple(actions),
        min_bet=None if fixed else config.min_bet,
        small_bet=config.small_bet if fixed else None,
        big_bet=config.big_bet if fixed else None,
        ante_trimming_status=config.ante_trimming,
        finishing_stacks=state.stacks if state.is_over else None,
        fields=tuple(extra.items()),
    )


def _cards_text(cards: Sequence[Card] | None) -> str:
    return "????" if cards is None else format_cards(cards)


# -- replaying ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed hand: the engine state after the listed actions, and its money scale."""

    state: CashHand
    scale: int
    """Engine units per unit of the file's amounts."""
    unsettled: str | None = None
    """Why a showdown could not be settled (``strict=False`` only), else ``None``."""

    @property
    def finishing_stacks(self) -> tuple[Fraction, ...]:
        """Each player's stack after the actions, in the file's units (exact)."""
        return tuple(Fraction(stack, self.scale) for stack in self.state.stacks)


def _decimals(value: Amount) -> int:
    if isinstance(value, int):
        return 0
    exponent = value.normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def _scale(hand: HandHistory, cbr: list[Amount]) -> int:
    values: list[Amount] = [*hand.antes, *hand.blinds_or_straddles, *hand.starting_stacks, *cbr]
    values.extend(v for v in (hand.min_bet, hand.small_bet, hand.big_bet) if v is not None)
    places: int = max((_decimals(value) for value in values), default=0)
    return int(10**places)


def _units(value: Amount, scale: int) -> int:
    scaled = value * scale
    integral = int(scaled)
    if integral != scaled:
        raise RecordError(f"amount {value} is finer than the hand's scale")
    return integral


def _rake(hand: HandHistory, scale: int) -> Rake:
    percent = hand.get("_rake_percent")
    if percent is None:
        return Rake()
    cap = hand.get("_rake_cap")
    return Rake(
        percent=Fraction(str(percent)),
        cap=None if cap is None else _units(_amount(cap), scale),
        no_flop_no_drop=bool(hand.get("_rake_no_flop_no_drop", True)),
    )


def config_of(hand: HandHistory, *, scale: int, split: SplitPolicy) -> HoldemConfig:
    """The engine rules of a recorded hand, amounts multiplied by ``scale``."""
    structure = _VARIANTS[hand.variant]

    def units(value: Amount | None) -> int:
        return 0 if value is None else _units(value, scale)

    return HoldemConfig(
        structure=structure,
        antes=tuple(units(a) for a in hand.antes),
        blinds_or_straddles=tuple(units(b) for b in hand.blinds_or_straddles),
        min_bet=units(hand.min_bet),
        small_bet=units(hand.small_bet),
        big_bet=units(hand.big_bet),
        ante_trimming=hand.ante_trimming_status,
        split=split,
        rake=_rake(hand, scale),
        # records from other tools follow PokerKit's reopening rule unless they say otherwise
        reopen=ReopenRule(hand.get("_reopen", ReopenRule.POKERKIT)),
        # ... and let any player muck (the seed's showdown rule only when the record says so)
        showdown=ShowdownRule(hand.get("_showdown", ShowdownRule.ANY_MUCK)),
        odd_chip=OddChip(hand.get("_odd_chip", OddChip.POSITION)),
        # records this engine wrote under seed 002's showdown before issue 28 named the first
        # to show played the river's last bettor (the first to show matters only there)
        first_to_show=FirstToShow(
            hand.get(
                "_first_to_show",
                FirstToShow.RIVER if hand.get("_showdown") is not None else FirstToShow.HAND,
            )
        ),
    )


def _hole(text: str) -> tuple[Card, ...] | None:
    return None if "?" in text else parse_cards(text)


def replay(
    hand: HandHistory, *, split: SplitPolicy | str | None = None, strict: bool = True
) -> Replay:
    """Drive the engine through the hand's actions, then settle a showdown left pending.

    ``split`` defaults to the record's ``_split`` key (written for engine hands that divide
    exactly), else ``live``. With ``strict=False`` a showdown that cannot be settled because
    hole cards are unknown is reported in :attr:`Replay.unsettled` instead of raised.

    Raises:
        RecordError: an action is malformed or illegal in the engine, or the record ends in a
            contested showdown whose cards are unknown.
    """
    policy = SplitPolicy(split if split is not None else hand.get("_split", SplitPolicy.LIVE))
    steps: list[list[str]] = []
    cbr: list[Amount] = []
    for action in hand.actions:
        words = action.split("#", 1)[0].split()
        if words:
            steps.append(words)
            if len(words) == 3 and words[1] == "cbr":
                cbr.append(_amount(Decimal(words[2])))
    scale = _scale(hand, cbr) * (EXACT_SCALE if policy is SplitPolicy.EXACT else 1)
    try:
        config = config_of(hand, scale=scale, split=policy)
        state = CashHand(config, stacks=[_units(s, scale) for s in hand.starting_stacks])
        for words in steps:
            _apply(state, words, scale)
    except RecordError:
        raise
    except (CroupierError, ValueError, IndexError) as exc:
        raise RecordError(f"cannot replay the hand: {exc}") from None
    if state.phase is Phase.SHOWDOWN and len(state.board) == 5:
        try:
            state.finish()
        except RecordError as exc:
            if strict:
                raise
            return Replay(state, scale, str(exc))
    return Replay(state, scale)


def _apply(state: CashHand, words: list[str], scale: int) -> None:
    actor = words[0]
    if actor == "d":
        if state.phase is Phase.HOLE and words[1] == "db":
            _deal_unknown(state)
        if words[1] == "dh":
            state.deal_hole(int(words[2][1:]) - 1, _hole(words[3]))
        elif words[1] == "db":
            state.deal_board(parse_cards(words[2]))
        else:
            raise RecordError(f"unknown dealer action {' '.join(words)!r}")
        return
    if not actor.startswith("p"):
        raise RecordError(f"unknown actor {actor!r}")
    seat = int(actor[1:]) - 1
    if state.phase is Phase.HOLE:
        _deal_unknown(state)
    match words[1:]:
        case ["f"]:
            state.fold(seat)
        case ["cc"]:
            state.check_or_call(seat)
        case ["cbr", amount]:
            state.raise_to(seat, _units(_amount(Decimal(amount)), scale))
        case ["sm"]:
            state.muck(seat)
        case ["sm", "-"]:
            state.show(seat)
        case ["sm", cards]:
            state.show(seat, _hole(cards))
        case _:
            raise RecordError(f"unknown action {' '.join(words)!r}")


def _deal_unknown(state: CashHand) -> None:
    for seat in range(state.players):
        if state.can_deal_hole(seat, None):
            state.deal_hole(seat, None)


def format_amount(value: Fraction | Amount) -> str:
    """Write an exact amount as PHH does: ``10310``, ``10112.5``, ``2059.9`` (``p/q`` if the
    amount has no finite decimal form)."""
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return str(fraction.numerator)
    denominator = fraction.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{fraction.numerator}/{fraction.denominator}"
    text = format(Decimal(fraction.numerator) / Decimal(fraction.denominator), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
