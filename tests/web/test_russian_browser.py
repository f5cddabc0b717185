"""Russian Poker in a real browser: an open box and a blind box, an exchange, a bet, the
dealer's hand at the showdown, and a balance that matches ``GET /api/wallet``."""

from __future__ import annotations

import re

from web_testkit import Tab, WebServer

CREDIT = 50_000


def _shown_balance(tab: Tab) -> int:
    return int(re.sub(r"[^0-9]", "", tab.page.inner_text("[data-testid=balance]")))


def _wait_balance(tab: Tab, cents: int) -> None:
    euros = f"€{cents // 100:,}.{cents % 100:02d}"
    tab.page.wait_for_selector(f"[data-testid=balance]:text-is('{euros}')")


def _cards(tab: Tab, where: str) -> list[str]:
    return [
        c.get_attribute("data-card") or ""
        for c in tab.page.query_selector_all(f"[data-testid={where}] [data-testid=card]")
    ]


def test_play_a_round_with_a_blind_box(tab: Tab, web_server: WebServer) -> None:
    rules = {t["name"]: t for t in web_server.http.get("/api/tables").json()}["russian"]["rules"]
    ante = int(rules["ante_min"])
    name, _, token = web_server.player("ruslan", credit=CREDIT)
    tab.login(name)
    tab.open_table("russian")
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=bet-form]")
    # Chips on the open box's Ante, one blind box with the stepper.
    assert ante == 100
    tab.page.click("[data-testid=chip-100]")
    tab.page.click("[data-testid=spot-ante]")
    tab.page.click("[data-testid=blind-plus]")
    assert tab.page.inner_text("[data-testid=blind-count]") == "1"
    tab.page.click("[data-testid=bet-button]")
    # One open box (Ante) and one blind box (Ante + Bet of 2x Ante): 4 Antes held.
    _wait_balance(tab, CREDIT - 4 * ante)
    tab.page.wait_for_selector("[data-testid=act-bet]:not([disabled])")
    before = _cards(tab, "my-box")
    assert len(before) == 5
    blind = "[data-testid=my-blind-box] [data-testid=card-back]"
    assert len(tab.page.query_selector_all(blind)) == 5
    assert len(tab.page.query_selector_all("[data-testid=dealer] [data-testid=card]")) == 0
    fees = 0
    if tab.page.query_selector("[data-testid=act-exchange]"):
        # Select two cards, unselect one, exchange the other (fee: 1x Ante).
        tab.page.click(f"[data-testid=my-box] [data-card='{before[0]}']")
        tab.page.click(f"[data-testid=my-box] [data-card='{before[1]}']")
        # The button says how many cards and what the exchange costs (1x Ante).
        assert tab.page.inner_text("[data-testid=act-exchange]") == "Exchange 2 · €1.00"
        tab.page.click(f"[data-testid=my-box] [data-card='{before[1]}']")
        tab.shot("russian-select")
        tab.page.click("[data-testid=act-exchange]:not([disabled])")
        tab.page.wait_for_selector(
            f"[data-testid=my-box]:not(:has([data-card='{before[0]}'])) [data-testid=card]"
        )
        after = _cards(tab, "my-box")
        assert len(after) == 5 and before[0] not in after and set(before[1:]) <= set(after)
        fees = ante
    tab.page.click("[data-testid=act-bet]:not([disabled])")
    # A dealer who does not qualify offers to buy his game; decline it.
    outcome = tab.page.wait_for_selector(
        "[data-testid=result], [data-testid=act-decline]:not([disabled])"
    )
    assert outcome is not None
    if outcome.get_attribute("data-testid") == "act-decline":
        tab.page.click("[data-testid=act-decline]")
    tab.page.wait_for_selector("[data-testid=result]")
    net = int(tab.page.get_attribute("[data-testid=result-net]", "data-net") or "x")
    assert len(tab.page.query_selector_all("[data-testid=dealer] [data-testid=card]")) == 5
    # At the showdown both of your boxes are face up (the blind box too).
    assert len(tab.page.query_selector_all(".ru-box.mine [data-testid=card]")) == 10
    tab.shot("russian-result")
    _wait_balance(tab, CREDIT + net)
    assert web_server.balance(token) == CREDIT + net == _shown_balance(tab)
    # The server's own account of the round: stakes and fees out, returns back.
    closed = tab.wait_frame(
        lambda f: f.get("type") == "event" and f["event"]["kind"] == "round_closed"
    )["event"]
    (returned,) = closed["returns"].values()  # the only seat at the table
    assert closed["status"] == "settled"
    # Held: the open box's Ante and Bet (2x), the blind box's Ante and Bet, the exchange fee.
    assert CREDIT - 6 * ante - fees + returned == CREDIT + net
