"""The advisors' card queries are checked by one module for every game (issue 31)."""

from __future__ import annotations

import pytest

from croupier.server.errors import InvalidRequestError
from croupier.server.tables.card_query import card_fields


def test_cards_in_notation_pass_as_text_and_an_absent_field_is_empty() -> None:
    got = card_fields({"hole": "AsKd", "board": "2c 3d 4h"}, ("hole", "board", "seen"))
    assert got == {"hole": "AsKd", "board": "2c 3d 4h", "seen": ""}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"hole": "AsKx"}, "hole"),  # x is no suit
        ({"hole": "As;Kd"}, "hole"),
        ({"hole": "As" * 17}, "hole"),  # longer than any query
        ({"hole": "AsKd", "board": "1c2c3c"}, "board"),
        ({"board": "2c3c4c"}, "hole"),  # required, missing
        ({"hole": "   "}, "hole"),  # required, blank
    ],
)
def test_a_field_that_is_not_cards_is_refused_by_name(query: dict[str, str], field: str) -> None:
    with pytest.raises(InvalidRequestError) as refused:
        card_fields(query, ("hole", "board"), required=("hole",))
    assert refused.value.reason == "field_not_cards"
    assert refused.value.params == {"field": field}
    assert field in str(refused.value)
