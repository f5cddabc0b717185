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
import { html, useEffect, useRef, useState, useTicker } from "./ui.js";

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

function pauseAfter(frame) {
  if (store.settings.pace === "turbo" || document.hidden) return 0;
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
      deadline: null, // {at: performance.now() when it runs out, total: seconds}
      log: [],
      busy: false,
      winners: null,
      socket: null,
      names: {},
    };
  }
  const model = modelRef.current;

  useEffect(() => {
    const m = modelRef.current;
    const queue = [];
    let waiting = null;
    let stopped = false;
    const rerender = () => setVersion((n) => n + 1);

    function apply(f) {
      const h = handlersRef.current;
      if (f.type === "welcome") {
        m.user = f.user;
      } else if (f.type === "state") {
        m.table = f.table;
        // The decision your seat is asked for now: every `act` names it, so that a resend is
        // answered once and a late one refused (docs/protocol.md "Decisions").
        m.decision = f.table.decision || null;
        for (const o of f.table.seats || []) m.names[o.seat] = o.username;
        if (f.table.deadline_in != null && f.table.status !== "idle") {
          m.deadline = { at: f._at + f.table.deadline_in * 1000, total: Math.max(f.table.deadline_in, 0.001) };
        } else m.deadline = null;
        if (h.state) h.state(f, m);
        else m.view = f.view;
      } else if (f.type === "event" || f.type === "seat_event") {
        const e = f.event;
        if (e.kind === "seated" && e.username) m.names[e.seat] = e.username;
        if (e.kind === "round_opened") m.winners = null;
        if (e.kind === "round_closed") refreshBalance();
        if (e.kind === "round_closed" && Array.isArray(e.winners) && e.winners.length) {
          m.winners = { round: e.round_id, list: e.winners };
          announce(t("winners.announce", { list: e.winners.map((w) => `${w.name} ${money(w.net)}`).join(", ") }));
        }
        // A live table sends no `state` during a round: its status follows the events.
        // (A banked round opens with `betting_seconds`; a cash hand's `state` follows.)
        if (m.table && e.kind === "round_opened" && e.betting_seconds != null) {
          m.table = { ...m.table, status: "betting", round_id: e.round_id };
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
        const ms = queue.length > CATCH_UP ? 0 : pauseAfter(f);
        if (ms > 0) {
          rerender();
          waiting = setTimeout(pump, ms);
          return;
        }
      }
      rerender();
    }

    const socket = new TableSocket(info.name, {
      onFrame(f) {
        if (f.type === "pong" || ((f.type === "ack" || f.type === "error") && f.ref != null)) return;
        queue.push(f);
        if (!waiting) pump();
      },
      onStatus(status) {
        m.conn = status;
        if (status === "unauthenticated") {
          sessionExpired();
          return;
        }
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
      return null;
    } finally {
      model.busy = false;
      setVersion((n) => n + 1);
    }
  }

  return { model, send, rerender: () => setVersion((n) => n + 1) };
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
  if (seat === -1) return t("uth.shared_hand");
  const occupant = ((model.table && model.table.seats) || []).find((o) => o.seat === seat);
  if (occupant) return occupant.username;
  if (model.names[seat]) return model.names[seat];
  if (model.table && seat === model.table.your_seat && model.user) return model.user.username;
  return t("box.n", { n: seat + 1 });
}

// -- components --------------------------------------------------------------------------

/** The one decision timer: a bar and the seconds left, read out as a timer. */
export function Timer({ deadline, active = true }) {
  const on = Boolean(deadline && active);
  useTicker(on, 250);
  if (!on) return html`<div class="timer idle" data-testid="timer" aria-hidden="true"></div>`;
  const left = Math.max(0, (deadline.at - performance.now()) / 1000);
  const frac = Math.max(0, Math.min(1, left / deadline.total));
  const secs = Math.ceil(left);
  return html`<div class=${`timer${secs <= 5 ? " urgent" : ""}`} data-testid="timer" role="timer" aria-label=${t("timer.left", { n: secs })}>
    <div class="timer-track"><div class="timer-bar" style=${{ transform: `scaleX(${frac})` }}></div></div>
    <span class="timer-text">${t("timer.short", { n: secs })}</span>
  </div>`;
}

const CONN_TEXT = { open: "conn.open", connecting: "conn.connecting", reconnecting: "conn.reconnecting", not_found: "conn.not_found", unauthenticated: "conn.expired" };

/** The page's head: back to the lobby, the table's name and limits, connection state. */
export function TableHead({ info, model, limits, extra = null }) {
  const conn = model.conn;
  return html`<div class="table-head">
    <a href="#/lobby" class="back" aria-label=${t("nav.back_lobby")}>←</a>
    <h1 class="table-title">${info.title || info.name}</h1>
    <span class="limits">${limits}</span>
    ${extra}
    <span class=${`conn conn-${conn}`} data-testid="connection" data-state=${conn} role="status">
      <span aria-hidden="true">${conn === "open" ? "●" : "◌"}</span> <span class="conn-word">${t(CONN_TEXT[conn] || "conn.connecting")}</span>
    </span>
  </div>`;
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
