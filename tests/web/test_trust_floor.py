"""Issue 29, "Pushed table changes": an operator's change reaches everyone at once. The table
page's header and chip tray follow the new limits without a reload, a seated player is told
("limits change from the next round", "this table closes after this round"), the lobby gets
the change pushed (``/ws/lobby``) and shows a closed table as closed.

The test failed on the client before issue 29 (main at f5d48cb): the header kept the old
limits, nobody was told, and the lobby showed the closed table open.
"""

from __future__ import annotations

from typing import Any

from web_testkit import AXE, OUTSIDE_THE_CURVE, Tab, WebServer, axe_violations, euros, plain

TABLE = "trust-uth-floor"


def _bet(tab: Tab, chip: int = 500) -> None:
    page = tab.page
    page.click(f"[data-testid=chip-{chip}]")
    page.click("[data-testid=spot-ante]")
    page.click("[data-testid=bet-button]")
    page.wait_for_selector("[data-testid=act-check]:not([disabled])")


def _finish(tab: Tab) -> None:
    page = tab.page
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-check]:not([disabled])")
    page.click("[data-testid=act-fold]:not([disabled])")
    page.wait_for_selector("[data-testid=result]")


def test_limits_and_closing_reach_the_table_and_the_lobby(
    screen_tab: Any, web_server: WebServer
) -> None:
    name, _, _ = web_server.player("floor", credit=100_000)
    player: Tab = screen_tab("it-IT", 390, 844)
    lobby: Tab = screen_tab("en-GB", 1366, 768)
    lobby.page.goto(f"{web_server.url}/#/lobby")
    lobby.page.wait_for_selector(f"[data-testid=table-{TABLE}]")
    lobby.wait_until(lambda: lobby.lobby_sockets == 1)
    player.login(name)
    page = player.page
    page.goto(f"{web_server.url}/#/table/{TABLE}")
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.click("[data-testid=sit]")
    assert page.wait_for_selector("[data-testid=chip-2500]")
    _bet(player)

    # New limits in the middle of a round: from the next round on.
    web_server.operator(
        "PATCH", f"/api/operator/tables/{TABLE}", json={"min_bet": 200, "max_bet": 2_000}
    )
    notice = page.wait_for_selector("[data-testid=notices] [data-kind=limits]")
    assert notice is not None and "prossima mano" in notice.inner_text()
    assert euros(2_000, "it-IT") in plain(notice.inner_text())
    head = plain(page.inner_text("[data-testid=table-limits]"))
    assert euros(200, "it-IT") in head and euros(2_000, "it-IT") in head, head
    player.shot("trust-floor-limits-390")
    # The lobby was told at once (its socket), and says it.
    lobby.wait_until(
        lambda: any(f.get("table", {}).get("name") == TABLE for f in lobby.lobby_frames)
    )
    card = lobby.page.wait_for_selector(f"[data-testid=table-{TABLE}] .limits:has-text('€20.00')")
    assert card is not None
    _finish(player)
    # The next round's chip tray stops at the new maximum (no €25 chip for a €20 Ante).
    page.wait_for_selector("[data-testid=chip-tray]")
    assert not page.query_selector("[data-testid=chip-2500]")

    # Closed while a round is in play: the seated player is told it closes after it.
    _bet(player)
    web_server.operator("PATCH", f"/api/operator/tables/{TABLE}", json={"status": "closed"})
    closing = page.wait_for_selector("[data-testid=notices] [data-kind=closing]")
    assert closing is not None and "chiude dopo questa mano" in closing.inner_text()
    _finish(player)
    page.wait_for_selector("[data-testid=table-closed]")
    assert not page.query_selector("[data-testid=chip-tray]")
    player.shot("trust-floor-closed-390")
    # The closed table's felt is tall (no chip tray under it): the dealer's hand, where its top
    # curves in, still clear of the rail.
    assert not page.evaluate(OUTSIDE_THE_CURVE), page.evaluate(OUTSIDE_THE_CURVE)
    lobby.page.wait_for_selector(f"[data-testid=table-{TABLE}] .reason:has-text('Closed')")
    assert not lobby.page.query_selector(f"[data-testid=open-{TABLE}]")
    if AXE.exists():
        assert not axe_violations(page)
        assert not axe_violations(lobby.page)
    lobby.shot("trust-floor-lobby-1366")
    web_server.operator("PATCH", f"/api/operator/tables/{TABLE}", json={"status": "open"})
