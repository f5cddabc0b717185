// The croupier browser client: hash routes, the account bar, login/register and the lobby.
// Table pages live in uth.js (Ultimate Texas Hold'em), holdem.js (Hold'em cash tables),
// russian.js (Russian Poker) and table.js (any other game).

import { api, h, money, session } from "./api.js";
import { historyPage } from "./history.js";
import { holdemTablePage } from "./holdem.js";
import { operatorPage } from "./operator.js";
import { russianTablePage } from "./russian.js";
import { genericTablePage } from "./table.js";
import { uthTablePage } from "./uth.js";

const view = document.getElementById("view");
let cleanup = null; // the current page's teardown (close sockets, stop timers)

export const wallet = {
  balance: null,
  set(value) {
    this.balance = value;
    const el = document.querySelector("[data-testid=balance]");
    if (el) el.textContent = money(value);
  },
  async refresh() {
    if (!session.token()) return;
    try {
      const data = await api("/api/wallet");
      this.set(data.balance);
    } catch {
      /* the page shows the error where it matters */
    }
  },
};

export function toast(message, kind = "info") {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.className = ""), 3500);
}

function renderChrome() {
  const s = session.get();
  const nav = document.getElementById("nav");
  const account = document.getElementById("account");
  nav.replaceChildren(
    ...[
      h("a", { href: "#/lobby" }, "Lobby"),
      s ? h("a", { href: "#/history", testid: "nav-history" }, "History") : null,
      s && s.user.role === "operator" ? h("a", { href: "#/operator", testid: "nav-operator" }, "Operator") : null,
    ].filter(Boolean),
  );
  if (!s) {
    account.replaceChildren(h("a", { href: "#/login", class: "btn small", testid: "nav-login" }, "Log in"));
    return;
  }
  account.replaceChildren(
    h("span", { class: "user", testid: "username" }, s.user.username),
    h("span", { class: "balance-pill" }, h("span", { class: "chip-icon" }), h("span", { testid: "balance" }, money(wallet.balance))),
    h("button", { class: "btn small ghost", testid: "logout", onclick: logout }, "Log out"),
  );
}

async function logout() {
  try {
    await api("/api/auth/logout", { method: "POST" });
  } catch {
    /* an expired token is logged out anyway */
  }
  session.clear();
  wallet.balance = null;
  location.hash = "#/login";
}

export async function login(username, password) {
  const data = await api("/api/auth/login", { method: "POST", body: { username, password } });
  session.set({ token: data.access_token, user: data.user });
  await wallet.refresh();
}

function loginPage() {
  const error = h("p", { class: "form-error", testid: "auth-error" });
  const user = h("input", { name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 32, testid: "username-input" });
  const pass = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true, testid: "password-input" });
  let mode = "login";
  const submit = h("button", { class: "btn primary", type: "submit", testid: "auth-submit" }, "Log in");
  const switcher = h("a", { href: "#", testid: "auth-switch" }, "Create an account");
  const title = h("h2", {}, "Welcome to the table");
  switcher.addEventListener("click", (e) => {
    e.preventDefault();
    mode = mode === "login" ? "register" : "login";
    submit.textContent = mode === "login" ? "Log in" : "Register";
    switcher.textContent = mode === "login" ? "Create an account" : "I already have an account";
    pass.autocomplete = mode === "login" ? "current-password" : "new-password";
    error.textContent = "";
  });
  const form = h(
    "form",
    { class: "auth-card", testid: "auth-form" },
    title,
    h("label", {}, "Username", user),
    h("label", {}, "Password", pass),
    error,
    submit,
    h("p", { class: "muted" }, switcher),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      if (mode === "register") {
        await api("/api/auth/register", { method: "POST", body: { username: user.value, password: pass.value } });
      }
      await login(user.value, pass.value);
      location.hash = "#/lobby";
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  view.replaceChildren(h("section", { class: "auth-page" }, h("div", { class: "auth-felt" }, form)));
}

const GAME_NAMES = { uth: "Ultimate Texas Hold'em", holdem: "Texas Hold'em", russian: "Russian Poker" };

function limitsOf(t) {
  const r = t.rules || {};
  if (r.ante_min !== undefined) {
    const trips = r.trips_min !== undefined ? ` · Trips ${money(r.trips_min)}–${money(r.trips_max)}` : "";
    return `Ante ${money(r.ante_min)}–${money(r.ante_max)}${trips}`;
  }
  if (r.small_blind !== undefined) return `Blinds ${money(r.small_blind)}/${money(r.big_blind)}`;
  if (r.min_bet !== undefined) return `Bets ${money(r.min_bet)}–${money(r.max_bet)}`;
  return "";
}

function lobbyPage() {
  const list = h("div", { class: "lobby-grid", testid: "lobby" });
  const page = h(
    "section",
    { class: "lobby" },
    h("h1", {}, "Tables"),
    session.get() ? null : h("p", { class: "muted" }, "Log in to take a seat."),
    list,
  );
  view.replaceChildren(page);
  let stopped = false;
  async function refresh() {
    if (stopped) return;
    try {
      const tables = await api("/api/tables");
      list.replaceChildren(...tables.map(tableCard));
    } catch (err) {
      list.replaceChildren(h("p", { class: "form-error" }, `Cannot load the tables: ${err.message}`));
    }
  }
  refresh();
  const timer = setInterval(refresh, 3000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

function tableCard(t) {
  const open = t.status !== "unavailable";
  const seats = t.max_seats == null ? `${t.seats_taken ?? 0} players · unlimited seats` : `${t.seats_taken}/${t.max_seats} seats taken`;
  const shared = t.rules && t.rules.shared_hand ? "live · one shared hand" : null;
  return h(
    "article",
    { class: `table-card game-${t.game}${open ? "" : " unavailable"}`, testid: `table-${t.name}` },
    h("div", { class: "mini-felt" }, h("span", { class: "mini-suit" }, t.game === "russian" ? "♦" : t.game === "holdem" ? "♣" : "♠")),
    h("h3", {}, t.title || t.name),
    h("p", { class: "game" }, GAME_NAMES[t.game] || t.game, shared ? ` — ${shared}` : ""),
    open ? h("p", { class: "limits" }, limitsOf(t)) : null,
    open ? h("p", { class: "seats", testid: "seats" }, seats) : h("p", { class: "reason" }, t.reason || "unavailable"),
    open ? h("p", { class: "status" }, `status: ${t.status}`) : null,
    open
      ? h("a", { class: "btn primary", href: `#/table/${encodeURIComponent(t.name)}`, testid: `open-${t.name}` }, session.get() ? "Take a seat" : "Watch")
      : h("button", { class: "btn", disabled: true }, "Closed"),
  );
}

async function route() {
  if (cleanup) {
    try {
      cleanup();
    } catch {
      /* a page that failed to start has nothing to clean */
    }
    cleanup = null;
  }
  const hash = location.hash || "#/lobby";
  const [, page, arg] = hash.split("/");
  const needsLogin = ["table", "history", "operator"].includes(page);
  if (needsLogin && !session.token()) {
    location.hash = "#/login";
    return;
  }
  renderChrome();
  if (session.token() && wallet.balance === null) wallet.refresh().then(renderChrome);
  const ctx = { view, wallet, toast };
  switch (page) {
    case "login":
      loginPage();
      break;
    case "table": {
      const name = decodeURIComponent(arg || "");
      let info = null;
      try {
        info = (await api("/api/tables")).find((t) => t.name === name);
      } catch {
        info = null;
      }
      if (!info) {
        view.replaceChildren(h("p", { class: "form-error" }, `No table named ${name}.`));
        break;
      }
      const pages = { uth: uthTablePage, holdem: holdemTablePage, russian: russianTablePage };
      cleanup = (pages[info.game] || genericTablePage)(ctx, info);
      break;
    }
    case "history":
      cleanup = historyPage(ctx);
      break;
    case "operator":
      cleanup = operatorPage(ctx);
      break;
    default:
      cleanup = lobbyPage();
  }
}

window.addEventListener("hashchange", route);
route();
