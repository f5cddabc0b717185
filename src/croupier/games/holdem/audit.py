"""Settle one known showdown, for test labs auditing how pots are split
(``croupier holdem settle``).

:func:`settle_line` is the game's audit function, with the same signature in every game
(``croupier.games.uth.audit``, ``croupier.games.russian.audit``): one decoded JSON line and
the table's config in, each player's net and the rake out. A line lists the players in
position order (the small blind first, the button last; the odd chip of a split follows
it, spec/holdem.md "Winning"): ``{"board": "AhKh4c5s9c", "players": [{"cards": "AsKd",
"put_in": 600}, {"cards": "QsQd", "put_in": 600}, {"put_in": 200, "folded": true}]}``;
``put_in`` is everything the player put in the pots (an ``ante`` included, uncalled bets
returned), ``cards`` are needed for the players still in.

>>> from fractions import Fraction
>>> from croupier.games.holdem.config import Rake
>>> line = {"board": "AhKh4c5s9c", "players": [
...     {"cards": "AsKd", "put_in": 600}, {"cards": "QsQd", "put_in": 600},
...     {"put_in": 200, "folded": True}]}
>>> settle_line(line, HoldemTableConfig(rake=Rake(percent=Fraction(5, 100), cap=50)))
{'p1': 750, 'p2': -600, 'p3': -200, 'rake': 50}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.cards import Card, check_distinct, parse_cards
from croupier.games.holdem.config import MAX_PLAYERS, MIN_PLAYERS, HoldemTableConfig
from croupier.games.holdem.showdown import settle
from croupier.games.protocol import refused

__all__ = ["FIELDS", "PLAYER_FIELDS", "settle_line"]

FIELDS = frozenset({"board", "players"})
"""The fields of an audit line."""
PLAYER_FIELDS = frozenset({"cards", "put_in", "ante", "folded"})
"""The fields of each player of a line (``put_in`` required)."""


def _amount(player: Mapping[str, Any], name: str, index: int) -> int:
    value = player.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise refused(
            f"players[{index}].{name} must be a whole amount >= 0, not {value!r}",
            "amount_not_whole",
            spot=name,
        )
    return value


def _player(player: object, index: int) -> tuple[int, int, bool, tuple[Card, ...] | None]:
    if not isinstance(player, Mapping):
        raise refused(f"players[{index}] must be an object", "line_not_object")
    unknown = sorted(set(player) - PLAYER_FIELDS)
    if unknown:
        raise refused(
            f"unknown field players[{index}].{unknown[0]}", "unknown_field", field=unknown[0]
        )
    if "put_in" not in player:
        raise refused(f"missing field players[{index}].put_in", "missing_field", field="put_in")
    folded = player.get("folded", False)
    if not isinstance(folded, bool):
        raise refused(
            f"players[{index}].folded must be true or false", "not_a_choice", field="folded"
        )
    cards = player.get("cards")
    if cards is None:
        if not folded:
            raise refused(
                f"players[{index}] is still in: their cards are needed",
                "missing_field",
                field="cards",
            )
        hole = None
    elif not isinstance(cards, str) or len(hole := parse_cards(cards)) != 2:
        raise refused(
            f"players[{index}].cards must be two cards, not {cards!r}",
            "field_not_cards",
            field="cards",
        )
    ante = _amount(player, "ante", index)
    put_in = _amount(player, "put_in", index)
    if ante > put_in:
        raise refused(
            f"players[{index}].ante {ante} is more than put_in {put_in}", "ante_above_put_in"
        )
    return put_in, ante, not folded, hole


def settle_line(line: Mapping[str, Any], config: HoldemTableConfig) -> dict[str, int]:
    """Settle one showdown line under ``config`` (rake, odd chip, split): each player's net
    (``"p1"`` ... in position order: pots won less ``put_in``) and the ``"rake"``, in the
    engine's units (the table's, times ``EXACT_SCALE`` under the ``exact`` split).

    Raises:
        CroupierError: a field that is missing, unknown or not valid, repeated cards.
    """
    if not isinstance(line, Mapping):
        raise refused("each line must be a JSON object", "line_not_object")
    unknown = sorted(set(line) - FIELDS)
    if unknown:
        raise refused(f"unknown field {unknown[0]!r}", "unknown_field", field=unknown[0])
    players = line.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise refused(
            f"players must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} players",
            "players_count",
            min=MIN_PLAYERS,
            max=MAX_PLAYERS,
        )
    board_text = line.get("board")
    if not isinstance(board_text, str) or len(board := parse_cards(board_text)) != 5:
        raise refused(
            f"board must be five cards, not {board_text!r}", "field_not_cards", field="board"
        )
    seats = [_player(p, i) for i, p in enumerate(players)]
    if not any(live for _, _, live, _ in seats):
        raise refused("every player folded: someone must win the pot", "nobody_in")
    check_distinct([*board, *(c for *_, hole in seats if hole is not None for c in hole)])
    unit = config.split.unit
    put_in = [amount * unit for amount, *_ in seats]
    rake, awards = settle(
        config.hand_config(len(seats)),
        put_in=put_in,
        antes=[ante * unit for _, ante, _, _ in seats],
        live=[live for _, _, live, _ in seats],
        holes=[hole for *_, hole in seats],
        board=board,
        unit=unit,
    )
    won = [0] * len(seats)
    for award in awards:
        for seat, share in zip(award.seats, award.amounts, strict=True):
            won[seat] += share
    out = {f"p{i + 1}": won[i] - put_in[i] for i in range(len(seats))}
    out["rake"] = rake
    return out
