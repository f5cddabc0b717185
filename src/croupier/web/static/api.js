// The server's REST API and the table WebSocket protocol (docs/protocol.md, version 1).
// Nothing here is fetched from outside the server. Errors keep the server's `code`, `reason`
// and `params` so that errors.js can word them for a person (never the raw message).

import { setBalance, setSession, token } from "./store.js";

export class ApiError extends Error {
  constructor(status, code, message, { reason = null, params = {}, details = null, retryAfter = null } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;
    this.params = params || {};
    this.details = details;
    this.retryAfter = retryAfter;
  }
}

/** Told when the server says the session is over (401 or a socket closed with 4401). */
export const sessionEnded = { handler: null };

// One JSON request; errors come back as {"error": {"code", "message", "reason", "params"}}.
export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const h = { Accept: "application/json", ...headers };
  const tok = token();
  if (tok) h.Authorization = `Bearer ${tok}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "disconnected", "the server cannot be reached");
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    const retry = Number(response.headers.get("Retry-After")) || null;
    const e = new ApiError(response.status, err.code || `http_${response.status}`, err.message || response.statusText, {
      reason: err.reason || null,
      params: err.params || {},
      details: err.details || null,
      retryAfter: retry,
    });
    if (response.status === 401 && tok && sessionEnded.handler) sessionEnded.handler(e);
    throw e;
  }
  return data;
}

// An idempotency key; crypto.randomUUID needs a secure context (localhost is one).
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

export function errorFromFrame(frame) {
  return new ApiError(0, frame.code, frame.message, {
    reason: frame.reason || null,
    params: frame.params || {},
    details: frame.details || null,
    retryAfter: frame.retry_after ?? null,
  });
}

/** The heartbeat: a `ping` every PING_MS; no `pong` for STALE_MS and the socket is taken for
 * dead (a cut network leaves a TCP connection "open" for minutes): the page says it is
 * reconnecting, freezes its controls, and opens a new socket. */
export const HEARTBEAT = { PING_MS: 2500, STALE_MS: 6000 };

// A table connection: reconnects by itself and resyncs from the last event it saw.
// Events are handed on strictly in sequence; a gap asks for a resync and waits for it.
export class TableSocket {
  constructor(name, { onFrame, onStatus, path = "/ws/tables/" }) {
    this.name = name;
    this.path = path;
    this.onFrame = onFrame;
    this.onStatus = onStatus || (() => {});
    this.lastSeq = null;
    this.nextId = 1;
    this.pending = new Map();
    this.closing = false;
    this.resyncPending = false;
    this.retry = 0;
    this.ws = null;
    this.heart = null;
    this.lastHeard = 0;
  }

  /** Ping every few seconds; a socket silent for STALE_MS is dropped and opened anew. */
  beat() {
    clearInterval(this.heart);
    this.lastHeard = performance.now();
    this.heart = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (performance.now() - this.lastHeard > HEARTBEAT.STALE_MS) {
        this.drop();
        return;
      }
      this.sendRaw({ type: "ping", id: `hb${this.nextId++}` });
    }, HEARTBEAT.PING_MS);
  }

  /** Give up on a socket that stopped answering: requests waiting on it fail, the page says
   * it is reconnecting, and a new socket is opened (it resyncs from the last event). */
  drop() {
    const ws = this.ws;
    clearInterval(this.heart);
    this.heart = null;
    if (!ws) return;
    this.ws = null;
    ws.onopen = ws.onclose = ws.onmessage = null;
    try {
      ws.close();
    } catch {
      /* already closing */
    }
    for (const { reject } of this.pending.values()) reject(new ApiError(0, "disconnected", "connection lost"));
    this.pending.clear();
    if (this.closing) return;
    this.onStatus("reconnecting");
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.closing) this.connect();
    }, 250);
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
    const url = `${proto}://${location.host}${this.path}${encodeURIComponent(this.name)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.onStatus(this.lastSeq === null ? "connecting" : "reconnecting");
    ws.onopen = () => {
      this.retry = 0;
      this.beat();
      // batch: frames that leave the server together arrive as one JSON array.
      ws.send(JSON.stringify({ type: "auth", token: token() || "", batch: true }));
      // "Connected" only once the server has answered (its `welcome`), never on a socket
      // that opened into a network that does not carry it.
      if (this.lastSeq !== null) {
        // A reconnect: ask for everything after the last event we applied.
        this.resyncPending = true;
        this.sendRaw({ type: "resync", last_seq: this.lastSeq });
      }
    };
    ws.onmessage = (e) => {
      this.lastHeard = performance.now();
      const data = JSON.parse(e.data);
      if (Array.isArray(data)) for (const frame of data) this.receive(frame);
      else this.receive(data);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.heart);
      this.heart = null;
      for (const { reject } of this.pending.values()) reject(new ApiError(0, "disconnected", "connection lost"));
      this.pending.clear();
      if (this.closing) return;
      if (e.code === 4401) {
        this.onStatus("unauthenticated");
        return;
      }
      if (e.code === 4404) {
        this.onStatus("not_found");
        return;
      }
      if (e.code === 4429) this.retry = Math.max(this.retry, 3); // closed for sending too fast
      this.onStatus("reconnecting");
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      this.timer = setTimeout(() => {
        this.timer = null;
        if (!this.closing) this.connect();
      }, delay);
    };
  }

  receive(frame) {
    frame._at = performance.now();
    frame._n = this.received = (this.received || 0) + 1; // the order frames arrived in
    if (frame.type === "welcome") {
      // A server that restarted counts its events from 0 again: start from its count.
      frame.restarted = this.lastSeq !== null && frame.seq < this.lastSeq;
      if (this.lastSeq === null || frame.restarted) this.lastSeq = frame.seq;
      this.onStatus("open");
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
        if (frame.type === "ack") this.lastAckN = frame._n;
        if (frame.type === "ack") waiter.resolve(frame.result);
        else waiter.reject(errorFromFrame(frame));
      }
    }
    this.onFrame(frame);
  }

  get open() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  sendRaw(message) {
    if (this.open) this.ws.send(JSON.stringify(message));
  }

  // Send a request; resolves with the ack's result, rejects with the error frame.
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.open) {
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
    clearInterval(this.heart);
    if (this.ws) this.ws.close();
  }
}

/** The lobby's push of table changes (`/ws/lobby`): each changed table's lobby entry is
 * handed to `onTable`; reconnects by itself. */
export class LobbySocket {
  constructor(onTable) {
    this.onTable = onTable;
    this.closing = false;
    this.retry = 0;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
    this.ws = ws;
    ws.onopen = () => (this.retry = 0);
    ws.onmessage = (e) => {
      try {
        const frame = JSON.parse(e.data);
        if (frame.type === "table_changed" && frame.table) this.onTable(frame.table);
      } catch {
        /* not a frame of ours */
      }
    };
    ws.onclose = () => {
      if (this.closing) return;
      this.timer = setTimeout(() => this.open(), Math.min(30000, 1000 * 2 ** this.retry++));
    };
  }

  close() {
    this.closing = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}

export function logout() {
  return api("/api/auth/logout", { method: "POST" })
    .catch(() => null)
    .finally(() => setSession(null));
}

let balanceRetry = null;

/**
 * Ask the server for the wallet's balance and show it (after a round, on every table
 * (re)connection, on a page change). A failed ask is tried again (1 s, 2 s, 4 s... up to 15 s)
 * until one succeeds, so a balance is never left as it was before a server restart.
 */
export async function refreshBalance({ attempt = 0 } = {}) {
  if (!token()) return false;
  clearTimeout(balanceRetry);
  balanceRetry = null;
  try {
    const data = await api("/api/wallet");
    setBalance(data.balance);
    return true;
  } catch (err) {
    if (err && err.status === 401) return false;
    balanceRetry = setTimeout(() => refreshBalance({ attempt: attempt + 1 }), Math.min(15000, 1000 * 2 ** attempt));
    return false;
  }
}
