// The live return monitor (issue 30): the alerts still open, each with its investigation (a
// note and what was found), every monitored stream (a table, its stake bands and channels, a
// node) with its return against theory and how near each side is to an alarm, the alerts
// closed, and the last check of the installation. The banner every console page shows while
// an alert is open lives here too.

import { api } from "./api.js";
import { wordError } from "./errors.js";
import { dateTime, localeTag, money, t } from "./i18n.js";
import { pct } from "./op-tables.js";
import { html, useEffect, useState } from "./ui.js";

const OUTCOMES = ["in_progress", "no_fault", "fault_found", "inconclusive"];

/** A level or an evidence ratio in the page's language: whole above 100 (6,311,520), three
 * significant digits below (0.0812). */
export function figure(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return "—";
  const style = Math.abs(n) >= 100 ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 };
  return new Intl.NumberFormat(localeTag(), style).format(n);
}

/** The number of open alerts, asked every `every` ms while mounted. */
export function useOpenAlerts(every = 30_000) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    let stop = false;
    const ask = () =>
      api("/api/operator/alerts?status=open&limit=500")
        .then((r) => !stop && setCount(r.alerts.length))
        .catch(() => {});
    ask();
    const id = setInterval(ask, every);
    return () => {
      stop = true;
      clearInterval(id);
    };
  }, [every]);
  return count;
}

/** "2 return alerts open: investigate" above every section while any is open. */
export function AlertBanner() {
  const count = useOpenAlerts();
  if (!count) return null;
  return html`<div class="notice op-alert" role="alert" data-testid="alert-banner" data-count=${count}>
    <strong>${t("op.alert.banner", { n: count })}</strong>
    <a href="#/operator/monitor" class="btn small">${t("op.alert.investigate")}</a>
  </div>`;
}

function streamName(kind, label, table) {
  if (kind === "table") return t("op.stream.table", { table });
  if (kind === "band") return t("op.stream.band", { table, band: label });
  if (kind === "channel") return t("op.stream.channel", { table, channel: t(`op.channel.${label}`) });
  return t("op.stream.node", { node: label });
}

function Investigate({ alert, onDone }) {
  const [outcome, setOutcome] = useState("in_progress");
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const id = `note-${alert.id}`;
  async function send(event) {
    event.preventDefault();
    if (!note.trim()) return setError(t("op.alert.note_needed"));
    try {
      await api(`/api/operator/alerts/${alert.id}/investigation`, { method: "POST", body: { outcome, note } });
      setNote("");
      setError("");
      onDone();
    } catch (err) {
      setError(wordError(err));
    }
  }
  return html`<form class="op-form" onSubmit=${send} data-testid="investigate">
    <label class="op-field wide" for=${id}><span>${t("op.alert.note")}</span>
      <textarea id=${id} rows="2" maxlength="2000" value=${note} onInput=${(e) => setNote(e.target.value)} data-testid="note"></textarea></label>
    <div class="op-inline">
      <label class="op-field" for=${`${id}-outcome`}><span>${t("op.alert.outcome")}</span>
        <select id=${`${id}-outcome`} value=${outcome} onChange=${(e) => setOutcome(e.target.value)} data-testid="outcome">
          ${OUTCOMES.map((o) => html`<option key=${o} value=${o}>${t(`op.outcome.${o}`)}</option>`)}
        </select></label>
      <button type="submit" class="btn small primary" data-testid="record">${t("op.alert.record")}</button>
    </div>
    <p class="form-error" role="alert">${error}</p>
  </form>`;
}

function Notes({ notes }) {
  if (!notes.length) return null;
  return html`<ol class="op-notes">${notes.map((n, i) => html`<li key=${i}><span class="muted">${dateTime(n.at)} · ${n.by} · ${t(`op.outcome.${n.outcome}`)}</span> ${n.note}</li>`)}</ol>`;
}

function AlertCard({ alert, onDone }) {
  const side = t(`op.alert.side.${alert.side}`);
  return html`<article class="op-card op-alert-card" data-testid="alert" data-id=${alert.id} data-side=${alert.side} data-status=${alert.status}>
    <div class="op-card-head"><h3>${streamName(alert.kind, alert.label, alert.table)}</h3>
      <span class=${`badge ${alert.status === "open" ? "closed" : "open"}`}>${alert.status === "open" ? side : t(`op.outcome.${alert.outcome}`)}</span></div>
    <p>${t("op.alert.what", { rounds: alert.rounds, actual: pct(alert.actual_return), theory: pct(alert.theoretical_return), base: money(alert.base), evidence: figure(alert.evidence), level: figure(alert.threshold) })}</p>
    <p class="muted small">${t("op.alert.when", { at: dateTime(alert.raised_at), round: alert.round_id })}</p>
    ${alert.crossings > 1 ? html`<p class="small" data-testid="crossings">${t("op.alert.crossings", { n: alert.crossings - 1 })}</p>` : null}
    <${Notes} notes=${alert.notes} />
    ${alert.status === "open" ? html`<${Investigate} alert=${alert} onDone=${onDone} />` : null}
  </article>`;
}

function Near({ value, level, side }) {
  const ratio = Math.max(0, Math.min(1, value / level));
  const label = t("op.stream.near", { side: t(`op.alert.side.${side}`), pct: Math.round(ratio * 100) });
  return html`<meter min="0" max="1" low="0.5" high="0.8" optimum="0" value=${ratio} aria-label=${label} title=${label}></meter>`;
}

function Streams({ streams, level }) {
  if (!streams.length) return html`<p class="muted">${t("op.stream.none")}</p>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.stream.title")}><table class="op-table" data-testid="streams">
    <caption class="sr-only">${t("op.stream.title")}</caption>
    <thead><tr>${["stream", "rounds", "actual", "expected", "high", "low"].map((c) => html`<th scope="col" key=${c}>${t(`op.stream.col.${c}`)}</th>`)}</tr></thead>
    <tbody>${streams.map((s) => html`<tr key=${s.key} data-key=${s.key}>
      <th scope="row">${streamName(s.kind, s.label, s.table)}</th><td>${s.rounds}</td>
      <td>${pct(s.actual_return)}</td><td>${pct(s.theoretical_return)}</td>
      <td><${Near} value=${s.evidence.high} level=${level} side="high" /></td>
      <td><${Near} value=${s.evidence.low} level=${level} side="low" /></td></tr>`)}</tbody>
  </table></div>`;
}

function Integrity({ state }) {
  if (!state || !state.checked) return html`<p class="muted" data-testid="integrity" data-ok="unknown">${t("op.integrity.off")}</p>`;
  return html`<p class=${state.ok ? "good" : "bad"} data-testid="integrity" data-ok=${String(state.ok)}>
    ${state.ok ? t("op.integrity.ok", { at: dateTime(state.checked_at) }) : t("op.integrity.bad", { at: dateTime(state.checked_at), what: state.summary })}</p>`;
}

function MonitorState({ state }) {
  if (!state) return null;
  const key = state.mode === "thread" ? "op.monitor.thread"
    : state.alive ? "op.monitor.process"
    : state.starts ? "op.monitor.down" : "op.monitor.idle";
  const waiting = Object.entries(state.waiting || {});
  return html`<p class=${state.alive || !state.starts ? "muted small" : "bad"} data-testid="monitor-process"
    data-mode=${state.mode} data-alive=${String(state.alive)} data-crashes=${state.crashes}>
    ${t(key, { pid: state.pid, starts: state.starts, crashes: state.crashes, rounds: state.rounds })}
    ${state.last_crash ? html` ${t("op.monitor.crash", { what: state.last_crash })}` : null}
    ${waiting.map(([table, why]) => html` ${t("op.monitor.waiting", { table, why })}`)}</p>`;
}

export function OpMonitor() {
  const [open, setOpen] = useState(null);
  const [closed, setClosed] = useState([]);
  const [monitor, setMonitor] = useState(null);
  const [integrity, setIntegrity] = useState(null);
  const [error, setError] = useState("");
  async function load() {
    try {
      const [o, all, m, i] = await Promise.all([
        api("/api/operator/alerts?status=open"),
        api("/api/operator/alerts?status=closed&limit=20"),
        api("/api/operator/monitor"),
        api("/api/operator/integrity"),
      ]);
      setOpen(o.alerts);
      setClosed(all.alerts);
      setMonitor(m);
      setIntegrity(i);
      setError("");
    } catch (err) {
      setError(wordError(err));
    }
  }
  useEffect(() => {
    load();
  }, []);
  const design = monitor && monitor.design;
  return html`<section class="op-block" data-testid="op-monitor">
    <h2>${t("op.monitor.title")}</h2>
    <p class="form-error" role="alert">${error}</p>
    <${Integrity} state=${integrity} />
    <h3>${t("op.alert.open")}</h3>
    ${open === null ? html`<p class="loading">${t("loading")}</p>`
      : open.length ? html`<div class="op-grid" data-testid="open-alerts">${open.map((a) => html`<${AlertCard} key=${a.id} alert=${a} onDone=${load} />`)}</div>`
      : html`<p class="good" data-testid="no-alerts">${t("op.alert.none")}</p>`}
    <h3>${t("op.stream.title")}</h3>
    ${monitor ? html`<${Streams} streams=${monitor.streams} level=${design.level} />` : null}
    <${MonitorState} state=${monitor && monitor.process} />
    ${design ? html`<p class="muted small" data-testid="design">${t("op.monitor.design", { rate: figure(design.false_alarms_per_table_year), one: design.false_alarms_per_table_year === 1, perhour: figure(design.rounds_per_hour), level: figure(design.level) })}</p>` : null}
    ${closed.length ? html`<h3>${t("op.alert.closed")}</h3><div class="op-grid" data-testid="closed-alerts">${closed.map((a) => html`<${AlertCard} key=${a.id} alert=${a} onDone=${load} />`)}</div>` : null}
  </section>`;
}
