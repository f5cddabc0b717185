"""PHH: real hand histories replayed action by action, and read/write round trips."""

from __future__ import annotations

import csv
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cards import DECK
from croupier.deck import PyRandomSource, Shoe
from croupier.errors import RecordError
from croupier.games.holdem import CashHand, HoldemConfig, Rake
from croupier.games.holdem.bots import RandomBot, TightAggressiveBot, play_hand
from croupier.games.holdem.events import CardBurned
from croupier.history import holdem_phh as phh

ODD_CHIP_PLURIBUS = {"102/0", "32/23", "41b/204", "60/88", "75b/76", "88/128", "91/43", "91/53"}


def _pluribus(data: Path) -> list[Path]:
    return sorted((data / "pluribus").rglob("*.phh"))


def _key(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _check_file(path: Path, split: str) -> None:
    hand = phh.loads(path.read_text(encoding="utf-8"))
    assert hand.finishing_stacks is not None
    result = phh.replay(hand, split=split)
    assert result.finishing_stacks == tuple(map(Fraction, hand.finishing_stacks)), path
    assert result.state.is_over


def test_pluribus_sample_exact(phh_data: Path) -> None:
    files = _pluribus(phh_data)
    sample = files[:: max(1, len(files) // 150)]
    sample += [phh_data / "pluribus" / f"{key}.phh" for key in sorted(ODD_CHIP_PLURIBUS)]
    for path in sample:
        _check_file(path, "exact")


def test_pluribus_odd_chip_hands_differ_under_live_by_half_a_chip(phh_data: Path) -> None:
    for key in sorted(ODD_CHIP_PLURIBUS):
        hand = phh.loads((phh_data / "pluribus" / f"{key}.phh").read_text(encoding="utf-8"))
        assert hand.finishing_stacks is not None
        live = phh.replay(hand, split="live").finishing_stacks
        diffs = sorted(a - Fraction(b) for a, b in zip(live, hand.finishing_stacks, strict=True))
        assert diffs[0] == Fraction(-1, 2) and diffs[-1] == Fraction(1, 2), key
        assert sum(1 for d in diffs if d) == 2


def test_pluribus_hand_102_0_halves(phh_data: Path) -> None:
    hand = phh.loads((phh_data / "pluribus" / "102" / "0.phh").read_text(encoding="utf-8"))
    stacks = phh.replay(hand, split="exact").finishing_stacks
    assert Fraction("10112.5") in stacks
    assert "10112.5" in {phh.format_amount(s) for s in stacks}


def test_all_wsop_hands(phh_data: Path) -> None:
    files = sorted((phh_data / "wsop").rglob("*.phh"))
    assert len(files) == 18
    variants = set()
    for path in files:
        _check_file(path, "live")
        variants.add(phh.loads(path.read_text(encoding="utf-8")).variant)
    assert variants == {"NT", "FT"}


def test_dwan_ivey_matches_pokerkit(phh_data: Path) -> None:
    hand = phh.loads((phh_data / "dwan-ivey-2009.phh").read_text(encoding="utf-8"))
    assert hand.finishing_stacks is None and hand.get("players")[0] == "Phil Ivey"
    stacks = phh.replay(hand).finishing_stacks
    assert stacks == tuple(Fraction(s) for s in (572100, 1997500, 1109500))


def _handhq_expected(data: Path) -> list[tuple[str, int, list[Fraction], bool]]:
    rows = []
    path = data / "handhq" / "pokerkit_expected_finishing_stacks.csv"
    with path.open(encoding="utf-8", newline="") as fp:
        for row in csv.DictReader(fp):
            stacks = [Fraction(Decimal(v)) for v in row["pokerkit_finishing_stacks"].split(";")]
            known = row["all_shown_cards_known"] == "yes"
            rows.append((row["file"], int(row["hand_index_in_file"]), stacks, known))
    return rows


def test_handhq_phhs_match_pokerkit(phh_data: Path) -> None:
    cache: dict[str, tuple[phh.HandHistory, ...]] = {}
    checked = 0
    for name, index, expected, known in _handhq_expected(phh_data):
        if name not in cache:
            text = (phh_data / "handhq" / name).read_text(encoding="utf-8")
            cache[name] = phh.loads_all(text)
        hand = cache[name][index - 1]
        if not known:
            with pytest.raises(RecordError, match="unknown"):
                phh.replay(hand)
            continue
        assert list(phh.replay(hand).finishing_stacks) == expected, (name, index)
        checked += 1
    assert checked == 42


@pytest.mark.slow
def test_every_hand_with_finishing_stacks(phh_data: Path) -> None:
    files = sorted(phh_data.rglob("*.phh"))
    checked = 0
    for path in files:
        hand = phh.loads(path.read_text(encoding="utf-8"))
        if hand.finishing_stacks is not None:
            _check_file(path, "exact" if "pluribus" in path.parts else "live")
            checked += 1
    assert checked == 1955


@pytest.mark.slow
def test_every_pluribus_hand_under_live_but_the_odd_chip_ones(phh_data: Path) -> None:
    for path in _pluribus(phh_data):
        hand = phh.loads(path.read_text(encoding="utf-8"))
        assert hand.finishing_stacks is not None
        same = phh.replay(hand).finishing_stacks == tuple(map(Fraction, hand.finishing_stacks))
        assert same == (_key(path) not in ODD_CHIP_PLURIBUS), path


def test_corpus_round_trips_through_dumps(phh_data: Path) -> None:
    files = sorted(phh_data.rglob("*.phh"))[::20]
    for path in files:
        hand = phh.loads(path.read_text(encoding="utf-8"))
        assert phh.loads(phh.dumps(hand)) == hand, path
    for path in sorted(phh_data.rglob("*.phhs")):
        hands = phh.loads_all(path.read_text(encoding="utf-8"))
        again = phh.loads_all(phh.dumps_all(hands))
        assert again == hands
        assert isinstance(hands[0].get("time"), object)


def _played(seed: int, players: int) -> CashHand:
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    config = HoldemConfig.cash(
        players=players,
        small_blind=1,
        big_blind=2,
        ante=rng.choice([0, 1]),
        rake=Rake(percent=Fraction(1, 20), cap=5) if seed % 3 == 0 else Rake(),
    )
    hand = CashHand(
        config,
        stacks=[rng.randint(5, 400) for _ in range(players)],
        shoe=Shoe(deck),
        auto_showdown=seed % 2 == 0,
    )
    bots = [
        RandomBot(PyRandomSource(rng)) if i % 2 else TightAggressiveBot() for i in range(players)
    ]
    while not hand.is_over:
        play_hand(hand, bots)
        if not hand.is_over:  # a showdown decision: losers sometimes muck
            seat = hand.showdown_seat
            assert seat is not None
            if rng.random() < 0.3 and hand.can_muck(seat):
                hand.muck(seat)
            else:
                hand.show(seat)
    return hand


@pytest.mark.parametrize("seed", range(60))
def test_engine_hands_write_and_read_back_to_the_same_hand(seed: int) -> None:
    hand = _played(seed, 2 + seed % 9)
    record = phh.from_hand(hand, hand=seed)
    text = phh.dumps(record)
    again = phh.loads(text)
    assert again == record
    replayed = phh.replay(again).state
    assert replayed.stacks == hand.stacks
    assert replayed.house_net == hand.house_net
    assert replayed.board == hand.board
    original = [e for e in hand.events if not isinstance(e, CardBurned)]
    assert list(replayed.events) == original


def test_malformed_records_raise_record_errors() -> None:
    with pytest.raises(RecordError, match="missing"):
        phh.loads("variant = 'NT'\n")
    with pytest.raises(RecordError, match="variant"):
        phh.loads(
            "variant = 'PO'\nantes=[0,0]\nblinds_or_straddles=[1,2]\nstarting_stacks=[5,5]\n"
            "actions=[]\n"
        )
    bad = phh.loads(
        "variant = 'NT'\nantes=[0,0]\nblinds_or_straddles=[1,2]\nmin_bet=2\n"
        "starting_stacks=[50,50]\nactions=['p1 cbr 1']\n"
    )
    with pytest.raises(RecordError, match="cannot replay"):
        phh.replay(bad)


runner = CliRunner()


def test_cli_replay_check(phh_data: Path, tmp_path: Path) -> None:
    from croupier.cli.holdem import app

    files = [str(p) for p in sorted((phh_data / "wsop").rglob("*.phh"))]
    result = runner.invoke(app, ["replay", "--check", *files])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 18 and all("\t" in line for line in lines)
    odd = str(phh_data / "pluribus" / "102" / "0.phh")
    result = runner.invoke(app, ["replay", "--check", "--split", "exact", odd])
    assert result.exit_code == 0 and "10112.5" in result.output
    assert runner.invoke(app, ["replay", "--check", odd]).exit_code == 1
    text = Path(files[0]).read_text(encoding="utf-8")
    start = text.index("finishing_stacks = [") + len("finishing_stacks = [")
    changed = tmp_path / "changed.phh"
    changed.write_text(text[:start] + "1" + text[start:], encoding="utf-8")
    result = runner.invoke(app, ["replay", "--check", str(changed)])
    assert result.exit_code == 1 and "differs" in result.output
    phhs = sorted((phh_data / "handhq").rglob("*.phhs"))[0]
    result = runner.invoke(app, ["replay", str(phhs)])
    assert f"{phhs}[1]\t2059.9,1975,1198.5,1708,1997.5,1512.5" in result.output


def test_cli_selfplay_writes_phh_that_replays(tmp_path: Path) -> None:
    from croupier.cli.holdem import app

    out = tmp_path / "games.phhs"
    result = runner.invoke(
        app,
        [
            "selfplay",
            "--hands",
            "40",
            "--players",
            "4",
            "--seed",
            "7",
            "--out",
            str(out),
            "--bots",
            "mix",
        ],
    )
    assert result.exit_code == 0, result.output
    hands = phh.loads_all(out.read_text(encoding="utf-8"))
    assert len(hands) == 40
    result = runner.invoke(app, ["replay", "--check", str(out)])
    assert result.exit_code == 0, result.output
    # stacks carry over: the next hand starts where the previous one finished (seat order)
    first, second = hands[0], hands[1]
    assert first.finishing_stacks is not None
    by_seat = dict(zip(first.get("seats"), first.finishing_stacks, strict=True))
    assert [by_seat[s] or 200 for s in second.get("seats")] == list(second.starting_stacks)


def test_cli_selfplay_exact_split_replays_with_split_exact(tmp_path: Path) -> None:
    from croupier.cli.holdem import app
    from croupier.games.holdem import EXACT_SCALE

    out = tmp_path / "exact.phhs"
    args = ["selfplay", "--hands", "60", "--players", "6", "--seed", "0", "--bots", "random"]
    result = runner.invoke(app, [*args, "--split", "exact", "--out", str(out)])
    assert result.exit_code == 0, result.output
    hands = phh.loads_all(out.read_text(encoding="utf-8"))
    assert len(hands) == 60
    buy_in = 200 * EXACT_SCALE
    for hand in hands:
        # amounts in 1/EXACT_SCALE of a chip; every hand starts from the buy-in
        assert hand.get("_split") == "exact"
        assert hand.blinds_or_straddles[:2] == (EXACT_SCALE, 2 * EXACT_SCALE)
        assert hand.starting_stacks == (buy_in,) * 6
        assert hand.finishing_stacks is not None
        assert sum(hand.finishing_stacks) == 6 * buy_in
    # some pot of an odd number of chips was split in halves: no odd chip went anywhere
    halves = [s for hand in hands for s in hand.finishing_stacks or () if s % EXACT_SCALE]
    assert halves and all(2 * s % EXACT_SCALE == 0 for s in halves)
    result = runner.invoke(app, ["replay", "--check", "--split", "exact", str(out)])
    assert result.exit_code == 0, result.output
    assert len(result.output.strip().splitlines()) == 60
    # the same first hand under live (same deal, same bets): the odd chip of that split pot
    # goes whole to one winner, where exact gave each half
    live = tmp_path / "live.phhs"
    result = runner.invoke(app, [*args, "--split", "live", "--out", str(live)])
    assert result.exit_code == 0, result.output
    first = phh.loads_all(live.read_text(encoding="utf-8"))[0]
    assert first.get("_split") is None and first.finishing_stacks is not None
    assert hands[0].finishing_stacks is not None
    diffs = [
        chips * EXACT_SCALE - units
        for chips, units in zip(first.finishing_stacks, hands[0].finishing_stacks, strict=True)
    ]
    assert sorted(diffs) == [-EXACT_SCALE // 2, 0, 0, 0, 0, EXACT_SCALE // 2]
    assert runner.invoke(app, [*args, "--split", "half"]).exit_code == 2


def test_cli_play_against_bots_from_stdin() -> None:
    from croupier.cli.holdem import app

    moves = "\n".join(["f"] * 60) + "\n"
    result = runner.invoke(
        app, ["play", "--players", "3", "--hands", "2", "--seed", "4"], input=moves
    )
    assert result.exit_code == 0, result.output
    assert "Hand 2" in result.output and "You finish with" in result.output
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "4"], input="x\nr 1\nq\n")
    assert result.exit_code == 0
    assert "unknown move" in result.output and "Goodbye" in result.output


@pytest.mark.parametrize("seed", range(20))
def test_exact_split_tables_round_trip(seed: int) -> None:
    from croupier.games.holdem import EXACT_SCALE, SplitPolicy

    rng = random.Random(seed)
    unit = EXACT_SCALE
    players = 2 + seed % 5
    config = HoldemConfig.cash(
        players=players, small_blind=unit, big_blind=2 * unit, split=SplitPolicy.EXACT
    )
    deck = list(DECK)
    rng.shuffle(deck)
    hand = CashHand(
        config,
        stacks=[unit * rng.randint(3, 60) for _ in range(players)],
        shoe=Shoe(deck),
        auto_showdown=True,
    )
    play_hand(hand, [RandomBot(PyRandomSource(rng)) for _ in range(players)])
    assert hand.is_over
    record = phh.loads(phh.dumps(phh.from_hand(hand)))
    assert record.get("_split") == "exact"
    assert phh.replay(record).finishing_stacks == hand.stacks
