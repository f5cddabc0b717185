// What the three table pages share: the socket and its frames, paced so that cards are
// dealt and turned one after another (normal pace) or at once (turbo), the one decision
// timer, the connection states (connecting, reconnecting, session ended), the table log and
// the winners' announcement. Each page draws its own felt from the model kept here.

import { ApiError, refreshBalance, TableSocket } from "./api.js";
import { wordError } from "./errors.js";
import { clock, money, t } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { play } from "./sound.js";
import { setBalance, store } from "./store.js";
import { Commitment, HelpButton, SessionBar, tableTitle } from "./tableinfo.js";
import { html, useEffect, useLayoutEffect, useRef, useState, useTicker } from "./ui.js";

export { Notices, tableTitle } from "./tableinfo.js";

// How long the table pauses after an event at normal pace (ms), so that what it shows can be
// seen: a card dealt, a board turned card by card, the dealer's hand, a result.
const PAUSE = {
  hole_cards_dealt: 500,
  hole_dealt: 250,
  cards_dealt: 700,
  board_dealt: 0, // per card, below
  dealer_revealed: 900,
  antes_returned: 600, // seed 003: the Antes go back first, before any box is settled
  game_bought: 900,
  cards_exchanged: 500,
  sixth_card_bought: 500,
  shown: 600,
  seat_settled: 300,
  box_settled: 300,
  pot_awarded: 500,
};
const CARD_PAUSE = 350;
const CATCH_UP = 12; // more frames than this waiting: show them at once

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Turbo (no pauses) only where the operator allows it for the jurisdiction (a server
 * setting, off by default: UKGC RTS 14E forbids speeding a casino game up). */
export function turbo() {
  return store.settings.pace === "turbo" && Boolean(store.server && store.server.turbo_pace);
}

function pauseAfter(frame) {
  if (turbo() || document.hidden) return 0;
  if (frame.type !== "event" && frame.type !== "seat_event") return 0;
  const e = frame.event;
  let ms = PAUSE[e.kind] || 0;
  if (e.kind === "board_dealt" && Array.isArray(e.cards)) ms = CARD_PAUSE * e.cards.length;
  return reducedMotion() ? Math.round(ms * 0.4) : ms;
}

/**
 * The model of one table page. `handlers.event(e, model, frame)` and `handlers.state(frame,
 * model)` let the page keep what its game needs; the hook re-renders after every frame.
 */
export function useTable(info, handlers) {
  const [, setVersion] = useState(0);
  const modelRef = useRef(null);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  if (!modelRef.current) {
    modelRef.current = {
      table: null,
      view: null,
      conn: "connecting",
      deadline: null, // {at: performance.now() when it runs out, total: seconds, betting?}
      log: [],
      busy: false,
      winners: null,
      socket: null,
      names: {},
      rules: info.rules || {}, // the table's rules now: an operator's change replaces them
      closed: Boolean(info.closed),
      notices: [], // what the table tells this player: a change of limits, a seat lost...
      locked: false, // an `act` was sent: the decision buttons wait for the server's next options
      lockN: null, // ... that is, until every frame received before its answer is on screen
      queue: [], // frames received, waiting to be shown (the table's pace)
      behind: false, // frames that change the decision wait in the paced queue
      mySeat: null,
      leftReason: null,
      restarted: false,
      leaving: false,
    };
  }
  const model = modelRef.current;

  useEffect(() => {
    const m = modelRef.current;
    const queue = m.queue;
    let waiting = null;
    let stopped = false;
    const rerender = () => setVersion((n) => n + 1);

    function apply(f) {
      const h = handlersRef.current;
      if (f.type === "welcome") {
        m.user = f.user;
        if (f.restarted) m.restarted = true;
      } else if (f.type === "state") {
        seatCheck(m, f.table.your_seat, h);
        m.table = f.table;
        // The decision your seat is asked for now: every `act` names it, so that a resend is
        // answered once and a late one refused (docs/protocol.md "Decisions").
        m.decision = f.table.decision || null;
        m.closed = Boolean(f.table.closed);
        for (const o of f.table.seats || []) m.names[o.seat] = o.username;
        if (f.table.deadline_in != null && f.table.status !== "idle") {
          m.deadline = { at: f._at + f.table.deadline_in * 1000, total: Math.max(f.table.deadline_in, 0.001), betting: f.table.status === "betting" };
        } else m.deadline = null;
        if (h.state) h.state(f, m);
        else m.view = f.view;
      } else if (f.type === "event" || f.type === "seat_event") {
        const e = f.event;
        if (e.kind === "seated" && e.username) m.names[e.seat] = e.username;
        if (e.kind === "left" && m.user && e.username === m.user.username) m.leftReason = e.reason || "left";
        if (e.kind === "round_opened") m.winners = null;
        if (e.kind === "round_closed") {
          refreshBalance();
          m.roundsClosed = (m.roundsClosed || 0) + 1;
          // "closes after this round": now it is closed.
          if (m.closed && m.notices.some((n) => n.kind === "closing")) addNotice(m, "closing", t("notice.closed"), "bad");
        }
        if (e.kind === "table_changed") tableChanged(m, e, h);
        if (e.kind === "round_closed" && Array.isArray(e.winners) && e.winners.length) {
          m.winners = { round: e.round_id, list: e.winners };
          announce(t("winners.announce", { list: e.winners.map((w) => `${w.name} ${money(w.net)}`).join(", ") }));
        }
        // A live table sends no `state` during a round: its status follows the events.
        // (A banked round opens with `betting_seconds`; a cash hand's `state` follows.)
        if (m.table && e.kind === "round_opened" && e.betting_seconds != null) {
          m.table = { ...m.table, status: "betting", round_id: e.round_id, commitment: e.commitment };
          // The betting countdown runs from the round's own deadline (a live table sends no
          // `state` with its `deadline_in` during a round).
          m.deadline = { at: f._at + e.betting_seconds * 1000, total: Math.max(e.betting_seconds, 0.001), betting: true };
        } else if (m.table && e.kind === "round_opened") {
          m.table = { ...m.table, round_id: e.round_id, commitment: e.commitment };
        } else if (m.table && e.kind === "decisions_open") {
          m.table = { ...m.table, status: "playing" };
        } else if (m.table && e.kind === "round_closed" && info.max_seats == null) {
          // A live table pauses (its timers say how long) and goes idle without a `state`.
          const pause = (info.timers && info.timers.pause_seconds) || 0;
          m.table = { ...m.table, status: pause > 0 ? "pause" : m.table.status };
          m.deadline = pause > 0 ? { at: f._at + pause * 1000, total: pause } : null;
        } else if (m.table && e.kind === "table_idle") {
          m.table = { ...m.table, status: "idle", round_id: null };
          m.deadline = null;
        }
        if (e.kind === "your_turn" && e.decision) m.decision = e.decision;
        if (e.kind === "turn" || e.kind === "decisions_open") {
          const seconds = e.decision_seconds;
          if (seconds) m.deadline = { at: f._at + seconds * 1000, total: seconds };
        }
        if (h.event) h.event(e, m, f);
      } else if (f.type === "balance") {
        setBalance(f.balance);
      } else if (f.type === "error" && f.ref == null) {
        if (f.code !== "unauthenticated") toast(wordError(new ApiError(0, f.code, f.message, { reason: f.reason, params: f.params, retryAfter: f.retry_after })), "error");
      } else if (f.type === "closing") {
        addLog(m, t("log.closing"), "bad");
      }
    }

    function pump() {
      waiting = null;
      while (queue.length && !stopped) {
        const f = queue.shift();
        apply(f);
        m.behind = queue.some(changesDecision);
        unlockIfShown(m);
        const ms = queue.length > CATCH_UP ? 0 : pauseAfter(f);
        if (ms > 0) {
          rerender();
          waiting = setTimeout(pump, ms);
          return;
        }
      }
      m.behind = false;
      rerender();
    }

    const socket = new TableSocket(info.name, {
      onFrame(f) {
        if (f.type === "pong" || ((f.type === "ack" || f.type === "error") && f.ref != null)) return;
        queue.push(f);
        if (!waiting) pump();
        else if (!m.behind && changesDecision(f)) {
          // The options on screen are older than what the server has said: they wait.
          m.behind = true;
          rerender();
        }
      },
      onStatus(status) {
        const was = m.conn;
        m.conn = status;
        if (status === "unauthenticated") {
          sessionExpired();
          return;
        }
        // Every (re)connection asks the wallet again (tried until it answers): a balance
        // must never stay as it was before a restart or a cut.
        if (status === "open" && was !== "open") refreshBalance();
        rerender();
      },
    });
    m.socket = socket;
    socket.connect();
    // A handle for the console and the end-to-end tests (they drop the socket on purpose).
    window.croupier = { table: socket };
    return () => {
      stopped = true;
      clearTimeout(waiting);
      socket.close();
      window.croupier = {};
    };
  }, [info.name]);

  /** Send one request; the ack's balance is shown; a refusal is worded in a toast. */
  async function send(message, { quiet = false } = {}) {
    if (model.busy) return null;
    model.busy = true;
    model.focusNext = true;
    if (message.type === "leave" && !message.after_hand) model.leaving = true;
    if (message.type === "join") {
      model.leaving = false;
      model.notices = model.notices.filter((n) => n.kind !== "seat_lost");
    }
    setVersion((n) => n + 1);
    try {
      const named = message.type === "act" && !message.decision && model.decision ? { ...message, decision: model.decision } : message;
      const result = await model.socket.request(named);
      // Answered: the next decision's id comes with the next `state` (or `your_turn`).
      if (named.decision && model.decision === named.decision) model.decision = null;
      if (result && typeof result.balance === "number") setBalance(result.balance);
      return result;
    } catch (err) {
      if (!quiet) toast(wordError(err), "error");
      if (message.type === "leave") model.leaving = false;
      return null;
    } finally {
      model.busy = false;
      setVersion((n) => n + 1);
    }
  }

  /**
   * A decision, sent with the id of the turn it answers. From the click on, every decision
   * button is disabled -- also after the ack --
   * until a frame the server sent after answering it has brought the next options (or none):
   * a second tap, or a tap on options the server has moved past, sends nothing. A refusal
   * changed nothing at the table, so it frees them at once.
   */
  async function decide(message) {
    if (!canDecide()) return null;
    // The decision's identity, issued with the turn (docs/protocol.md "Decisions"): the server
    // refuses it for a turn that has passed (`stale_decision`) and answers a resend once.
    const id = message.decision ?? (model.view && model.view.decision) ?? (model.table && model.table.decision);
    if (id != null) message = { ...message, decision: id };
    model.locked = true;
    model.lockN = null;
    model.focusNext = true;
    const result = await send(message);
    if (result === null) model.locked = false;
    else {
      model.lockN = model.socket.lastAckN;
      unlockIfShown(model);
    }
    setVersion((n) => n + 1);
    return result;
  }

  /** Whether a decision may be sent now: its buttons are live. */
  function canDecide() {
    return !model.locked && !model.behind && !model.busy && model.conn === "open";
  }

  return { model, send, decide, canDecide, rerender: () => setVersion((n) => n + 1) };
}

/** The answer to a decision came, and everything the server sent before it (the decision's
 * own consequences among it) is on screen: the buttons shown now are the server's latest. */
function unlockIfShown(m) {
  if (m.locked && m.lockN != null && !m.queue.some((f) => f._n < m.lockN)) m.locked = false;
}

/** Frames that bring a seat's next options (or end them): while one waits in the paced queue,
 * the options on screen are stale. */
function changesDecision(f) {
  if (f.type === "state") return true;
  if (f.type !== "event" && f.type !== "seat_event") return false;
  const kind = f.event.kind;
  return kind === "your_turn" || kind === "turn" || kind === "decisions_open" || kind === "round_closed" || kind === "phase_changed";
}

/**
 * The seat this player had is gone though they did not leave: say why (a restart of the
 * server, a seat freed for not playing, freed while away), that the money is safe, and offer
 * to sit again.
 */
function seatCheck(m, seat, h) {
  const had = m.mySeat;
  m.mySeat = seat;
  if (seat != null) {
    m.leftReason = null;
    return;
  }
  if (had == null || m.leaving) {
    m.leaving = false;
    return;
  }
  const why = m.leftReason === "idle" || m.leftReason === "self_excluded" || m.leftReason === "busted" ? m.leftReason : m.restarted ? "restart" : "away";
  m.leftReason = null;
  m.restarted = false;
  addNotice(m, "seat_lost", t(`seat_lost.${why}`), "bad");
  if (h.seatLost) h.seatLost(m, why);
}

/** An operator changed the table: new limits or pay tables from the next round, closed or
 * opened. The header and the chip tray follow `m.rules`; a seated player is told. */
function tableChanged(m, e, h) {
  const wasClosed = m.closed;
  m.rules = e.rules || m.rules;
  m.closed = Boolean(e.closed);
  const seated = m.table && m.table.your_seat != null;
  const inPlay = e.in_play != null;
  const fields = Object.keys(e.changed || {}).filter((k) => k !== "status" && k !== "closed" && k !== "title");
  if (m.closed && !wasClosed) addNotice(m, "closing", t(inPlay && seated ? "notice.closes_after_round" : "notice.closed"), "bad");
  else if (!m.closed && wasClosed) {
    m.notices = m.notices.filter((n) => n.kind !== "closing");
    addNotice(m, "opened", t("notice.opened"), "good", 15);
  }
  if (fields.length) {
    const limits = h.limits ? h.limits(m.rules) : "";
    addNotice(m, "limits", t(inPlay ? "notice.limits_next_round" : "notice.limits_now", { limits }), "", 30);
  }
  addLog(m, t("log.table_changed"), "");
}

/** Say something to the player at the table (one notice per kind): until they dismiss it,
 * or for `seconds` when given. */
export function addNotice(m, kind, text, cls = "", seconds = null) {
  m.noticeId = (m.noticeId || 0) + 1;
  const until = seconds ? performance.now() + seconds * 1000 : null;
  m.notices = [...m.notices.filter((n) => n.kind !== kind), { kind, text, cls, id: m.noticeId, until }];
}

/**
 * Focus after an action: the button pressed goes (or is disabled), and the focus would drop to
 * the page's body. It goes to the controls instead while the table answers, and on to the
 * first live button of the next decision once the server has sent it. A player who has put
 * the focus elsewhere meanwhile keeps it there.
 */
export function useFocusNext(model, ref) {
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || !model.focusNext) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || !document.contains(active) || active.disabled;
    if (!lost && active !== box) {
      // Still on a live control (a bet confirmed, the chips stay), or moved elsewhere.
      if (!box.contains(active) || !model.locked) model.focusNext = false;
      return;
    }
    // The group itself, not a button in it: Enter never acts on a choice the player has
    // not moved to (the group's name is read out; Tab goes to its first button).
    const live = model.locked || model.busy ? null : box.querySelector("[data-decision] button:not([disabled])");
    const next = live ? live.closest("[data-decision]") : null;
    if (next) {
      next.focus({ preventScroll: true });
      model.focusNext = false;
    } else if (lost) box.focus({ preventScroll: true });
  });
}

/** Told when a table socket's session has ended: app.js sends the player to log in. */
export const onSessionExpired = { handler: null };
function sessionExpired() {
  if (onSessionExpired.handler) onSessionExpired.handler();
}

export function addLog(model, text, cls = "") {
  model.log.unshift({ text, cls, at: clock(), id: (model.logId = (model.logId || 0) + 1) });
  model.log.length = Math.min(model.log.length, 80);
}

/** A seat's display name: the player's name, "you", or "Box N" (never a raw seat number). */
export function nameOf(model, seat) {
  if (seat === -1) return t("table.shared_hand");
  const occupant = ((model.table && model.table.seats) || []).find((o) => o.seat === seat);
  if (occupant) return occupant.username;
  if (model.names[seat]) return model.names[seat];
  if (model.table && seat === model.table.your_seat && model.user) return model.user.username;
  return t("box.n", { n: seat + 1 });
}

// -- components --------------------------------------------------------------------------

/** The seconds the warning of a running-out timer starts at. */
export const LAST_SECONDS = 5;

/** Seconds left of `deadline` (0 when it has run out). */
export function secondsLeft(deadline) {
  return deadline ? Math.max(0, (deadline.at - performance.now()) / 1000) : 0;
}

/** The one timer (a decision's, or the betting's): a bar and the seconds left, read out as a
 * timer; its last seconds are marked urgent. */
export function Timer({ deadline, active = true }) {
  const on = Boolean(deadline && active);
  useTicker(on, 250);
  if (!on) return html`<div class="timer idle" data-testid="timer" aria-hidden="true"></div>`;
  const left = secondsLeft(deadline);
  const frac = Math.max(0, Math.min(1, left / deadline.total));
  const secs = Math.ceil(left);
  const kind = deadline.betting ? "betting" : deadline.bank ? "bank" : "decision";
  const label = t(kind === "betting" ? "timer.betting_left" : kind === "bank" ? "timer.bank_left" : "timer.left", { n: secs });
  const short = t(kind === "betting" ? "timer.betting_short" : kind === "bank" ? "timer.bank_short" : "timer.short", { n: secs });
  return html`<div class=${`timer${secs <= LAST_SECONDS ? " urgent" : ""} ${kind}`} data-testid="timer" data-kind=${kind} data-left=${String(secs)} role="timer" aria-label=${label}>
    <div class="timer-track"><div class="timer-bar" style=${{ transform: `scaleX(${frac})` }}></div></div>
    <span class="timer-text">${short}</span>
  </div>`;
}

/**
 * Chips on the layout that are not yet a bet: said while they wait for "Confirm bet", and
 * loudly in the betting's last seconds (or that they go in by themselves, when the player
 * chose to confirm automatically).
 */
export function UnconfirmedWarning({ deadline, pending, auto, trips = false }) {
  const on = Boolean(pending && deadline && deadline.betting);
  useTicker(on, 250);
  if (!pending) return null;
  const left = on ? Math.ceil(secondsLeft(deadline)) : null;
  const last = on && left <= LAST_SECONDS;
  const which = trips ? "bet.unconfirmed_trips" : "bet.unconfirmed";
  const text = auto ? t(last ? "bet.auto_last" : "bet.auto_note", { n: left }) : t(last ? `${which}_last` : which, { n: left });
  return html`<p class=${`bet-warning${last ? " urgent" : ""}`} data-testid="unconfirmed" data-last=${String(Boolean(last))} role=${last ? "alert" : "status"}>${text}</p>`;
}

const CONN_TEXT = { open: "conn.open", connecting: "conn.connecting", reconnecting: "conn.reconnecting", not_found: "conn.not_found", unauthenticated: "conn.expired" };

/** The page's head: back to the lobby, the table's name and limits (as they are now: an
 * operator's change shows at once), whether it is closed, the connection's state, the help
 * panel; under it the session bar and the table's notices. */
export function TableHead({ info, model, limits, extra = null }) {
  const conn = model.conn;
  return html`<div class="table-head">
    <a href="#/lobby" class="back" aria-label=${t("nav.back_lobby")}>←</a>
    <h1 class="table-title">${tableTitle(info)}</h1>
    <span class="limits" data-testid="table-limits">${limits}</span>
    ${model.closed ? html`<span class="badge bad" data-testid="table-closed">${t("lobby.closed")}</span>` : null}
    ${extra}
    <span class=${`conn conn-${conn}`} data-testid="connection" data-state=${conn} role="status">
      <span aria-hidden="true">${conn === "open" ? "●" : "◌"}</span> <span class="conn-word">${t(CONN_TEXT[conn] || "conn.connecting")}</span>
    </span>
    <${HelpButton} info=${info} />
  </div>
  <div class="table-sub"><${SessionBar} model=${model} /><${Commitment} model=${model} /></div>`;
}

/** Shown over the controls while the socket is down: nothing can be sent meanwhile. */
export function OfflineNote({ model }) {
  if (model.conn === "open") return null;
  const key = model.conn === "reconnecting" ? "conn.reconnecting_long" : model.conn === "not_found" ? "conn.not_found" : "conn.connecting";
  return html`<div class="offline" data-testid="offline" role="status">${t(key)}</div>`;
}

/** The table log, a side column on wide screens and a drawer below the table otherwise. */
export function LogPanel({ log }) {
  return html`<details class="side log-panel" open=${window.matchMedia("(min-width: 1200px)").matches}>
    <summary>${t("log.title")}</summary>
    <ol class="log" data-testid="log">
      ${log.map((l) => html`<li key=${l.id} class=${l.cls}><time>${l.at}</time> ${l.text}</li>`)}
    </ol>
  </details>`;
}

/** The biggest winners of a live round (seed 001), from one shared frame. */
export function WinnersPanel({ winners }) {
  if (!winners || !winners.list.length) return null;
  return html`<div class="winners" data-testid="winners">
    <div class="winners-title">${t("winners.title")}</div>
    <ol>${winners.list.map((w, i) => html`<li key=${i}><span class="w-name">${w.name}</span> <span class="w-net">${money(w.net)}</span></li>`)}</ol>
  </div>`;
}

export function soundFor(e, mine) {
  switch (e.kind) {
    case "hole_cards_dealt":
    case "hole_dealt":
    case "board_dealt":
    case "cards_dealt":
    case "dealer_revealed":
    case "game_bought":
      play("card");
      break;
    case "bets_placed":
    case "box_placed":
    case "play_bet":
    case "called":
    case "raised":
    case "bought_in":
      if (mine) play("chip");
      break;
    default:
      break;
  }
}
