// Responsible gaming for the player (docs/protocol.md "Responsible gaming"): deposit, loss and
// wager limits per day, week and month (lowering at once, raising after 24 hours), the
// self-exclusion, the reality check's interval; and the reality check itself, a reminder with
// the time played and the net result that the server says is due (the page polls it).

import { api, logout } from "./api.js";
import { wordError } from "./errors.js";
import { centsText, dateTime, money, signedMoney, t, toCents } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { changed, store, useStore } from "./store.js";
import { html, useEffect, useRef, useState } from "./ui.js";

const KINDS = ["deposit", "loss", "wager"];
const PERIODS = ["day", "week", "month"];
const MAX_CENTS = 10 ** 12;

/** The limits form checked: {body, errors}; an empty box removes a limit (after 24 hours). */
export function checkPlayerLimits(view, texts) {
  const body = {};
  const errors = {};
  for (const kind of KINDS) {
    for (const period of PERIODS) {
      const key = `${kind}.${period}`;
      const typed = String(texts[key] ?? "").trim();
      const now = view[kind][period];
      const shown = now.pending ? now.pending.limit : now.limit;
      let value = null;
      if (typed !== "") {
        value = toCents(typed);
        if (value === null || value < 0 || value > MAX_CENTS) {
          errors[key] = t("rg.err.amount");
          continue;
        }
      }
      if (value !== shown) (body[kind] ||= {})[period] = value;
    }
  }
  return { body, errors };
}

function LimitsForm({ view, onSaved }) {
  const [texts, setTexts] = useState(() => {
    const out = {};
    for (const k of KINDS) for (const p of PERIODS) {
      const v = view.limits[k][p];
      const shown = v.pending ? v.pending.limit : v.limit;
      out[`${k}.${p}`] = shown == null ? "" : centsText(shown);
    }
    return out;
  });
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState("");
  async function submit(e) {
    e.preventDefault();
    const { body, errors: found } = checkPlayerLimits(view.limits, texts);
    setErrors(found);
    setProblem("");
    if (Object.keys(found).length) return;
    if (!Object.keys(body).length) {
      setProblem(t("rg.nothing"));
      return;
    }
    try {
      const answer = await api("/api/me/limits", { method: "PUT", body });
      const later = answer.changes.filter((c) => c.effective !== "now");
      const text = later.length ? t("rg.saved_later", { when: dateTime(later[0].effective) }) : t("rg.saved");
      announce(text);
      toast(text, "info");
      onSaved(answer);
    } catch (err) {
      setProblem(wordError(err));
    }
  }
  return html`<form class="panel rg-form" onSubmit=${submit} data-testid="rg-limits-form" novalidate>
    <h2>${t("rg.limits")}</h2>
    <p class="muted small">${t("rg.limits_help")}</p>
    <div class="table-scroll" tabindex="0" role="region" aria-label=${t("rg.limits")}>
      <table class="op-table rg-table">
        <caption class="sr-only">${t("rg.limits")}</caption>
        <thead><tr><th scope="col">${t("rg.kind")}</th>${PERIODS.map((p) => html`<th scope="col" key=${p}>${t(`op.period.${p}`)}</th>`)}</tr></thead>
        <tbody>${KINDS.map((k) => html`<tr key=${k}><th scope="row">${t(`rg.kind.${k}`)}</th>
          ${PERIODS.map((p) => {
            const key = `${k}.${p}`;
            const v = view.limits[k][p];
            const id = `rg-${k}-${p}`;
            return html`<td key=${p} class="rg-cell">
              <label class="sr-only" for=${id}>${t("rg.cell", { kind: t(`rg.kind.${k}`), period: t(`op.period.${p}`) })}</label>
              <input id=${id} inputmode="decimal" value=${texts[key]} placeholder=${t("rg.none")} data-testid=${`rg-${k}-${p}`}
                onInput=${(e) => setTexts({ ...texts, [key]: e.target.value })} aria-invalid=${errors[key] ? "true" : null}
                aria-describedby=${`${id}-used`} />
              <span class="muted small" id=${`${id}-used`} data-testid=${`rg-used-${k}-${p}`}>${v.limit == null
                ? t("rg.used", { used: money(v.used) })
                : t("rg.used_left", { used: money(v.used), left: money(v.left) })}${v.pending
                ? ` · ${t("rg.pending", { limit: v.pending.limit == null ? t("rg.none") : money(v.pending.limit), when: dateTime(v.pending.from) })}`
                : ""}</span>
              ${errors[key] ? html`<span class="field-error" role="alert">${errors[key]}</span>` : null}
            </td>`;
          })}</tr>`)}</tbody>
      </table>
    </div>
    <p class="form-error" role="alert" data-testid="rg-error">${problem}</p>
    <button class="btn primary" type="submit" data-testid="rg-save">${t("rg.save")}</button>
  </form>`;
}

function Exclusion({ view }) {
  const [days, setDays] = useState("30");
  const [sure, setSure] = useState(false);
  const [problem, setProblem] = useState("");
  const ex = view.self_exclusion;
  async function submit(e) {
    e.preventDefault();
    if (!sure) {
      setProblem(t("rg.exclude_confirm_first"));
      return;
    }
    const body = days === "permanent" ? { permanent: true } : { days: Number(days) };
    let row;
    try {
      row = await api("/api/me/self-exclusion", { method: "POST", body });
    } catch (err) {
      setProblem(wordError(err));
      return;
    }
    // Excluded: the session ends here, then a notice that blocks the page says until when
    // (the player cannot play on with a stale page, nor miss it). The session is gone before
    // the notice shows: nothing behind it still holds the token.
    setSure(false);
    await logout();
    block({
      title: t("rg.excluded_title"),
      text: row.permanent ? t("rg.excluded_forever") : t("rg.excluded_until", { until: dateTime(row.until) }),
      more: t("rg.excluded_logged_out"),
    });
    location.hash = "#/login";
  }
  return html`<form class="panel" onSubmit=${submit} data-testid="rg-exclusion">
    <h2>${t("rg.exclusion")}</h2>
    ${ex
      ? html`<p class="bad" data-testid="rg-excluded">${ex.permanent ? t("rg.excluded_forever") : t("rg.excluded_until", { until: dateTime(ex.until) })}</p>`
      : html`<p class="muted">${t("rg.exclusion_help")}</p>`}
    <label>${t("rg.exclude_for")}
      <select value=${days} onChange=${(e) => setDays(e.target.value)} data-testid="rg-exclude-days">
        ${["1", "7", "30", "90", "180", "365"].map((d) => html`<option key=${d} value=${d}>${t("rg.days", { n: Number(d) })}</option>`)}
        <option value="permanent">${t("rg.permanent")}</option>
      </select></label>
    <label class="check"><input type="checkbox" checked=${sure} onChange=${(e) => setSure(e.target.checked)} data-testid="rg-exclude-sure" /> ${t("rg.exclude_sure")}</label>
    <p class="form-error" role="alert" data-testid="rg-exclusion-error">${problem}</p>
    <button class="btn" type="submit" data-testid="rg-exclude">${t("rg.exclude")}</button>
  </form>`;
}

function RealityInterval({ view, onSaved }) {
  const [minutes, setMinutes] = useState(String(view.reality_check.interval_minutes ?? ""));
  async function change(value) {
    setMinutes(value);
    try {
      await api("/api/me/reality-check", { method: "PUT", body: { interval_minutes: value ? Number(value) : null } });
      announce(t("rg.saved"));
      onSaved();
    } catch (err) {
      toast(wordError(err), "error");
    }
  }
  return html`<div class="panel" data-testid="rg-reality">
    <h2>${t("rg.reality")}</h2>
    <label>${t("rg.reality_every")}
      <select value=${minutes} onChange=${(e) => change(e.target.value)} data-testid="rg-reality-minutes">
        <option value="">${t("rg.reality_off")}</option>
        ${["15", "30", "60", "120"].map((m) => html`<option key=${m} value=${m}>${t("rg.minutes", { n: Number(m) })}</option>`)}
      </select></label>
  </div>`;
}

export function LimitsPage() {
  const [view, setView] = useState(null);
  const [error, setError] = useState("");
  const [version, setVersion] = useState(0);
  async function load() {
    try {
      setView(await api("/api/me/limits"));
      setVersion((n) => n + 1);
    } catch (err) {
      setError(wordError(err));
    }
  }
  useEffect(() => {
    load();
  }, []);
  return html`<section class="cashier rg" data-testid="rg-page">
    <h1>${t("rg.title")}</h1>
    <p class="form-error" role="alert">${error}</p>
    ${view
      ? html`<${LimitsForm} key=${version} view=${view} onSaved=${load} /><${RealityInterval} key=${`r${version}`} view=${view} onSaved=${load} />
          <${Exclusion} view=${view} />`
      : html`<p class="loading">${t("loading")}</p>`}
  </section>`;
}

/** The reality check: the server says when a reminder is due; the page asks every minute. */
export function RealityCheck() {
  const s = useStore();
  const [due, setDue] = useState(null);
  const button = useRef(null);
  useEffect(() => {
    if (!s.session) return undefined;
    let stop = false;
    async function poll() {
      try {
        const check = await api("/api/me/reality-check");
        if (!stop && check.due) setDue(check);
      } catch {
        /* a missed poll is tried again */
      }
    }
    poll();
    const timer = setInterval(poll, 60_000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [s.session && s.session.token]);
  useEffect(() => {
    if (due && button.current) button.current.focus();
  }, [due]);
  if (!due) return null;
  async function keepPlaying() {
    try {
      await api("/api/me/reality-check/ack", { method: "POST" });
    } finally {
      setDue(null);
    }
  }
  const minutes = Math.floor(due.elapsed_seconds / 60);
  return html`<div class="rg-overlay">
    <div class="rg-dialog" role="alertdialog" aria-modal="true" aria-labelledby="rg-dialog-title" aria-describedby="rg-dialog-text" data-testid="reality-check">
      <h2 id="rg-dialog-title">${t("rg.reality_title")}</h2>
      <p id="rg-dialog-text" data-testid="reality-text">${t("rg.reality_text", { hours: Math.floor(minutes / 60), minutes: minutes % 60, rounds: due.rounds, net: signedMoney(due.net), wagered: money(due.wagered) })}</p>
      <div class="op-actions">
        <button type="button" class="btn primary" ref=${button} onClick=${keepPlaying} data-testid="reality-continue">${t("rg.reality_continue")}</button>
        <a class="btn" href="#/limits" onClick=${keepPlaying} data-testid="reality-limits">${t("rg.title")}</a>
        <button type="button" class="btn ghost" onClick=${() => logout().then(() => (location.hash = "#/login"))} data-testid="reality-logout">${t("nav.logout")}</button>
      </div>
    </div>
  </div>`;
}

/** Put a notice over the page that must be acknowledged before anything else is done. */
export function block(notice) {
  store.blocking = notice;
  changed();
}

/** The blocking notice (self-exclusion): a modal alert dialog, the focus on its button. */
export function BlockingNotice() {
  const s = useStore();
  const button = useRef(null);
  useEffect(() => {
    if (s.blocking && button.current) button.current.focus();
  }, [s.blocking]);
  if (!s.blocking) return null;
  const n = s.blocking;
  return html`<div class="rg-overlay blocking">
    <div class="rg-dialog" role="alertdialog" aria-modal="true" aria-labelledby="block-title" aria-describedby="block-text" data-testid="blocking-notice">
      <h2 id="block-title">${n.title}</h2>
      <p id="block-text" data-testid="blocking-text">${n.text}</p>
      ${n.more ? html`<p class="muted">${n.more}</p>` : null}
      <div class="op-actions"><button type="button" class="btn primary" ref=${button} data-testid="blocking-ok" onClick=${() => block(null)}>${t("btn.ok")}</button></div>
    </div>
  </div>`;
}
