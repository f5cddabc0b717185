// The croupier browser client: hash routes, the header (balance, cashier, language, sound,
// pace, log out), login/register, the lobby, and the table, history, cashier and operator
// pages. One Preact tree: the page updates in place, so focus stays where the player put it.

import { api, LobbySocket, logout, refreshBalance, sessionEnded } from "./api.js";
import { CashierPage } from "./cashier.js";
import { wordError } from "./errors.js";
import { gameOf, gameSuit, gameTitle, limitsOf, loadDescriptors } from "./games.js";
import { HistoryPage } from "./history.js";
import { currentLanguage, dateTime, LANGUAGES, money, setLanguage, t } from "./i18n.js";
import { toast } from "./notify.js";
import { OperatorPage } from "./operator.js";
import { BlockingNotice, LimitsPage, RealityCheck } from "./responsible.js";
import { changed, setSession, setSetting, store, token, useStore } from "./store.js";
import { GenericTable } from "./table.js";
import { onSessionExpired, tableTitle, turbo } from "./tablecore.js";
import { html, render, useEffect, useRef, useState } from "./ui.js";

const NEEDS_LOGIN = new Set(["table", "history", "operator", "cashier", "limits"]);

/** What the server allows the client (GET /api/client): Turbo pace only where the operator
 * enables it for the jurisdiction. */
async function loadServerSettings() {
  try {
    store.server = await api("/api/client");
  } catch {
    store.server = { turbo_pace: false };
  }
  changed();
}

async function refreshCashier() {
  try {
    store.cashier = await api("/api/cashier");
  } catch {
    store.cashier = null;
  }
}

function parseHash() {
  const hash = location.hash || "#/lobby";
  const [path, query = ""] = hash.slice(1).split("?");
  const [, page = "lobby", arg = ""] = path.split("/");
  return { page, arg: decodeURIComponent(arg), query: new URLSearchParams(query), hash };
}

// The session ended (expired, revoked): say so, then the login page, then back here.
function endSession() {
  if (!store.session) return;
  const back = location.hash && !location.hash.startsWith("#/login") ? location.hash : "#/lobby";
  setSession(null);
  toast(t("session.expired"), "error");
  location.hash = `#/login?next=${encodeURIComponent(back)}`;
}
sessionEnded.handler = endSession;
onSessionExpired.handler = endSession;

function Settings() {
  const s = useStore();
  const ref = useRef(null);
  return html`<details class="settings" ref=${ref} data-testid="settings">
    <summary aria-label=${t("settings.title")} title=${t("settings.title")}><span aria-hidden="true">⚙</span></summary>
    <div class="settings-panel">
      <label>${t("settings.language")}
        <select data-testid="language" value=${currentLanguage()} onChange=${(e) => setLanguage(e.target.value, { remember: true })}>
          ${Object.entries(LANGUAGES).map(([code, l]) => html`<option value=${code} lang=${code} key=${code}>${l.name}</option>`)}
        </select>
      </label>
      ${s.session ? html`<a href="#/limits" data-testid="settings-limits">${t("rg.title")}</a>` : null}
      <label class="check"><input type="checkbox" data-testid="sound" checked=${s.settings.sound} onChange=${(e) => setSetting("sound", e.target.checked)} /> ${t("settings.sound")}</label>
      <label class="check"><input type="checkbox" data-testid="auto-confirm" checked=${Boolean(s.settings.auto_confirm)} onChange=${(e) => setSetting("auto_confirm", e.target.checked)} /> ${t("settings.auto_confirm")}</label>
      ${s.server && s.server.turbo_pace
        ? html`<label>${t("settings.pace")}
            <select data-testid="pace" value=${s.settings.pace} onChange=${(e) => setSetting("pace", e.target.value)}>
              <option value="normal">${t("settings.pace.normal")}</option>
              <option value="turbo">${t("settings.pace.turbo")}</option>
            </select>
          </label>`
        : null}
    </div>
  </details>`;
}

function Header({ route }) {
  const s = useStore();
  const session = s.session;
  const link = (href, key, testid, page) => html`<a href=${href} data-testid=${testid} aria-current=${route.page === page ? "page" : null}>${t(key)}</a>`;
  return html`<header class="topbar">
    <a class="brand" href="#/lobby" aria-label="croupier"><span class="brand-suit" aria-hidden="true">♠</span><span class="brand-name">croupier</span></a>
    <nav id="nav" aria-label=${t("nav.main")}>
      ${link("#/lobby", "nav.lobby", "nav-lobby", "lobby")}
      ${session ? link("#/history", "nav.history", "nav-history", "history") : null}
      ${session && session.user.role === "operator" ? link("#/operator", "nav.operator", "nav-operator", "operator") : null}
    </nav>
    <div class="account" id="account">
      ${session
        ? html`<span class="user" data-testid="username">${session.user.username}</span>
            <a class="balance-pill" href="#/cashier" data-testid="cashier-link" aria-label=${t("balance.aria", { amount: money(s.balance) })}>
              <span class="chip-icon" aria-hidden="true"></span><span data-testid="balance">${money(s.balance)}</span><span class="plus" aria-hidden="true">+</span>
            </a>`
        : null}
      <${Settings} />
      ${session
        ? html`<button type="button" class="btn small ghost" data-testid="logout" onClick=${() => logout().then(() => (location.hash = "#/login"))}><span aria-hidden="true" class="icon">⎋</span><span class="label">${t("nav.logout")}</span></button>`
        : html`<a href="#/login" class="btn small" data-testid="nav-login">${t("nav.login")}</a>`}
    </div>
  </header>`;
}

function LoginPage({ route }) {
  const [mode, setMode] = useState("login");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const user = useRef(null);
  const pass = useRef(null);
  const next = route.query.get("next") || "#/lobby";
  async function submit(e) {
    e.preventDefault();
    setError("");
    setBusy(true);
    const username = user.current.value;
    const password = pass.current.value;
    try {
      if (mode === "register") await api("/api/auth/register", { method: "POST", body: { username, password } });
      const data = await api("/api/auth/login", { method: "POST", body: { username, password } });
      setSession({ token: data.access_token, user: data.user });
      const ex = data.self_exclusion;
      if (ex) toast(ex.permanent ? t("rg.excluded_forever") : t("rg.excluded_until", { until: dateTime(ex.until) }), "error");
      await Promise.all([refreshBalance(), refreshCashier()]);
      location.hash = next.startsWith("#/") && !next.startsWith("#/login") ? next : "#/lobby";
    } catch (err) {
      setError(wordError(err));
    } finally {
      setBusy(false);
    }
  }
  const login = mode === "login";
  return html`<section class="auth-page">
    <div class="auth-felt">
      <form class="auth-card" data-testid="auth-form" onSubmit=${submit} aria-labelledby="auth-title">
        <h1 id="auth-title">${login ? t("auth.welcome") : t("auth.create")}</h1>
        ${route.query.get("next") ? html`<p class="muted">${t("auth.back_after")}</p>` : null}
        <label>${t("auth.username")}<input ref=${user} name="username" autocomplete="username" required minlength="3" maxlength="32" data-testid="username-input" /></label>
        <label>${t("auth.password")}<input ref=${pass} name="password" type="password" autocomplete=${login ? "current-password" : "new-password"} required data-testid="password-input" aria-describedby=${login ? null : "pw-rule"} /></label>
        ${login ? null : html`<p class="muted small" id="pw-rule">${t("auth.password_rule")}</p>`}
        <p class="form-error" data-testid="auth-error" role="alert">${error}</p>
        <button class="btn primary" type="submit" data-testid="auth-submit" disabled=${busy}>${login ? t("auth.login") : t("auth.register")}</button>
        <p class="muted"><a href="#" data-testid="auth-switch" onClick=${(e) => { e.preventDefault(); setMode(login ? "register" : "login"); setError(""); }}>${login ? t("auth.switch_register") : t("auth.switch_login")}</a></p>
      </form>
    </div>
  </section>`;
}

function TableCard({ tb, loggedIn, game }) {
  // A table an operator closed takes no seats or bets: the lobby says so (issue 29).
  const open = tb.status !== "unavailable" && !tb.closed;
  const seats = tb.max_seats == null ? t("lobby.live_seats", { n: tb.seats_taken ?? 0 }) : t("lobby.seats", { n: tb.seats_taken, max: tb.max_seats });
  const shared = tb.rules && tb.rules.shared_hand;
  return html`<article class=${`table-card game-${tb.game}${open ? "" : " unavailable"}`} data-testid=${`table-${tb.name}`} aria-labelledby=${`t-${tb.name}`}>
    <div class="mini-felt" aria-hidden="true"><span class="mini-suit">${gameSuit(tb.game)}</span></div>
    <h2 id=${`t-${tb.name}`}>${tableTitle(tb)}</h2>
    <p class="game">${gameTitle(tb.game)}${shared ? ` — ${t("lobby.live")}` : ""}</p>
    ${open ? html`<p class="limits" data-testid="limits">${limitsOf(tb, game)}</p>` : null}
    ${open ? html`<p class="seats" data-testid="seats">${seats}</p>` : html`<p class="reason">${t("lobby.closed")}</p>`}
    ${open ? html`<p class="status">${t(`lobby.status.${tb.status}`)}</p>` : null}
    ${open
      ? html`<a class="btn primary" href=${`#/table/${encodeURIComponent(tb.name)}`} data-testid=${`open-${tb.name}`}>${loggedIn ? t("lobby.sit") : t("lobby.watch")}</a>`
      : html`<button type="button" class="btn" disabled>${t("lobby.closed")}</button>`}
  </article>`;
}

function LobbyPage() {
  const s = useStore();
  const [tables, setTables] = useState(null);
  const [error, setError] = useState(null);
  // each game's descriptor: how the lobby summarises a table's limits
  const [games, setGames] = useState({});
  useEffect(() => {
    let stopped = false;
    let list = null;
    loadDescriptors()
      .then((described) => !stopped && setGames(described))
      .catch((err) => !stopped && setError(err));
    async function load() {
      try {
        list = await api("/api/tables");
        if (!stopped) {
          setTables(list);
          setError(null);
        }
      } catch (err) {
        if (!stopped) setError(err);
      }
    }
    load();
    const timer = setInterval(load, 3000);
    // An operator's change (limits, pay tables, closed or open) is pushed at once.
    const socket = new LobbySocket((entry) => {
      if (stopped || !list) return;
      list = list.map((tb) => (tb.name === entry.name ? { ...tb, ...entry } : tb));
      if (!list.some((tb) => tb.name === entry.name)) list = [...list, entry];
      setTables(list);
    });
    return () => {
      stopped = true;
      clearInterval(timer);
      socket.close();
    };
  }, []);
  const empty = s.session && s.balance === 0;
  return html`<section class="lobby">
    <h1>${t("lobby.title")}</h1>
    ${s.session ? null : html`<p class="muted">${t("lobby.login_to_sit")}</p>`}
    ${empty ? html`<p class="notice" data-testid="no-money">${t("lobby.no_money")} <a class="btn small primary" href="#/cashier">${t("cashier.open")}</a></p>` : null}
    ${error ? html`<p class="form-error" role="alert">${t("lobby.cannot_load", { why: wordError(error) })}</p>` : null}
    <div class="lobby-grid" data-testid="lobby">${(tables || []).map((tb) => html`<${TableCard} key=${tb.name} tb=${tb} game=${games[tb.game]} loggedIn=${Boolean(s.session)} />`)}</div>
  </section>`;
}

function TablePage({ name }) {
  const [info, setInfo] = useState(undefined);
  useEffect(() => {
    let stop = false;
    api("/api/tables")
      .then((list) => !stop && setInfo(list.find((tb) => tb.name === name) || null))
      .catch(() => !stop && setInfo(null));
    return () => (stop = true);
  }, [name]);
  if (info === undefined) return html`<p class="loading">${t("loading")}</p>`;
  if (info === null) return html`<p class="form-error" role="alert">${t("table.none", { name })}</p>`;
  const game = gameOf(info.game);
  const Page = game ? game.page : GenericTable;
  return html`<${Page} key=${name} info=${info} />`;
}

function App() {
  const [route, setRoute] = useState(parseHash());
  useStore(); // re-rendered when the settings change
  document.documentElement.classList.toggle("pace-turbo", turbo());
  useEffect(() => {
    const onHash = () => setRoute(parseHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    if (NEEDS_LOGIN.has(route.page) && !token()) location.hash = `#/login?next=${encodeURIComponent(route.hash)}`;
    if (token()) refreshBalance();
  }, [route.hash]);
  const needsLogin = NEEDS_LOGIN.has(route.page) && !token();
  let page;
  if (needsLogin) page = null;
  else if (route.page === "login") page = html`<${LoginPage} route=${route} />`;
  else if (route.page === "table") page = html`<${TablePage} name=${route.arg} />`;
  else if (route.page === "history") page = html`<${HistoryPage} />`;
  else if (route.page === "cashier") page = html`<${CashierPage} />`;
  else if (route.page === "operator") page = html`<${OperatorPage} section=${route.arg} />`;
  else if (route.page === "limits") page = html`<${LimitsPage} />`;
  else page = html`<${LobbyPage} />`;
  const blocked = Boolean(store.blocking);
  return html`<div class="page-shell" inert=${blocked} aria-hidden=${blocked ? "true" : null}><${Header} route=${route} /><main id="view" class=${`page-${route.page}`}>${page}</main></div><${RealityCheck} /><${BlockingNotice} />`;
}

if (token()) refreshCashier();
loadServerSettings();
const root = document.getElementById("app");
root.replaceChildren();
render(html`<${App} />`, root);
