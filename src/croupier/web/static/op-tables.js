// The operator's tables (docs/protocol.md "Tables at run time"): every table with its limits,
// pay tables, status and theoretical return; forms that change them (checked here first, then
// by the server, whose refusal is worded too); a form that opens a new table. Amounts are
// typed and shown in euros in the page's language; on the wire they are cents.

import { api } from "./api.js";
import { wordError } from "./errors.js";
import { centsText, has, localeTag, money, t, toCents } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { html, useEffect, useState } from "./ui.js";

const GAMES = ["uth", "russian", "holdem"];
const PAIRS = [["min_bet", "max_bet"], ["trips_min", "trips_max"], ["bonus_min", "bonus_max"]];
const MAX_CENTS = 10 ** 12;

/** A fraction as a percentage in the page's language ("97,82 %" in Italian). */
export function pct(x, digits = 2) {
  if (x == null || !Number.isFinite(x)) return "—";
  const format = new Intl.NumberFormat(localeTag(), { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
  return format.format(x).replace("-", "−");
}

export function fieldLabel(field, game) {
  return has(`op.field.${field}.${game}`) ? t(`op.field.${field}.${game}`) : t(`op.field.${field}`);
}

/** What the theoretical return of a table reads (docs/protocol.md). */
export function theoryText(entry) {
  const th = entry.theoretical_return || {};
  if (th.status === "computing") return t("op.theory.computing");
  if (th.status === "unavailable") return t("op.theory.unavailable");
  if (th.method === "rake") {
    const r = th.rake || {};
    return r.cap == null ? t("op.theory.rake", { percent: r.percent }) : t("op.theory.rake_cap", { percent: r.percent, cap: money(r.cap) });
  }
  if (th.method === "exact") return t("op.theory.uth", { ret: pct(th.return, 4), trips: pct(th.trips_return, 4) });
  if (th.method === "analysed") {
    const [lo, hi] = th.interval || [];
    return t("op.theory.russian", { ret: pct(th.return, 3), lo: pct(lo, 3), hi: pct(hi, 3) });
  }
  return "—";
}

/**
 * The limits form checked: `texts` (field -> what was typed) against `current` (field ->
 * cents). Returns {body, errors}: the fields that changed, in cents (max_payout empty: no cap),
 * and field -> an error text.
 */
export function checkLimits(game, current, texts) {
  const errors = {};
  const values = {};
  for (const [field, text] of Object.entries(texts)) {
    const typed = String(text ?? "").trim();
    if (field === "max_payout" && typed === "") {
      values[field] = null;
      continue;
    }
    const cents = toCents(typed);
    if (cents === null || cents <= 0 || cents > MAX_CENTS) errors[field] = t("op.err.amount");
    else values[field] = cents;
  }
  for (const [low, high] of PAIRS) {
    if (values[low] != null && values[high] != null && values[low] > values[high]) {
      errors[low] = t("op.err.order", { other: fieldLabel(high, game) });
    }
  }
  const body = {};
  for (const [field, value] of Object.entries(values)) if (value !== (current[field] ?? null)) body[field] = value;
  return { body, errors };
}

/** Pay-table lines checked: UTH odds "n:d" or "n" (empty removes a line), Russian whole numbers. */
export function checkLines(game, current, texts) {
  const errors = {};
  const body = {};
  for (const [line, text] of Object.entries(texts)) {
    const typed = String(text ?? "").trim();
    if (game === "uth") {
      if (typed === "") {
        if (current[line] !== undefined) body[line] = null;
        continue;
      }
      const m = /^(\d{1,9})(?:\s*:\s*(\d{1,9}))?$/.exec(typed);
      if (!m || (m[2] !== undefined && Number(m[2]) === 0)) {
        errors[line] = t("op.err.odds");
        continue;
      }
      const value = m[2] === undefined ? `${Number(m[1])}:1` : `${Number(m[1])}:${Number(m[2])}`;
      if (value !== current[line]) body[line] = value;
    } else {
      if (!/^\d{1,9}$/.test(typed)) {
        errors[line] = t("op.err.whole_odds");
        continue;
      }
      if (Number(typed) !== current[line]) body[line] = Number(typed);
    }
  }
  return { body, errors };
}

async function patch(name, body) {
  return api(`/api/operator/tables/${encodeURIComponent(name)}`, { method: "PATCH", body });
}

function Field({ id, label, value, onInput, error, testid, hint }) {
  return html`<label class="op-field" for=${id}>
    <span>${label}</span>
    <input id=${id} inputmode="decimal" value=${value} onInput=${(e) => onInput(e.target.value)} data-testid=${testid}
      aria-invalid=${error ? "true" : null} aria-describedby=${error ? `${id}-err` : null} placeholder=${hint || null} />
    ${error ? html`<span class="field-error" id=${`${id}-err`} role="alert" data-testid=${`${testid}-error`}>${error}</span>` : null}
  </label>`;
}

function LimitsForm({ entry, onChanged }) {
  const current = entry.limits || {};
  const [texts, setTexts] = useState(() => Object.fromEntries(Object.entries(current).map(([f, v]) => [f, v == null ? "" : centsText(v)])));
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(e) {
    e.preventDefault();
    const { body, errors: found } = checkLimits(entry.game, current, texts);
    setErrors(found);
    setProblem("");
    if (Object.keys(found).length) return;
    if (!Object.keys(body).length) {
      setProblem(t("op.err.nothing"));
      return;
    }
    setBusy(true);
    try {
      await patch(entry.name, body);
      announce(t("op.saved", { table: entry.title }));
      toast(t("op.saved", { table: entry.title }), "info");
      onChanged();
    } catch (err) {
      setProblem(wordError(err));
    } finally {
      setBusy(false);
    }
  }
  const set = (field) => (value) => setTexts({ ...texts, [field]: value });
  return html`<form class="op-form" onSubmit=${submit} data-testid=${`limits-form-${entry.name}`} novalidate>
    <div class="op-fields">
      ${Object.keys(current).map((field) => html`<${Field} key=${field} id=${`${entry.name}-${field}`} label=${fieldLabel(field, entry.game)}
        value=${texts[field]} onInput=${set(field)} error=${errors[field]} testid=${`limit-${field}`}
        hint=${field === "max_payout" ? t("op.no_cap") : null} />`)}
    </div>
    <p class="form-error" role="alert" data-testid="limits-error">${problem}</p>
    <p class="muted small">${t("op.next_round")}</p>
    <button class="btn primary" type="submit" disabled=${busy} data-testid="limits-save">${t("op.save")}</button>
  </form>`;
}

function PaytableForm({ entry, name, lines, onChanged }) {
  const [texts, setTexts] = useState(() => Object.fromEntries(Object.entries(lines).map(([l, v]) => [l, String(v)])));
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState("");
  async function submit(e) {
    e.preventDefault();
    const { body, errors: found } = checkLines(entry.game, lines, texts);
    setErrors(found);
    setProblem("");
    if (Object.keys(found).length) return;
    if (!Object.keys(body).length) {
      setProblem(t("op.err.nothing"));
      return;
    }
    try {
      await patch(entry.name, { paytables: { [name]: body } });
      toast(t("op.saved", { table: entry.title }), "info");
      onChanged();
    } catch (err) {
      setProblem(wordError(err));
    }
  }
  return html`<form class="op-form" onSubmit=${submit} data-testid=${`paytable-${name}`} novalidate>
    <h4>${t(`op.paytable.${name}`)}</h4>
    <div class="op-fields">
      ${Object.keys(lines).map((line) => html`<${Field} key=${line} id=${`${entry.name}-${name}-${line}`} label=${has(`cat.${line}`) ? t(`cat.${line}`) : line}
        value=${texts[line]} onInput=${(v) => setTexts({ ...texts, [line]: v })} error=${errors[line]} testid=${`line-${name}-${line}`} />`)}
    </div>
    <p class="form-error" role="alert" data-testid="paytable-error">${problem}</p>
    <button class="btn" type="submit" data-testid=${`paytable-save-${name}`}>${t("op.save_paytable")}</button>
  </form>`;
}

function TableCard({ entry, onChanged }) {
  const [busy, setBusy] = useState(false);
  const closed = entry.status === "closed";
  const running = entry.status !== "unavailable";
  async function toggle() {
    setBusy(true);
    try {
      await patch(entry.name, { status: closed ? "open" : "closed" });
      announce(t(closed ? "op.reopened" : "op.closed_now", { table: entry.title }));
      onChanged();
    } catch (err) {
      toast(wordError(err), "error");
    } finally {
      setBusy(false);
    }
  }
  const limits = entry.limits || {};
  return html`<article class="op-card" data-testid=${`optable-${entry.name}`} data-status=${entry.status} aria-labelledby=${`op-t-${entry.name}`}>
    <header class="op-card-head">
      <h3 id=${`op-t-${entry.name}`}>${entry.title}</h3>
      <span class=${`badge ${entry.status}`} data-testid="status">${t(`op.status.${entry.status}`)}</span>
    </header>
    <p class="muted small">${entry.name} · ${t(`game.${entry.game}`)}${running ? ` · ${t(`lobby.status.${entry.play || "idle"}`)}` : ""}</p>
    ${running
      ? html`<dl class="op-facts">
          ${Object.entries(limits).map(([f, v]) => html`<div key=${f}><dt>${fieldLabel(f, entry.game)}</dt><dd data-testid=${`value-${f}`}>${v == null ? t("op.no_cap") : money(v)}</dd></div>`)}
          <div><dt>${t("op.theory")}</dt><dd data-testid="theory" data-theory=${entry.theoretical_return?.status}>${theoryText(entry)}</dd></div>
        </dl>`
      : html`<p class="muted">${entry.reason}</p>`}
    ${running
      ? html`<div class="op-actions">
          <button type="button" class=${closed ? "btn primary" : "btn"} disabled=${busy} onClick=${toggle} data-testid="toggle-status">${t(closed ? "op.reopen" : "op.close")}</button>
        </div>
        ${closed
          ? html`<p class="muted small">${t("op.closed_help")}</p>`
          : html`<details class="op-details"><summary data-testid="edit-limits">${t("op.change_limits")}</summary>
              <${LimitsForm} key=${`${entry.name}-${entry.version}`} entry=${entry} onChanged=${onChanged} /></details>
            ${Object.keys(entry.paytables || {}).length
              ? html`<details class="op-details"><summary data-testid="edit-paytables">${t("op.paytables")}</summary>
                  ${Object.entries(entry.paytables).map(([name, lines]) => html`<${PaytableForm} key=${`${name}-${entry.version}`} entry=${entry} name=${name} lines=${lines || {}} onChanged=${onChanged} />`)}
                </details>`
              : null}`}`
      : null}
  </article>`;
}

function NewTable({ onChanged }) {
  const [form, setForm] = useState({ name: "", title: "", game: "uth", min: centsText(100), max: centsText(100000) });
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState("");
  async function submit(e) {
    e.preventDefault();
    const found = {};
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(form.name)) found.name = t("op.err.name");
    const min = toCents(form.min);
    const max = toCents(form.max);
    if (!min || min <= 0) found.min = t("op.err.amount");
    if (!max || max <= 0) found.max = t("op.err.amount");
    else if (min && min > max) found.min = t("op.err.order", { other: fieldLabel("max_bet", form.game) });
    setErrors(found);
    setProblem("");
    if (Object.keys(found).length) return;
    const rules = form.game === "holdem" ? { min_buy_in: min, max_buy_in: max } : { ante_min: min, ante_max: max };
    if (form.game === "uth") rules.max_seats = 6;
    try {
      await api("/api/operator/tables", { method: "POST", body: { name: form.name, title: form.title || form.name, game: form.game, rules } });
      announce(t("op.opened", { table: form.title || form.name }));
      setForm({ ...form, name: "", title: "" });
      onChanged();
    } catch (err) {
      setProblem(wordError(err));
    }
  }
  const set = (k) => (v) => setForm({ ...form, [k]: v });
  return html`<form class="op-block op-form" onSubmit=${submit} data-testid="new-table" novalidate>
    <h2>${t("op.new_table")}</h2>
    <div class="op-fields">
      <label class="op-field" for="nt-name"><span>${t("op.table_name")}</span>
        <input id="nt-name" value=${form.name} onInput=${(e) => set("name")(e.target.value)} data-testid="nt-name" aria-invalid=${errors.name ? "true" : null} aria-describedby="nt-name-help" />
        <span class=${errors.name ? "field-error" : "muted small"} id="nt-name-help" role=${errors.name ? "alert" : null}>${errors.name || t("op.name_rule")}</span></label>
      <label class="op-field" for="nt-title"><span>${t("op.table_title")}</span>
        <input id="nt-title" value=${form.title} onInput=${(e) => set("title")(e.target.value)} data-testid="nt-title" /></label>
      <label class="op-field" for="nt-game"><span>${t("op.game")}</span>
        <select id="nt-game" value=${form.game} onChange=${(e) => set("game")(e.target.value)} data-testid="nt-game">
          ${GAMES.map((g) => html`<option key=${g} value=${g}>${t(`game.${g}`)}</option>`)}
        </select></label>
      <${Field} id="nt-min" label=${fieldLabel("min_bet", form.game)} value=${form.min} onInput=${set("min")} error=${errors.min} testid="nt-min" />
      <${Field} id="nt-max" label=${fieldLabel("max_bet", form.game)} value=${form.max} onInput=${set("max")} error=${errors.max} testid="nt-max" />
    </div>
    <p class="form-error" role="alert" data-testid="new-table-error">${problem}</p>
    <button class="btn primary" type="submit" data-testid="nt-submit">${t("op.open_table")}</button>
  </form>`;
}

export function OpTables() {
  const [tables, setTables] = useState(null);
  const [error, setError] = useState("");
  async function load() {
    try {
      setTables(await api("/api/operator/tables"));
      setError("");
    } catch (err) {
      setError(wordError(err));
    }
  }
  useEffect(() => {
    load();
    // A new Blind pay table's exact return is computed in the background: look again.
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);
  return html`<div data-testid="op-tables">
    <p class="form-error" role="alert">${error}</p>
    ${tables === null ? html`<p class="loading">${t("loading")}</p>` : null}
    <div class="op-grid">${(tables || []).map((entry) => html`<${TableCard} key=${entry.name} entry=${entry} onChanged=${load} />`)}</div>
    <${NewTable} onChanged=${load} />
  </div>`;
}
