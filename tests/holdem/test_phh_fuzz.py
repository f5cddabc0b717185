"""Round-trip fuzz: any HandHistory written by dumps reads back equal."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.history import holdem_phh as phh

amounts = st.one_of(
    st.integers(min_value=0, max_value=10**12),
    st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
)
texts = st.text(
    alphabet=st.characters(exclude_categories=["Cs"]),
    max_size=30,
)
extra_values = st.one_of(
    texts,
    st.integers(min_value=-(10**9), max_value=10**9),
    st.booleans(),
    st.lists(texts, max_size=4),
    st.lists(st.integers(min_value=0, max_value=99), max_size=4),
    st.times().map(lambda t: t.replace(microsecond=0)),
    st.dates(min_value=dt.date(1970, 1, 1)),
)
keys = st.one_of(st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True), texts).filter(
    lambda k: (
        k
        not in {
            "variant",
            "antes",
            "blinds_or_straddles",
            "min_bet",
            "small_bet",
            "big_bet",
            "starting_stacks",
            "actions",
            "finishing_stacks",
            "ante_trimming_status",
        }
    )
)


@st.composite
def histories(draw: st.DrawFn) -> phh.HandHistory:
    players = draw(st.integers(min_value=2, max_value=10))

    def per_player() -> list[int | Decimal]:
        return draw(st.lists(amounts, min_size=players, max_size=players))

    fixed = draw(st.booleans())
    extra = draw(st.dictionaries(keys, extra_values, max_size=5))
    return phh.HandHistory(
        variant="FT" if fixed else draw(st.sampled_from(["NT", "PT"])),
        antes=tuple(per_player()),
        blinds_or_straddles=tuple(per_player()),
        starting_stacks=tuple(per_player()),
        actions=tuple(draw(st.lists(texts, max_size=8))),
        min_bet=None if fixed else draw(amounts),
        small_bet=draw(amounts) if fixed else None,
        big_bet=draw(amounts) if fixed else None,
        ante_trimming_status=draw(st.booleans()),
        finishing_stacks=tuple(per_player()) if draw(st.booleans()) else None,
        fields=tuple(extra.items()),
    )


@settings(max_examples=300, deadline=None)
@given(histories())
def test_dumps_loads_round_trip(hand: phh.HandHistory) -> None:
    assert phh.loads(phh.dumps(hand)) == hand


@settings(max_examples=50, deadline=None)
@given(st.lists(histories(), min_size=1, max_size=4))
def test_dumps_all_loads_all_round_trip(hands: list[phh.HandHistory]) -> None:
    assert phh.loads_all(phh.dumps_all(hands)) == tuple(hands)
