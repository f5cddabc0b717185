// The operator's console (issue 16), one section at a time (#/operator/<section>): the tables
// with their limits, status and theoretical return, and the forms that change them; the cage;
// the deposit requests of the players' cashier; the reports with plots over days; the live
// return monitor with its alerts and investigations, and the significant events (issue 30);
// the audit log; the RNG audit. A banner on every section while a return alert is open.
// Every text in the page's language, money in euros its way.

import { DepositQueue } from "./cashier.js";
import { t } from "./i18n.js";
import { OpAudit, OpRng } from "./op-audit.js";
import { OpCage } from "./op-cage.js";
import { OpEvents } from "./op-events.js";
import { AlertBanner, OpMonitor } from "./op-monitor.js";
import { OpReports } from "./op-reports.js";
import { OpTables } from "./op-tables.js";
import { html } from "./ui.js";

export const SECTIONS = ["tables", "cage", "deposits", "reports", "monitor", "events", "audit", "rng"];

export function OperatorPage({ section }) {
  const current = SECTIONS.includes(section) ? section : "tables";
  let body;
  if (current === "cage") body = html`<${OpCage} />`;
  else if (current === "deposits") body = html`<${DepositQueue} />`;
  else if (current === "reports") body = html`<${OpReports} />`;
  else if (current === "monitor") body = html`<${OpMonitor} />`;
  else if (current === "events") body = html`<${OpEvents} />`;
  else if (current === "audit") body = html`<${OpAudit} />`;
  else if (current === "rng") body = html`<${OpRng} />`;
  else body = html`<${OpTables} />`;
  return html`<section class="operator" data-testid="operator" aria-labelledby="op-title">
    <h1 id="op-title">${t("op.title")}</h1>
    <nav class="op-tabs" aria-label=${t("op.sections")}>
      ${SECTIONS.map((s) => html`<a key=${s} href=${`#/operator/${s}`} data-testid=${`op-nav-${s}`} aria-current=${s === current ? "page" : null}>${t(`op.section.${s}`)}</a>`)}
    </nav>
    ${current === "monitor" ? null : html`<${AlertBanner} />`}
    ${body}
  </section>`;
}
