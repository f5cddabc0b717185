"""The hints a table sends and what a timeout does come from the engine (issue 14's remnant).

Every game adapter asks its engine -- ``legal_actions(seat)`` for the words a seat is offered,
``default_action(seat)`` for what a seat that lets its time run out does -- instead of working
them out again. Hold'em's ``all_in`` word is offered only when it puts the whole stack in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from croupier.chips import Chips
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import IllegalActionError
from croupier.games.holdem import Call, Raise
from croupier.games.protocol import Legal
from croupier.games.russian import PlaceBet
from croupier.games.uth import Check as UthCheck
from croupier.games.uth import Fold as UthFold
from croupier.games.uth import Play as UthPlay
from croupier.history.records import to_json
from croupier.server.errors import InvalidRequestError
from croupier.server.tables.config import TableConfig
from croupier.server.tables.holdem import ACTIONS as HOLDEM_ACTIONS
from croupier.server.tables.holdem import HoldemFactory, HoldemHand
from croupier.server.tables.protocol import ActMessage
from croupier.server.tables.russian import RussianFactory, RussianTableRound
from croupier.server.tables.russian_wire import RussianSpots
from croupier.server.tables.uth import UthFactory, UthTableRound
from croupier.server.tables.uth_wire import UthSpots
from croupier.server.tables.wire import read_spots

RUSSIAN_WORDS = frozenset({"exchange", "sixth_card", "bet", "fold", "buy", "decline"})
UthDecision = UthCheck | UthPlay | UthFold


def _holdem(seed: int, stacks: list[int], **rules: Any) -> HoldemHand:
    factory = HoldemFactory(
        TableConfig(name="t", game="holdem", rules={"max_buy_in": 100_000, **rules})
    )
    shoe = Shoe(shuffled(seeded_source(seed)))
    seats = list(range(len(stacks)))
    names = [f"p{s}" for s in seats]
    return factory.new_hand(shoe, seats=seats, stacks=stacks, names=names, button=seats[-1])


def _act(hand: HoldemHand, word: str, amount: int | None = None) -> None:
    actor = hand.actor
    assert actor is not None
    action = hand.action(actor, ActMessage(action=word, amount=amount))
    hand.check(action)
    hand.apply(action)


def _options(hand: HoldemHand) -> dict[str, Any]:
    actor = hand.actor
    assert actor is not None
    options = hand.view(actor)["options"]
    assert options is not None
    return dict(options)


# -- Hold'em: all_in is the whole stack, or not offered ------------------------------------------


def test_all_in_is_not_offered_where_a_pot_limit_raise_cannot_reach_the_stack() -> None:
    # Heads-up pot-limit, 200-euro stacks, blinds 1/2: the button may raise to 6 at most, so
    # the word all_in would only call (the old hints offered it; the client labels it
    # "All-in 200.00" and the player called 1.00).
    hand = _holdem(1, [20_000, 20_000], structure="pot-limit")
    options = _options(hand)
    assert options["actions"] == ["fold", "call", "raise"]
    assert (options["min_raise_to"], options["max_raise_to"]) == (400, 600)
    before = hand.engine.events
    with pytest.raises(IllegalActionError) as refused:
        hand.action(hand.actor or 0, ActMessage(action="all_in"))
    assert refused.value.reason == "all_in_not_allowed"
    assert hand.engine.events == before


def test_all_in_is_not_offered_where_it_would_check_in_fixed_limit() -> None:
    hand = _holdem(2, [20_000, 20_000], structure="fixed-limit")
    _act(hand, "call")  # the button completes; the big blind may check or raise 2 more
    options = _options(hand)
    assert options["actions"] == ["fold", "check", "raise"]
    with pytest.raises(IllegalActionError):
        hand.action(hand.actor or 0, ActMessage(action="all_in"))


def test_all_in_is_not_offered_facing_an_all_in_smaller_than_the_stack() -> None:
    # The short stack shoves 5.00; nobody is left to raise against: a call of 3.00 is all
    # the big stack may put in, which is not all-in.
    hand = _holdem(1, [20_000, 500])
    _act(hand, "all_in")
    options = _options(hand)
    assert options["actions"] == ["fold", "call"]
    assert options["min_raise_to"] is None


def test_all_in_is_the_raise_to_the_whole_stack_in_no_limit() -> None:
    hand = _holdem(1, [20_000, 20_000])
    options = _options(hand)
    assert options["actions"] == ["fold", "call", "raise", "all_in"]
    actor = hand.actor or 0
    shove = hand.action(actor, ActMessage(action="all_in"))
    assert shove == Raise(seat=1, to=Chips(20_000))


def test_all_in_is_the_call_when_the_call_takes_the_whole_stack() -> None:
    hand = _holdem(1, [500, 20_000])
    _act(hand, "raise", 10_000)  # the button raises to 100.00; the big blind has 5.00
    options = _options(hand)
    assert options["actions"] == ["fold", "call", "all_in"]
    assert options["to_call"] == options["stack"] == 300
    assert hand.action(hand.actor or 0, ActMessage(action="all_in")) == Call(seat=0)


# -- many random states: the hints are the engine's legal actions -----------------------------
#
# Each walk deals a seeded deck and plays random legal decisions (the words the table
# offered), some of them timeouts. At every state it checks, for every seat and a spectator,
# that the hints the table sends are the engine's legal actions (in the engine's order), that
# every hint sent back as is (amounts at their bounds) makes an action the engine admits, and
# that the words not offered are refused. A twin round fed the same decisions applies the
# engine's default_action where the table applies a timeout: their events are the same.

FAST_WALKS = 60
SLOW_WALKS = 600


def _events(events: tuple[Any, ...]) -> list[Any]:
    return [(type(e).__name__, to_json(e)) for e in events]


def _admitted(legal: tuple[Legal, ...], action: Any) -> bool:
    return any(entry.admits(action) for entry in legal)


def _refused(table: Any, seat: int, message: ActMessage) -> bool:
    """Whether ``table`` refuses ``seat``'s decision ``message`` (nothing is applied)."""
    try:
        table.check(table.action(seat, message))
    except (IllegalActionError, InvalidRequestError):
        return True
    return False


# Hold'em

HOLDEM_TABLES: tuple[dict[str, Any], ...] = (
    {},
    {"structure": "pot-limit"},
    {"structure": "fixed-limit"},
    {"ante": 25, "small_blind": 50, "big_blind": 100},
)


def _holdem_amount(options: dict[str, Any], word: str, high: bool = False) -> int | None:
    if word not in ("bet", "raise"):
        return None
    return int(options["max_raise_to" if high else "min_raise_to"])


def _check_holdem_hints(hand: HoldemHand, every: Sequence[int]) -> None:
    engine = hand.engine
    actor = hand.actor
    assert hand.view(None)["options"] is None
    for seat in every:
        options = hand.view(seat)["options"]
        if seat != actor:
            assert options is None, (seat, actor)
            continue
        pos = hand.seats.index(seat)
        legal = engine.legal_actions(pos)
        words = options["actions"]
        kinds = ["raise" if w == "bet" else w for w in words if w != "all_in"]
        assert kinds == [entry.kind for entry in legal]
        raising = next((e.amount("to") for e in legal if isinstance(e.action, Raise)), None)
        bounds = (options["min_raise_to"], options["max_raise_to"])
        assert bounds == ((None, None) if raising is None else (raising.low, raising.high))
        if "bet" in words or "raise" in words:
            assert ("bet" in words) == (max(engine.bets) == 0)
        for word in words:
            for high in (False, True):
                amount = _holdem_amount(options, word, high)
                action = hand.action(seat, ActMessage(action=word, amount=amount))
                assert _admitted(legal, action), (word, action, legal)
                hand.check(action)
        whole = options["stack"] + options["bet"]
        if "all_in" in words:
            shove = hand.action(seat, ActMessage(action="all_in"))
            assert getattr(shove, "to", None) == whole or (
                isinstance(shove, Call) and options["to_call"] == options["stack"]
            )
        offered = set(words) | ({"bet", "raise"} if {"bet", "raise"} & set(words) else set())
        for word in sorted(set(HOLDEM_ACTIONS) - offered):
            amount = whole if word in ("bet", "raise") else None
            message = ActMessage(action=word, amount=amount)
            assert _refused(hand, seat, message), (word, options)


def _holdem_walk(seed: int, rules: dict[str, Any]) -> int:
    """Play one random hand twice, the twin applying the engine's default actions where the
    table times out; the number of states checked."""
    rng = random.Random(seed)
    stacks = [rng.choice([500, 1_000, 4_000, 20_000, rng.randint(300, 30_000)]) for _ in range(6)]
    stacks = stacks[: rng.randint(2, 6)]
    hand, twin = (_holdem(seed, stacks, **rules) for _ in range(2))
    every = [*hand.seats, max(hand.seats) + 1]
    states = 0
    while not hand.finished:
        _check_holdem_hints(hand, every)
        states += 1
        actor = hand.actor
        assert actor is not None
        options = hand.options(actor)
        assert options is not None
        if rng.random() < 0.2:
            default = twin.engine.default_action(hand.seats.index(actor))
            # spec: check if possible, else fold (docs/protocol.md)
            assert default is not None
            assert default.kind == ("check" if "check" in options["actions"] else "fold")
            twin.apply(default)
            hand.apply_timeout(actor)
        else:
            word = rng.choice([w for w in options["actions"] if w != "fold" or rng.random() < 0.3])
            amount = None
            if word in ("bet", "raise"):
                low, high = options["min_raise_to"], options["max_raise_to"]
                amount = rng.choice([low, high, rng.randint(low, high)])
            message = ActMessage(action=word, amount=amount)
            for table in (hand, twin):
                action = table.action(actor, message)
                table.check(action)
                table.apply(action)
        assert _events(hand.engine.events) == _events(twin.engine.events)
    assert twin.finished
    return states


@pytest.mark.parametrize(
    "rules", HOLDEM_TABLES, ids=lambda r: ",".join(map(str, r.values())) or "nl"
)
def test_holdem_hints_and_timeouts_are_the_engines(rules: dict[str, Any]) -> None:
    states = sum(_holdem_walk(seed, rules) for seed in range(FAST_WALKS))
    assert states > 3 * FAST_WALKS


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules", HOLDEM_TABLES, ids=lambda r: ",".join(map(str, r.values())) or "nl"
)
def test_holdem_hints_and_timeouts_are_the_engines_exhaustive(rules: dict[str, Any]) -> None:
    for seed in range(SLOW_WALKS):
        _holdem_walk(seed, rules)


# Russian Poker

RUSSIAN_TABLES: tuple[dict[str, Any], ...] = (
    {},
    {"open_boxes_per_player": 2},
    {"exchange_min": 2, "exchange_max": 3, "dealer_upcard": True},
    {"blind_insurance": True, "blind_sixth_card": True, "boxes": 5},
)


def _russian(seed: int, rules: dict[str, Any]) -> RussianTableRound:
    factory = RussianFactory(TableConfig(name="r", game="russian", rules=rules))
    return factory.new_round(Shoe(shuffled(seeded_source(seed))), salt=f"salt-{seed}")


def _russian_message(game: RussianTableRound, seat: int, word: str, rng: random.Random) -> Any:
    """``word`` as a seat sends it: an exchange names cards of its hand, a Bet may carry
    insurance within the bounds the view shows."""
    engine = game.engine
    box = engine.to_act
    cards = amount = None
    if word == "exchange" and box is not None:
        config = engine.config
        high = min(config.exchange_max, engine.stub_available)
        hand = [str(c) for c in engine.cards(box)]
        cards = rng.sample(hand, rng.randint(config.exchange_min, high))
    if word == "bet":
        insurance = game.view(seat)["insurance"]
        if insurance and rng.random() < 0.6:
            amount = rng.choice(insurance)
    return ActMessage(action=word, cards=cards, amount=amount)


def _check_russian_hints(game: RussianTableRound, every: Sequence[int]) -> None:
    engine = game.engine
    assert game.view(None)["legal"] == []
    for seat in every:
        view = game.view(seat)
        legal = tuple(e for e in engine.legal_actions(seat) if e.kind in RUSSIAN_WORDS)
        assert view["legal"] == [entry.kind for entry in legal], (seat, view["legal"], legal)
        bet = next((e.amount("insurance") for e in legal if isinstance(e.action, PlaceBet)), None)
        assert view["insurance"] == (None if bet is None else [bet.low, bet.high])
        rng = random.Random(seat)
        for word in view["legal"]:
            action = game.action(seat, _russian_message(game, seat, word, rng))
            assert _admitted(legal, action), (word, action)
            game.check(action)
        for word in sorted(RUSSIAN_WORDS - set(view["legal"])):
            message = _russian_message(game, seat, word, rng)
            assert _refused(game, seat, message), (seat, word, view["legal"])


def _russian_bets(game: RussianTableRound, rng: random.Random) -> None:
    config = game.engine.config
    for seat in rng.sample(range(config.max_players), rng.randint(1, config.max_players)):
        bets = {"ante": config.ante_min * rng.randint(1, 3)}
        if rng.random() < 0.4:
            bets["bonus"] = config.bonus_min
        if config.open_boxes_per_player > 1 and rng.random() < 0.5:
            bets["open_boxes"] = 2
        if rng.random() < 0.3:
            bets["blind_boxes"] = 1
        spots = read_spots(bets, RussianSpots)
        try:
            game.check_bets(seat, spots)
        except IllegalActionError:
            continue  # the layout is full
        game.place_bets(seat, spots)


def _russian_walk(seed: int, rules: dict[str, Any]) -> int:
    rng = random.Random(seed)
    game, twin = _russian(seed, rules), _russian(seed, rules)
    every = list(range(game.engine.config.max_players + 1))
    _russian_bets(game, random.Random(seed))
    _russian_bets(twin, random.Random(seed))
    _check_russian_hints(game, every)  # betting: no decisions yet
    if not game.can_close_betting():
        return 1
    game.close_betting()
    twin.close_betting()
    states = 1
    while not game.finished:
        _check_russian_hints(game, every)
        states += 1
        (seat,) = game.pending_seats
        words = game.view(seat)["legal"]
        if rng.random() < 0.25:
            default = twin.engine.default_action(seat)
            assert default is not None and default.box == game.engine.to_act
            assert default.kind == ("decline" if "decline" in words else "fold")
            twin.engine.apply(default)
            game.apply_timeout(seat)
        else:
            message = _russian_message(game, seat, rng.choice(words), rng)
            for table in (game, twin):
                action = table.action(seat, message)
                table.check(action)
                table.apply(action)
        assert _events(game.engine.events) == _events(twin.engine.events)
    assert twin.finished
    return states


@pytest.mark.parametrize("rules", RUSSIAN_TABLES, ids=lambda r: ",".join(r) or "spec")
def test_russian_hints_and_timeouts_are_the_engines(rules: dict[str, Any]) -> None:
    states = sum(_russian_walk(seed, rules) for seed in range(FAST_WALKS))
    assert states > 3 * FAST_WALKS


@pytest.mark.slow
@pytest.mark.parametrize("rules", RUSSIAN_TABLES, ids=lambda r: ",".join(r) or "spec")
def test_russian_hints_and_timeouts_are_the_engines_exhaustive(rules: dict[str, Any]) -> None:
    for seed in range(SLOW_WALKS):
        _russian_walk(seed, rules)


# Ultimate Texas Hold'em (the adapter the other two now follow)

UTH_TABLES: tuple[dict[str, Any], ...] = (
    {},
    {"play_multiples": {"preflop": [4, 3, 2], "flop": [2, 1], "river": [1]}},
)


def _check_uth_hints(game: UthTableRound, every: Sequence[int]) -> None:
    engine = game.engine
    assert game.view(None)["legal"] == []
    for seat in every:
        words = game.view(seat)["legal"]
        legal = tuple(e for e in engine.legal_actions(seat) if isinstance(e.action, UthDecision))
        made = [game.action(seat, ActMessage(action=word)) for word in words]
        assert made == [entry.action for entry in legal], (seat, words, legal)
        for action in made:
            game.check(action)


def _uth_walk(seed: int, rules: dict[str, Any]) -> int:
    rng = random.Random(seed)
    factory = UthFactory(TableConfig(name="u", game="uth", rules=rules))
    game, twin = (factory.new_round(Shoe(shuffled(seeded_source(seed)))) for _ in range(2))
    every = list(range(7))
    for seat in rng.sample(range(6), rng.randint(1, 6)):
        bets = {"ante": 100 * rng.randint(1, 3), "trips": rng.choice([0, 100])}
        game.place_bets(seat, read_spots(bets, UthSpots))
        twin.place_bets(seat, read_spots(bets, UthSpots))
    _check_uth_hints(game, every)
    game.close_betting()
    twin.close_betting()
    states = 1
    while not game.finished:
        _check_uth_hints(game, every)
        states += 1
        for seat in game.pending_seats:
            if rng.random() < 0.3:
                default = twin.engine.default_action(seat)
                assert default is not None
                twin.apply(default)
                game.apply_timeout(seat)
            else:
                message = ActMessage(action=rng.choice(game.view(seat)["legal"]))
                for table in (game, twin):
                    action = table.action(seat, message)
                    table.check(action)
                    table.apply(action)
        assert _events(game.engine.events) == _events(twin.engine.events)
    return states


@pytest.mark.parametrize("rules", UTH_TABLES, ids=("spec", "multiples"))
def test_uth_hints_and_timeouts_are_the_engines(rules: dict[str, Any]) -> None:
    states = sum(_uth_walk(seed, rules) for seed in range(FAST_WALKS))
    assert states > 2 * FAST_WALKS
