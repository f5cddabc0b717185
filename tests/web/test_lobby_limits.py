"""The lobby's line of each table's limits comes from its game's descriptor (issue 31): the
settings ``GET /api/games`` names for the lobby, each written by its kind (money in the
language's euros, a choice in its words), and it reads as it did when each game drew its own
line -- on a phone (390x844) and a laptop (1366x768), in Italian, English and Slovenian, with
no serious or critical axe-core violation. Screenshots go to ``artifacts/web/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from web_testkit import (
    AXE,
    LOCALES,
    WebServer,
    axe_violations,
    euros,
    horizontal_overflow,
    plain,
    screen_params,
)

SIZES = ((390, 844), (1366, 768))
LOBBY_SCREENS = tuple((loc, w, h) for loc in LOCALES for w, h in SIZES)
# The words of each language's lines (the locales' own texts, as the games drew them).
BLINDS = {"it-IT": "Bui", "en-GB": "Blinds", "sl-SI": "Obvezni stavi"}
needs_axe = pytest.mark.skipif(
    not AXE.exists(), reason="axe-core is not installed: run `npm ci` (needs Node.js)"
)


def _expected(locale: str) -> dict[str, str]:
    """Each game's table of the test server -> its line, from the tables' rules in
    ``web_testkit`` (a UTH casino table, a Caribbean table) and the games' defaults
    (Hold'em's blinds of 1 and 2 euros, No-Limit; Russian Poker's Ante of 1 to 100 euros)."""

    def money(cents: int) -> str:
        return euros(cents, locale)

    return {
        "casino-play": f"Ante {money(100)}–{money(100_000)} · Trips {money(100)}–{money(50_000)}",
        "holdem-nl": f"{BLINDS[locale]} {money(100)}/{money(200)} · No-Limit",
        "russian": f"Ante {money(100)}–{money(10_000)}",
        "cs-phone": f"Ante {money(100)}–{money(50_000)}",
    }


def test_the_descriptors_name_the_lobby_settings(web_server: WebServer) -> None:
    """What the lobby is told: each setting its line shows is one of the game's settings."""
    import httpx

    games = httpx.get(f"{web_server.url}/api/games", timeout=10).json()
    assert {g["name"] for g in games} >= {"uth", "holdem", "russian", "caribbean"}
    for game in games:
        names = {s["name"] for s in game["settings"]}
        assert game["lobby_limits"] and set(game["lobby_limits"]) <= names, game["name"]
        assert sorted(game["lobby_params"].values()) == sorted(game["lobby_limits"])


@needs_axe
@pytest.mark.parametrize("screen", screen_params(LOBBY_SCREENS, fast=("it-IT", 390, 844)))
def test_the_lobby_line_of_limits_on_every_screen(
    screen: tuple[str, int, int], screen_tab: Any, web_server: WebServer
) -> None:
    locale, width, height = screen
    tab = screen_tab(locale, width, height)
    page = tab.page
    page.goto(f"{web_server.url}/#/lobby")
    expected = _expected(locale)
    for table, line in expected.items():
        selector = f"[data-testid=table-{table}] [data-testid=limits]"
        page.wait_for_function(
            "([sel, want]) => { const el = document.querySelector(sel);"
            " return el && el.innerText.replace(/[\\u00a0\\u202f]/g, ' ') === want; }",
            arg=[selector, line],
        )
        assert plain(page.inner_text(selector)) == line, table
    # every open table of the lobby has a line
    lines = page.query_selector_all(".table-card:not(.unavailable) [data-testid=limits]")
    assert lines and all(plain(el.inner_text()).strip() for el in lines)
    assert horizontal_overflow(page) <= 0, "the lobby scrolls sideways"
    assert page.evaluate("() => document.documentElement.lang") == locale[:2]
    page.locator("[data-testid=table-cs-phone]").scroll_into_view_if_needed()
    tab.shot(f"lobby-limits-{locale}-{width}x{height}")
    violations = axe_violations(page)
    assert not violations, violations
