// The operator's page: per table and per game -- rounds, amount wagered, gross gaming revenue,
// actual against theoretical return, voided rounds -- a plot of the actual return converging on
// the theoretical one (SVG drawn here), the ledger check, and credits/debits through the cage.
//
// Figures come from GET /api/operator/stats when the server offers it; otherwise they are
// computed here from the operator's round recall (GET /api/rounds/{id}), bounded to the
// first MAX_SCAN rounds.

import { api, ApiError, newKey } from "./api.js";
import { DepositQueue } from "./cashier.js";
import { h } from "./dom.js";
import { wordError } from "./errors.js";
import { money } from "./i18n.js";
import { toast } from "./notify.js";
import { html, useEffect, useRef } from "./ui.js";

const MAX_SCAN = 400;
// Published returns under optimal strategy (spec/uth.md, seed 001): per total main bet
// (Ante + Blind + Play) and for Trips. Weighted by what was actually staked on each.
const UTH_MAIN_RTP = 0.9947;
const UTH_TRIPS_RTP = 0.965;

function pct(x) {
  return x == null || Number.isNaN(x) ? "—" : `${(x * 100).toFixed(2)}%`;
}

// One round -> {key, game, table, status, wagered, returned, theoretical_returned}
function roundFigures(r) {
  const wagered = (r.players || []).reduce((t, p) => t + p.staked, 0);
  const returned = (r.players || []).reduce((t, p) => t + p.returned, 0);
  let theory = null;
  if (r.game === "uth" && r.record) {
    let trips = 0;
    for (const b of r.record.bets || []) trips += b.trips || 0;
    theory = (wagered - trips) * UTH_MAIN_RTP + trips * UTH_TRIPS_RTP;
  }
  return { id: r.id, game: r.game, table: r.table, status: r.status, wagered, returned, theory };
}

async function scanRounds(onProgress) {
  const rounds = [];
  let misses = 0;
  for (let start = 1; start <= MAX_SCAN && misses < 8; start += 8) {
    const ids = Array.from({ length: 8 }, (_, i) => start + i);
    const got = await Promise.all(
      ids.map((id) =>
        api(`/api/rounds/${id}`).catch((err) => {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        }),
      ),
    );
    for (const r of got) {
      if (r) {
        rounds.push(r);
        misses = 0;
      } else misses++;
    }
    onProgress(rounds.length);
  }
  return rounds;
}

function aggregate(figures, keyOf) {
  const groups = new Map();
  for (const f of figures) {
    const key = keyOf(f);
    const g = groups.get(key) || { key, game: f.game, rounds: 0, voided: 0, open: 0, wagered: 0, returned: 0, theory: 0, theoryKnown: true, series: [] };
    if (f.status === "voided") g.voided++;
    else if (f.status === "open") g.open++;
    else {
      g.rounds++;
      g.wagered += f.wagered;
      g.returned += f.returned;
      if (f.theory == null) g.theoryKnown = false;
      else g.theory += f.theory;
      g.series.push([g.rounds, g.returned / Math.max(1, g.wagered)]);
    }
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    g.ggr = g.wagered - g.returned;
    g.actual = g.wagered ? g.returned / g.wagered : null;
    g.theoretical = g.theoryKnown && g.wagered ? g.theory / g.wagered : null;
  }
  return [...groups.values()];
}

function statsTable(title, rows, testid) {
  return h(
    "div",
    { class: "op-block" },
    h("h3", {}, title),
    h(
      "table",
      { class: "op-table", testid },
      h("thead", {}, h("tr", {}, ["", "rounds", "voided", "wagered", "GGR", "actual return", "theoretical return"].map((c) => h("th", {}, c)))),
      h(
        "tbody",
        {},
        rows.map((g) =>
          h(
            "tr",
            { "data-key": g.key },
            h("th", {}, g.key),
            h("td", { testid: "rounds" }, g.rounds),
            h("td", {}, g.voided),
            h("td", {}, money(g.wagered)),
            h("td", { class: g.ggr >= 0 ? "good" : "bad" }, money(g.ggr)),
            h("td", {}, pct(g.actual)),
            h("td", {}, pct(g.theoretical)),
          ),
        ),
      ),
    ),
  );
}

// Cumulative actual return against round number, the theoretical return as a dashed line.
export function convergencePlot(series, theoretical, { width = 640, height = 260 } = {}) {
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    return e;
  };
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "plot", "data-testid": "convergence-plot" });
  const pad = { l: 56, r: 12, t: 14, b: 30 };
  const values = series.map((p) => p[1]).concat(theoretical == null ? [] : [theoretical]);
  let lo = Math.min(...values, 0.8);
  let hi = Math.max(...values, 1.2);
  if (series.length > 20) {
    const tail = series.slice(Math.floor(series.length / 4)).map((p) => p[1]);
    lo = Math.min(...tail, theoretical ?? 1) - 0.05;
    hi = Math.max(...tail, theoretical ?? 1) + 0.05;
  }
  const n = Math.max(2, series.length);
  const x = (i) => pad.l + ((i - 1) / (n - 1)) * (width - pad.l - pad.r);
  const y = (v) => pad.t + (1 - (v - lo) / (hi - lo || 1)) * (height - pad.t - pad.b);
  svg.append(el("rect", { x: pad.l, y: pad.t, width: width - pad.l - pad.r, height: height - pad.t - pad.b, class: "plot-bg" }));
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    svg.append(el("line", { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(el("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, pct(v)));
  }
  svg.append(el("text", { x: width - pad.r, y: height - 8, "text-anchor": "end", class: "axis" }, `round ${series.length}`));
  svg.append(el("text", { x: pad.l, y: height - 8, class: "axis" }, "round 1"));
  if (theoretical != null) {
    svg.append(el("line", { x1: pad.l, x2: width - pad.r, y1: y(theoretical), y2: y(theoretical), class: "theory" }));
    svg.append(el("text", { x: width - pad.r - 4, y: y(theoretical) - 6, "text-anchor": "end", class: "theory-label" }, `theoretical ${pct(theoretical)}`));
  }
  if (series.length) {
    const d = series.map((p, i) => `${i ? "L" : "M"}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join("");
    svg.append(el("path", { d, class: "actual" }));
  }
  return svg;
}

function cageForm(toast, onDone) {
  const user = h("input", { type: "number", min: 1, placeholder: "user id", testid: "cage-user" });
  const amount = h("input", { type: "number", min: 1, step: 1, placeholder: "amount in cents", testid: "cage-amount" });
  const out = h("span", { class: "muted", testid: "cage-result" });
  const go = (kind) => async (e) => {
    e.preventDefault();
    try {
      const move = await api(`/api/operator/accounts/${Number(user.value)}/${kind}`, {
        method: "POST",
        body: { amount: Number(amount.value), memo: `cage ${kind} from the operator page` },
        headers: { "Idempotency-Key": newKey() },
      });
      out.textContent = `${kind} ${money(move.amount)} → balance ${money(move.balance)}`;
      onDone();
    } catch (err) {
      toast(wordError(err), "error");
    }
  };
  return h(
    "form",
    { class: "op-block cage" },
    h("h3", {}, "Cage"),
    user,
    amount,
    h("button", { class: "btn primary", testid: "cage-credit", onclick: go("credit") }, "Credit"),
    h("button", { class: "btn", testid: "cage-debit", onclick: go("debit") }, "Debit"),
    out,
  );
}

export function operatorPage({ view, toast }) {
  const body = h("div", { class: "op-body", testid: "operator" }, h("p", { class: "muted" }, "Loading…"));
  const ledger = h("div", { class: "op-block", testid: "ledger" });
  view.replaceChildren(h("section", { class: "operator" }, h("h1", {}, "Operator"), cageForm(toast, () => loadLedger()), ledger, body));

  async function loadLedger() {
    try {
      const balances = await api("/api/operator/ledger");
      ledger.replaceChildren(
        h("h3", {}, "Ledger ✓ balanced"),
        h("div", { class: "ledger-row" }, Object.entries(balances).map(([k, v]) => h("span", { class: "pill" }, `${k}: ${money(v)}`))),
      );
    } catch (err) {
      ledger.replaceChildren(h("h3", {}, "Ledger"), h("p", { class: "form-error" }, wordError(err)));
    }
  }

  async function load() {
    let stats = null;
    let source = "server";
    try {
      stats = await api("/api/operator/stats");
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) {
        body.replaceChildren(h("p", { class: "form-error" }, wordError(err)));
        return;
      }
    }
    let byTable;
    let byGame;
    if (stats) {
      byTable = stats.tables;
      byGame = stats.games;
    } else {
      source = "browser";
      const rounds = await scanRounds((n) => body.replaceChildren(h("p", { class: "muted" }, `Reading round ${n}…`)));
      const figures = rounds.map(roundFigures);
      byTable = aggregate(figures, (f) => f.table);
      byGame = aggregate(figures, (f) => f.game);
    }
    body.replaceChildren(
      h(
        "div",
        {},
        h("p", { class: "muted", testid: "stats-source" }, source === "server" ? "Figures from the server." : `Figures computed in the browser from round recall (first ${MAX_SCAN} rounds); the theoretical return weights the published optimal-strategy returns (main bets ${pct(UTH_MAIN_RTP)}, Trips ${pct(UTH_TRIPS_RTP)}) by what was staked.`),
      statsTable("Per game", byGame, "stats-games"),
      statsTable("Per table", byTable, "stats-tables"),
        byGame.map((g) => h("div", { class: "op-block" }, h("h3", {}, `${g.key}: actual return converging on the theoretical`), convergencePlot(g.series || [], g.theoretical))),
      ),
    );
  }

  loadLedger();
  load().catch((err) => body.replaceChildren(h("p", { class: "form-error" }, wordError(err))));
  return () => {};
}

/** The operator's page as a component: the deposit requests to approve, then the figures. */
export function OperatorPage() {
  const ref = useRef(null);
  useEffect(() => operatorPage({ view: ref.current, toast }), []);
  return html`<${DepositQueue} /><div ref=${ref}></div>`;
}
