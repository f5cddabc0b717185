"""The Russian Poker hint in a real browser (issue 32): the advisor's best option and each
option's exact value per Ante, asked about the seat's own cards, at phone and laptop sizes;
the history then tells what the decision cost."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from web_testkit import Tab, WebServer, axe_violations


def _cards(tab: Tab) -> str:
    return "".join(
        c.get_attribute("data-card") or ""
        for c in tab.page.query_selector_all("[data-testid=my-box] [data-testid=card]")
    )


def test_the_hint_names_the_best_option_with_each_options_value(
    tab: Tab, web_server: WebServer
) -> None:
    tab.page.set_viewport_size({"width": 390, "height": 844})
    name, _, token = web_server.player("sasha", credit=50_000)
    tab.login(name)
    tab.open_table("russian")
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=bet-form]")
    tab.page.click("[data-testid=chip-100]")
    tab.page.click("[data-testid=spot-ante]")
    tab.page.click("[data-testid=bet-button]")
    tab.page.wait_for_selector("[data-testid=act-bet]:not([disabled])")
    hand = _cards(tab)
    advice = web_server.http.get(
        "/api/games/russian/advice",
        params={"hand": hand},
        headers={"Authorization": f"Bearer {token}"},
    ).json()
    assert advice["decision"] == "first"
    tab.page.click("[data-testid=hint]")
    hint = tab.page.wait_for_selector("[data-testid=hint-text]:has-text('Best play:')")
    assert hint is not None
    text = hint.inner_text()
    best = advice["options"][0]
    # the best option's value, to three places, and the exchanged cards if it is an exchange
    assert f"{best['ev']:+.3f}" in text, text
    assert all(card in text for card in best["discard"]), text
    tab.shot("russian-hint-phone")
    assert not axe_violations(tab.page)
    tab.page.set_viewport_size({"width": 1366, "height": 768})
    tab.shot("russian-hint-laptop")
    # a new decision clears the hint: fold and the round ends
    tab.page.click("[data-testid=act-fold]:not([disabled])")
    tab.page.wait_for_selector("[data-testid=result]")
    assert tab.page.query_selector("[data-testid=hint-text]") is None
    # The history values the round's decision: folding cost the best option's value + 1.
    tab.page.click("[data-testid=nav-history]")
    tab.page.click("[data-testid=costs-ask]")
    line = tab.page.wait_for_selector("[data-testid=costs] li")
    assert line is not None
    cost = round((best["ev"] + 1) * 100) if best["ev"] > -1 else 0
    assert line.get_attribute("data-cost") == str(cost), line.inner_text()
    assert "fold" in line.inner_text() and best["label"] in line.inner_text()
    tab.shot("russian-history-costs")


def test_the_hint_after_a_reload_still_knows_the_discarded_cards(
    tab: Tab, web_server: WebServer
) -> None:
    """The advisor values a decision after an exchange with the discards out of the deck;
    a page reloaded after the exchange asks it with them too (it asked without: it learnt the
    discards only from the exchange's event, which a reload does not replay)."""
    name, _, token = web_server.player("sergei", credit=50_000)
    tab.login(name)
    tab.open_table("russian")
    page = tab.page
    page.click("[data-testid=sit]")
    page.wait_for_selector("[data-testid=bet-form]")
    page.click("[data-testid=chip-100]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    page.wait_for_selector("[data-testid=act-exchange]")
    before = _cards(tab)
    gone = before[:2]
    page.click(f"[data-testid=my-box] [data-card='{gone}']")
    page.click("[data-testid=act-exchange]:not([disabled])")
    page.wait_for_selector(
        f"[data-testid=my-box]:not(:has([data-card='{gone}'])) [data-testid=card]"
    )
    page.reload()
    page.wait_for_selector("[data-testid=act-bet]:not([disabled])")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/advice" in r.url else None)
    page.click("[data-testid=hint]")
    hint = page.wait_for_selector("[data-testid=hint-text]:has-text('Best play:')")
    assert hint is not None and asked, asked
    query = parse_qs(urlparse(asked[-1]).query)
    assert query.get("seen") == [gone], asked[-1]
    # what the page shows is the advisor's value with the discard out of the deck
    advice = web_server.http.get(
        "/api/games/russian/advice",
        params={"hand": _cards(tab), "seen": gone},
        headers={"Authorization": f"Bearer {token}"},
    ).json()
    assert f"{advice['options'][0]['ev']:+.3f}" in hint.inner_text()
