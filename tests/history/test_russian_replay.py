"""Russian Poker round records: replayed through the engine, tampering found, the CLI.

The hand-built round below is settled by hand from spec/russian.md; the replay must give
those nets, and a record of it must replay to itself. Many seeded rounds with decisions
drawn at random cover every event kind; the server's table writes records that replay,
whether read as stored or as ``GET /api/rounds/{id}`` returns them.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cards import parse_cards
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import RecordError
from croupier.games.russian import Phase, RussianConfig, RussianRound
from croupier.history import russian as russian_history


def replayed_record(record: dict[str, Any]) -> dict[str, Any]:
    """The record of ``record`` replayed through the engine."""
    return russian_history.record(russian_history.replay(record), round_id=record.get("round_id"))


CROUPIER = [sys.executable, "-m", "croupier.cli.__main__"]
CONFIG = RussianConfig()

# Boxes 0 (seat 0, open), 1 (seat 0, blind), 2 (seat 1), 3 (seat 2), 4 (seat 3), the dealer;
# then the exchange of box 2 (Qh Js), the sixth card of box 3 (4d), the buys: box 0 draws Kc
# (a King for the King: drawn again under rebuy_same_rank) then 5d, box 3 draws 7h.
TOP = (
    "Ah As Ad 7c 2h  Kh Ks 8d 8h 2c  Qc Jd 9s 5c 3d  9h 9d 4s 6c Jc  2d 3h 5h 7d Tc  "
    "Kd Qd 9c 5s 4h  Qh Js  4d  Kc 5d  7h"
)
# spec/russian.md: the dealer's K-Q-9-5-4 does not qualify; every box that stood is paid its
# Ante 1:1 with the Bet pushed, unless it bought the dealer's game (then the Ante is not paid).
#   box 0: trips of Aces, insured for 300 (1:1, the dealer as dealt does not qualify); buys:
#          Q-9-5-5-4 qualifies, trips beat it: Bet 3:1 = 600, Ante returned; the buy fee (100)
#          and the Bonus (trips pay nothing) lose: 600 + 300 - 100 - 100 = 700
#   box 1: blind two pair: Ante +100, Bet push, Bonus on two pair -100 = 0
#   box 2: exchanges (fee -100), declines the buy: Ante +100 = 0
#   box 3: sixth card (fee -100), buys (fee -100): Q-9-7-5-4 still does not qualify; the
#          Ante, whose payment was given up to buy, is returned unpaid (seed 004; issue 28) = -200
#   box 4: folds: the Ante is lost = -100
EXPECTED = [
    {"box": 0, "seat": 0, "net": 700},
    {"box": 1, "seat": 0, "net": 0},
    {"box": 2, "seat": 1, "net": 0},
    {"box": 3, "seat": 2, "net": -200},
    {"box": 4, "seat": 3, "net": -100},
]


def scenario_shoe(seed: int = 11) -> Shoe:
    """``TOP`` then the rest of a seeded shuffle."""
    head = parse_cards(TOP)
    return Shoe((*head, *(c for c in shuffled(seeded_source(seed)) if c not in head)))


def scenario_round() -> tuple[RussianRound, Shoe]:
    shoe = scenario_shoe()
    rnd = RussianRound(config=CONFIG, shoe=shoe)
    rnd.place_box(0, box=0, ante=100, bonus=100)
    rnd.place_box(0, box=1, ante=100, bonus=100, blind=True)
    for seat, box in ((1, 2), (2, 3), (3, 4)):
        rnd.place_box(seat, box=box, ante=100)
    rnd.deal()
    rnd.bet(0, box=0, insurance=300)
    rnd.exchange(1, box=2, discard=parse_cards("5c 3d"))
    rnd.bet(1, box=2)
    rnd.sixth_card(2, box=3)
    rnd.bet(2, box=3)
    rnd.fold(3, box=4)
    rnd.buy_game(0, box=0)
    rnd.decline_buy(1, box=2)
    rnd.buy_game(2, box=3)
    assert rnd.phase is Phase.SETTLED
    return rnd, shoe


def as_stored(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a JSON column or file gives it back."""
    stored: dict[str, Any] = json.loads(json.dumps(record))
    return stored


@pytest.fixture
def record() -> dict[str, Any]:
    rnd, _shoe = scenario_round()
    return as_stored(russian_history.record(rnd, round_id=42))


def event_index(record: dict[str, Any], kind: str, box: int | None = None) -> int:
    return next(
        i
        for i, e in enumerate(record["events"])
        if e["kind"] == kind and (box is None or e.get("box") == box)
    )


def swapped(deck: str, first: str, second: str) -> str:
    """``deck`` with two cards' places exchanged."""
    cards = deck.split()
    a, b = cards.index(first), cards.index(second)
    cards[a], cards[b] = cards[b], cards[a]
    return " ".join(cards)


# -- replay ----------------------------------------------------------------------------------


def test_the_hand_built_round_replays_to_the_nets_the_spec_gives(record: dict[str, Any]) -> None:
    assert record["results"] == EXPECTED
    assert record["players_net"] == 400 and record["house_net"] == -400
    replayed = replayed_record(record)
    assert replayed == record
    assert russian_history.verify(record) == []
    # the decisions are in the record in the order they were taken
    decisions = [
        (e["kind"], e["box"])
        for e in record["events"]
        if e["kind"]
        not in ("box_placed", "cards_dealt", "dealer_revealed", "box_shown", "box_settled")
    ]
    assert decisions == [
        ("bet_placed", 0),
        ("cards_exchanged", 2),
        ("bet_placed", 2),
        ("sixth_card_bought", 3),
        ("bet_placed", 3),
        ("folded", 4),
        ("game_bought", 0),
        ("buy_declined", 2),
        ("game_bought", 3),
    ]
    bought = record["events"][event_index(record, "game_bought", 0)]
    assert bought["drawn"] == ["Kc", "5d"] and bought["qualifies"] is True
    assert record["deck"].startswith(" ".join(TOP.split()))


def _random_round(seed: int) -> tuple[RussianRound, Shoe]:
    """A seeded deal with boxes and decisions drawn at random among the legal ones."""
    rng = random.Random(seed)
    shoe = Shoe(shuffled(seeded_source(seed)))
    config = RussianConfig(rebuy_same_rank=seed % 3 != 0, dealer_upcard=seed % 2 == 0)
    rnd = RussianRound(config=config, shoe=shoe)
    free = list(range(config.boxes))
    seats = rng.randint(1, 4)
    for seat in range(seats):
        rnd.place_box(
            seat, box=free.pop(0), ante=rng.choice([100, 250]), bonus=rng.choice([0, 100])
        )
        while len(free) > seats - seat - 1 and rng.random() < 0.3:
            rnd.place_box(seat, box=free.pop(0), ante=100, bonus=rng.choice([0, 100]), blind=True)
    rnd.deal()
    while (box := rnd.to_act) is not None:
        seat, roll = rnd.seat_of(box), rng.random()
        if rng.random() < 0.01:
            rnd.void("dealer dropped a card")
            break
        if rnd.phase is Phase.BUYING:
            (rnd.buy_game if roll < 0.5 else rnd.decline_buy)(seat, box=box)
        elif rnd.can_sixth_card(seat, box=box) and roll < 0.3:
            hand = rnd.cards(box)
            rnd.exchange(seat, box=box, discard=rng.sample(hand, rng.randint(1, 5)))
        elif rnd.can_sixth_card(seat, box=box) and roll < 0.5:
            rnd.sixth_card(seat, box=box)
        elif roll < 0.6:
            rnd.fold(seat, box=box)
        else:
            limits = rnd.insurance_limits(box)
            insurance = rng.randint(*limits) if limits and rng.random() < 0.8 else 0
            rnd.bet(seat, box=box, insurance=insurance)
    return rnd, shoe


def test_seeded_rounds_with_every_kind_of_decision_replay_exactly() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(400):
        rnd, _shoe = _random_round(seed)
        record = as_stored(russian_history.record(rnd, round_id=seed))
        assert replayed_record(record) == record, seed
        assert russian_history.verify(record) == [], seed
        for event in record["events"]:
            kinds[event["kind"]] += 1
            if event["kind"] == "bet_placed" and event["insurance"]:
                kinds["insured"] += 1
            if event["kind"] == "box_placed" and event["blind"]:
                kinds["blind"] += 1
            if event["kind"] == "game_bought" and len(event["drawn"]) > 1:
                kinds["drawn again"] += 1
    # the seeds above exercised every decision, not only the easy ones
    for kind in (
        "cards_exchanged",
        "sixth_card_bought",
        "insured",
        "folded",
        "game_bought",
        "buy_declined",
        "blind",
        "round_voided",
        "drawn again",
    ):
        assert kinds[kind] > 0, kind


def test_a_voided_round_and_an_unfinished_one_replay() -> None:
    shoe = scenario_shoe()
    rnd = RussianRound(config=CONFIG, shoe=shoe)
    rnd.place_box(0, box=0, ante=100, bonus=100)
    rnd.deal()
    rnd.exchange(0, box=0, discard=parse_cards("7c 2h"))
    unfinished = as_stored(russian_history.record(rnd))
    assert russian_history.verify(unfinished) == [] and unfinished["phase"] == "deciding"
    rnd.void("shuffler fault")
    record = as_stored(russian_history.record(rnd))
    assert record["void"] == "shuffler fault" and record["results"] == []
    assert replayed_record(record) == record
    voided = record["events"][-1]
    assert voided["kind"] == "round_voided" and voided["returned"] == [[0, 300]]  # fee too


# -- tampering -------------------------------------------------------------------------------


def test_a_changed_net_is_reported(record: dict[str, Any]) -> None:
    tampered = copy.deepcopy(record)
    tampered["results"][3]["net"] = 0
    assert russian_history.verify(tampered) == [
        "results: box 3 (seat 2) settles to net -200 on replay, the record says 0"
    ]
    tampered = copy.deepcopy(record)
    settled = event_index(tampered, "box_settled", 0)
    tampered["events"][settled]["settlement"]["outcomes"][0]["net"] += 100
    assert russian_history.verify(tampered) == [
        f"box 0 (seat 0) settles to net 700 on replay, the record says 800 (events[{settled}])"
    ]
    tampered["players_net"] = 600
    assert russian_history.verify(tampered)[-1] == "players_net: 400 on replay, the record says 600"


def test_a_changed_card_is_reported(record: dict[str, Any]) -> None:
    # a card of the deal written differently in the record
    tampered = copy.deepcopy(record)
    dealt = event_index(tampered, "cards_dealt")
    tampered["events"][dealt]["hands"][1][1][4] = "3c"  # the blind box's 2c
    assert russian_history.verify(tampered) == [
        f'events[{dealt}].hands[1][1][4] (cards_dealt): "2c" on replay, the record says "3c"'
    ]
    # the deck itself changed: box 0's buy now draws 3c where 5d was, and the dealer's
    # Q-9-5-4-3 does not qualify: the Ante returned unpaid, Bet pushed (300 - 100 - 100 = 100)
    tampered = record | {"deck": swapped(record["deck"], "5d", "3c")}
    bought, settled = event_index(record, "game_bought", 0), event_index(record, "box_settled", 0)
    assert russian_history.verify(tampered) == [
        f'events[{bought}].drawn[1] (game_bought): "3c" on replay, the record says "5d"',
        f"box 0 (seat 0) settles to net 100 on replay, the record says 700 (events[{settled}])",
        "results: box 0 (seat 0) settles to net 100 on replay, the record says 700",
        "players_net: -200 on replay, the record says 400",
        "house_net: 200 on replay, the record says -400",
    ]


def test_a_changed_decision_is_reported_or_refused(record: dict[str, Any]) -> None:
    # more insurance than trips of Aces allow (600): the engine refuses it
    tampered = copy.deepcopy(record)
    tampered["events"][event_index(tampered, "bet_placed", 0)]["insurance"] = 700
    with pytest.raises(RecordError, match=r"does not replay: events\[\d+\] \(bet_placed\)"):
        russian_history.verify(tampered)
    # less insurance on box 0: it wins 200, not 300
    tampered = copy.deepcopy(record)
    tampered["events"][event_index(tampered, "bet_placed", 0)]["insurance"] = 200
    differences = russian_history.verify(tampered)
    settled = event_index(record, "box_settled", 0)
    assert differences[0] == (
        f"box 0 (seat 0) settles to net 600 on replay, the record says 700 (events[{settled}])"
    )
    # box 4 stood instead of folding: it may buy the dealer's game, the record never says
    tampered = copy.deepcopy(record)
    folded = event_index(tampered, "folded", 4)
    tampered["events"][folded] = {"kind": "bet_placed", "box": 4, "bet": 200, "insurance": 0}
    differences = russian_history.verify(tampered)
    first_settled = event_index(record, "box_settled")
    assert differences[0] == (
        f"the record has {len(record['events'])} events, the replay {first_settled}: "
        f"the replay stops before events[{first_settled}] (box_settled)"
    )
    assert 'phase: "buying" on replay, the record says "settled"' in differences
    # a decision dropped: the round stops where the record does, and says so
    tampered = copy.deepcopy(record)
    del tampered["events"][folded:]
    differences = russian_history.verify(tampered)
    assert 'phase: "deciding" on replay, the record says "settled"' in differences


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "uth"}, "not a Russian Poker round record"),
        ({"version": 9}, "unsupported record version 9"),
        ({"deck": None}, "the record holds no deck"),
        ({"deck": "As As"}, "the record's deck is not valid"),
        ({"rules": {"boxes": 99}}, "the record's rules are not valid"),
        ({"rules": {"colour": "red"}}, "unknown rules"),
        ({"events": "none"}, "events must be a list"),
        ({"events": [{"kind": "shuffled"}]}, "unknown event kind 'shuffled'"),
        ({"events": [{"kind": "box_placed", "seat": 0}]}, "malformed Russian Poker record"),
        ({"events": [{"kind": "cards_dealt"}]}, "does not replay: events"),
    ],
)
def test_malformed_records_raise_record_error(
    record: dict[str, Any], change: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        russian_history.verify(record | change)


# -- the server's table ----------------------------------------------------------------------


def _table_round() -> Any:
    from croupier.server.tables.config import TableConfig
    from croupier.server.tables.protocol import ActMessage
    from croupier.server.tables.russian import RussianFactory
    from croupier.server.tables.wire import read_spots

    def act(action: str, **fields: Any) -> ActMessage:
        return ActMessage(action=action, **fields)

    factory = RussianFactory(TableConfig(name="russian", game="russian"))
    table = factory.new_round(scenario_shoe())
    opening = {"ante": 100, "bonus": 100, "blind_boxes": 1, "blind_bonus": 100}
    table.place_bets(0, read_spots(opening, factory.spots))
    for seat in (1, 2, 3):
        table.place_bets(seat, read_spots({"ante": 100}, factory.spots))
    table.close_betting()
    for seat, message in (
        (0, act("bet", amount=300)),
        (1, act("exchange", cards=["5c", "3d"])),
        (1, act("bet")),
        (2, act("sixth_card")),
        (2, act("bet")),
    ):
        action = table.action(seat, message)
        table.check(action)
        table.apply(action)
    table.apply_timeout(3)  # box 4 does not decide in time: it folds
    table.apply(table.action(0, act("buy")))
    table.apply_timeout(1)  # box 2 lets the buy offer lapse: it declines
    table.apply(table.action(2, act("buy")))
    assert table.finished
    return table


def test_a_record_written_by_the_server_table_replays() -> None:
    from croupier.server.tables.games import event_kind, to_json

    table = _table_round()
    record = as_stored(table.record(7))
    assert record["results"] == EXPECTED and record["round_id"] == 7
    assert russian_history.verify(record) == []
    assert replayed_record(record) == record
    # the events and rules are in the form the server stored before records held the deck,
    # so those older records replay too (with the deck GET /api/rounds/{id} reveals)
    engine = table.engine
    assert (
        record["events"]
        == as_stored({"e": [{"kind": event_kind(e), **to_json(e)} for e in engine.events]})["e"]
    )
    assert record["rules"] == as_stored({"r": to_json(engine.config)})["r"]


def _recalled(record: dict[str, Any], *, deck: str | None) -> dict[str, Any]:
    """The JSON of ``GET /api/rounds/{id}`` for a closed round holding ``record``."""
    from croupier.server.tables.rounds import RecalledRound

    return as_stored(
        RecalledRound(
            id=7,
            table="russian",
            game="russian",
            status="settled",
            commitment="0" * 64,
            salt="00",
            deck=deck,
            record=record,
            summary=None,
            created_at="2025-01-01T00:00:00",
            closed_at="2025-01-01T00:01:00",
            players=[],
            void_reason=None,
        ).to_json()
    )


# -- the command line ------------------------------------------------------------------------

runner = CliRunner()


def replay_cli(*paths: Path) -> tuple[int, list[str]]:
    from croupier.cli.russian import app

    result = runner.invoke(app, ["replay", *map(str, paths)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, result.output.splitlines()


@pytest.fixture
def files(tmp_path: Path, record: dict[str, Any]) -> Iterator[Path]:
    rnd, _shoe = _random_round(3)
    other = as_stored(russian_history.record(rnd, round_id=3))
    (tmp_path / "record.json").write_text(json.dumps(record, indent=2))
    legacy = {k: record[k] for k in ("game", "round_id", "rules", "events", "phase", "void")}
    (tmp_path / "recalled.json").write_text(json.dumps(_recalled(legacy, deck=record["deck"])))
    (tmp_path / "rounds.jsonl").write_text(f"{json.dumps(record)}\n\n{json.dumps(other)}\n")
    (tmp_path / "list.json").write_text(json.dumps([other, _recalled(record, deck=None)]))
    yield tmp_path


def test_cli_confirms_records_as_stored_recalled_listed_or_as_lines(files: Path) -> None:
    code, lines = replay_cli(*(files / n for n in ("record.json", "recalled.json", "rounds.jsonl")))
    assert code == 0, lines
    stem = str(files / "record.json")
    assert lines[:6] == [
        f"{stem}: round 42: box 0 (seat 0) net 7.00 confirmed",
        f"{stem}: round 42: box 1 (seat 0) net 0.00 confirmed",
        f"{stem}: round 42: box 2 (seat 1) net 0.00 confirmed",
        f"{stem}: round 42: box 3 (seat 2) net -2.00 confirmed",
        f"{stem}: round 42: box 4 (seat 3) net -1.00 confirmed",
        f"{stem}: round 42: settlement confirmed (house net -4.00)",
    ]
    confirmed = [line for line in lines if "settlement confirmed" in line or "void round" in line]
    assert (
        confirmed[1]
        == f"{files / 'recalled.json'}: round 42: settlement confirmed (house net -4.00)"
    )
    assert [c.split(":")[0] for c in confirmed[2:]] == [
        f"{files / 'rounds.jsonl'}[1]",
        f"{files / 'rounds.jsonl'}[3]",  # line 2 is blank
    ]
    code, lines = replay_cli(files / "list.json")
    assert code == 0, lines
    assert lines[-1].startswith(f"{files / 'list.json'}[2]: round 42: settlement confirmed")


def test_cli_names_the_round_and_the_first_difference(files: Path, record: dict[str, Any]) -> None:
    tampered = copy.deepcopy(record)
    tampered["results"][0]["net"] = 900
    tampered["players_net"] = 700
    (files / "tampered.json").write_text(json.dumps(tampered))
    code, lines = replay_cli(files / "tampered.json", files / "record.json")
    assert code == 1
    assert lines[0] == (
        f"{files / 'tampered.json'}: round 42: results: box 0 (seat 0) settles to net 700 on "
        "replay, the record says 900 (and 1 more difference)"
    )
    assert lines[-1].endswith("round 42: settlement confirmed (house net -4.00)")  # goes on
    # a recalled round whose record was altered: the deck no longer matches the revealed one
    recalled = _recalled(record, deck=record["deck"])
    recalled["record"]["deck"] = swapped(record["deck"], "Qh", "3c")
    (files / "swapped.json").write_text(json.dumps(recalled))
    code, lines = replay_cli(files / "swapped.json")
    assert code == 1
    assert lines == [
        f"{files / 'swapped.json'}: round 7: the record's deck is not the deck revealed with the round"
    ]


def test_cli_reports_bad_input_without_a_traceback(tmp_path: Path, record: dict[str, Any]) -> None:
    bad = {
        "broken.json": '{"game": "russian", ',
        "empty.json": "\n",
        "uth.json": json.dumps({"game": "uth", "version": 1}),
        "nodeck.json": json.dumps({k: v for k, v in record.items() if k != "deck"}),
        "open.json": json.dumps(_recalled(record, deck=None) | {"record": None, "status": "open"}),
        "number.json": "3",
        "lines.jsonl": f"{json.dumps(record)}\nnot json\n",
    }
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "binary.json").write_bytes(b"\x80\x81")
    names = [*bad, "binary.json", "missing.json"]
    code, lines = replay_cli(*(tmp_path / name for name in names))
    assert code == 1
    messages = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in lines}
    t = str(tmp_path)
    assert messages[f"{t}/broken.json"].startswith("not JSON: Expecting")
    assert messages[f"{t}/empty.json"] == "the file is empty"
    assert messages[f"{t}/uth.json"] == "not a Russian Poker round record (game 'uth')"
    assert messages[f"{t}/nodeck.json"].startswith("round 42: the record holds no deck")
    assert messages[f"{t}/open.json"] == "round 7: the round is open and has no record yet"
    assert messages[f"{t}/number.json"] == "a round record is a JSON object, not 3"
    assert messages[f"{t}/lines.jsonl[2]"].startswith("not JSON")
    assert messages[f"{t}/lines.jsonl[1]"].startswith("round 42: settlement confirmed")
    assert messages[f"{t}/binary.json"] == "not a UTF-8 text file (byte 0)"
    assert messages[f"{t}/missing.json"] == "No such file or directory"


def test_the_installed_command_exits_by_the_result(files: Path, record: dict[str, Any]) -> None:
    tampered = copy.deepcopy(record)
    tampered["events"][event_index(tampered, "cards_dealt")]["dealer"][0] = "Ac"
    (files / "tampered.json").write_text(json.dumps(tampered))
    good = subprocess.run(
        [*CROUPIER, "russian", "replay", str(files / "record.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.endswith("round 42: settlement confirmed (house net -4.00)\n")
    bad = subprocess.run(
        [*CROUPIER, "russian", "replay", str(files / "tampered.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1
    assert '.dealer[0] (cards_dealt): "Kd" on replay, the record says "Ac"' in bad.stdout
    assert "Traceback" not in bad.stdout + bad.stderr


def test_differences_compare_only_what_the_record_stores(record: dict[str, Any]) -> None:
    # as the server wrote them before: no version, results or nets (and the deck added)
    legacy = {k: record[k] for k in ("game", "round_id", "rules", "deck", "events", "void")}
    assert russian_history.verify(legacy) == []
    replayed = replayed_record(legacy)
    assert replayed["results"] == EXPECTED and replayed["phase"] == "settled"
    assert russian_history.differences(
        russian_history.replay(legacy), legacy | {"phase": "buying"}
    ) == ['phase: "settled" on replay, the record says "buying"']


@pytest.mark.timeout(60)
def test_a_round_played_on_the_server_replays_as_recalled_over_http(tmp_path: Path) -> None:
    # The server tests' helpers (tests/server/server_testkit.py) drive a real app.
    sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
    from server_testkit import Seat, Server, ShoeStack, TestClient, make_settings, table_ws

    from croupier.server.app import create_app
    from croupier.server.tables.clock import ManualClock
    from croupier.server.tables.config import TableConfig

    table = TableConfig(
        name="russian", game="russian", betting_seconds=10, decision_seconds=20, pause_seconds=0
    )
    settings = make_settings(f"sqlite:///{tmp_path / 'russian.db'}")
    clock, shoes = ManualClock(), ShoeStack()
    # the open box keeps trips of Aces with a sixth card (4d); the dealer's K-Q-9-5-4 does
    # not qualify; the buy draws Kc (a King again) then 5d: Q-9-5-5-4 qualifies
    shoes.push("Ah As Ad 7c 2h  Kh Ks 8d 8h 2c  Kd Qd 9c 5s 4h  4d  Kc 5d")
    app = create_app(settings, tables=[table], clock=clock, shoe_factory=shoes)
    with TestClient(app) as client:
        server = Server(app=app, client=client, clock=clock, shoes=shoes, settings=settings)
        _, token = server.player("alice", credit=10_000)
        with table_ws(client, "russian", token) as ws:
            seat = Seat(ws)
            seat.welcome()
            for message in (
                {"type": "join"},
                {
                    "type": "bet",
                    "key": "a",
                    "bets": {"ante": 100, "bonus": 100, "blind_boxes": 1, "blind_bonus": 100},
                },
                {"type": "act", "action": "sixth_card"},
                {"type": "act", "action": "bet", "amount": 300},
                {"type": "act", "action": "buy"},
            ):
                if message["type"] == "act" and message["action"] == "sixth_card":
                    seat.event("decisions_open")
                frame = seat.request(message)
                assert frame["type"] == "ack", frame
            seat.event("round_closed")
        headers = {"Authorization": f"Bearer {token}"}
        [listed] = client.get("/api/rounds", headers=headers).json()
        recalled = client.get(f"/api/rounds/{listed['id']}", headers=headers).json()
    record = recalled["record"]
    assert record["deck"] == recalled["deck"]
    # box 0: Bet 3:1 = 600, insurance 300, the sixth card and the buy -100 each, Bonus -100
    assert record["results"] == [
        {"box": 0, "seat": 0, "net": 600},
        {"box": 1, "seat": 0, "net": 0},
    ]
    assert russian_history.verify(record) == []
    path = tmp_path / "recalled.json"
    path.write_text(json.dumps(recalled))
    code, lines = replay_cli(path)
    assert code == 0, lines
    assert lines[0] == f"{path}: round {listed['id']}: box 0 (seat 0) net 6.00 confirmed"
    assert lines[-1] == f"{path}: round {listed['id']}: settlement confirmed (house net -6.00)"
