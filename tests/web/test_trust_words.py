"""Issue 29, "Layout and words": the UTH result never covers a card nor is clipped, at 390, 1366
and 1920 px; a tie whose Trips lost is a push, not "The dealer wins"; the hint's EVs are
numbers of the player's language; lengths are counts, not money; the history's check, the
RNG test names and the shipped tables' titles in the player's language; Russian Poker's phase
text follows the decision left, "drew" right in Slovenian, the bought card named; the
operator's pages use the full width, never scroll sideways on a phone, audit details in
words and euros.

Each test failed on the client before issue 29 (main at f5d48cb).
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from web_testkit import (
    AXE,
    OPERATOR,
    OUTSIDE_THE_CURVE,
    OwnServer,
    Tab,
    WebServer,
    axe_violations,
    euros,
    horizontal_overflow,
    plain,
    tables_toml,
)

# seed003's dealing for one box: box 2♣ 3♦, dealer 2♦ 3♥, a burn, board A♠ K♦ Q♣ J♥ 9♠:
# both play the board (Ace high): a tie; the dealer does not qualify; Trips lose.
TIE = "2c 2d 3d 3h 5h As Kd Qc Jh 9s"
# Russian Poker, one box: 2♣ 3♦ 8♥ 9♠ K♣; the dealer 4♠ 6♦ 7♣ J♥ Q♠ (no Ace-King: does not
# qualify); the exchange of three brings K♦ K♥ 9♦ (a full house); buying the dealer's game
# replaces his Queen with the 2♦.
RUSSIAN = "2c 3d 8h 9s Kc 4s 6d 7c Jh Qs Kd Kh 9d 2d"
# UTH, one box: box A♣ 9♥, dealer A♦ 8♠, a burn, board Q♠ Q♦ 7♣ 3♥ 2♠: both have a pair of
# Queens and an Ace; the box's Nine beats the dealer's Eight.
KICKER = "Ac Ad 9h 8s 4c Qs Qd 7c 3h 2s"
_CODE = re.compile(r"\b[2-9TJQKA][cdhs]\b")

OVERLAP = """() => {
  const r = document.querySelector('[data-testid=result]').getBoundingClientRect();
  const felt = document.querySelector('[data-testid=felt]').getBoundingClientRect();
  const hits = [...document.querySelectorAll('[data-testid=felt] .card')].filter((c) => {
    const k = c.getBoundingClientRect();
    return k.width > 0 && k.left < r.right && r.left < k.right && k.top < r.bottom && r.top < k.bottom;
  }).map((c) => c.dataset.card || c.className);
  const inside = r.left >= felt.left && r.right <= felt.right && r.top >= felt.top && r.bottom <= felt.bottom;
  const view = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  return {hits, inside, view};
}"""


def test_a_tie_is_a_push_and_the_result_covers_no_card_at_any_size(
    own_server: Any, page_for: Any
) -> None:
    server: OwnServer = own_server(tables_toml(), decks=[TIE])
    web = server.server
    # A name of 18 characters: your own place shows it whole on a laptop and on a phone.
    name, _, _ = web.player("lunghissimo", credit=100_000)
    tab: Tab = page_for(web, "it-IT", 1366, 768)
    tab.login(name)
    page = tab.page
    page.goto(f"{web.url}/#/table/casino-play")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=chip-100]")
    page.click("[data-testid=spot-trips]")
    page.click("[data-testid=bet-button]")
    # The hint's EVs, written the Italian way.
    page.click("[data-testid=hint]:not([disabled])")
    hint = page.wait_for_selector("[data-testid=hint-text] small")
    assert hint is not None
    evs = re.findall(r"−?\d+[.,]\d{3}", hint.inner_text())
    assert evs and all("," in ev for ev in evs), hint.inner_text()
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-1x]:not([disabled])")
    page.wait_for_selector("[data-testid=result]")
    net = page.get_attribute("[data-testid=result-net]", "data-net")
    assert net == "-100", net  # only the Trips lost
    headline = page.inner_text("[data-testid=result-net]")
    assert headline == "Pari con il banco", headline  # a tie: not "Vince il banco"
    for width, height in ((1366, 768), (1920, 1080), (375, 667), (412, 915), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        place = page.evaluate(OVERLAP)
        assert not place["hits"], (width, place)
        assert place["inside"] and place["view"], (width, place)
        # The dealer's hand ("… (non si qualifica)") is never cut by the felt's rounded rail.
        assert not page.evaluate(OUTSIDE_THE_CURVE), (width, page.evaluate(OUTSIDE_THE_CURVE))
        tab.shot(f"trust-words-tie-{width}")
        # Your own place on the arc shows your whole name, on a phone too.
        squashed = page.evaluate(
            """() => [...document.querySelectorAll('.seat-place.mine .seat-name')].filter(
                 (el) => el.scrollWidth > el.clientWidth + 1).length"""
        )
        assert not squashed, width
        if AXE.exists() and width == 390:
            assert not axe_violations(page)


def test_the_player_and_the_dealer_named_down_to_the_deciding_kicker(
    own_server: Any, page_for: Any
) -> None:
    """Both a pair of Queens with an Ace: each is named with the kicker that decides, in
    Slovenian on a desktop (before, both read "Par dam, kicker as" and the dealer lost)."""
    server: OwnServer = own_server(tables_toml(), decks=[KICKER])
    web = server.server
    name, _, _ = web.player("kicker", credit=100_000)
    tab: Tab = page_for(web, "sl-SI", 1920, 1080)
    tab.login(name)
    page = tab.page
    page.goto(f"{web.url}/#/table/casino-play")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-1x]:not([disabled])")
    page.wait_for_selector("[data-testid=result]")
    assert int(page.get_attribute("[data-testid=result-net]", "data-net") or 0) > 0
    mine = plain(page.inner_text("[data-testid=my-hand]"))
    dealer = plain(page.inner_text("[data-testid=dealer-hand]"))
    assert mine == "Par dam, kickerji as in devetka", mine
    assert dealer == "Par dam, kickerji as in osmica", dealer
    assert "Par dam, kickerji as in devetka" in plain(page.inner_text("[data-testid=result]"))
    tab.shot("trust-words-kickers-1920")
    if AXE.exists():
        assert not axe_violations(page)


def test_words_in_the_players_language(own_server: Any, page_for: Any) -> None:
    """The shipped tables (default_tables.toml): their titles, the lengths of a password, the
    history's check of a round, in Italian."""
    default = resources.files("croupier.server").joinpath("default_tables.toml").read_text()
    server: OwnServer = own_server(default)
    web = server.server
    tab: Tab = page_for(web, "it-IT", 390, 844)
    page = tab.page
    page.goto(f"{web.url}/#/lobby")
    page.wait_for_selector("[data-testid=table-uth-casino]")
    lobby = page.inner_text("[data-testid=lobby]")
    assert "tavolo da casinò" in lobby and "Poker russo" in lobby, lobby
    assert "casino table" not in lobby and "Russian Poker" not in lobby
    # A password too short: its bounds are counts of characters, never euros.
    page.goto(f"{web.url}/#/login")
    page.click("[data-testid=auth-switch]")
    page.fill("[data-testid=username-input]", "corto")
    page.fill("[data-testid=password-input]", "abc")
    page.click("[data-testid=auth-submit]")
    error = page.wait_for_selector("[data-testid=auth-error]:not(:empty)")
    assert error is not None
    text = plain(error.inner_text())
    assert "€" not in text and re.search(r"\b10\b.*\b256\b.*caratteri", text), text
    # The history's check of a round, in Italian: labels and all.
    name, _, _ = web.player("storia", credit=100_000)
    page.reload()  # the form back in its login mode
    tab.login(name)
    page.goto(f"{web.url}/#/table/uth-casino")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-fold]:not([disabled])")
    page.wait_for_selector("[data-testid=result]")
    page.click("[data-testid=nav-history]")
    page.wait_for_selector("[data-testid=verify][data-ok=true]")
    page.click("[data-testid=verify]")
    detail = page.inner_text(".verify-detail")
    assert "impegno" in detail and "sale" in detail and "mazzo" in detail, detail
    assert "commitment" not in detail and "salt" not in detail
    assert "Ultimate Texas Hold'em — tavolo da casinò" in page.inner_text("[data-testid=history]")


def test_russian_poker_says_what_is_left_and_names_the_bought_card(
    own_server: Any, page_for: Any
) -> None:
    server: OwnServer = own_server(tables_toml(), decks=[RUSSIAN])
    web = server.server
    name, _, _ = web.player("ruski", credit=100_000)
    tab: Tab = page_for(web, "sl-SI", 390, 844)
    tab.login(name)
    page = tab.page
    page.goto(f"{web.url}/#/table/russian")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit]")
    page.click("[data-testid=chip-100]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    page.wait_for_selector("[data-testid=act-exchange]")
    before = page.inner_text("[data-testid=phase]")
    assert "menjava" in before, before
    for card in ("2c", "3d", "8h"):
        page.click(f".card-pick:has([data-card='{card}'])")
    page.click("[data-testid=act-exchange]:not([disabled])")
    page.wait_for_selector("[data-testid=my-box] [data-card=Kh]")
    page.wait_for_selector("[data-testid=act-bet]:not([disabled])")
    # After the exchange only the Bet or a fold is left: the phase says so.
    after = page.inner_text("[data-testid=phase]")
    assert "menjava" not in after and "stava" in after and "odstop" in after, after
    status = page.inner_text("[data-testid=my-box] .ru-status")
    assert status == "je vleklo karte", status
    tab.shot("trust-words-russian-exchanged-390")
    page.click("[data-testid=act-bet]:not([disabled])")
    page.click("[data-testid=act-buy]:not([disabled])")
    bought = page.wait_for_selector("[data-testid=bought]")
    assert bought is not None
    note = bought.inner_text()
    assert not _CODE.search(note), note
    assert "dama pik" in note.lower() and "dvojka karo" in note.lower(), note
    page.wait_for_selector("[data-testid=result]")
    tab.shot("trust-words-russian-bought-390")


def test_the_console_in_words_at_every_width(screen_tab: Any, web_server: WebServer) -> None:
    username, _, _ = web_server.player("words", credit=0)
    wide: Tab = screen_tab("it-IT", 1920, 1080)
    wide.login(*OPERATOR)
    page = wide.page
    page.goto(f"{web_server.url}/#/operator/cage")
    page.fill("[data-testid=cage-query]", username)
    page.click("[data-testid=cage-find]")
    page.click(f"[data-testid=cage-pick-{username}]")
    page.fill("[data-testid=cage-amount]", "12,50")
    page.fill("[data-testid=cage-reason]", "contanti")
    page.click("[data-testid=cage-credit]")
    page.click("[data-testid=cage-confirm-yes]")
    page.wait_for_selector("[data-testid=cage-result]:not(:empty)")
    # The audit log in words and euros, never JSON in cents.
    page.goto(f"{web_server.url}/#/operator/audit")
    row = page.wait_for_selector("[data-testid=audit-entries] tr[data-action='cage.credit']")
    assert row is not None
    details = plain(row.inner_text())
    assert f"importo: {euros(1250, 'it-IT')}" in details and "motivo: contanti" in details, details
    assert "{" not in details and "1250" not in details
    assert "cassa: versamento" in details
    # The reports take the width of a wide screen, and nothing in them is clipped.
    page.goto(f"{web_server.url}/#/operator/reports")
    page.wait_for_selector("[data-testid=daily]")
    width = page.evaluate(
        "() => document.querySelector('[data-testid=operator]').getBoundingClientRect().width"
    )
    assert width > 1600, width
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('svg.plot text')].filter((t) => {
              const b = t.getBBox(); const w = t.ownerSVGElement.viewBox.baseVal.width;
              return b.x < 0 || b.x + b.width > w; }).map((t) => t.textContent)"""
    )
    assert not clipped, clipped
    # The RNG audit's test names in Italian.
    page.goto(f"{web_server.url}/#/operator/rng")
    page.click("[data-testid=rng-run]")
    page.wait_for_selector("[data-testid=rng-tests]")
    names = page.inner_text("[data-testid=rng-tests] tbody")
    assert "correlazione seriale" in names and "serial correlation" not in names, names
    wide.shot("trust-words-console-1920")
    # A phone: no table of the console scrolls sideways (its sections' axe audits and page
    # widths: test_operator_console.py).
    phone: Tab = screen_tab("sl-SI", 390, 844)
    phone.login(*OPERATOR)
    for section, shown in (
        ("reports", "[data-testid=daily-table], [data-testid=daily-empty]"),
        ("audit", "[data-testid=audit-entries] tbody tr"),
    ):
        phone.page.goto(f"{web_server.url}/#/operator/{section}")
        phone.page.wait_for_selector(shown)
        assert horizontal_overflow(phone.page) <= 0, section
        wide_inside = phone.page.evaluate(
            """() => [...document.querySelectorAll('.table-scroll')].filter(
                 (el) => el.scrollWidth > el.clientWidth + 1).length"""
        )
        assert not wide_inside, section
    phone.shot("trust-words-console-390")
