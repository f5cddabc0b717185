"""Caribbean Stud records: every round replays to its record (through JSON), whatever the
table's options and however it ended; a changed record is caught, a broken one refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import RecordError
from croupier.games.caribbean import CaribbeanConfig, CaribbeanRound, Phase
from croupier.history import caribbean as history

OPTIONS = CaribbeanConfig(
    progressive_bet=100,
    max_payout=20_000,
    raise_multiple=1,
    dealing="hands",  # type: ignore[arg-type]
)


def played(config: CaribbeanConfig, seed: int, *, void_at: int | None = None) -> CaribbeanRound:
    rng = random.Random(seed)
    rnd = CaribbeanRound(config, Shoe(shuffled(seeded_source(seed))), jackpot=rng.randint(0, 10**6))
    side = config.progressive_bet is not None
    for seat in rng.sample(range(config.max_seats), rng.randint(1, config.max_seats)):
        rnd.place_bets(seat, ante=100 * rng.randint(1, 9), progressive=side and rng.random() < 0.5)
        if side and rng.random() < 0.3 and rnd.can_add_progressive(seat):
            rnd.add_progressive(seat)
    if void_at == 0:
        rnd.void("a misdeal")
        return rnd
    rnd.close_betting()
    for step, seat in enumerate(rnd.pending_seats, 1):
        if void_at == step:
            rnd.void("a shuffler fault")
            return rnd
        if rng.random() < 0.6:
            rnd.bet_raise(seat, timeout=rng.random() < 0.1)
        else:
            rnd.fold(seat, timeout=rng.random() < 0.1)
    return rnd


def dealt(rnd: CaribbeanRound) -> tuple[object, ...]:
    """The round's events from the close of betting on."""
    kinds = [e.kind for e in rnd.events]
    return rnd.events[kinds.index("betting_closed") :] if "betting_closed" in kinds else ()


def through_json(data: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


@pytest.mark.parametrize("config", [CaribbeanConfig(), OPTIONS], ids=["default", "options"])
def test_every_round_replays_to_its_record(config: CaribbeanConfig) -> None:
    for seed in range(60):
        rnd = played(config, seed, void_at=seed % 7 if seed % 5 == 0 else None)
        data = through_json(history.record(rnd, round_id=seed))
        assert history.verify(data) == [], seed
        again = history.replay(data)
        assert again.results == rnd.results and again.phase is rnd.phase
        assert again.jackpot_paid == rnd.jackpot_paid
        # the record keeps each box's bets as they stood at the deal, not how they were placed
        assert dealt(again) == dealt(rnd) and again.staked() == rnd.staked()


def test_a_changed_result_or_deck_is_caught() -> None:
    rnd = played(OPTIONS, 4)
    assert rnd.phase is Phase.SETTLED
    data = through_json(history.record(rnd))
    changed = json.loads(json.dumps(data))
    changed["results"][0]["net"] += 1
    assert history.verify(changed)[0].startswith(f"seat {max(rnd.results)} settles")
    swapped = json.loads(json.dumps(data))
    cards = swapped["deck"].split()
    cards[0], cards[-1] = cards[-1], cards[0]
    swapped["deck"] = " ".join(cards)
    assert history.verify(swapped) != []
    paid = dict(data, jackpot_paid=data["jackpot_paid"] + 1)
    assert "jackpot" in history.verify(paid)[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "uth"}, "not a Caribbean Stud"),
        ({"version": 9}, "version"),
        ({"deck": "As As"}, "does not replay"),
        ({"bets": [{"seat": 0}]}, "malformed"),
        ({"actions": [{"seat": 0, "action": "call"}]}, "unknown action"),
        ({"config": {"max_seats": 99}}, "does not replay"),
        ({"bets": [{"seat": 0, "ante": 100, "progressive": 500}]}, "progressive"),
    ],
)
def test_broken_records_are_refused(change: dict[str, Any], message: str) -> None:
    data = through_json(history.record(played(OPTIONS, 2)))
    with pytest.raises(RecordError, match=message):
        history.replay({**data, **change})
