"""The one engine protocol (croupier.games.protocol), checked the same way for every game.

Hypothesis drives random walks through UTH, Russian Poker, Caribbean Stud and Hold'em rounds (several table
options each). At every step it tries candidate actions -- the legal ones with their amounts
at and inside their bounds, near misses (just out of bounds, not a multiple, another seat or
box, a wrong type) and actions drawn at random -- and checks that:

- ``can(action)`` is true exactly when an entry of ``legal_actions(action.seat)`` admits it;
- a refused action raises ``IllegalActionError`` with a reason listed in docs/errors.md and
  changes nothing: events, every seat's view, the stakes and the legal actions are equal
  before and after;
- every seat's view holds no card but those the events it may see (``seen_by``) showed it;
- ``staked()`` is what the events put on the table;
- ``price(action)``, the wallet money an accepted action needs, is exactly what it puts on
  the table (what ``staked()`` grows by; Hold'em: 0, its chips are at the table already);

and at a random point it voids the round: the void event gives every seat back what it had
staked, ``returns()`` says the same, and nothing is legal any more.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_event
from hypothesis import strategies as st

from croupier.cards import DECK
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import IllegalActionError
from croupier.games import caribbean, holdem, russian, uth
from croupier.games.protocol import Action, Among, Amount, Event, Legal, Subset
from croupier.history.records import to_json

DOCS = Path(__file__).resolve().parents[2] / "docs" / "errors.md"
_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def documented_reasons() -> set[str]:
    """Every reason in the tables of docs/errors.md (first column, in backquotes)."""
    return set(re.findall(r"^\| `([a-z_]+)` \|", DOCS.read_text(encoding="utf-8"), re.M))


REASONS = documented_reasons()


@dataclass(frozen=True)
class Game:
    """What the walk needs of one game: a fresh engine, the seats to try, random actions
    and an oracle of the stakes from the events."""

    name: str
    new: Callable[[int], Any]
    seats: tuple[int, ...]
    random_action: Callable[[st.DrawFn, Any], Action]
    staked: Callable[[Any], dict[int, int]]
    refunds: Callable[[Any, Event], dict[int, int]]


# -- UTH -------------------------------------------------------------------------------------


def _uth_staked(rnd: uth.UthRound) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in rnd.events:
        match e:
            case uth.events.BetsPlaced(seat=seat, ante=ante, blind=blind, trips=trips):
                out[seat] = ante + blind + trips
            case uth.events.BetsWithdrawn(seat=seat):
                del out[seat]
            case uth.events.TripsPlaced(seat=seat, trips=trips):
                out[seat] += trips
            case uth.events.PlayBet(seat=seat, amount=amount):
                out[seat] += amount
    return {s: out[s] for s in sorted(out) if out[s]}


def _uth_random(draw: st.DrawFn, rnd: uth.UthRound) -> Action:
    seat = draw(st.integers(-1, 7))
    amount = st.sampled_from([0, 1, 99, 100, 150, 1000, 50_000, 100_000, 100_001, -5])
    kind = draw(st.sampled_from(["bet", "trips", "withdraw", "deal", "check", "play", "fold"]))
    if kind == "bet":
        return uth.PlaceBets(seat=seat, ante=draw(amount), trips=draw(amount))
    if kind == "trips":
        return uth.AddTrips(seat=seat, trips=draw(amount))
    if kind == "withdraw":
        return uth.WithdrawBets(seat=seat)
    if kind == "deal":
        return uth.Deal()
    if kind == "play":
        return uth.Play(seat=seat, multiple=draw(st.integers(0, 11)))
    return uth.Check(seat=seat) if kind == "check" else uth.Fold(seat=seat)


def _uth(config: uth.UthConfig) -> Callable[[int], uth.UthRound]:
    return lambda seed: uth.UthRound(config, Shoe(shuffled(seeded_source(seed))))


def _uth_refunds(rnd: Any, event: Event) -> dict[int, int]:
    assert isinstance(event, uth.events.RoundVoided)
    return {seat: amount for seat, amount in event.refunds if amount}


UTH_OPTIONS = uth.UthConfig(
    max_seats=4,
    dealing=uth.config.Dealing.SEED000,
    play_multiples=uth.config.PlayMultiples(preflop=(3,), flop=(2, 1), river=(1,)),
)
UTH_GAMES = [
    Game("uth", _uth(uth.UthConfig()), tuple(range(-1, 8)), _uth_random, _uth_staked, _uth_refunds),
    Game(
        "uth-live",
        _uth(uth.UthConfig.live(ante_min=100, ante_max=1000)),
        tuple(range(-1, 5)),
        _uth_random,
        _uth_staked,
        _uth_refunds,
    ),
    Game(
        "uth-options",
        _uth(UTH_OPTIONS),
        tuple(range(-1, 6)),
        _uth_random,
        _uth_staked,
        _uth_refunds,
    ),
]


# -- Russian Poker ---------------------------------------------------------------------------


def _russian_staked(rnd: russian.RussianRound) -> dict[int, int]:
    by_box: dict[int, int] = {}
    owner: dict[int, int] = {}
    for e in rnd.events:
        match e:
            case russian.events.BoxPlaced():
                owner[e.box] = e.seat
                by_box[e.box] = e.ante + e.bonus + e.bet + e.insurance + e.fee
            case russian.events.CardsExchanged(box=box, fee=fee):
                by_box[box] += fee
            case russian.events.SixthCardBought(box=box, fee=fee) if not rnd.is_blind(box):
                by_box[box] += fee
            case russian.events.BetPlaced(box=box, bet=bet, insurance=insurance):
                by_box[box] += bet + insurance
            case russian.events.GameBought(box=box, fee=fee):
                by_box[box] += fee
    out: dict[int, int] = {}
    for box, amount in by_box.items():
        out[owner[box]] = out.get(owner[box], 0) + amount
    return dict(sorted(out.items()))


def _russian_random(draw: st.DrawFn, rnd: russian.RussianRound) -> Action:
    seat = draw(st.integers(-1, 4))
    box = draw(st.integers(-1, 7))
    amount = st.sampled_from([0, 1, 99, 100, 250, 2500, 10_000, 10_001, -1])
    kind = draw(st.sampled_from(["box", "deal", "exchange", "sixth", "bet", "fold", "buy", "no"]))
    if kind == "box":
        return russian.PlaceBox(
            seat=seat,
            box=box,
            ante=draw(amount),
            bonus=draw(amount),
            blind=draw(st.booleans()),
            insurance=draw(amount),
            sixth_card=draw(st.booleans()),
        )
    if kind == "deal":
        return russian.Deal()
    if kind == "exchange":
        cards = draw(st.lists(st.sampled_from(DECK), max_size=6))
        return russian.Exchange(seat=seat, box=box, discard=tuple(cards))
    if kind == "bet":
        return russian.PlaceBet(seat=seat, box=box, insurance=draw(amount))
    kinds = {
        "sixth": russian.SixthCard,
        "fold": russian.Fold,
        "buy": russian.BuyGame,
        "no": russian.DeclineBuy,
    }
    return kinds[kind](seat=seat, box=box)  # type: ignore[abstract]


def _russian(config: russian.RussianConfig) -> Callable[[int], russian.RussianRound]:
    return lambda seed: russian.RussianRound(config, Shoe(shuffled(seeded_source(seed))))


def _russian_refunds(rnd: russian.RussianRound, event: Event) -> dict[int, int]:
    assert isinstance(event, russian.events.RoundVoided)
    out: dict[int, int] = {}
    for box, amount in event.returned:
        out[rnd.seat_of(box)] = out.get(rnd.seat_of(box), 0) + amount
    return dict(sorted(out.items()))


RUSSIAN_OPTIONS = russian.RussianConfig(
    open_boxes_per_player=2,
    exchange_min=2,
    exchange_max=4,
    blind_insurance=True,
    blind_sixth_card=True,
    dealer_upcard=True,
    boxes=5,
    max_payout=None,
)
RUSSIAN_GAMES = [
    Game(
        "russian",
        _russian(russian.RussianConfig()),
        tuple(range(-1, 5)),
        _russian_random,
        _russian_staked,
        _russian_refunds,
    ),
    Game(
        "russian-options",
        _russian(RUSSIAN_OPTIONS),
        tuple(range(-1, 5)),
        _russian_random,
        _russian_staked,
        _russian_refunds,
    ),
]


# -- Caribbean Stud --------------------------------------------------------------------------


def _caribbean_staked(rnd: caribbean.CaribbeanRound) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in rnd.events:
        match e:
            case caribbean.events.BetsPlaced(seat=seat, ante=ante, progressive=progressive):
                out[seat] = ante + progressive
            case caribbean.events.BetsWithdrawn(seat=seat):
                del out[seat]
            case caribbean.events.ProgressivePlaced(seat=seat, amount=amount):
                out[seat] += amount
            case caribbean.events.Raised(seat=seat, amount=amount):
                out[seat] += amount
    return dict(sorted(out.items()))


def _caribbean_random(draw: st.DrawFn, rnd: caribbean.CaribbeanRound) -> Action:
    seat = draw(st.integers(-1, 9))
    amount = st.sampled_from([0, 1, 99, 100, 150, 1000, 10_000, 10_001, -5])
    kind = draw(st.sampled_from(["bet", "progressive", "withdraw", "deal", "raise", "fold"]))
    if kind == "bet":
        progressive = draw(st.sampled_from([False, True, 1, 0, 100]))
        return caribbean.PlaceBets(seat=seat, ante=draw(amount), progressive=progressive)
    if kind == "progressive":
        return caribbean.AddProgressive(seat=seat)
    if kind == "withdraw":
        return caribbean.WithdrawBets(seat=seat)
    if kind == "deal":
        return caribbean.Deal()
    return caribbean.Raise(seat=seat) if kind == "raise" else caribbean.Fold(seat=seat)


def _caribbean(config: caribbean.CaribbeanConfig) -> Callable[[int], caribbean.CaribbeanRound]:
    return lambda seed: caribbean.CaribbeanRound(
        config, Shoe(shuffled(seeded_source(seed))), jackpot=seed % 5000
    )


def _caribbean_refunds(rnd: Any, event: Event) -> dict[int, int]:
    assert isinstance(event, caribbean.events.RoundVoided)
    return {seat: amount for seat, amount in event.refunds if amount}


CARIBBEAN_OPTIONS = caribbean.CaribbeanConfig(
    max_seats=9,
    ante_min=100,
    ante_max=1000,
    raise_multiple=1,
    max_payout=5000,
    progressive_bet=100,
    dealing=caribbean.Dealing.HANDS,
)
CARIBBEAN_GAMES = [
    Game(
        "caribbean",
        _caribbean(caribbean.CaribbeanConfig()),
        tuple(range(-1, 8)),
        _caribbean_random,
        _caribbean_staked,
        _caribbean_refunds,
    ),
    Game(
        "caribbean-options",
        _caribbean(CARIBBEAN_OPTIONS),
        tuple(range(-1, 10)),
        _caribbean_random,
        _caribbean_staked,
        _caribbean_refunds,
    ),
]


# -- Hold'em ---------------------------------------------------------------------------------


def _holdem(
    players: int, *, structure: holdem.BettingStructure = holdem.BettingStructure.NO_LIMIT
) -> Callable[[int], holdem.CashHand]:
    config = holdem.HoldemConfig.cash(
        players=players, small_blind=50, big_blind=100, ante=10, structure=structure
    )

    def new(seed: int) -> holdem.CashHand:
        stacks = [150 + (seed * 7919 + 337 * p) % 2000 for p in range(players)]
        return holdem.CashHand(config, Shoe(shuffled(seeded_source(seed))), stacks=stacks)

    return new


def _holdem_staked(hand: holdem.CashHand) -> dict[int, int]:
    # the state's own account: what left each stack
    if hand.phase in (holdem.Phase.SETTLED, holdem.Phase.VOIDED):
        return hand.staked()  # checked against the events before it settled
    return {p: hand.starting_stacks[p] - hand.stacks[p] for p in range(hand.players)}


def _holdem_random(draw: st.DrawFn, hand: holdem.CashHand) -> Action:
    seat = draw(st.integers(-1, hand.players))
    kind = draw(st.sampled_from(["fold", "check", "call", "raise", "show", "muck"]))
    if kind == "raise":
        to = draw(st.sampled_from([0, 1, 99, 100, 150, 200, 201, 1000, 5000, -1]))
        return holdem.Raise(seat=seat, to=to)
    kinds = {
        "fold": holdem.Fold,
        "check": holdem.Check,
        "call": holdem.Call,
        "show": holdem.Show,
        "muck": holdem.Muck,
    }
    return kinds[kind](seat=seat)  # type: ignore[abstract]


def _holdem_refunds(hand: Any, event: Event) -> dict[int, int]:
    assert isinstance(event, holdem.events.RoundVoided)
    return dict(event.returned)


HOLDEM_GAMES = [
    Game(
        f"holdem-{n}",
        _holdem(n),
        tuple(range(-1, n + 1)),
        _holdem_random,
        _holdem_staked,
        _holdem_refunds,
    )
    for n in (2, 3, 6)
] + [
    Game(
        "holdem-fixed-limit",
        _holdem(4, structure=holdem.BettingStructure.FIXED_LIMIT),
        tuple(range(-1, 5)),
        _holdem_random,
        _holdem_staked,
        _holdem_refunds,
    )
]

GAMES = [*UTH_GAMES, *RUSSIAN_GAMES, *CARIBBEAN_GAMES, *HOLDEM_GAMES]


# -- the walk --------------------------------------------------------------------------------


def _legal(engine: Any, game: Game) -> list[Legal]:
    return [legal for seat in (*game.seats, None) for legal in engine.legal_actions(seat)]


def _admitted(engine: Any, action: Action) -> bool:
    seat = getattr(action, "seat", None)
    return any(legal.admits(action) for legal in engine.legal_actions(seat))


def _amount(draw: st.DrawFn, amount: Amount, action: Action) -> int:
    low, high = amount.bounds(action)
    inside = [low, high, low + amount.step * ((high - low) // amount.step // 2)]
    return draw(st.sampled_from([0, *inside] if amount.optional else inside))


def materialise(draw: st.DrawFn, legal: Legal) -> Action:
    """A legal action: every free field given a value within its bounds."""
    changes: dict[str, Any] = {}
    for c in legal.free:
        if isinstance(c, Among):
            changes[c.field] = draw(st.sampled_from(c.values))
        elif isinstance(c, Subset):
            size = draw(st.integers(c.low, c.high))
            changes[c.field] = tuple(draw(st.permutations(c.among))[:size])
    action = dataclasses.replace(legal.action, **changes)
    for c in legal.free:
        if isinstance(c, Amount) and c.per is None:
            action = dataclasses.replace(action, **{c.field: _amount(draw, c, action)})
    for c in legal.free:
        if isinstance(c, Amount) and c.per is not None:
            action = dataclasses.replace(action, **{c.field: _amount(draw, c, action)})
    return action


def near_miss(draw: st.DrawFn, legal: Legal) -> Action:
    """A legal action changed just enough that it may be refused."""
    action = materialise(draw, legal)
    amounts = [c for c in legal.free if isinstance(c, Amount)]
    subsets = [c for c in legal.free if isinstance(c, Subset)]
    options = ["amount"] * bool(amounts) + ["subset"] * bool(subsets)
    options += [name for name in ("seat", "box") if hasattr(action, name)]
    if not options:
        return action
    how = draw(st.sampled_from(options))
    if how == "amount":
        c = draw(st.sampled_from(amounts))
        low, high = c.bounds(action)
        value = draw(st.sampled_from([low - 1, high + 1, high + c.step, low + 1, -1, True, 1.5]))
        return dataclasses.replace(action, **{c.field: value})
    if how == "subset":
        c = draw(st.sampled_from(subsets))
        hand = list(c.among)
        outside = [card for card in DECK if card not in c.among]
        value = draw(
            st.sampled_from(
                [(), (hand[0], hand[0]), tuple(hand[: c.high + 1]), (hand[0], outside[0])]
            )
        )
        return dataclasses.replace(action, **{c.field: value})
    field = "box" if how == "box" else "seat"
    shift = draw(st.sampled_from([-1, 1, 2]))
    return dataclasses.replace(action, **{field: getattr(action, field) + shift})


def snapshot(engine: Any, game: Game) -> tuple[Any, ...]:
    seats = (*game.seats, None)
    return (
        engine.events,
        engine.phase,
        engine.staked(),
        [engine.view(seat) for seat in seats],
        [engine.legal_actions(seat) for seat in seats],
    )


def _cards(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if _CARD.match(value):
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from _cards(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _cards(item)


class Knowledge:
    """The cards each seat (and a spectator) was shown by the events it may see, kept up
    with the events as they come."""

    def __init__(self, game: Game) -> None:
        self.seats = (*game.seats, None)
        self.known: dict[int | None, set[str]] = {seat: set() for seat in self.seats}
        self.read = 0

    def check(self, engine: Any, game: Game) -> None:
        """No view holds a card its seat was not shown by an event it may see."""
        for event in engine.events[self.read :]:
            for seat in self.seats:
                self.known[seat].update(_cards(to_json(event.seen_by(seat))))
        self.read = len(engine.events)
        for seat in self.seats:
            seen = set(_cards(to_json(engine.view(seat))))
            assert seen <= self.known[seat], (game.name, seat, seen - self.known[seat])


def try_refused(engine: Any, game: Game, action: Action) -> None:
    before = snapshot(engine, game)
    with pytest.raises(IllegalActionError) as refused:
        engine.apply(action)
    assert refused.value.reason in REASONS, (action, refused.value.reason, str(refused.value))
    assert snapshot(engine, game) == before, action


def check_void(engine: Any, game: Game) -> None:
    before = game.staked(engine)
    event = engine.void("a malfunction (contract test)")
    assert game.refunds(engine, event) == {s: a for s, a in before.items() if a}
    assert {s: a for s, a in engine.returns().items() if a} == {
        s: a for s, a in before.items() if a
    }
    assert _legal(engine, game) == []
    with pytest.raises(IllegalActionError):
        engine.void("twice")


def check_price(
    engine: Any, game: Game, action: Action, price: int, before: dict[int, int]
) -> None:
    """The engine's price of an action it took is what the action put on the table."""
    assert isinstance(price, int) and price >= 0, (action, price)
    after = engine.staked()
    if isinstance(engine, holdem.CashHand):
        assert price == 0, action  # a hand's chips are bought in: nothing from the wallet
    elif isinstance(action, uth.PlaceBets | caribbean.PlaceBets):  # places (or replaces) a box
        assert after[action.seat] == price, (game.name, action, price, after)
    elif not isinstance(action, uth.WithdrawBets | caribbean.WithdrawBets):  # no price
        assert sum(after.values()) - sum(before.values()) == price, (game.name, action, price)


def walk(data: st.DataObject, game: Game) -> None:
    engine = game.new(data.draw(st.integers(0, 10**6), label="seed"))
    try:
        _walk(data, game, engine)
    finally:
        note_event(f"ends in phase {engine.phase}")


def _walk(data: st.DataObject, game: Game, engine: Any) -> None:
    void_at = data.draw(st.one_of(st.none(), st.integers(0, 40)), label="void at")
    steps = data.draw(st.integers(1, 80), label="steps")
    knowledge = Knowledge(game)
    for step in range(steps):
        knowledge.check(engine, game)
        assert engine.staked() == game.staked(engine)
        if step == void_at and not engine.finished:
            check_void(engine, game)
            return
        legal = _legal(engine, game)
        candidates = [game.random_action(data.draw, engine)]
        if legal:
            candidates.append(near_miss(data.draw, data.draw(st.sampled_from(legal))))
        for candidate in candidates:
            accepted = engine.can(candidate)
            assert accepted == _admitted(engine, candidate), (game.name, candidate)
            if not accepted:
                try_refused(engine, game, candidate)
        if not legal:
            assert engine.finished, (game.name, engine.phase)
            return
        action = materialise(data.draw, data.draw(st.sampled_from(legal)))
        assert engine.can(action), action
        price, before = engine.price(action), engine.staked()
        events = engine.apply(action)
        check_price(engine, game, action, price, before)
        assert all(isinstance(e, Event) for e in events) and events == engine.events[-len(events) :]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(max_examples=30, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_protocol_holds_on_random_walks(game: Game, data: st.DataObject) -> None:
    walk(data, game)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(max_examples=400, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_protocol_holds_on_many_random_walks(game: Game, data: st.DataObject) -> None:
    walk(data, game)


def test_every_game_has_a_walk_that_reaches_the_end() -> None:
    """The walks are not stuck at the start: a seeded greedy walk of each game settles."""
    for game in GAMES:
        engine = game.new(1)
        for _ in range(300):
            legal = [
                legal
                for seat in (*game.seats, None)
                for legal in engine.legal_actions(seat)
                if legal.kind not in ("withdraw", "show", "muck")
            ]
            if engine.finished or not legal:
                break
            first = legal[0]
            if first.kind in ("bet", "box") and engine.staked():
                deal = [lg for lg in legal if lg.kind == "deal"]
                first = deal[0] if deal else first
            engine.apply(dataclasses.replace(first.action))
        assert engine.phase.value == "settled", game.name
