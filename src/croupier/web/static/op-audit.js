// The audit log (GET /api/operator/audit, newest first, page by page) with the chain check
// (GET /api/operator/audit/verify), and the RNG audit over the shuffles the server dealt
// (GET /api/operator/reports/rng, the battery of docs/rng-audit.md).

import { api } from "./api.js";
import { wordError } from "./errors.js";
import { dateTime, t } from "./i18n.js";
import { html, useEffect, useState } from "./ui.js";

function details(value) {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
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
    <div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.audit.title")}><table class="op-table audit" data-testid="audit-entries">
      <caption class="sr-only">${t("op.audit.title")}</caption>
      <thead><tr>${["seq", "at", "actor", "action", "subject", "details"].map((c) => html`<th scope="col" key=${c}>${t(`op.audit.${c}`)}</th>`)}</tr></thead>
      <tbody>${pages.map((e) => html`<tr key=${e.seq} data-action=${e.action}><td>${e.seq}</td><td>${dateTime(e.at)}</td><td>${e.actor}</td>
        <td><code>${e.action}</code></td><td>${e.subject}</td><td class="details"><code>${details(e.details)}</code></td></tr>`)}</tbody>
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
            ${t(`op.rng.${verdict}`, { decks: report.decks, rate: (report.false_alarm_rate * 100).toFixed(1) })}</p>
          <div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.rng.title")}><table class="op-table" data-testid="rng-tests">
            <caption class="sr-only">${t("op.rng.title")}</caption>
            <thead><tr>${["test", "statistic", "df", "p", "result"].map((c) => html`<th scope="col" key=${c}>${t(`op.rng.${c}`)}</th>`)}</tr></thead>
            <tbody>${report.tests.map((x) => html`<tr key=${x.name}><th scope="row">${x.name}</th><td>${x.statistic == null ? "—" : x.statistic.toFixed(3)}</td>
              <td>${x.df ?? "—"}</td><td>${x.p_value == null ? "—" : x.p_value.toPrecision(3)}</td>
              <td class=${x.passed === false ? "bad" : x.passed ? "good" : "muted"}>${t(x.passed === null ? "op.rng.na" : x.passed ? "op.rng.ok" : "op.rng.failed")}</td></tr>`)}</tbody>
          </table></div>`
      : null}
  </section>`;
}
