// What a table page says of the table beside the game: its title in the player's language,
// the notices an operator's change or a lost seat bring, the deck's commitment before the
// deal, the session's figures (time since login, wagered, net) and the help panel with the
// table's return to player and the game's version (issue 29).

import { api } from "./api.js";
import { wordError } from "./errors.js";
import { has, localeTag, money, signedMoney, t } from "./i18n.js";
import { html, useEffect, useRef, useState, useTicker } from "./ui.js";

// The titles of the tables shipped in server/default_tables.toml: each has a text in every
// language (`title.<name>`). A title an operator wrote is shown as written.
const SHIPPED_TITLES = {
  "uth-casino": "Ultimate Texas Hold'em — casino table",
  "uth-live": "Ultimate Texas Hold'em — live",
  "holdem-nl": "Texas Hold'em No-Limit 1/2",
  russian: "Russian Poker",
};

/** A table's title in the player's language. */
export function tableTitle(tb) {
  const key = `title.${tb.name}`;
  return SHIPPED_TITLES[tb.name] === tb.title && has(key) ? t(key) : tb.title || tb.name;
}

/** The notices of the table (a change of limits, closing, a seat lost), each dismissable;
 * at the top of the table's column, so the felt below makes room for them (they never cover
 * a card). A notice that only informs goes by itself after a while. */
export function Notices({ model }) {
  const [, force] = useState(0);
  const passing = model.notices.filter((n) => n.until);
  useEffect(() => {
    if (!passing.length) return undefined;
    const next = Math.min(...passing.map((n) => n.until)) - performance.now();
    const id = setTimeout(() => {
      model.notices = model.notices.filter((n) => !n.until || n.until > performance.now());
      force((k) => k + 1);
    }, Math.max(0, next));
    return () => clearTimeout(id);
  });
  if (!model.notices.length) return null;
  const dismiss = (id) => {
    model.notices = model.notices.filter((n) => n.id !== id);
    force((n) => n + 1);
  };
  return html`<div class="table-notices" data-testid="notices">
    ${model.notices.map((n) => html`<div key=${n.id} class=${`notice ${n.cls}`} data-kind=${n.kind} role=${n.cls === "bad" ? "alert" : "status"}>
      <span>${n.text}</span>
      <button type="button" class="btn small ghost" aria-label=${t("notice.dismiss")} onClick=${() => dismiss(n.id)}>×</button>
    </div>`)}
  </div>`;
}

/** The deck's commitment, shown from the round's opening, before any card is dealt. */
export function Commitment({ model }) {
  const hash = model.table && model.table.commitment;
  if (!hash || model.table.round_id == null) return null;
  const short = `${hash.slice(0, 8)}…${hash.slice(-4)}`;
  return html`<details class="commitment" data-testid="commitment" data-hash=${hash}>
    <summary aria-label=${t("fair.commitment", { short: hash, n: model.table.round_id })}><span class="c-label">${t("fair.commitment", { short: "", n: model.table.round_id })}</span><span class="c-short">${t("fair.short")} </span><code>${short}</code></summary>
    <div class="commitment-pop"><p class="small">${t("fair.commitment_help")}</p><code class="hash">${hash}</code></div>
  </details>`;
}

/** Time since login, wagered and net in this session: always in view at a table (UKGC RTS
 * 13C/2E), from the server's figures (GET /api/me/reality-check), asked again after each
 * round and every half minute; the time ticks here. */
export function SessionBar({ model }) {
  const [figures, setFigures] = useState(null);
  useTicker(Boolean(figures), 1000);
  useEffect(() => {
    let stop = false;
    async function load() {
      try {
        const data = await api("/api/me/reality-check");
        if (!stop) setFigures({ ...data, at: performance.now() });
      } catch {
        /* asked again soon */
      }
    }
    load();
    const timer = setInterval(load, 30_000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [model.roundsClosed || 0, model.conn === "open"]);
  if (!figures) return html`<div class="session-bar" data-testid="session-bar" aria-hidden="true"></div>`;
  const seconds = figures.elapsed_seconds + Math.floor((performance.now() - figures.at) / 1000);
  return html`<div class="session-bar" data-testid="session-bar" role="group" aria-label=${t("session.title")}>
    <span data-testid="session-time">${t("session.time", { time: duration(seconds) })}</span>
    <span data-testid="session-wagered" data-cents=${String(figures.wagered)}>${t("session.wagered", { amount: money(figures.wagered) })}</span>
    <span data-testid="session-net" data-cents=${String(figures.net)} class=${figures.net > 0 ? "good" : figures.net < 0 ? "bad" : ""}>${t("session.net", { amount: signedMoney(figures.net) })}</span>
  </div>`;
}

/** "1:02:03" / "12:03": a duration in hours, minutes and seconds. */
export function duration(total) {
  const s = Math.max(0, Math.floor(total));
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hh ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The game's help: the exact return to player of this table's own pay tables (the server's
 * theory) and the game's version, asked for when opened. */
export function HelpButton({ info }) {
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(null);
  const close = useRef(null);
  useEffect(() => {
    if (!open) return;
    if (close.current) close.current.focus();
    api(`/api/tables/${encodeURIComponent(info.name)}/help`)
      .then(setHelp)
      .catch((err) => setHelp({ error: wordError(err) }));
  }, [open]);
  return html`<button type="button" class="btn small ghost help-button" data-testid="help" aria-haspopup="dialog" aria-label=${t("help.open")} title=${t("help.open")} onClick=${() => setOpen(true)}>?</button>
    ${open
      ? html`<div class="rg-overlay" onClick=${(e) => e.target === e.currentTarget && setOpen(false)}>
          <div class="rg-dialog help-dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="help-panel" onKeyDown=${(e) => e.key === "Escape" && setOpen(false)}>
            <h2 id="help-title">${t("help.title", { game: t(`game.${info.game}`) })}</h2>
            ${help ? html`<${HelpBody} help=${help} />` : html`<p class="muted">${t("loading")}</p>`}
            <div class="op-actions"><button type="button" class="btn primary" ref=${close} data-testid="help-close" onClick=${() => setOpen(false)}>${t("btn.close")}</button></div>
          </div>
        </div>`
      : null}`;
}

function HelpBody({ help }) {
  if (help.error) return html`<p class="form-error">${help.error}</p>`;
  const lines = help.returns || [];
  return html`<p class="muted">${t("help.rtp_intro")}</p>
    ${lines.length
      ? html`<dl class="help-rtp" data-testid="help-rtp">${lines.map((l) => html`<div key=${l.key} data-key=${l.key} data-value=${String(l.value)}><dt>${t(`help.rtp.${l.key}`)}</dt><dd>${percent(l.value, l.digits || 2)}${l.plus_minus ? ` ± ${percent(l.plus_minus, l.digits || 2)}` : ""}</dd></div>`)}</dl>`
      : html`<p data-testid="help-rtp-none">${t(`help.rtp_status.${help.status || "unavailable"}`)}</p>`}
    ${help.rake ? html`<p data-testid="help-rake">${t("help.rake", { percent: percent(help.rake.percent / 100, 1), cap: money(help.rake.cap) })}</p>` : null}
    <p class="muted small">${t(`help.method.${help.method || "none"}`)}</p>
    <p data-testid="help-version">${t("help.version", { version: help.version })}</p>`;
}

/** 0.9947 -> "99.47 %" / "99,47 %" in the active locale. */
export function percent(fraction, digits = 2) {
  return new Intl.NumberFormat(localeTag(), { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);
}
