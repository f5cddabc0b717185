// The significant events (issue 30, GLI-19 §2.8.8): big wins, table, pay-table and limit
// changes, tables closed and opened, failed RNG audits, return alerts and their
// investigations, the server's starts and stops, clock steps, integrity checks. Each is an
// entry of the hash-chained audit log (GET /api/operator/events), filtered by kind, table and
// days, page by page, and downloaded as CSV with the same filters.

import { api, ApiError } from "./api.js";
import { wordError } from "./errors.js";
import { dateTime, money, t } from "./i18n.js";
import { pct } from "./op-tables.js";
import { token } from "./store.js";
import { html, useEffect, useState } from "./ui.js";

export const KINDS = [
  "big_win", "rtp_alert", "rtp_investigation", "integrity", "rng_audit_failed", "paytable_change",
  "limits_change", "table_change", "table_closed", "table_reopened", "server_start", "server_stop",
  "crash_recovery", "clock_step",
];

function changedFields(details) {
  return Object.keys(details.changed || {}).filter((f) => f !== "reason").join(", ");
}

/** What an event says, in a line of the page's language. */
export function summary(event) {
  const d = event.details || {};
  switch (event.kind) {
    case "big_win":
      return t("op.ev.big_win", { who: d.username, won: money(d.won), round: d.round_id, threshold: money(d.threshold) });
    case "rtp_alert":
      return t("op.ev.rtp_alert", { stream: d.label, side: t(`op.alert.side.${d.side}`), rounds: d.rounds, actual: pct(d.actual_return), theory: pct(d.theoretical_return) });
    case "rtp_investigation":
      return t("op.ev.rtp_investigation", { id: d.alert_id, outcome: t(`op.outcome.${d.outcome}`), note: d.note });
    case "integrity":
      return d.ok ? t("op.ev.integrity_ok") : t("op.ev.integrity_bad", { what: d.summary, closed: (d.closed || []).join(", ") || "—" });
    case "rng_audit_failed":
      return t("op.ev.rng_audit_failed", { tests: (d.failed || []).join(", "), decks: d.decks });
    case "paytable_change":
    case "limits_change":
    case "table_change":
      return t(`op.ev.${event.kind}`, { fields: changedFields(d) || t("op.ev.whole_table") });
    case "table_closed":
    case "table_reopened":
      return t(`op.ev.${event.kind}`, { why: (d.changed && d.changed.reason) || "" });
    case "server_start":
      return t("op.ev.server_start", { node: d.node, previous: t(`op.ev.previous.${d.previous_run}`) });
    case "server_stop":
      return t("op.ev.server_stop", { node: d.node, hours: ((d.uptime_seconds || 0) / 3600).toFixed(1) });
    case "crash_recovery":
      return t("op.ev.crash_recovery", { n: d.count });
    case "clock_step":
      return t("op.ev.clock_step", { step: Number(d.step_seconds).toFixed(1), node: d.node });
    default:
      return event.kind;
  }
}

function query(filters, extra = {}) {
  const p = new URLSearchParams();
  if (filters.kind) p.set("kind", filters.kind);
  if (filters.table) p.set("table", filters.table);
  if (filters.since) p.set("since", filters.since);
  if (filters.until) p.set("until", filters.until);
  for (const [k, v] of Object.entries(extra)) p.set(k, String(v));
  return p.toString();
}

async function downloadCsv(filters) {
  const response = await fetch(`/api/operator/events?${query(filters, { format: "csv", limit: 1000 })}`, { headers: { Authorization: `Bearer ${token()}` } });
  if (!response.ok) throw new ApiError(response.status, `http_${response.status}`, response.statusText);
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = "significant-events.csv";
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Filters({ initial, onApply, onCsv }) {
  const [f, setF] = useState(initial);
  const set = (name) => (e) => setF({ ...f, [name]: e.target.value });
  return html`<form class="op-inline" onSubmit=${(e) => (e.preventDefault(), onApply(f))} data-testid="event-filters">
    <label class="op-field" for="ev-kind"><span>${t("op.ev.kind")}</span>
      <select id="ev-kind" value=${f.kind} onChange=${set("kind")} data-testid="ev-kind">
        <option value="">${t("op.ev.all")}</option>
        ${KINDS.map((k) => html`<option key=${k} value=${k}>${t(`op.kind.${k}`)}</option>`)}
      </select></label>
    <label class="op-field" for="ev-table"><span>${t("op.col.table")}</span>
      <input id="ev-table" value=${f.table} onInput=${set("table")} maxlength="64" autocomplete="off" data-testid="ev-table" /></label>
    <label class="op-field" for="ev-since"><span>${t("op.ev.since")}</span>
      <input id="ev-since" type="date" value=${f.since} onChange=${set("since")} data-testid="ev-since" /></label>
    <label class="op-field" for="ev-until"><span>${t("op.ev.until")}</span>
      <input id="ev-until" type="date" value=${f.until} onChange=${set("until")} data-testid="ev-until" /></label>
    <div class="op-actions">
      <button type="submit" class="btn small primary" data-testid="ev-apply">${t("op.ev.apply")}</button>
      <button type="button" class="btn small" onClick=${() => onCsv(f)} data-testid="ev-csv">${t("op.report.csv")}</button>
    </div>
  </form>`;
}

export function OpEvents() {
  const [filters, setFilters] = useState({ kind: "", table: "", since: "", until: "" });
  const [events, setEvents] = useState(null);
  const [next, setNext] = useState(null);
  const [error, setError] = useState("");
  async function load(f, before) {
    try {
      const page = await api(`/api/operator/events?${query(f, before ? { before, limit: 50 } : { limit: 50 })}`);
      setEvents((old) => (before ? [...(old || []), ...page.events] : page.events));
      setNext(page.next);
      setError("");
    } catch (err) {
      setError(wordError(err));
    }
  }
  useEffect(() => {
    load(filters, null);
  }, [filters]);
  return html`<section class="op-block" data-testid="op-events">
    <h2>${t("op.ev.title")}</h2>
    <p class="muted small">${t("op.ev.explain")}</p>
    <${Filters} initial=${filters} onApply=${setFilters} onCsv=${(f) => downloadCsv(f).catch((err) => setError(wordError(err)))} />
    <p class="form-error" role="alert">${error}</p>
    ${events === null ? html`<p class="loading">${t("loading")}</p>`
      : !events.length ? html`<p class="muted" data-testid="events-empty">${t("op.ev.none")}</p>`
      : html`<div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.ev.title")}><table class="op-table audit events" data-testid="events">
        <caption class="sr-only">${t("op.ev.title")}</caption>
        <thead><tr>${["at", "kind", "table", "actor", "what"].map((c) => html`<th scope="col" key=${c}>${t(`op.ev.col.${c}`)}</th>`)}</tr></thead>
        <tbody>${events.map((e) => html`<tr key=${e.seq} data-kind=${e.kind} data-seq=${e.seq}>
          <td>${dateTime(e.at)}</td><td>${t(`op.kind.${e.kind}`)}</td><td>${e.table || e.subject}</td><td>${e.actor}</td><td class="what">${summary(e)}</td></tr>`)}</tbody>
      </table></div>`}
    ${next ? html`<button type="button" class="btn small" onClick=${() => load(filters, next)} data-testid="events-older">${t("op.audit.older")}</button>` : null}
  </section>`;
}
