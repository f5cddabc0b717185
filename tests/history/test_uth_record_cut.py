"""A live round's record cut to one player's boxes (what that player recalls) replays to the
same results for those boxes; a casino round's record cannot be cut (its deal depends on
every box)."""

from __future__ import annotations

import random

import pytest

from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import RecordError
from croupier.games.uth import UthConfig, UthRound
from croupier.history import uth as uth_history


def _played(config: UthConfig, seed: int, boxes: int) -> UthRound:
    rng = random.Random(seed)
    rnd = UthRound(config, Shoe(shuffled(seeded_source(seed))))
    for seat in range(boxes):
        rnd.place_bets(seat, ante=100 * rng.randint(1, 5), trips=rng.choice([0, 100]))
    rnd.close_betting()
    while rnd.pending_seats:
        for seat in rnd.pending_seats:
            action = rng.choice(rnd.legal_words(seat))
            if action == "check":
                rnd.check(seat)
            elif action == "fold":
                rnd.fold(seat)
            else:
                rnd.bet_play(seat, int(action[:-1]))
    return rnd


@pytest.mark.parametrize("seed", range(20))
def test_a_cut_record_replays_to_the_same_results(seed: int) -> None:
    record = uth_history.record(_played(UthConfig.live(), seed, boxes=40))
    keep = set(random.Random(seed).sample(range(40), k=1 + seed % 5))
    cut = uth_history.record_for_seats(record, keep)
    assert {b["seat"] for b in cut["bets"]} == keep and cut["boxes_in_play"] == 40
    assert uth_history.verify(cut) == []
    replayed = uth_history.replay(cut)
    assert set(replayed.results) == keep
    assert cut["results"] == [r for r in record["results"] if r["seat"] in keep]
    assert cut["players_net"] == sum(r["net"] for r in cut["results"]) == -cut["house_net"]


def test_a_casino_record_is_not_cut() -> None:
    record = uth_history.record(_played(UthConfig.casino(), 1, boxes=3))
    with pytest.raises(RecordError, match="shared-hand"):
        uth_history.record_for_seats(record, {0})
