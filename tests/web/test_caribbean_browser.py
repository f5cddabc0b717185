"""Caribbean Stud Poker in a real browser (issue 31), at a phone's and a laptop's size: the
Ante and the progressive bet, five cards and the dealer's one up card, Raise 2x at the price the
server sends with the decision's id, the Hint from the game's advisor, each bet's result, a
balance that matches ``GET /api/wallet``, the Raise's cost in the history (issue 32), and
axe-core finding nothing on the page."""

from __future__ import annotations

from typing import Any

import pytest
from web_testkit import AXE, Tab, WebServer, axe_violations, euros, horizontal_overflow, plain

from croupier.analysis.caribbean import advise

CREDIT = 50_000
ANTE = 500
PROGRESSIVE = 100
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")
# The words of the options in each language (locales/<lang>.js `action.raise`/`action.fold`).
WORDS = {
    "en-GB": {"raise": "Raise", "fold": "Fold", "best": "best"},
    "it-IT": {"raise": "Rilancia", "fold": "Passa", "best": "migliore"},
    "sl-SI": {"raise": "Zvišaj", "fold": "Odstopi", "best": "najboljše"},
}
SIZES = ((390, 844), (1366, 768))


def figure(x: float, locale: str, *, sign: bool = True) -> str:
    """A value per Ante as the page writes it: three places, the language's decimal mark
    (a comma in Italian and Slovenian), a minus sign (U+2212)."""
    text = (f"{x:+.3f}" if sign else f"{x:.3f}").replace("-", "\u2212")
    return text if locale.startswith("en") else text.replace(".", ",")


def _wait_balance(tab: Tab, cents: int, locale: str) -> None:
    tab.page.wait_for_function(
        "want => (document.querySelector('[data-testid=balance]') || {}).innerText"
        "?.replace(/[\\u00a0\\u202f]/g, ' ') === want",
        arg=euros(cents, locale),
    )


def _cards(tab: Tab, where: str) -> list[str]:
    return [
        c.get_attribute("data-card") or ""
        for c in tab.page.query_selector_all(f"[data-testid={where}] [data-testid=card]")
    ]


def _axe(tab: Tab) -> None:
    if AXE.exists():
        assert axe_violations(tab.page, impacts=EVERY_IMPACT) == []


def _state_views(tab: Tab) -> list[dict[str, Any]]:
    return [f for f in tab.frames if f.get("type") == "state" and f.get("view")]


@pytest.mark.parametrize(
    ("table", "locale", "width", "height", "ask_hint"),
    [
        # `make test` plays the laptop's and the Hint's rounds (a Caribbean round in English on
        # a phone: test_kicker_names.py); `make test-all` this one too
        pytest.param("cs-phone", "en-GB", 390, 844, False, marks=pytest.mark.slow),
        ("cs-laptop", "it-IT", 1366, 768, False),
        ("cs-hint", "sl-SI", 1366, 768, True),
    ],
)
def test_a_round_end_to_end(
    screen_tab: Any,
    web_server: WebServer,
    table: str,
    locale: str,
    width: int,
    height: int,
    ask_hint: bool,
) -> None:
    tab: Tab = screen_tab(locale, width, height)
    page = tab.page
    name, _, token = web_server.player(f"cs{width}", credit=CREDIT)
    tab.login(name)
    # The lobby names the game from the client's registry, with its limits.
    card = page.inner_text(f"[data-testid=table-{table}]")
    assert "Caribbean" in card or "Karibski" in card, card
    assert euros(100, locale) in plain(card) and euros(50_000, locale) in plain(card), card
    tab.open_table(table)
    page.wait_for_selector("[data-testid=caribbean-table]")
    page.click("[data-testid=sit]")
    page.wait_for_selector("[data-testid=bet-form]")
    _axe(tab)
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    page.check("[data-testid=progressive]")
    tab.shot(f"caribbean-{width}-bet")
    # each spot's word within its own circle's width: at a phone's size PROGRESSIVE ran past
    # its circle to the Ante's
    spilled = page.evaluate(
        """() => [...document.querySelectorAll('.cs-felt .spot')].flatMap((spot) => {
            const box = spot.getBoundingClientRect();
            const word = spot.querySelector('.spot-label').getBoundingClientRect();
            return word.left < box.left - 0.5 || word.right > box.right + 0.5
                ? [spot.className + ' ' + word.width.toFixed(1) + '>' + box.width.toFixed(1)] : [];
        })"""
    )
    assert spilled == [], spilled
    page.click("[data-testid=bet-button]")
    _wait_balance(tab, CREDIT - ANTE - PROGRESSIVE, locale)
    # The decision: your five cards, the dealer's one up card and four down.
    page.wait_for_selector("[data-testid=act-raise]:not([disabled])")
    hand = _cards(tab, "my-hand-cards")
    assert len(hand) == 5 and len(set(hand)) == 5
    dealer = _cards(tab, "dealer")
    assert len(dealer) == 1 and dealer[0] not in hand
    assert len(page.query_selector_all("[data-testid=dealer] [data-testid=card-back]")) == 4
    last = _state_views(tab)[-1]
    view = last["view"]
    # The decision's countdown runs, and its id is the one the server issued with the turn.
    timer = page.wait_for_selector("[data-testid=timer][data-kind=decision]")
    assert timer is not None and 0 < int(timer.get_attribute("data-left") or "0") <= 60
    issued = last["table"].get("decision") or view.get("decision")
    assert issued
    assert view["hand"] == hand and view["upcard"] == dealer[0]
    # The Raise's price is the server's (2x the Ante), said on the button.
    price = view["prices"]["raise"]
    assert price == 2 * ANTE
    assert euros(price, locale) in plain(page.inner_text("[data-testid=act-raise]"))
    assert page.query_selector("[data-testid=act-fold]:not([disabled])") is not None
    if ask_hint:
        page.click("[data-testid=hint]")
        page.wait_for_selector("[data-testid=act-raise].hinted, [data-testid=act-fold].hinted")
        advice = web_server.http.get(
            "/api/games/caribbean/advice",
            params={"hand": "".join(hand), "upcard": dealer[0]},
            headers={"Authorization": f"Bearer {token}"},
        ).json()
        assert page.query_selector(f"[data-testid=act-{advice['best']}].hinted") is not None
    _axe(tab)
    tab.shot(f"caribbean-{width}-decide")
    page.click("[data-testid=act-raise]:not([disabled])")
    # The act named the decision the server issued with the turn.
    tab.wait_until(lambda: any(s.get("type") == "act" for s in tab.sent))
    (act,) = [s for s in tab.sent if s.get("type") == "act"]
    assert act["action"] == "raise" and act["decision"] == issued
    page.wait_for_selector("[data-testid=result]")
    net = int(page.get_attribute("[data-testid=result-net]", "data-net") or "x")
    # The dealer's five cards are shown, and a line per bet: Ante, Raise, progressive.
    assert len(_cards(tab, "dealer")) == 5
    rows = page.query_selector_all("[data-testid=bet-lines] tbody tr")
    bets = {r.get_attribute("data-bet") for r in rows}
    assert bets == {"ante", "raise", "progressive"}, bets
    settled = tab.wait_frame(
        lambda f: (
            f.get("type") in ("event", "seat_event")
            and f["event"]["kind"] == "box_settled"
            and f["event"]["result"]["seat"] == view["seat"]
        )
    )["event"]["result"]
    assert settled["net"] == net
    assert sum(b["net"] for b in settled["bets"]) == net
    _wait_balance(tab, CREDIT + net, locale)
    assert web_server.balance(token) == CREDIT + net
    assert horizontal_overflow(page) == 0
    _axe(tab)
    tab.shot(f"caribbean-{width}-result")
    # The round in the history: your five cards and the dealer's (from the revealed deck, by
    # the dealing order), the Raise, a line per bet.
    dealt = _cards(tab, "dealer")
    page.evaluate("location.hash = '#/history'")
    card = page.wait_for_selector("article.round-card:has([data-testid=history-bets])")
    assert card is not None
    shown = {c.get_attribute("data-card") for c in card.query_selector_all("[data-testid=card]")}
    assert shown == set(hand) | set(dealt), (shown, hand, dealt)
    lines = {r.get_attribute("data-bet") for r in card.query_selector_all("tbody tr")}
    assert lines == {"ante", "raise", "progressive"}
    net_text = plain(card.query_selector("[data-testid=round-net]").inner_text())
    assert euros(abs(net), locale) in net_text, net_text
    _axe(tab)
    tab.shot(f"caribbean-{width}-history")
    # What the Raise cost against the best decision (issue 32), asked from the history: the
    # advisor's exact EVs of this hand against this up card, times the Ante.
    card.query_selector("[data-testid=costs-ask]").click()
    line = page.wait_for_selector("[data-testid=costs] li")
    assert line is not None
    evs = {o.action: o.ev for o in advise(" ".join(hand), dealer[0]).options}
    cost = round((max(evs.values()) - evs["raise"]) * ANTE)
    assert line.get_attribute("data-cost") == str(cost), line.inner_text()
    # in the page's language: the options' words and the values' decimal mark
    words = WORDS[locale]
    best = "raise" if evs["raise"] > evs["fold"] else "fold"
    text = plain(line.inner_text())
    assert f"{words['raise']} ({figure(float(evs['raise']), locale)} Ante)" in text, text
    assert f"{words['best']} {words[best]} ({figure(float(evs[best]), locale)})" in text, text
    spent = figure(float(max(evs.values()) - evs["raise"]), locale, sign=False)
    assert f"{euros(cost, locale)} ({spent} Ante)" in text, text
    if not locale.startswith("en"):
        assert "raise" not in text.lower() and "fold" not in text.lower(), text
    for w, h in sorted(SIZES, key=lambda s: s[0] != width):  # its own size first
        page.set_viewport_size({"width": w, "height": h})
        assert horizontal_overflow(page) == 0
        _axe(tab)
        tab.shot(f"caribbean-{locale}-history-costs-{w}")
