"""The Russian Poker hint in a real browser (issue 32): the advisor's best option and each
option's exact value per Ante, asked about the seat's own cards, at phone and laptop sizes;
the history then tells what the decision cost."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from web_testkit import AXE, Tab, WebServer, axe_violations, euros, horizontal_overflow, plain

# The Hint's words of each option in each language (locales/russian/<lang>.js), which the
# history's decision costs use too.
WORDS = {
    "en-GB": {
        "fold": "fold", "bet": "bet", "sixth_card": "sixth card", "exchange": "exchange {cards}",
        "buy": "buy the dealer's game", "decline": "take the Ante",
        "insured": "with {amount} insurance",
    },
    "it-IT": {
        "fold": "passa", "bet": "punta", "sixth_card": "sesta carta", "exchange": "cambia {cards}",
        "buy": "compra il gioco del banco", "decline": "prendi l'Ante",
        "insured": "con assicurazione di {amount}",
    },
    "sl-SI": {
        "fold": "odstopi", "bet": "stavi", "sixth_card": "šesta karta",
        "exchange": "zamenjaj {cards}", "buy": "kupi igro delivca", "decline": "vzemi Ante",
        "insured": "z zavarovanjem {amount}",
    },
}  # fmt: skip


def short(card: str) -> str:
    """A card as its face's corner shows it: "Td" -> "10♦"."""
    suits = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
    return ("10" if card[0] == "T" else card[0]) + suits[card[1]]


def option_words(option: dict[str, Any], locale: str) -> str:
    """An option of the cost record (``taken_option``/``best_option``) as the page words it."""
    words = WORDS[locale]
    text = words[option["action"]].format(cards=" ".join(short(c) for c in option["cards"]))
    if option["action"] == "bet" and option["insurance"]:
        text += " " + words["insured"].format(amount=euros(option["insurance"], locale))
    return text


def figure(x: float, locale: str, *, sign: bool = True) -> str:
    """A value per Ante as the page writes it: three places, the language's decimal mark
    (a comma in Italian and Slovenian), a minus sign (U+2212)."""
    text = (f"{x:+.3f}" if sign else f"{x:.3f}").replace("-", "\u2212")
    return text if locale.startswith("en") else text.replace(".", ",")


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
    assert figure(best["ev"], "en-GB") in text, text
    assert all(short(card) in text for card in best["discard"]), text
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
    # in English words, with a decimal point: what was taken, the best option
    (cost_line,) = _costs(web_server, token)
    text = plain(line.inner_text())
    assert f"fold ({figure(-1, 'en-GB')} Ante)" in text, text
    best_words = option_words(cost_line["best_option"], "en-GB")
    assert f"best {best_words} ({figure(cost_line['best_ev'], 'en-GB')})" in text, text
    tab.shot("russian-history-costs")


def _costs(web_server: WebServer, token: str) -> list[dict[str, Any]]:
    """The decision costs of the player's newest round, as the server sends them."""
    auth = {"Authorization": f"Bearer {token}"}
    newest = web_server.http.get("/api/rounds", headers=auth).json()[0]
    got = web_server.http.get(f"/api/rounds/{newest['id']}/costs", headers=auth)
    assert got.status_code == 200, got.text
    costs: list[dict[str, Any]] = got.json()["costs"]
    return costs


@pytest.mark.parametrize(
    ("table", "locale", "size", "other"),
    [
        ("ru-costs-it", "it-IT", (390, 844), (1366, 768)),
        # each case reads the history at both sizes: `make test` in Italian (Russian Poker in
        # Slovenian: test_screens.py, test_trust_words.py), `make test-all` in Slovenian too
        pytest.param("ru-costs-sl", "sl-SI", (1366, 768), (390, 844), marks=pytest.mark.slow),
    ],
)
def test_the_history_words_each_decisions_cost_in_the_players_language(
    screen_tab: Any,
    web_server: WebServer,
    table: str,
    locale: str,
    size: tuple[int, int],
    other: tuple[int, int],
) -> None:
    """An exchange of two cards, then a fold: the history's cost lines name the exchange with
    exactly the cards given up and the fold in the Hint's words of the page's language, the
    values per Ante with its decimal comma -- at a phone's and a laptop's size, axe clean."""
    tab: Tab = screen_tab(locale, *size)
    page = tab.page
    name, _, token = web_server.player(f"rc{size[0]}", credit=50_000)
    tab.login(name)
    tab.open_table(table)
    page.click("[data-testid=sit]")
    page.wait_for_selector("[data-testid=bet-form]")
    page.click("[data-testid=chip-100]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    page.wait_for_selector("[data-testid=act-exchange]")
    cards = _cards(tab)
    gone = [cards[6:8], cards[2:4]]  # two cards, chosen out of order
    for card in gone:
        page.click(f"[data-testid=my-box] [data-card='{card}']")
    page.click("[data-testid=act-exchange]:not([disabled])")
    page.wait_for_selector("[data-testid=act-fold]:not([disabled])")
    page.click("[data-testid=act-fold]:not([disabled])")
    page.wait_for_selector("[data-testid=result]")
    page.evaluate("location.hash = '#/history'")
    page.click("[data-testid=costs-ask]")
    page.wait_for_selector("[data-testid=costs] li:nth-child(2)")
    lines = [plain(li.inner_text()) for li in page.query_selector_all("[data-testid=costs] li")]
    exchange, fold = _costs(web_server, token)
    # the server names exactly the cards given up, and the page words them as the Hint does
    assert exchange["taken_option"]["action"] == "exchange"
    assert sorted(exchange["taken_option"]["cards"]) == sorted(gone)
    assert fold["taken_option"] == {"action": "fold", "cards": [], "insurance": 0}
    for cost, text in zip((exchange, fold), lines, strict=True):
        taken = option_words(cost["taken_option"], locale)
        best = option_words(cost["best_option"], locale)
        assert f"{taken} ({figure(cost['taken_ev'], locale)} Ante)" in text, text
        assert f"{best} ({figure(cost['best_ev'], locale)})" in text, text
        assert f"({figure(cost['cost'], locale, sign=False)} Ante)" in text, text
        assert euros(cost["cost_money"], locale) in text, text
        assert "exchange" not in text and "fold" not in text, text  # no English word
    assert WORDS[locale]["exchange"].split()[0] in lines[0] and WORDS[locale]["fold"] in lines[1]
    for width, height in (size, other):
        page.set_viewport_size({"width": width, "height": height})
        assert horizontal_overflow(page) == 0
        if AXE.exists():
            assert axe_violations(page) == []
        tab.shot(f"russian-history-costs-{locale}-{width}")


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
    assert figure(advice["options"][0]["ev"], "en-GB") in hint.inner_text()
