"""The compiled engine (mypyc, ``scripts/build_native.py``) is the pure-Python engine: the same
hands give the same events, stacks and rake; and a stale build is never used."""

from __future__ import annotations

import random
import shutil
import sys
import types
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier.cards import DECK
from croupier.deck import Shoe
from croupier.games.holdem import (
    BettingStructure,
    CashHand,
    HoldemConfig,
    OddChip,
    Phase,
    Rake,
    ReopenRule,
    ShowdownRule,
    SplitPolicy,
    _native,
)
from croupier.games.holdem.events import HoldemEvent

_PACKAGE = "croupier.games.holdem"


def _pure_cash_hand() -> type[CashHand]:
    """``CashHand`` from the pure-Python sources, loaded beside whatever the package runs."""
    names = [f"{_PACKAGE}.{name}" for name in _native.MODULES]
    saved = {name: sys.modules[name] for name in names}
    try:
        for name in _native.MODULES:
            _native._load_source(name)
        # each module loaded from its source, and bound to the others' sources (no mixing
        # with a compiled one: MODULES lists each after the ones it imports)
        for name in names:
            module = sys.modules[name]
            assert module.__file__ is not None and module.__file__.endswith(".py")
            for value in vars(module).values():
                home = getattr(value, "__module__", None) or ""
                if home.startswith(f"{_PACKAGE}."):  # compiled functions are builtins
                    assert not isinstance(value, types.BuiltinFunctionType), (name, value)
        pure: type[CashHand] = sys.modules[f"{_PACKAGE}.state"].CashHand
    finally:
        sys.modules.update(saved)
    return pure


def random_table(rng: random.Random) -> tuple[HoldemConfig, tuple[int, ...]]:
    """A config drawn over every rule the engine has, and stacks (some short) for it."""
    players = rng.randint(2, 10)
    split = rng.choice([SplitPolicy.LIVE, SplitPolicy.LIVE, SplitPolicy.EXACT])
    unit = split.unit
    rake = _rake(rng) if rng.random() < 0.3 else Rake()
    config = HoldemConfig.cash(
        players=players,
        small_blind=unit * rng.choice([1, 1, 5]),
        big_blind=unit * 10,
        ante=unit * rng.choice([0, 0, 0, 1, 2]),
        big_blind_ante=rng.random() < 0.1,
        straddle=unit * 20 if players >= 3 and rng.random() < 0.2 else 0,
        structure=rng.choice(list(BettingStructure)),
        split=split,
        rake=rake,
        reopen=rng.choice(list(ReopenRule)),
        showdown=rng.choice(list(ShowdownRule)),
        odd_chip=rng.choice(list(OddChip)),
    )
    stacks = tuple(unit * rng.choice([3, 15, 40, 200, rng.randint(1, 500)]) for _ in range(players))
    return config, stacks


def _rake(rng: random.Random) -> Rake:
    return Rake(percent=Fraction(rng.choice([1, 5, 10]), 100), cap=rng.choice([None, 30, 300]))


def play(cls: type[CashHand], config: HoldemConfig, stacks: Any, seed: int) -> tuple[Any, ...]:
    """One hand from a deck and decisions both drawn from ``seed``: what it did."""
    rng = random.Random(seed)
    order = list(DECK)
    rng.shuffle(order)
    auto = rng.random() < 0.7
    hand = cls(config, stacks=stacks, shoe=Shoe(order), auto_showdown=auto)
    while not hand.is_over:
        options = hand.options()
        if options is None:
            assert hand.phase is Phase.SHOWDOWN
            seat = hand.showdown_seat
            if seat is None:
                hand.finish()
            elif rng.random() < 0.5 and hand.can_muck(seat):
                hand.muck(seat)
            else:
                hand.show(seat)
            continue
        move = rng.randrange(3)
        if move == 0:
            hand.fold(options.seat)
        elif move == 1 or options.min_raise_to is None or options.max_raise_to is None:
            hand.check_or_call(options.seat)
        else:
            steps = (options.max_raise_to - options.min_raise_to) // options.step
            hand.raise_to(options.seat, options.min_raise_to + options.step * rng.randint(0, steps))
    events = hand.events
    assert all(isinstance(event, HoldemEvent) for event in events)
    return events, hand.stacks, hand.house_net, hand.board


@pytest.mark.skipif(not _native.compiled(), reason="the compiled engine is not built here")
def test_the_compiled_engine_plays_as_the_pure_python_one() -> None:
    pure = _pure_cash_hand()
    assert not pure.__module__.endswith("_native") and pure is not CashHand
    assert not _native.compiled() or type(CashHand.__init__).__name__ != "function"
    rng = random.Random(2026)
    for number in range(1_500):
        config, stacks = random_table(rng)
        assert play(CashHand, config, stacks, number) == play(pure, config, stacks, number)


def test_the_pure_engine_keeps_the_rules_on_random_tables() -> None:
    # every hand of random tables ends settled with no chip made or lost (rake aside)
    pure = _pure_cash_hand()
    rng = random.Random(19)
    for number in range(300):
        config, stacks = random_table(rng)
        _, after, rake, _ = play(pure, config, stacks, number)
        assert sum(after) + rake == sum(stacks)


def _copy_build(tmp_path: Path, *, built: bool) -> None:
    here = Path(_native.__file__).parent
    for name in _native.MODULES:
        shutil.copy(here / f"{name}.py", tmp_path / f"{name}.py")
        if built:
            (tmp_path / f"{name}{_native.importlib.machinery.EXTENSION_SUFFIXES[0]}").touch()


def test_a_build_runs_only_while_its_sources_are_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_native, "_HERE", tmp_path)
    _copy_build(tmp_path, built=True)
    assert not _native._current()  # no manifest: not built by scripts/build_native.py
    digests = _native._source_digests()
    manifest = "".join(f"{digest}  {name}\n" for name, digest in digests.items())
    (tmp_path / _native.MANIFEST).write_text(manifest, encoding="utf-8")
    assert _native._current()
    with (tmp_path / "state.py").open("a", encoding="utf-8") as source:
        source.write("# edited after the build\n")
    assert not _native._current()  # an edit since the build: the pure-Python modules run
    (tmp_path / "state.py").write_bytes((Path(_native.__file__).parent / "state.py").read_bytes())
    assert _native._current()
    for path in tmp_path.iterdir():
        if path.name.startswith("engine.") and path.suffix != ".py":
            path.unlink()
    assert not _native._current()  # a module missing from the build


def test_the_build_script_compiles_the_modules_the_package_checks() -> None:
    import ast

    script = Path(__file__).resolve().parents[2] / "scripts" / "build_native.py"
    tree = ast.parse(script.read_text(encoding="utf-8"))
    (listed,) = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "MODULES" for t in node.targets)
    ]
    assert listed == _native.MODULES


@pytest.mark.parametrize("build", ["package", "pure"])
def test_numpy_stacks_play_as_ints(build: str) -> None:
    import numpy as np

    cls = CashHand if build == "package" else _pure_cash_hand()
    config = HoldemConfig.cash(players=3, small_blind=1, big_blind=2)
    order = list(DECK)
    hand = cls(config, stacks=np.array([100, 50, 80]), shoe=Shoe(order), auto_showdown=True)
    assert hand.starting_stacks == (100, 50, 80)
    assert all(type(stack) is int for stack in hand.stacks)
    hand.raise_to(2, 80)
    hand.check_or_call(0)
    hand.check_or_call(1)
    assert hand.is_over and sum(hand.stacks) == 230
