"""Issue 13, item 1: nobody can deduce a Hold'em hand that was folded or mucked.

Two players sit heads-up at a real server. One folds; the other collects everything a player
can see of that hand -- every frame their socket received (the events, ``round_closed`` with
its reveal, their own ``cards_opened``) and their recall of it over HTTP -- and tries to name
the folded cards. A hand is deduced when the cards the watcher cannot place are exactly two:
52 minus what was opened minus their own. The server may open only what was seen (the board
and the burns actually dealt), each player's own hole cards to that player, and hands shown;
every opened card must still check against the commitment published before the deal, in
its dealing position.
"""

from __future__ import annotations

from typing import Any

import pytest
from sec_testkit import Player, SecServer, TableSocket, cards_seen

from croupier.cards import DECK
from croupier.server.tables.fairness import verify_openings

pytestmark = pytest.mark.timeout(90)

ALL_CARDS = {str(c) for c in DECK}


def _sit(server: SecServer, table: str) -> tuple[dict[int, TableSocket], dict[int, Player]]:
    sockets: dict[int, TableSocket] = {}
    players: dict[int, Player] = {}
    for prefix in ("hu-a", "hu-b"):
        player = server.player(prefix, credit=20_000)
        ws = server.socket(table, player.token)
        ack = ws.request({"type": "join"})
        assert ack is not None and ack["type"] == "ack", ack
        seat = ack["result"]["seat"]
        bought = ws.request({"type": "buy_in", "key": f"buy-{player.name}", "amount": 5_000})
        assert bought is not None and bought["type"] == "ack", bought
        sockets[seat], players[seat] = ws, player
    return sockets, players


def _own_cards(ws: TableSocket, seat: int) -> set[str]:
    dealt = ws.wait_for(
        lambda f: (
            f["type"] == "event"
            and f["event"]["kind"] == "hole_dealt"
            and f["event"]["seat"] == seat
        )
    )
    assert dealt is not None and dealt["event"]["cards"], dealt
    return set(dealt["event"]["cards"])


def _what_a_player_sees(
    server: SecServer, ws: TableSocket, player: Player, round_id: int
) -> tuple[set[str], list[Any]]:
    """Every card named in what ``player`` received or can recall of ``round_id``, and the
    recalls themselves."""
    one = server.http.get(f"/api/rounds/{round_id}", headers=player.auth)
    assert one.status_code == 200, one.text
    recent = server.http.get("/api/rounds", headers=player.auth)
    assert recent.status_code == 200, recent.text
    mine = [r for r in recent.json() if r["id"] == round_id]
    frames = [f for f in ws.frames if f.get("event", {}).get("round_id", round_id) == round_id]
    seen = cards_seen(frames) | cards_seen(one.json()) | cards_seen(mine)
    return seen, [one.json(), *mine]


def _check_the_hand(
    server: SecServer,
    sockets: dict[int, TableSocket],
    players: dict[int, Player],
    folder: int,
    closed: dict[str, Any],
) -> None:
    watcher = next(s for s in sockets if s != folder)
    round_id = closed["round_id"]
    folded = _own_cards(sockets[folder], folder)
    own = _own_cards(sockets[watcher], watcher)
    summary = closed["summary"]
    board = set(summary["board"])
    seen, recalls = _what_a_player_sees(server, sockets[watcher], players[watcher], round_id)

    # The attack: whatever is left over after everything the watcher was shown.
    unknown = ALL_CARDS - seen
    assert not folded & seen, f"folded cards {folded & seen} were shown to the other player"
    assert unknown != folded, "the folded hand is deduced: it is all that was not opened"
    # Nothing but the dealt board, its burns and the watcher's own cards may be known.
    burns = {0: 0, 3: 1, 4: 2, 5: 3}[len(board)]
    assert len(seen - own - board) <= burns, (seen - own - board, burns)

    # Every card opened still checks against the commitment, at its dealing position.
    reveal = closed["reveal"]
    assert verify_openings(
        commitment=reveal["commitment"], leaves=reveal["leaves"], openings=reveal["openings"]
    )
    opened_at = {int(k): card for k, (_, card) in reveal["openings"].items()}
    # Heads-up, four hole cards come first; then a burn and the flop, a burn, the turn...
    board_positions = {5: 0, 6: 1, 7: 2, 9: 3, 11: 4}
    for position, index in board_positions.items():
        if index < len(summary["board"]):
            assert opened_at.get(position) == summary["board"][index]
    assert set(opened_at.values()) <= board | (seen - own)
    mine = sockets[watcher].seat_event("cards_opened")
    assert {card for _, card in mine["openings"].values()} == own
    assert verify_openings(
        commitment=reveal["commitment"], leaves=reveal["leaves"], openings=mine["openings"]
    )
    for recall in recalls:
        assert recall["salt"] is None and recall["deck"] is None
        assert verify_openings(
            commitment=recall["commitment"], leaves=recall["leaves"], openings=recall["openings"]
        )


def test_a_hand_folded_before_the_flop_cannot_be_deduced(shared: SecServer) -> None:
    sockets, players = _sit(shared, "sec-holdem")
    any_ws = next(iter(sockets.values()))
    turn = any_ws.event("turn")
    folder = turn["seat"]
    ack = sockets[folder].request({"type": "act", "action": "fold"})
    assert ack is not None and ack["type"] == "ack", ack
    closed = any_ws.event("round_closed")
    assert closed["summary"]["board"] == []
    _check_the_hand(shared, sockets, players, folder, closed)
    for ws in sockets.values():
        ws.close()


def test_a_hand_folded_on_the_flop_cannot_be_deduced(shared: SecServer) -> None:
    sockets, players = _sit(shared, "sec-holdem-flop")
    any_ws = next(iter(sockets.values()))
    first = any_ws.event("turn")["seat"]
    assert sockets[first].request({"type": "act", "action": "call"})["type"] == "ack"  # type: ignore[index]
    second = next(s for s in sockets if s != first)
    assert sockets[second].request({"type": "act", "action": "check"})["type"] == "ack"  # type: ignore[index]
    flop = any_ws.index_of("board_dealt")
    actor = any_ws.event("turn", start=flop)
    bettor = actor["seat"]
    bet = sockets[bettor].request({"type": "act", "action": "bet", "amount": 200})
    assert bet is not None and bet["type"] == "ack", bet
    folder = next(s for s in sockets if s != bettor)
    assert sockets[folder].request({"type": "act", "action": "fold"})["type"] == "ack"  # type: ignore[index]
    closed = any_ws.event("round_closed")
    assert len(closed["summary"]["board"]) == 3
    _check_the_hand(shared, sockets, players, folder, closed)
    for ws in sockets.values():
        ws.close()
