// A table of a game without its own page yet: the same protocol (join / bet / act / resync),
// drawn from the seat's view as the server sends it: cards, legal actions, results.

import { newKey } from "./api.js";
import { CardRow } from "./cards.js";
import { money, t, toCents } from "./i18n.js";
import { addLog, LogPanel, OfflineNote, TableHead, useTable } from "./tablecore.js";
import { html, useRef } from "./ui.js";

const CARD = /^[2-9TJQKA][cdhs]$/;
const isCards = (v) => Array.isArray(v) && v.length > 0 && v.every((c) => c === null || (typeof c === "string" && CARD.test(c)));

export function GenericTable({ info }) {
  const amount = useRef(null);
  const { model: m, send } = useTable(info, {
    event(e, mm) {
      addLog(mm, e.kind.replace(/_/g, " "));
    },
  });
  const v = m.view;
  const tb = m.table;
  const legal = (v && v.legal) || [];
  const cards = Object.entries(v || {}).filter(([, val]) => isCards(val));
  const cents = () => toCents(amount.current ? amount.current.value : "") || 0;
  return html`<section class="table-page generic" data-testid="generic-table" data-phase=${v ? v.phase || "" : tb ? tb.status : ""}>
    <${TableHead} info=${info} model=${m} limits="" />
    <div class="table-layout"><div class="table-main">
      <div class="felt"><div class="phase" data-testid="phase">${v ? v.phase || "" : ""}</div>
        ${cards.map(([k, c]) => html`<div class="generic-cards" key=${k}><div class="felt-label">${k}</div><${CardRow} cards=${c} slots=${c.length} /></div>`)}
        ${v && v.result ? html`<div class="result-banner">${money(v.result.net ?? 0)}</div>` : null}
      </div>
      <div class="controls"><${OfflineNote} model=${m} />
        ${tb && tb.your_seat == null
          ? html`<button type="button" class="btn primary" data-testid="sit" onClick=${() => send({ type: "join" })}>${t("sit")}</button>`
          : html`<label>${t("table.amount")} <input ref=${amount} class="amount" data-testid="amount" inputmode="decimal" value="1.00" /></label>
            <button type="button" class="btn primary" data-testid="bet-button" disabled=${m.busy} onClick=${() => send({ type: "bet", key: newKey(), bets: { ante: cents() } })}>${t("btn.deal")}</button>
            ${legal.map((a) => html`<button type="button" class="btn act" key=${a} data-testid=${`act-${a}`} disabled=${m.busy} onClick=${() => send({ type: "act", action: a })}>${t(`action.${a}`)}</button>`)}
            <button type="button" class="btn ghost" onClick=${() => send({ type: "leave" })}>${t("btn.leave")}</button>`}
      </div>
    </div><${LogPanel} log=${m.log} /></div>
  </section>`;
}
