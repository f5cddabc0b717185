// The audit log (GET /api/operator/audit, newest first, page by page) with the chain check
// (GET /api/operator/audit/verify), and the RNG audit over the shuffles the server dealt
// (GET /api/operator/reports/rng, the battery of docs/rng-audit.md).

import { api } from "./api.js";
import { wordError } from "./errors.js";
import { dateTime, has, money, number, t } from "./i18n.js";
import { html, useEffect, useState } from "./ui.js";

// Keys of audit details that hold money (minor units): said in euros.
const MONEY_KEYS = new Set(["amount", "balance", "stake", "staked", "returned", "paid", "limit", "ante", "trips", "bonus", "play", "min_bet", "max_bet", "max_payout", "min_buy_in", "max_buy_in", "small_blind", "big_blind"]);

function isMoney(key) {
  return MONEY_KEYS.has(key) || key.endsWith("_min") || key.endsWith("_max") || key.endsWith("_amount");
}

function keyWord(key) {
  return has(`op.audit.key.${key}`) ? t(`op.audit.key.${key}`) : key.replace(/_/g, " ");
}

/** One detail's value in words: money in euros, a change as "from → to", lists joined. */
function valueWords(key, value) {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return t(value ? "op.audit.yes" : "op.audit.no");
  if (typeof value === "number") return isMoney(key) ? money(value) : number(value);
  if (Array.isArray(value)) return value.map((v) => valueWords(key, v)).join(", ");
  if (typeof value === "object") {
    if ("from" in value && "to" in value) return `${valueWords(key, value.from)} → ${valueWords(key, value.to)}`;
    return Object.entries(value).map(([k, v]) => `${keyWord(k)}: ${valueWords(k, v)}`).join("; ");
  }
  return String(value);
}

/** An RNG test's name in the page's language (the server names them in English). */
export function rngName(name) {
  const lag = /^serial correlation, lag (\d+)$/.exec(name);
  if (lag) return t("op.rng.name.serial", { lag: lag[1] });
  const key = `op.rng.name.${name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}`;
  return has(key) ? t(key) : name;
}

/** An entry's details as words (never raw JSON in cents): "amount: €50.00 · reason: ...". */
export function detailWords(details) {
  const text = Object.entries(details || {}).map(([k, v]) => `${keyWord(k)}: ${valueWords(k, v)}`).join(" · ");
  return text.length > 320 ? `${text.slice(0, 317)}…` : text;
}

export function OpAudit() {
  const [pages, setPages] = useState([]);
  const [next, setNext] = useState(undefined);
  const [check, setCheck] = useState(null);
  const [error, setError] = useState("");
  async function load(before) {
    try {
      const page = await api(`/api/operator/audit?limit=50${before ? `&before=${before}` : ""}`);
      setPages((old) => (before ? [...old, ...page.entries] : page.entries));
      setNext(page.next);
    } catch (err) {
      setError(wordError(err));
    }
  }
  useEffect(() => {
    load(null);
  }, []);
  async function verify() {
    setCheck(null);
    try {
      setCheck(await api("/api/operator/audit/verify"));
    } catch (err) {
      setError(wordError(err));
    }
  }
  return html`<section class="op-block" data-testid="op-audit">
    <h2>${t("op.audit.title")}</h2>
    <div class="op-actions">
      <button type="button" class="btn" onClick=${verify} data-testid="audit-verify">${t("op.audit.verify")}</button>
    </div>
    ${check
      ? html`<p class=${check.ok ? "good" : "bad"} role="status" data-testid="audit-check" data-ok=${String(check.ok)}>${check.ok
          ? t("op.audit.ok", { n: check.entries, head: (check.head || "").slice(0, 16) })
          : t("op.audit.broken", { seq: check.broken.seq, why: check.broken.reason })}</p>`
      : null}
    <p class="form-error" role="alert">${error}</p>
    <div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.audit.title")}><table class="op-table audit stack" data-testid="audit-entries">
      <caption class="sr-only">${t("op.audit.title")}</caption>
      <thead><tr>${["seq", "at", "actor", "action", "subject", "details"].map((c) => html`<th scope="col" key=${c}>${t(`op.audit.${c}`)}</th>`)}</tr></thead>
      <tbody>${pages.map((e) => html`<tr key=${e.seq} data-action=${e.action}><td data-label=${t("op.audit.seq")}>${e.seq}</td><td data-label=${t("op.audit.at")}>${dateTime(e.at)}</td><td data-label=${t("op.audit.actor")}>${e.actor}</td>
        <td data-label=${t("op.audit.action")}>${has(`op.audit.action.${e.action}`) ? t(`op.audit.action.${e.action}`) : e.action}</td><td data-label=${t("op.audit.subject")}>${e.subject}</td><td class="details" data-label=${t("op.audit.details")} data-testid="audit-details">${detailWords(e.details)}</td></tr>`)}</tbody>
    </table></div>
    ${next ? html`<button type="button" class="btn small" onClick=${() => load(next)} data-testid="audit-older">${t("op.audit.older")}</button>` : null}
  </section>`;
}

export function OpRng() {
  const [report, setReport] = useState(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function run() {
    setBusy(true);
    setError("");
    try {
      setReport(await api("/api/operator/reports/rng"));
    } catch (err) {
      setError(wordError(err));
    } finally {
      setBusy(false);
    }
  }
  const verdict = report ? (report.passed === null ? "none" : report.passed ? "pass" : "fail") : null;
  return html`<section class="op-block" data-testid="op-rng">
    <h2>${t("op.rng.title")}</h2>
    <p class="muted">${t("op.rng.explain")}</p>
    <button type="button" class="btn primary" onClick=${run} disabled=${busy} data-testid="rng-run">${t("op.rng.run")}</button>
    <p class="form-error" role="alert">${error}</p>
    ${report
      ? html`<p class=${verdict === "fail" ? "bad" : verdict === "pass" ? "good" : "muted"} role="status" data-testid="rng-verdict" data-verdict=${verdict}>
            ${t(`op.rng.${verdict}`, { decks: report.decks, rate: number(report.false_alarm_rate * 100, 1) })}</p>
          <div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.rng.title")}><table class="op-table stack" data-testid="rng-tests">
            <caption class="sr-only">${t("op.rng.title")}</caption>
            <thead><tr>${["test", "statistic", "df", "p", "result"].map((c) => html`<th scope="col" key=${c}>${t(`op.rng.${c}`)}</th>`)}</tr></thead>
            <tbody>${report.tests.map((x) => html`<tr key=${x.name}><th scope="row" data-label=${t("op.rng.test")}>${rngName(x.name)}</th><td data-label=${t("op.rng.statistic")}>${x.statistic == null ? "—" : number(x.statistic, 3)}</td>
              <td data-label=${t("op.rng.df")}>${x.df ?? "—"}</td><td data-label=${t("op.rng.p")}>${x.p_value == null ? "—" : number(x.p_value, 4)}</td>
              <td data-label=${t("op.rng.result")} class=${x.passed === false ? "bad" : x.passed ? "good" : "muted"}>${t(x.passed === null ? "op.rng.na" : x.passed ? "op.rng.ok" : "op.rng.failed")}</td></tr>`)}</tbody>
          </table></div>`
      : null}
  </section>`;
}
