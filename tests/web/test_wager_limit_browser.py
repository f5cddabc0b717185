"""A wager limit at a Hold'em table, as a player sees it (issue 27), on a phone and a laptop.

The player has a wager limit of €10 a day and €100 at the table; when their turn comes the
page offers only what fits: no All-in button, the raise control stopping at what the limit
leaves (its last preset named "Limit", not "All-in"), and a line saying how much is left.
The page passes axe-core's serious and critical checks.
"""

from __future__ import annotations

from typing import Any

import pytest
from web_testkit import Tab, WebServer, axe_violations, horizontal_overflow

BUY_IN = 10_000
LIMIT = 1_000


def _turn(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "event" and frame["event"]["kind"] in ("turn", "round_closed")


def _cents(text: str | None) -> int:
    whole, _, frac = (text or "x").partition(".")
    return int(whole) * 100 + int(frac.ljust(2, "0"))


# `make test` on the phone (Hold'em on a laptop: test_trust_holdem.py); `make test-all` on both.
@pytest.mark.parametrize(
    ("width", "height"),
    [
        pytest.param(390, 844, id="phone"),
        pytest.param(1366, 768, id="laptop", marks=pytest.mark.slow),
    ],
)
def test_the_page_offers_only_what_the_wager_limit_allows(
    screen_tab: Any, web_server: WebServer, make_bot: Any, width: int, height: int
) -> None:
    name, _, token = web_server.player("wlim", credit=50_000)
    _, _, bot_token = web_server.player("wbot", credit=50_000)
    limited = web_server.http.put(
        "/api/me/limits",
        json={"wager": {"day": LIMIT}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert limited.status_code == 200, limited.text
    tab: Tab = screen_tab("en-GB", width, height)
    tab.login(name)
    tab.open_table("holdem-nl")
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=buyin-dialog]")
    tab.page.fill("[data-testid=buyin-amount]", f"{BUY_IN // 100}.00")
    tab.page.click("[data-testid=buyin-submit]")
    tab.page.wait_for_selector(f"[data-testid=my-stack][data-stack='{BUY_IN}']")
    me = int(tab.page.get_attribute(".hm-seat.mine", "data-seat") or "x")

    bot = make_bot("holdem-nl", bot_token)
    bot_seat = bot.request({"type": "join"})["result"]["seat"]
    assert (
        bot.request({"type": "buy_in", "key": f"wbot-{width}", "amount": BUY_IN})["type"] == "ack"
    )
    event = bot.wait_for(_turn, timeout=30)["event"]
    if event["seat"] == bot_seat:  # the bot limps; the browser decides in the big blind
        assert bot.request({"type": "act", "action": "call"})["type"] == "ack"
        event = bot.wait_for(_turn, timeout=30)["event"]
    assert event["seat"] == me
    tab.page.wait_for_selector("[data-testid=holdem-table][data-turn=me]")
    options = next(
        f["view"]["options"]
        for f in reversed(tab.frames)
        if f.get("type") == "state" and f.get("view") and f["view"].get("options")
    )
    left = options["wager_left"]
    assert 0 < left < LIMIT
    assert "all_in" not in options["actions"]
    assert tab.page.query_selector("[data-testid=act-all_in]") is None
    assert options["max_raise_to"] <= options["bet"] + left
    high = _cents(tab.page.get_attribute("[data-testid=raise-amount]", "max"))
    assert high == options["max_raise_to"] < options["bet"] + options["stack"]
    note = tab.page.inner_text("[data-testid=wager-left]")
    assert f"€{left // 100}.{left % 100:02d}" in note
    assert tab.page.inner_text("[data-testid=preset-limit]") == "Limit"
    assert tab.page.query_selector("[data-testid=preset-all_in]") is None
    assert horizontal_overflow(tab.page) == 0
    assert axe_violations(tab.page) == []
    tab.shot(f"wager-limit-{width}x{height}")
    # The limit's preset and a raise to it: taken.
    tab.page.click("[data-testid=preset-limit]")
    raise_word = "raise" if "raise" in options["actions"] else "bet"
    tab.page.click(f"[data-testid=act-{raise_word}]:not([disabled])")
    tab.wait_until(lambda: any(f.get("type") == "act" for f in tab.sent))
    act = next(f for f in tab.sent if f.get("type") == "act")
    assert act["action"] == raise_word, act
    # The answer to this act (not the buy-in's ack), before the bot folds to the raise.
    answer = tab.wait_frame(
        lambda f: f.get("type") in ("ack", "error") and f.get("ref") == act["id"]
    )
    assert answer["type"] == "ack", answer
    folded = bot.request({"type": "act", "action": "fold"})
    assert folded["type"] == "ack", folded
    bot.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["kind"] == "round_closed", timeout=30
    )
    assert bot.request({"type": "leave"})["type"] == "ack"
