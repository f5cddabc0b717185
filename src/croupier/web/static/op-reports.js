// The operator's reports: the daily report per table (GET /api/operator/reports/daily: rounds,
// players, wagered, paid, GGR, hold, actual return against theory with its 95 % interval; CSV
// as the server writes it), plots over the last days, the totals since the tables opened with
// the actual return converging on the theoretical one, and the ledger check.

import { api, ApiError } from "./api.js";
import { wordError } from "./errors.js";
import { money, t } from "./i18n.js";
import { pct } from "./op-tables.js";
import { LinePlot } from "./plot.js";
import { token } from "./store.js";
import { html, useEffect, useState } from "./ui.js";

const DAY_MS = 86_400_000;

/** A plot's drawing width: narrower on a phone, so its labels stay readable. */
function plotWidth() {
  return window.matchMedia && window.matchMedia("(max-width: 700px)").matches ? 380 : 720;
}

/** "YYYY-MM-DD" of today in UTC, or `days` before it. */
export function utcDay(daysBefore = 0, now = Date.now()) {
  return new Date(now - daysBefore * DAY_MS).toISOString().slice(0, 10);
}

function ReturnCell({ ret }) {
  if (!ret) return html`<td data-label=${t("op.col.actual")}>—</td>`;
  const [lo, hi] = ret.interval || [];
  const inside = lo == null || ret.actual == null ? null : ret.actual >= lo && ret.actual <= hi;
  return html`<td data-label=${t("op.col.actual")} class=${inside === false ? "bad" : ""} data-testid="actual">${pct(ret.actual)}${inside === false ? html` <span class="sr-only">${t("op.report.outside")}</span>` : ""}</td>`;
}

function DailyTable({ report }) {
  if (!report.tables.length) return html`<p class="muted" data-testid="daily-empty">${t("op.report.none")}</p>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.report.daily", { date: report.date })}><table class="op-table stack" data-testid="daily-table">
    <caption class="sr-only">${t("op.report.daily", { date: report.date })}</caption>
    <thead><tr>${["table", "rounds", "voided", "players", "wagered", "paid", "ggr", "hold", "actual", "theoretical"].map((c) => html`<th scope="col" key=${c}>${t(`op.col.${c}`)}</th>`)}</tr></thead>
    <tbody>${report.tables.map((row) => {
      const ret = row.return;
      const theory = ret && ret.theoretical != null
        ? `${pct(ret.theoretical)}${ret.interval ? ` (${pct(ret.interval[0])}–${pct(ret.interval[1])})` : ""}`
        : row.theory.rake_only ? t("op.report.rake_only") : t(`op.theory.${row.theory.status}`);
      const L = (c) => t(`op.col.${c}`);
      return html`<tr key=${row.table} data-key=${row.table}>
        <th scope="row" data-label=${L("table")}>${row.table}</th><td data-label=${L("rounds")} data-testid="rounds">${row.rounds}</td><td data-label=${L("voided")}>${row.voided}</td><td data-label=${L("players")}>${row.players}</td>
        <td data-label=${L("wagered")} data-testid="wagered">${money(row.wagered)}</td><td data-label=${L("paid")}>${money(row.paid)}</td>
        <td data-label=${L("ggr")} class=${row.ggr >= 0 ? "good" : "bad"} data-testid="ggr">${money(row.ggr)}</td><td data-label=${L("hold")}>${pct(row.hold)}</td>
        <${ReturnCell} ret=${ret} /><td data-label=${L("theoretical")}>${theory}</td></tr>`;
    })}</tbody>
  </table></div>`;
}

async function downloadCsv(date) {
  const response = await fetch(`/api/operator/reports/daily?date=${date}&format=csv`, { headers: { Authorization: `Bearer ${token()}` } });
  if (!response.ok) throw new ApiError(response.status, `http_${response.status}`, response.statusText);
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = `daily-${date}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Daily() {
  const [date, setDate] = useState(utcDay());
  const [report, setReport] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let stop = false;
    api(`/api/operator/reports/daily?date=${date}`)
      .then((r) => !stop && (setReport(r), setError("")))
      .catch((err) => !stop && setError(wordError(err)));
    return () => (stop = true);
  }, [date]);
  return html`<section class="op-block" data-testid="daily">
    <h2>${t("op.report.title")}</h2>
    <div class="op-inline">
      <label class="op-field" for="daily-date"><span>${t("op.report.date")}</span>
        <input id="daily-date" type="date" value=${date} max=${utcDay()} onChange=${(e) => e.target.value && setDate(e.target.value)} data-testid="daily-date" /></label>
      <button type="button" class="btn small" onClick=${() => downloadCsv(date).catch((err) => setError(wordError(err)))} data-testid="daily-csv">${t("op.report.csv")}</button>
    </div>
    <p class="form-error" role="alert">${error}</p>
    ${report ? html`<${DailyTable} report=${report} />` : html`<p class="loading">${t("loading")}</p>`}
    <p class="muted small">${t("op.report.explain")}</p>
  </section>`;
}

function OverDays() {
  const [days, setDays] = useState(14);
  const [reports, setReports] = useState(null);
  const [table, setTable] = useState("");
  const [error, setError] = useState("");
  useEffect(() => {
    let stop = false;
    const dates = Array.from({ length: days }, (_, i) => utcDay(days - 1 - i));
    Promise.all(dates.map((d) => api(`/api/operator/reports/daily?date=${d}`)))
      .then((list) => !stop && setReports(list))
      .catch((err) => !stop && setError(wordError(err)));
    return () => (stop = true);
  }, [days]);
  if (error) return html`<section class="op-block"><p class="form-error" role="alert">${error}</p></section>`;
  if (!reports) return html`<section class="op-block"><p class="loading">${t("loading")}</p></section>`;
  const names = [...new Set(reports.flatMap((r) => r.tables.map((row) => row.table)))].sort();
  const chosen = names.includes(table) ? table : names[0] || "";
  const xs = reports.map((r) => r.date.slice(5));
  const rows = reports.map((r) => r.tables.find((row) => row.table === chosen) || null);
  const ggr = rows.map((row) => (row ? row.ggr / 100 : null));
  const actual = rows.map((row) => (row && row.return ? row.return.actual : null));
  const band = rows.map((row) => (row && row.return && row.return.interval ? row.return.interval : null));
  const theory = rows.map((row) => (row && row.return ? row.return.theoretical : null)).find((v) => v != null) ?? null;
  return html`<section class="op-block" data-testid="over-days">
    <h2>${t("op.report.over_days")}</h2>
    <div class="op-inline">
      <label class="op-field" for="days-n"><span>${t("op.report.days")}</span>
        <select id="days-n" value=${days} onChange=${(e) => setDays(Number(e.target.value))} data-testid="days-n">
          ${[7, 14, 30].map((n) => html`<option key=${n} value=${n}>${n}</option>`)}</select></label>
      ${names.length
        ? html`<label class="op-field" for="days-table"><span>${t("op.col.table")}</span>
            <select id="days-table" value=${chosen} onChange=${(e) => setTable(e.target.value)} data-testid="days-table">
              ${names.map((n) => html`<option key=${n} value=${n}>${n}</option>`)}</select></label>`
        : null}
    </div>
    ${names.length
      ? html`<div class="plot-grid">
          <div><h3>${t("op.report.ggr_by_day", { table: chosen })}</h3>
          <${LinePlot} xs=${xs} series=${[{ name: t("op.col.ggr"), cls: "ggr", values: ggr }]} format=${(v) => money(Math.round(v * 100))}
            label=${t("op.report.ggr_by_day", { table: chosen })} testid="plot-ggr" width=${plotWidth()} /></div>
          <div><h3>${t("op.report.return_by_day", { table: chosen })}</h3>
          <${LinePlot} xs=${xs} series=${[{ name: t("op.col.actual"), cls: "actual", values: actual }]} band=${band} reference=${theory}
            format=${(v) => pct(v, 1)} label=${t("op.report.return_by_day", { table: chosen })} testid="plot-return" width=${plotWidth()} /></div>
          </div>
          <p class="muted small">${t("op.report.plot_legend")}</p>`
      : html`<p class="muted" data-testid="days-empty">${t("op.report.none_days", { n: days })}</p>`}
  </section>`;
}

function Totals() {
  const [stats, setStats] = useState(null);
  const [ledger, setLedger] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api("/api/operator/stats").then(setStats).catch((err) => setError(wordError(err)));
    api("/api/operator/ledger").then(setLedger).catch((err) => setError(wordError(err)));
  }, []);
  const table = (rows, testid, title, first) => html`<div class="table-scroll" tabindex="0" role="region" aria-label=${title}><table class="op-table stack" data-testid=${testid}>
    <caption class="op-caption">${title}</caption>
    <thead><tr>${[first, "rounds", "voided", "wagered", "ggr", "actual", "theoretical"].map((c) => html`<th scope="col" key=${c}>${t(`op.col.${c}`)}</th>`)}</tr></thead>
    <tbody>${rows.map((g) => html`<tr key=${g.key} data-key=${g.key}><th scope="row" data-label=${t(`op.col.${first}`)}>${first === "game" ? t(`game.${g.key}`) : g.key}</th><td data-label=${t("op.col.rounds")} data-testid="rounds">${g.rounds}</td><td data-label=${t("op.col.voided")}>${g.voided}</td>
      <td data-label=${t("op.col.wagered")}>${money(g.wagered)}</td><td data-label=${t("op.col.ggr")} class=${g.ggr >= 0 ? "good" : "bad"}>${money(g.ggr)}</td><td data-label=${t("op.col.actual")}>${pct(g.actual)}</td><td data-label=${t("op.col.theoretical")}>${pct(g.theoretical)}</td></tr>`)}</tbody>
  </table></div>`;
  return html`<section class="op-block" data-testid="totals">
    <h2>${t("op.report.totals")}</h2>
    <p class="form-error" role="alert">${error}</p>
    <div data-testid="ledger">${ledger
      ? html`<p class="good">${t("op.ledger.balanced")}</p><ul class="ledger-row">${Object.entries(ledger).map(([k, v]) => html`<li key=${k} class="pill">${t(`op.ledger.${k}`)}: ${money(v)}</li>`)}</ul>`
      : null}</div>
    ${stats
      ? html`${table(stats.games, "stats-games", t("op.report.per_game"), "game")}${table(stats.tables, "stats-tables", t("op.report.per_table"), "table")}
          <div class="plot-grid">${stats.games.map((g) => html`<div key=${g.key}><h3>${t("op.report.converging", { game: t(`game.${g.key}`) })}</h3>
            <${LinePlot} xs=${(g.series || []).map((p) => String(p[0]))} series=${[{ name: t("op.col.actual"), cls: "actual", values: (g.series || []).map((p) => p[1]) }]}
              reference=${g.theoretical} format=${(v) => pct(v, 1)} label=${t("op.report.converging", { game: t(`game.${g.key}`) })} testid="convergence-plot" width=${plotWidth()} /></div>`)}</div>`
      : html`<p class="loading">${t("loading")}</p>`}
  </section>`;
}

export function OpReports() {
  return html`<div data-testid="op-reports"><${Daily} /><${OverDays} /><${Totals} /></div>`;
}
