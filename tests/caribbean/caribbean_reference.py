"""An independent, obviously correct settlement of one Caribbean Stud box, for the tests.

It shares nothing with croupier but the card notation: its own five-card ranking (counts of
ranks, flush, straight with the wheel), qualification read off the rules' words ("an Ace and a
King, or a pair or better"), and the pay table written out as the published rules list it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

RANKS = "23456789TJQKA"

# the published pay table on the Raise (SkyCity Darwin, Wizard of Odds "U.S. rules")
PAYS = {
    "royal flush": 100,
    "straight flush": 50,
    "four of a kind": 20,
    "full house": 7,
    "flush": 5,
    "straight": 4,
    "three of a kind": 3,
    "two pair": 2,
    "pair": 1,
    "high card": 1,
}
ORDER = list(reversed(PAYS))  # lowest first


def cards(text: str) -> list[tuple[int, str]]:
    """``"AsKd..."`` as (rank 0..12, suit) pairs."""
    text = text.replace(" ", "")
    return [(RANKS.index(text[i]), text[i + 1]) for i in range(0, len(text), 2)]


def hand_rank(text: str) -> tuple[int, tuple[int, ...]]:
    """(category index in ORDER, tie-break ranks) of five cards."""
    hand = cards(text)
    assert len(hand) == 5
    counts = Counter(r for r, _ in hand)
    flush = len({s for _, s in hand}) == 1
    ranks = sorted(counts, reverse=True)
    straight_top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_top = 3  # the wheel: five-high
    by_count = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    kickers = tuple(r for r, _ in by_count)
    shape = sorted(counts.values(), reverse=True)
    if straight_top is not None and flush:
        name = "royal flush" if straight_top == 12 else "straight flush"
        return ORDER.index(name), (straight_top,)
    if shape == [4, 1]:
        return ORDER.index("four of a kind"), kickers
    if shape == [3, 2]:
        return ORDER.index("full house"), kickers
    if flush:
        return ORDER.index("flush"), tuple(ranks)
    if straight_top is not None:
        return ORDER.index("straight"), (straight_top,)
    if shape == [3, 1, 1]:
        return ORDER.index("three of a kind"), kickers
    if shape == [2, 2, 1]:
        return ORDER.index("two pair"), kickers
    if shape == [2, 1, 1, 1]:
        return ORDER.index("pair"), kickers
    return ORDER.index("high card"), tuple(ranks)


def qualifies(dealer: str) -> bool:
    """ "The dealer must have an Ace and a King or higher": a pair or better, or both."""
    category, _ = hand_rank(dealer)
    ranks = {r for r, _ in cards(dealer)}
    return category > 0 or {12, 11} <= ranks


@dataclass(frozen=True)
class Table:
    """The options the reference knows."""

    multiple: int = 2
    pays: tuple[tuple[str, int], ...] = tuple(PAYS.items())
    max_payout: int | None = None
    progressive_bet: int | None = None
    prizes: tuple[tuple[str, str | int], ...] = (
        ("royal flush", "100%"),
        ("straight flush", "10%"),
        ("four of a kind", 50_000),
        ("full house", 10_000),
        ("flush", 5_000),
    )


def settle(
    player: str,
    dealer: str,
    *,
    ante: int,
    action: str,
    progressive: int = 0,
    jackpot: int = 0,
    table: Table | None = None,
) -> dict[str, int]:
    """The player's net on the Ante, the Raise and the progressive, and the total."""
    table = table or Table()
    raise_bet = table.multiple * ante
    side = 0
    category = ORDER[hand_rank(player)[0]]
    if progressive:
        prize = dict(table.prizes).get(category, 0)
        if action == "fold":
            side = -progressive
        elif isinstance(prize, str):
            side = jackpot * int(prize[:-1]) // 100 - progressive
        else:
            side = prize - progressive if prize else -progressive
    if action == "fold":
        out = {"ante": -ante, "raise": 0}
    elif not qualifies(dealer):
        out = {"ante": ante, "raise": 0}
    elif hand_rank(player) > hand_rank(dealer):
        win = raise_bet * dict(table.pays)[category]
        if table.max_payout is not None:
            win = min(win, table.max_payout)
        out = {"ante": ante, "raise": win}
    elif hand_rank(player) < hand_rank(dealer):
        out = {"ante": -ante, "raise": -raise_bet}
    else:
        out = {"ante": 0, "raise": 0}
    out["progressive"] = side
    out["total"] = out["ante"] + out["raise"] + side
    return out
