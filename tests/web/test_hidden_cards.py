"""The page never holds a card its seat may not see: every WebSocket frame the browser received
during a two-player round is searched for card notation and checked against what the seat
may know at that moment (issue 5: never the deck, the dealer's hole cards before showdown, or
another player's hole cards). Which card is which comes from the revealed deck, dealt again
here by the casino procedure (spec/uth.md "Dealing and decisions", seed 003)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from web_testkit import Tab, WebServer

_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def cards_in(frame: dict[str, Any]) -> set[str]:
    """Every card named anywhere in a frame, in a value of its own or in a list like a deck."""
    found = set()
    for text in _strings(frame):
        for token in re.split(r"[\s,]+", text):
            if _CARD.match(token):
                found.add(token)
    return found


def test_the_scanner_finds_cards_wherever_they_are() -> None:
    assert cards_in({"a": {"b": ["As", None]}, "deck": "Kd 7h"}) == {"As", "Kd", "7h"}
    assert cards_in({"message": "no cards here, as 10 is not a card"}) == set()


def _deal(deck: list[str], seats: list[int]) -> dict[str, Any]:
    """Who got which card: two rounds of one card per box then the dealer, a burn, the board."""
    n = len(seats) + 1
    hole = {seat: {deck[i], deck[i + n]} for i, seat in enumerate(seats)}
    dealer = {deck[n - 1], deck[2 * n - 1]}
    burn = deck[2 * n]
    board = deck[2 * n + 1 : 2 * n + 6]
    return {"hole": hole, "dealer": dealer, "burn": burn, "board": board}


def test_no_frame_carries_a_card_the_seat_may_not_see(
    tab: Tab, web_server: WebServer, make_bot: Any
) -> None:
    name, _, _ = web_server.player("watcher", credit=100_000)
    _, _, bot_token = web_server.player("rival", credit=100_000)
    tab.login(name)
    tab.open_table("casino-frames")
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=chip-tray]")
    bot = make_bot("casino-frames", bot_token)
    bot_seat = bot.request({"type": "join"})["result"]["seat"]
    tab.page.click("[data-testid=chip-500]")
    tab.page.click("[data-testid=spot-ante]")
    tab.page.click("[data-testid=bet-button]")
    bot.request({"type": "bet", "key": "rival-1", "bets": {"ante": 300, "trips": 100}})
    for phase, bot_action, action in (
        ("pre-flop", "check", "check"),
        ("flop", "check", "check"),
        ("river", "fold", "1x"),
    ):
        tab.page.wait_for_selector(f"[data-testid=uth-table][data-phase='{phase}']")
        bot.request({"type": "act", "action": bot_action})
        button = f"[data-testid=act-{action}]:not([disabled])"
        tab.page.wait_for_selector(button)
        tab.page.click(button)
    tab.page.wait_for_selector("[data-testid=result]")
    tab.page.wait_for_selector("[data-testid=log] li:has-text('Your result')")
    tab.shot("hidden-cards-round")

    my_seat = next(
        f["table"]["your_seat"]
        for f in tab.frames
        if f.get("type") == "state" and f["table"]["your_seat"] is not None
    )
    round_id = next(e["round_id"] for e in tab.events("round_opened"))
    closed = tab.wait_frame(
        lambda f: f.get("type") == "event" and f["event"]["kind"] == "round_closed"
    )
    closed_at = tab.frames.index(closed)
    recalled = web_server.recall(round_id)
    deck = recalled["deck"].split(" ")
    dealt = _deal(deck, sorted([my_seat, bot_seat]))
    assert recalled["summary"]["board"] == dealt["board"]  # the reconstruction is the server's
    assert set(recalled["summary"]["dealer"]) == dealt["dealer"]

    mine, rival = dealt["hole"][my_seat], dealt["hole"][bot_seat]
    undealt = set(deck) - mine - rival - dealt["dealer"] - set(dealt["board"])
    seen: set[str] = set()
    dealer_shown = False
    board_shown: set[str] = set()
    for index, frame in enumerate(tab.frames[:closed_at]):
        found = cards_in(frame)
        event = frame.get("event", {}) if frame.get("type") == "event" else {}
        if event.get("kind") == "dealer_revealed":
            dealer_shown = True
        if event.get("kind") == "board_dealt":
            board_shown |= set(event["cards"])
        allowed = mine | board_shown | (dealt["dealer"] if dealer_shown else set())
        leaked = found - allowed
        assert not leaked, f"frame {index} shows {sorted(leaked)} it may not: {frame}"
        assert not found & rival, f"frame {index} shows the rival's hole cards: {frame}"
        assert not found & undealt, f"frame {index} shows undealt cards: {frame}"
        assert not {"deck", "salt"} & set(_keys(frame)), f"frame {index} reveals the deck: {frame}"
        seen |= found
    # The scanner does find what the seat may see (so a leak would be found the same way).
    assert mine <= seen and set(dealt["board"]) <= seen and dealt["dealer"] <= seen
    # The rival saw its own cards over its own socket, never ours.
    rival_frames = []
    while not bot.frames.empty():
        rival_frames.append(bot.frames.get())
    rival_seen = set().union(*(cards_in(f) for f in rival_frames if "reveal" not in str(f)))
    assert rival <= rival_seen
    assert not mine & rival_seen
    # After the round the deck is revealed (the commitment check), and only then.
    reveal = tab.frames[closed_at]["event"]["reveal"]
    assert reveal["deck"] == recalled["deck"] and reveal["commitment"] == recalled["commitment"]
