"""The operator's console opens a table of any game from its descriptor (issue 31): the form
shows the chosen game's settings (GET /api/games) with their defaults, checks their bounds in
the page, and opens a Caribbean Stud table; on a phone and a laptop, with no sideways
scrolling and no serious axe-core violation."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from web_testkit import AXE, OPERATOR, Tab, WebServer, axe_violations, horizontal_overflow

SIZES = ((390, 844), (1366, 768))


def _tables(server: WebServer) -> dict[str, Any]:
    listed: list[dict[str, Any]] = server.operator("GET", "/api/operator/tables")
    return {t["name"]: t for t in listed}


# `make test` opens the table on the laptop (the console on a phone: test_operations_console.py,
# test_operator_game_select.py, test_trust_words.py); `make test-all` on both.
@pytest.mark.parametrize(
    ("width", "height"),
    [
        pytest.param(w, h, id=f"{w}x{h}", marks=pytest.mark.slow if w < 500 else ())
        for w, h in SIZES
    ],
)
def test_the_console_opens_a_caribbean_stud_table(
    screen_tab: Any, web_server: WebServer, width: int, height: int
) -> None:
    tab: Tab = screen_tab("en-GB", width, height)
    tab.login(*OPERATOR)
    page = tab.page
    page.goto(f"{web_server.url}/#/operator/tables")
    page.wait_for_selector("[data-testid=new-table] [data-testid=nt-game]")
    # every game the server describes is offered, by its title
    offered = page.eval_on_selector_all(
        "[data-testid=nt-game] option", "els => els.map((e) => e.value)"
    )
    described = [g["name"] for g in web_server.http.get("/api/games").json()]
    assert offered == described and "caribbean" in offered
    # a game with a choice and a flag among its settings: Hold'em's structure and rake rule
    page.select_option("[data-testid=nt-game]", "holdem")
    page.wait_for_selector("[data-testid=nt-settings][data-game=holdem]")
    assert page.input_value("[data-testid=nt-structure]") == "no-limit"
    assert page.is_checked("[data-testid=nt-no_flop_no_drop]")
    assert "Minimum buy-in" in page.inner_text("label[for=nt-min_buy_in]")
    assert "Seats" in page.inner_text("label[for=nt-max_seats]")
    tab.shot(f"operator-new-holdem-{width}x{height}")
    # a raked Hold'em table: the rake in per cent, checked in the page, then opened
    holdem = f"nl-{uuid.uuid4().hex[:6]}"
    page.fill("[data-testid=nt-name]", holdem)
    page.fill("[data-testid=nt-rake_percent]", "120")
    page.click("[data-testid=nt-submit]")
    page.wait_for_selector("[data-testid=nt-rake_percent-error]:has-text('0 to 100')")
    page.fill("[data-testid=nt-rake_percent]", "2.5")
    page.fill("[data-testid=nt-rake_cap]", "3")
    page.click("[data-testid=nt-submit]")
    page.wait_for_selector(f"[data-testid=optable-{holdem}]")
    raked = _tables(web_server)[holdem]
    assert raked["game"] == "holdem" and raked["theoretical_return"]["rake"]["percent"] == "2.5"
    assert raked["rules"]["rake_cap"] == 300 and raked["limits"]["min_bet"] == 8_000
    page.select_option("[data-testid=nt-game]", "caribbean")
    page.wait_for_selector("[data-testid=nt-settings][data-game=caribbean]")
    # its own settings, with the descriptor's defaults: the Raise multiple is Caribbean's
    assert page.input_value("[data-testid=nt-raise_multiple]") == "2"
    assert page.input_value("[data-testid=nt-min]") == "1.00"
    assert "Minimum bet" in page.inner_text("label[for=nt-ante_min]")
    name = f"stud-{uuid.uuid4().hex[:6]}"
    page.fill("[data-testid=nt-name]", name)
    page.fill("[data-testid=nt-title]", "Stud by the console")
    # out of its bounds (1..10): refused in the page, nothing sent
    page.fill("[data-testid=nt-raise_multiple]", "11")
    page.click("[data-testid=nt-submit]")
    page.wait_for_selector("[data-testid=nt-raise_multiple-error]:has-text('1 to 10')")
    assert name not in _tables(web_server)
    page.fill("[data-testid=nt-raise_multiple]", "2")
    page.fill("[data-testid=nt-min]", "5")
    page.fill("[data-testid=nt-max]", "4")
    page.click("[data-testid=nt-submit]")
    page.wait_for_selector("[data-testid=nt-min-error]:has-text('Maximum bet')")
    assert name not in _tables(web_server)
    page.fill("[data-testid=nt-max]", "250")
    # the progressive: its bet (empty: none), the meter it starts with, the dealing order
    assert page.input_value("[data-testid=nt-progressive_bet]") == ""
    assert "Progressive bet" in page.inner_text("label[for=nt-progressive_bet]")
    assert page.input_value("[data-testid=nt-dealing]") == "one_at_a_time"
    page.fill("[data-testid=nt-progressive_bet]", "1")
    page.fill("[data-testid=nt-jackpot]", "5000")
    page.select_option("[data-testid=nt-dealing]", "hands")
    tab.shot(f"operator-new-caribbean-{width}x{height}")
    assert horizontal_overflow(page) <= 0
    if AXE.exists():
        violations = axe_violations(page)
        assert not violations, violations
    page.click("[data-testid=nt-submit]")
    card = f"[data-testid=optable-{name}]"
    page.wait_for_selector(card)
    made = _tables(web_server)[name]
    assert made["game"] == "caribbean" and made["title"] == "Stud by the console"
    assert made["limits"]["min_bet"] == 500 and made["limits"]["max_bet"] == 25_000
    assert made["rules"]["raise_multiple"] == 2
    assert made["rules"]["progressive_bet"] == 100 and made["rules"]["jackpot"] == 500_000
    assert made["rules"]["dealing"] == "hands"
    # the new table's theoretical return in Caribbean Stud's own words
    page.wait_for_selector(f"{card} [data-testid=theory][data-theory=ready]")
    assert "element of risk" in page.inner_text(f"{card} [data-testid=theory]")
