"""Issue 29, "Decisions": the decision buttons are disabled from the click until the server's
next options are on screen (never live again with the old ones), a double tap sends one
decision, and the keyboard focus goes on to the next decision instead of dropping to the page.

Each test failed on the client before issue 29 (checked against main at f5d48cb): the poller
drew refusals ("There is nothing to call", "not your turn"), the second tap was sent, the
focus dropped to <body>.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from typing import Any

from web_testkit import SeatBot, Tab, WebServer

# A poller that presses any live decision button it finds, as fast as the page lets it
# (what a player tapping at once, or a double tap, does): it must never find a stale one.
POLLER = """() => {
  window.__pressed = 0;
  window.__poller = setInterval(() => {
    const b = document.querySelector(
      '[data-testid=decision] [data-testid=act-check]:not([disabled]),' +
      '[data-testid=decision] [data-testid=act-call]:not([disabled])');
    if (b) { b.click(); window.__pressed++; }
  }, 15);
}"""


class CallingBot:
    """A seat that checks or calls whenever the server gives it options (its latest state)."""

    def __init__(self, bot: SeatBot) -> None:
        self.bot = bot
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            latest = None
            try:
                latest = self.bot.frames.get(timeout=0.1)
                while True:
                    frame = self.bot.frames.get_nowait()
                    if frame.get("type") == "state":
                        latest = frame
            except queue.Empty:
                pass
            if latest is None or latest.get("type") != "state":
                continue
            options = (latest.get("view") or {}).get("options")
            if options:
                word = "check" if "check" in options["actions"] else "call"
                self.bot.request({"type": "act", "action": word})

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)


def _acts(tab: Tab) -> tuple[int, list[dict[str, Any]]]:
    """The page's decisions answered so far: (acknowledged, refusals)."""
    ids = {f["id"] for f in tab.sent if f.get("type") == "act"}
    acked = sum(1 for f in tab.frames if f.get("type") == "ack" and f.get("ref") in ids)
    refused = [f for f in tab.frames if f.get("type") == "error" and f.get("ref") in ids]
    return acked, refused


def test_a_poller_never_finds_a_stale_decision_button(
    tab: Tab, web_server: WebServer, make_bot: Any
) -> None:
    """Hold'em heads-up against a calling bot, the page pressing every live Check or Call at
    once: 12 decisions, not one refused (before: most were, "There is nothing to call")."""
    table = "trust-hm-poll"
    name, _, _ = web_server.player("poller", credit=100_000)
    _, _, bot_token = web_server.player("caller", credit=100_000)
    tab.login(name)
    tab.open_table(table)
    tab.page.click("[data-testid=sit]")
    tab.page.wait_for_selector("[data-testid=buyin-dialog]")
    tab.page.click("[data-testid=buyin-submit]")
    tab.page.wait_for_selector("[data-testid=my-stack]:not([data-stack='0'])")
    bot = make_bot(table, bot_token)
    assert bot.request({"type": "join"})["type"] == "ack"
    assert bot.request({"type": "buy_in", "key": uuid.uuid4().hex, "amount": 20_000})["type"] == (
        "ack"
    )
    caller = CallingBot(bot)
    try:
        tab.page.evaluate(POLLER)
        deadline = time.monotonic() + 120
        while _acts(tab)[0] < 12 and time.monotonic() < deadline:
            tab.page.wait_for_timeout(200)
        tab.page.evaluate("() => clearInterval(window.__poller)")
    finally:
        caller.close()
    acked, refused = _acts(tab)
    assert acked >= 12, f"only {acked} decisions in two minutes"
    assert not refused, [(r.get("reason"), r.get("message")) for r in refused]
    # Each decision carried the id of the turn it answered (issued in that turn's `state`).
    issued = {
        f["table"].get("decision")
        for f in tab.frames
        if f.get("type") == "state" and f["table"].get("decision")
    }
    sent = [f for f in tab.sent if f.get("type") == "act"]
    assert all(f.get("decision") in issued for f in sent), [f.get("decision") for f in sent]
    assert len({f["decision"] for f in sent}) == len(sent)  # one decision per turn
    # A decision sent again for a turn that has passed is refused, and changes nothing.
    late = tab.page.evaluate(
        """(d) => window.croupier.table.request({type: 'act', action: 'fold', decision: d})
                 .then(() => 'ack', (e) => e.reason || e.code)""",
        sent[0]["decision"],
    )
    assert late == "stale_decision", late
    tab.shot("trust-poller")


def test_a_double_tap_sends_one_decision_and_the_focus_goes_on(
    tab: Tab, web_server: WebServer, make_bot: Any
) -> None:
    """Two taps on Call, the second as soon as the first is answered (while the flop is being
    dealt at the table's pace): one `act` is sent; and the keyboard focus, pressed on a
    decision button, is on the next decision's buttons when they come, not on <body>."""
    table = "trust-hm-tap"
    name, _, _ = web_server.player("tapper", credit=100_000)
    _, _, bot_token = web_server.player("checker", credit=100_000)
    tab.login(name)
    tab.open_table(table)
    page = tab.page
    page.click("[data-testid=sit]")
    page.wait_for_selector("[data-testid=buyin-dialog]")
    page.click("[data-testid=buyin-submit]")
    page.wait_for_selector("[data-testid=my-stack]:not([data-stack='0'])")
    bot = make_bot(table, bot_token)
    assert bot.request({"type": "join"})["type"] == "ack"
    assert bot.request({"type": "buy_in", "key": uuid.uuid4().hex, "amount": 20_000})["type"] == (
        "ack"
    )
    caller = CallingBot(bot)
    try:
        # The page's first decision: the small blind (the button, heads-up) calls pre-flop,
        # or the big blind checks after the bot's call.
        button = page.wait_for_selector(
            "[data-testid=decision] [data-testid=act-call]:not([disabled]),"
            " [data-testid=decision] [data-testid=act-check]:not([disabled])",
            timeout=60_000,
        )
        assert button is not None
        testid = button.get_attribute("data-testid")
        before = len([f for f in tab.sent if f.get("type") == "act"])
        button.focus()
        page.keyboard.press("Enter")
        first = _wait_sent_act(tab, before + 1)
        tab.wait_frame(lambda f: f.get("type") == "ack" and f.get("ref") == first["id"])
        # The second tap, right after the answer: the old button must be dead.
        page.evaluate(
            "(id) => { const b = document.querySelector(`[data-testid=${id}]`); if (b) b.click(); }",
            testid,
        )
        page.wait_for_timeout(400)
        acts = [f for f in tab.sent if f.get("type") == "act"]
        assert len(acts) == before + 1, acts[before:]
        _, refused = _acts(tab)
        assert not refused, refused
        # The next decision (the bot has checked or called): the focus is on its buttons.
        page.wait_for_selector("[data-testid=decision] button:not([disabled])", timeout=60_000)
        page.wait_for_timeout(300)
        focused = page.evaluate(
            "() => { const a = document.activeElement;"
            " return a && a.closest('[data-decision]') ? 'decision' : a && a.tagName; }"
        )
        assert focused == "decision", focused
        # Tab goes on to the first of its buttons.
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.dataset.testid").startswith("act-")
    finally:
        caller.close()
    tab.shot("trust-double-tap")


def _wait_sent_act(tab: Tab, count: int) -> dict[str, Any]:
    tab.wait_until(lambda: len([f for f in tab.sent if f.get("type") == "act"]) >= count)
    return [f for f in tab.sent if f.get("type") == "act"][count - 1]
