// The operator's tables (docs/protocol.md "Tables at run time"): every table with its limits,
// pay tables, status and theoretical return; forms that change them (checked here first, then
// by the server, whose refusal is worded too); a form that opens a new table. Amounts are
// typed and shown in euros in the page's language; on the wire they are cents. What each game
// has -- its table settings with their kinds, bounds and defaults, its pay tables' odds, the
// words of its theoretical return -- is its descriptor (GET /api/games): no game is named here.

import { api } from "./api.js";
import { wordError } from "./errors.js";
import { centsText, has, localeTag, money, t, toCents } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { html, useEffect, useState } from "./ui.js";

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

/** What the theoretical return of a table reads (docs/protocol.md): the figures in the words
 * its game's descriptor names (`theory.text`), else the return alone. */
export function theoryText(entry, game) {
  const th = entry.theoretical_return || {};
  if (th.status === "computing") return t("op.theory.computing");
  if (th.status === "unavailable") return t("op.theory.unavailable");
  if (th.method === "rake") {
    const r = th.rake || {};
    return r.cap == null ? t("op.theory.rake", { percent: r.percent }) : t("op.theory.rake_cap", { percent: r.percent, cap: money(r.cap) });
  }
  if (th.return == null) return "—";
  // an exact figure to 4 decimals, an analysed one (with its interval) to 3
  const digits = th.interval ? 3 : 4;
  const [lo, hi] = th.interval || [];
  const figures = { ret: pct(th.return, digits), trips: pct(th.trips_return, 4), risk: pct(th.element_of_risk, 3), lo: pct(lo, 3), hi: pct(hi, 3) };
  const text = game && game.theory && game.theory.text;
  return text && has(text) ? t(text, figures) : figures.ret;
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

/** Pay-table lines checked as the game's descriptor says: odds "n:d" or "n" (`whole_odds`
 * false; empty removes a line when `lines_removable`), else whole numbers to 1. */
export function checkLines(game, current, texts) {
  const errors = {};
  const body = {};
  const whole = !game || game.whole_odds !== false;
  for (const [line, text] of Object.entries(texts)) {
    const typed = String(text ?? "").trim();
    if (!whole) {
      if (typed === "" && game.lines_removable) {
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

function PaytableForm({ entry, game, name, lines, onChanged }) {
  const [texts, setTexts] = useState(() => Object.fromEntries(Object.entries(lines).map(([l, v]) => [l, String(v)])));
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState("");
  async function submit(e) {
    e.preventDefault();
    const { body, errors: found } = checkLines(game, lines, texts);
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

function TableCard({ entry, game, onChanged }) {
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
          <div><dt>${t("op.theory")}</dt><dd data-testid="theory" data-theory=${entry.theoretical_return?.status}>${theoryText(entry, game)}</dd></div>
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
                  ${Object.entries(entry.paytables).map(([name, lines]) => html`<${PaytableForm} key=${`${name}-${entry.version}`} entry=${entry} game=${game} name=${name} lines=${lines || {}} onChanged=${onChanged} />`)}
                </details>`
              : null}`}`
      : null}
  </article>`;
}

/** The operator's request word of a game's rule (`ante_min` -> `min_bet`), if it has one. */
function fieldOf(game, rule) {
  const found = Object.entries((game && game.limits) || {}).find(([, r]) => r === rule);
  return found ? found[0] : null;
}

/** A setting's label: the request word's (as the table cards say it), else the rule's own. */
export function settingLabel(game, setting) {
  const field = fieldOf(game, setting.name);
  if (field && has(`op.field.${field}`)) return fieldLabel(field, game.name);
  const own = game ? `op.rule.${setting.name}.${game.name}` : "";
  if (own && has(own)) return t(own);
  return has(`op.rule.${setting.name}`) ? t(`op.rule.${setting.name}`) : setting.name;
}

/** What a setting's field starts with: its default, as typed. */
function typedDefault(setting) {
  if (setting.kind === "money") return setting.default == null ? "" : centsText(setting.default);
  if (setting.kind === "flag") return Boolean(setting.default);
  return setting.default == null ? "" : String(setting.default);
}

// The kinds a new table's form offers; a pay table or a table of multiples keeps the game's
// default there (its pay tables are changed on the table's card).
const FORM_KINDS = new Set(["money", "count", "percent", "flag", "choice"]);

/** The settings of `game` its new-table form offers. */
export function formSettings(game) {
  return ((game && game.settings) || []).filter((s) => FORM_KINDS.has(s.kind));
}

export function settingDefaults(game) {
  return Object.fromEntries(formSettings(game).map((s) => [s.name, typedDefault(s)]));
}

/**
 * A new table's rules checked against its game's settings (kinds, bounds, choices, a minimum
 * not above its maximum): `texts` (rule -> what was typed). Returns {rules, errors}: the rules
 * to send (money in cents; an emptied optional amount is null, "no cap") and rule -> an error.
 */
export function checkSettings(game, texts) {
  const rules = {};
  const errors = {};
  for (const s of formSettings(game)) {
    const typed = texts[s.name];
    if (s.kind === "flag") {
      rules[s.name] = Boolean(typed);
      continue;
    }
    if (s.kind === "choice") {
      if ((s.choices || []).includes(typed)) rules[s.name] = typed;
      else errors[s.name] = t("op.err.choice");
      continue;
    }
    const text = String(typed ?? "").trim();
    if (text === "" && s.optional) {
      if (s.default != null) rules[s.name] = null;
      continue;
    }
    if (s.kind === "percent") {
      // "2,5" or "2.5" per cent: sent as the number, or its decimal text when not whole
      const dotted = text.replace(",", ".");
      const value = /^\d{1,3}(\.\d{1,4})?$/.test(dotted) ? Number(dotted) : null;
      if (value === null || (s.min != null && value < s.min) || (s.max != null && value > s.max)) errors[s.name] = t("op.err.percent", { low: s.min, high: s.max });
      else rules[s.name] = Number.isInteger(value) ? value : dotted;
      continue;
    }
    const value = s.kind === "money" ? toCents(text) : /^\d{1,9}$/.test(text) ? Number(text) : null;
    const inside = value !== null && (s.min == null || value >= s.min) && (s.max == null || value <= s.max);
    if (!inside) errors[s.name] = s.kind === "money" ? t("op.err.amount") : t("op.err.count", { low: s.min, high: s.max });
    else rules[s.name] = value;
  }
  for (const s of formSettings(game)) {
    const high = s.at_most;
    if (high && !errors[s.name] && !errors[high] && rules[s.name] != null && rules[high] != null && rules[s.name] > rules[high]) {
      const other = (game.settings || []).find((x) => x.name === high);
      errors[s.name] = t("op.err.order", { other: other ? settingLabel(game, other) : high });
    }
  }
  return { rules, errors };
}

function SettingField({ game, setting, value, onInput, error }) {
  const field = fieldOf(game, setting.name);
  // the bet range keeps the test ids it always had
  const testid = field === "min_bet" ? "nt-min" : field === "max_bet" ? "nt-max" : `nt-${setting.name}`;
  const id = `nt-${setting.name}`;
  const label = settingLabel(game, setting);
  if (setting.kind === "flag") {
    return html`<label class="op-field op-check" for=${id}>
      <span>${label}</span>
      <input id=${id} type="checkbox" checked=${Boolean(value)} onChange=${(e) => onInput(e.target.checked)} data-testid=${testid} />
    </label>`;
  }
  if (setting.kind === "choice") {
    return html`<label class="op-field" for=${id}><span>${label}</span>
      <select id=${id} value=${value} onChange=${(e) => onInput(e.target.value)} data-testid=${testid}>
        ${(setting.choices || []).map((c) => html`<option key=${c} value=${c}>${has(`op.choice.${c}`) ? t(`op.choice.${c}`) : c}</option>`)}
      </select></label>`;
  }
  return html`<${Field} id=${id} label=${label} value=${value} onInput=${onInput} error=${error} testid=${testid}
    hint=${setting.optional ? t(has(`op.hint.${setting.name}`) ? `op.hint.${setting.name}` : "op.no_cap") : null} />`;
}

function NewTable({ games, onChanged }) {
  const names = Object.keys(games);
  const [form, setForm] = useState({ name: "", title: "", game: "" });
  const [texts, setTexts] = useState({});
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState("");
  const chosen = form.game || names[0] || "";
  const game = games[chosen];
  function choose(name) {
    setForm({ ...form, game: name });
    setTexts(settingDefaults(games[name]));
    setErrors({});
  }
  async function submit(e) {
    e.preventDefault();
    const { rules, errors: found } = checkSettings(game, { ...settingDefaults(game), ...texts });
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(form.name)) found.name = t("op.err.name");
    setErrors(found);
    setProblem("");
    if (Object.keys(found).length || !game) return;
    try {
      await api("/api/operator/tables", { method: "POST", body: { name: form.name, title: form.title || form.name, game: chosen, rules } });
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
      <label class="op-field op-game" for="nt-game"><span>${t("op.game")}</span>
        <select id="nt-game" value=${chosen} onChange=${(e) => choose(e.target.value)} data-testid="nt-game">
          ${names.map((g) => html`<option key=${g} value=${g}>${t(games[g].title)}</option>`)}
        </select></label>
    </div>
    <div class="op-fields" data-testid="nt-settings" data-game=${chosen}>
      ${formSettings(game).map((s) => html`<${SettingField} key=${`${chosen}-${s.name}`} game=${game} setting=${s}
        value=${texts[s.name] ?? typedDefault(s)} onInput=${(v) => setTexts({ ...texts, [s.name]: v })} error=${errors[s.name]} />`)}
    </div>
    <p class="form-error" role="alert" data-testid="new-table-error">${problem}</p>
    <button class="btn primary" type="submit" data-testid="nt-submit">${t("op.open_table")}</button>
  </form>`;
}

export function OpTables() {
  const [tables, setTables] = useState(null);
  const [games, setGames] = useState({});
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
    // what each game has (its settings, its pay tables' odds, its theory's words)
    api("/api/games")
      .then((described) => setGames(Object.fromEntries(described.map((g) => [g.name, g]))))
      .catch((err) => setError(wordError(err)));
    load();
    // A new Blind pay table's exact return is computed in the background: look again.
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);
  return html`<div data-testid="op-tables">
    <p class="form-error" role="alert">${error}</p>
    ${tables === null ? html`<p class="loading">${t("loading")}</p>` : null}
    <div class="op-grid">${(tables || []).map((entry) => html`<${TableCard} key=${entry.name} entry=${entry} game=${games[entry.game]} onChanged=${load} />`)}</div>
    ${Object.keys(games).length ? html`<${NewTable} games=${games} onChanged=${load} />` : null}
  </div>`;
}
