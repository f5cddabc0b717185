"""The vectorised simulator settles every hand exactly as the engine does."""

from __future__ import annotations

import pytest

from croupier.analysis.uth.paytables import from_engine
from croupier.analysis.uth.simulate import deal_and_settle
from croupier.cards import cards_from_ids, format_cards
from croupier.games.uth.audit import audit_line, settle_hand
from croupier.games.uth.config import UthConfig


def _text(ids: object) -> str:
    return format_cards(cards_from_ids(int(c) for c in ids))  # type: ignore[attr-defined]


@pytest.mark.parametrize("strategy", ["optimal", "simple"])
def test_simulator_settles_like_the_engine(strategy: str) -> None:
    config = UthConfig()
    cards, record, scale = deal_and_settle(3000, seed=11, strategy=strategy)  # type: ignore[arg-type]
    assert scale == 2  # the Ante is 2 minor units, so the Blind's 3:2 is exact
    actions = {4: "4x", 3: "3x", 2: "2x", 1: "1x", -1: "fold"}
    for row, rec in zip(cards, record, strict=True):
        result = settle_hand(
            player=_text(row[0:2]),
            dealer=_text(row[2:4]),
            board=_text(row[4:9]),
            ante=scale,
            trips=1,
            action=actions[int(rec[3])],
            config=config,
        )
        line = audit_line(result)
        assert (line["ante"], line["blind"], line["play"], line["trips"]) == tuple(
            int(x) for x in (rec[0], rec[1], rec[2], rec[4])
        ), (row, rec)


def test_engine_pay_tables_are_the_analysis_defaults() -> None:
    from croupier.analysis.uth import DEFAULT_BLIND, DEFAULT_TRIPS

    config = UthConfig()
    assert from_engine(config.blind_paytable) == dict(DEFAULT_BLIND)
    assert from_engine(config.trips_paytable) == dict(DEFAULT_TRIPS)
