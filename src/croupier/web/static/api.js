// The server's REST API and table WebSocket protocol (docs/protocol.md, version 1), and the
// small DOM helper every page uses. Nothing here is fetched from outside the server.

const SESSION_KEY = "croupier.session";

export const session = {
  get() {
    try {
      return JSON.parse(localStorage.getItem(SESSION_KEY) || "null");
    } catch {
      return null;
    }
  },
  set(value) {
    localStorage.setItem(SESSION_KEY, JSON.stringify(value));
  },
  clear() {
    localStorage.removeItem(SESSION_KEY);
  },
  token() {
    const s = this.get();
    return s ? s.token : null;
  },
};

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// One JSON request; errors come back as {"error": {"code", "message"}} (server/errors.py).
export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const h = { Accept: "application/json", ...headers };
  const token = session.token();
  if (token) h.Authorization = `Bearer ${token}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    const detail = data && typeof data.detail === "string" ? data.detail : null;
    throw new ApiError(
      response.status,
      err.code || "http_" + response.status,
      err.message || detail || response.statusText,
    );
  }
  return data;
}

// An idempotency key; crypto.randomUUID needs a secure context (localhost is one).
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

// A table connection: reconnects by itself and resyncs from the last event it saw.
// Events are handed on strictly in sequence; a gap asks for a resync and waits for it.
export class TableSocket {
  constructor(name, { onFrame, onStatus }) {
    this.name = name;
    this.onFrame = onFrame;
    this.onStatus = onStatus || (() => {});
    this.lastSeq = null;
    this.nextId = 1;
    this.pending = new Map();
    this.closing = false;
    this.resyncPending = false;
    this.retry = 0;
    this.ws = null;
  }

  connect() {
    // One socket at a time: a pending reconnection or an older socket gives way to this one.
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) {
      const old = this.ws;
      this.ws = null;
      old.onclose = old.onmessage = null;
      old.close();
    }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // The token goes in the first frame, never in the URL (which access logs keep).
    const url = `${proto}://${location.host}/ws/tables/${encodeURIComponent(this.name)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "auth", token: session.token() || "" }));
      this.onStatus("open");
      if (this.lastSeq !== null) {
        // A reconnect: ask for everything after the last event we applied.
        this.resyncPending = true;
        this.sendRaw({ type: "resync", last_seq: this.lastSeq });
      }
    };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      for (const { reject } of this.pending.values()) reject(new ApiError(0, "disconnected", "connection lost"));
      this.pending.clear();
      if (this.closing) return;
      if (e.code === 4401) {
        this.onStatus("unauthenticated");
        return;
      }
      if (e.code === 4429) {
        // Closed for sending too fast: reconnect, but not at once.
        this.retry = Math.max(this.retry, 3);
      }
      if (e.code === 4404) {
        this.onStatus("not_found");
        return;
      }
      this.onStatus("reconnecting");
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      this.timer = setTimeout(() => {
        this.timer = null;
        if (!this.closing) this.connect();
      }, delay);
    };
  }

  receive(frame) {
    if (frame.type === "welcome") {
      if (this.lastSeq === null) this.lastSeq = frame.seq;
    } else if (frame.type === "event") {
      if (frame.seq <= this.lastSeq) return; // already applied (a replay)
      if (frame.seq > this.lastSeq + 1) {
        if (!this.resyncPending) {
          this.resyncPending = true;
          this.sendRaw({ type: "resync", last_seq: this.lastSeq });
        }
        return; // the resync replays it in order
      }
      this.lastSeq = frame.seq;
    } else if (frame.type === "state" && frame.resynced) {
      this.resyncPending = false;
      if (!frame.complete) this.lastSeq = Math.max(this.lastSeq || 0, frame.seq);
    } else if ((frame.type === "ack" || frame.type === "error") && frame.ref != null) {
      const waiter = this.pending.get(frame.ref);
      if (waiter) {
        this.pending.delete(frame.ref);
        if (frame.type === "ack") waiter.resolve(frame.result);
        else waiter.reject(new ApiError(0, frame.code, frame.message));
      }
    }
    this.onFrame(frame);
  }

  sendRaw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  // Send a request; resolves with the ack's result, rejects with the error frame.
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ApiError(0, "disconnected", "not connected to the table"));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  close() {
    this.closing = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}

// h("div", {class: "x", onclick: f}, child, "text"...): elements built without innerHTML,
// so names and messages from the server are never parsed as markup.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "testid") el.dataset.testid = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Minor units -> "12.50". Money is always an integer number of cents on the wire.
export function money(cents) {
  if (cents === null || cents === undefined) return "—";
  const sign = cents < 0 ? "−" : "";
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}€${whole}.${String(abs % 100).padStart(2, "0")}`;
}

// Minor units -> "12.50" for an amount box (no currency sign, no thousands separator).
export function centsText(cents) {
  if (cents === null || cents === undefined || !Number.isFinite(Number(cents))) return "";
  const abs = Math.abs(Math.round(Number(cents)));
  return `${cents < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

// What a player typed in an amount box ("12", "12.5", "12.50") -> integer cents, or null when
// it is not an amount. Parsed as text, never through a float.
export function toCents(text) {
  const m = /^\s*(\d{1,10})(?:[.,](\d{0,2}))?\s*$/.exec(String(text ?? ""));
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "").padEnd(2, "0"));
}

export function signedMoney(cents) {
  return cents > 0 ? "+" + money(cents) : money(cents);
}

/**
 * A table page's request helper: sends one message, shows the new balance from its
 * acknowledgement, reports a refusal as a toast, and keeps `state.busy` set meanwhile
 * (re-rendering before and after). With `oneAtATime`, requests made while busy are ignored.
 */
export function tableSender({ state, socket, wallet, toast, render, oneAtATime = false }) {
  return async function send(message, what) {
    if (oneAtATime && state.busy) return null;
    state.busy = true;
    render();
    try {
      const result = await socket.request(message);
      if (result && typeof result.balance === "number") wallet.set(result.balance);
      return result;
    } catch (err) {
      toast(`${what}: ${err.message}`, "error");
      return null;
    } finally {
      state.busy = false;
      render();
    }
  };
}

/** The table-log panel beside every table page. */
export function logPanel(log) {
  return h(
    "aside",
    { class: "side" },
    h("h3", {}, "Table log"),
    h("ol", { class: "log", testid: "log" }, log.map((l) => h("li", { class: l.cls }, h("time", {}, l.at), " ", l.text))),
  );
}

/** Start a table page: draw it, keep its timer bar moving, connect; returns the clean-up. */
// A table page's socket: frames go to `onFrame`; the connection status is kept in
// `state.conn` (shown in the header) and an expired session is said in a toast.
export function tablePageSocket(name, { state, onFrame, toast, render }) {
  return new TableSocket(name, {
    onFrame: (f) => onFrame(f),
    onStatus: (status) => {
      state.conn = status;
      if (status === "unauthenticated") toast("Your session has ended: log in again", "error");
      render();
    },
  });
}

export function startTablePage({ root, state, socket, render, timerEl }) {
  const tick = setInterval(() => {
    const el = root.querySelector("[data-testid=timer]");
    if (el && state.deadline != null) el.replaceWith(timerEl());
  }, 250);
  render();
  socket.connect();
  // A handle for the console and the end-to-end tests (they drop the socket on purpose).
  window.croupier = { table: socket };
  return () => {
    clearInterval(tick);
    socket.close();
    window.croupier = {};
  };
}
