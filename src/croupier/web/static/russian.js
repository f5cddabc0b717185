// The Russian Poker table (spec/russian.md; docs/protocol.md "Russian Poker tables"): the
// layout's boxes, your open box's cards (click to select the ones to exchange), blind boxes
// face down, the dealer's hand (face down until shown), the decision buttons the server's
// `legal` list allows, the decision timer and each box's result.
// The page draws only what the server sends: another box's cards arrive as nulls.

import { h, logPanel, money, newKey, signedMoney, startTablePage, tablePageSocket, tableSender } from "./api.js";
import { cardEl, forgetDealt } from "./cards.js";

const LABELS = {
  exchange: "Exchange",
  sixth_card: "Sixth card",
  bet: "Bet",
  fold: "Fold",
  buy: "Buy dealer's game",
  decline: "Decline",
};
const PHASE_TEXT = {
  betting: "Place your bets",
  deciding: "Decisions: exchange, sixth card, bet or fold",
  buying: "The dealer does not qualify: buy the dealer's game or decline",
  settled: "Round settled",
  voided: "Round voided — every bet returned",
};

export function russianTablePage({ view, wallet, toast }, info) {
  const rules = info.rules || {};
  const s = {
    table: null,
    view: null,
    conn: "connecting",
    deadline: null,
    deadlineTotal: null,
    last: null, // the last round_closed: {summary, returns, status}
    log: [],
    busy: false,
    selected: new Set(), // the open box's cards chosen for an exchange
    draft: { ante: rules.ante_min || 100, bonus: 0, blind: 0, insurance: 0 },
  };
  const root = h("section", { class: "table-page russian", testid: "russian-table" });
  view.replaceChildren(root);

  const socket = tablePageSocket(info.name, { state: s, onFrame: (f) => onFrame(f), toast, render });

  const mySeat = () => (s.table ? s.table.your_seat : null);

  function addLog(text, cls = "") {
    s.log.unshift({ text, cls, at: new Date().toLocaleTimeString() });
    s.log.length = Math.min(s.log.length, 80);
  }

  function onFrame(f) {
    if (f.type === "state") {
      s.table = f.table;
      s.view = f.view && Array.isArray(f.view.boxes) ? f.view : null;
      if (f.table && typeof f.table.deadline_in === "number" && f.table.deadline_in > 0) {
        s.deadline = performance.now() + f.table.deadline_in * 1000;
        s.deadlineTotal = s.deadlineTotal || f.table.deadline_in;
      } else if (f.table && f.table.deadline_in == null) s.deadline = null;
    } else if (f.type === "event") {
      onEvent(f.event);
    } else if (f.type === "error" && f.ref == null) {
      toast(f.message, "error");
    }
    render();
  }

  function onEvent(e) {
    const mine = e.seat != null && e.seat === mySeat();
    switch (e.kind) {
      case "round_opened":
        forgetDealt();
        s.last = null;
        s.selected.clear();
        addLog(`Round ${e.round_id} open for bets`);
        break;
      case "decisions_open":
        s.deadline = performance.now() + e.decision_seconds * 1000;
        s.deadlineTotal = e.decision_seconds;
        break;
      case "cards_exchanged":
        s.selected.clear();
        addLog(`Box ${e.box + 1} exchanges${e.received ? ` for ${e.received.join(" ")}` : ""}`);
        break;
      case "sixth_card_bought":
        addLog(`Box ${e.box + 1} buys a sixth card${e.card ? ` (${e.card})` : ""}`);
        break;
      case "folded":
        addLog(`Box ${e.box + 1} folds${e.timeout ? " (timer)" : ""}`);
        break;
      case "dealer_revealed":
        addLog(`The dealer shows ${(e.cards || e.dealer || []).join(" ")}`);
        break;
      case "round_closed": {
        s.last = { summary: e.summary || {}, returns: e.returns || {}, status: e.status };
        s.deadline = null;
        const me = mySeat();
        if (me != null && e.returns && e.returns[String(me)] !== undefined) addLog(`Paid back ${money(e.returns[String(me)])}`, "good");
        wallet.refresh();
        break;
      }
      default:
        if (mine) addLog(e.kind.replace(/_/g, " "));
        break;
    }
  }

  const send = tableSender({ state: s, socket, wallet, toast, render });

  function placeBet() {
    const d = s.draft;
    const bets = { ante: Math.round(Number(d.ante)) };
    if (Number(d.bonus) > 0) bets.bonus = Math.round(Number(d.bonus));
    if (Number(d.blind) > 0) bets.blind_boxes = Math.round(Number(d.blind));
    return send({ type: "bet", key: newKey(), bets }, "Bet refused");
  }

  function act(action) {
    const message = { type: "act", action };
    if (action === "exchange") message.cards = [...s.selected];
    if (action === "insurance") {
      message.action = "bet";
      message.amount = Math.round(Number(s.draft.insurance));
    }
    return send(message, "Refused");
  }

  // -- drawing ------------------------------------------------------------------------

  // The boxes to draw: the live view, else the last round's summary (cards shown, nets).
  function boxes() {
    if (s.view) return s.view.boxes;
    if (s.last && s.last.summary && s.last.summary.boxes) {
      return s.last.summary.boxes.map((b) => ({ ...b, blind: false, settledView: true }));
    }
    return [];
  }

  function openBox() {
    const me = mySeat();
    return s.view ? s.view.boxes.find((b) => b.seat === me && !b.blind) : null;
  }

  function boxEl(b) {
    const me = mySeat();
    const mine = b.seat === me;
    const open = openBox();
    const canSelect = mine && open && open.box === b.box && (s.view.legal || []).includes("exchange");
    let cards;
    if (b.cards) {
      cards = b.cards.map((c) => {
        const el = cardEl(c, { small: !mine, highlight: s.selected.has(c) });
        if (canSelect) {
          el.classList.add("selectable");
          if (s.selected.has(c)) el.classList.add("selected");
          el.addEventListener("click", () => {
            if (s.selected.has(c)) s.selected.delete(c);
            else s.selected.add(c);
            render();
          });
        }
        return el;
      });
    } else {
      cards = [0, 1, 2, 3, 4].map(() => cardEl(null, { small: !mine }));
    }
    const toAct = s.view && s.view.to_act === b.box;
    const net = b.net;
    return h(
      "div",
      {
        class: `ru-box${mine ? " mine" : ""}${b.blind ? " blind" : ""}${toAct ? " acting" : ""}`,
        testid: mine ? (b.blind ? "my-blind-box" : "my-box") : "box",
        "data-box": String(b.box),
      },
      h("div", { class: "felt-label" }, `BOX ${b.box + 1}${b.blind ? " · BLIND" : ""}${mine ? " · YOU" : ""}`),
      h("div", { class: "card-row" }, cards),
      b.ante != null
        ? h(
            "div",
            { class: "ru-stakes" },
            `Ante ${money(b.ante)}`,
            b.bet ? ` · Bet ${money(b.bet)}` : "",
            b.bonus ? ` · Bonus ${money(b.bonus)}` : "",
            b.fee ? ` · Fees ${money(b.fee)}` : "",
            b.insurance ? ` · Insurance ${money(b.insurance)}` : "",
          )
        : null,
      h("div", { class: "ru-status" }, b.status || ""),
      net != null && mine ? h("div", { class: net > 0 ? "good" : net < 0 ? "bad" : "muted", testid: "box-net", "data-net": String(net) }, signedMoney(net)) : null,
    );
  }

  function dealerEl() {
    let cards = s.view ? s.view.dealer || [] : [];
    if (!s.view && s.last && s.last.summary && s.last.summary.dealer) cards = s.last.summary.dealer;
    return h(
      "div",
      { class: "dealer-area", testid: "dealer" },
      h("div", { class: "felt-label" }, "DEALER"),
      h("div", { class: "card-row" }, cards.length ? cards.map((c) => cardEl(c)) : [0, 1, 2, 3, 4].map(() => cardEl(undefined))),
    );
  }

  function timerEl() {
    const over = s.view && (s.view.phase === "settled" || s.view.phase === "voided");
    if (s.deadline == null || over) return h("div", { class: "timer idle", testid: "timer" });
    const left = Math.max(0, (s.deadline - performance.now()) / 1000);
    const frac = s.deadlineTotal ? Math.min(1, left / s.deadlineTotal) : 0;
    return h(
      "div",
      { class: "timer", testid: "timer" },
      h("div", { class: "timer-bar", style: { width: `${frac * 100}%` } }),
      h("span", { class: "timer-text" }, `${Math.ceil(left)}s`),
    );
  }

  function resultBanner() {
    if (s.view && s.view.phase !== "settled" && s.view.phase !== "voided") return null;
    if (!s.last) return null;
    const me = mySeat();
    const mine = (s.last.summary.boxes || []).filter((b) => b.seat === me);
    if (!mine.length) return null;
    const net = mine.reduce((a, b) => a + (b.net || 0), 0);
    const cls = net > 0 ? "win" : net < 0 ? "lose" : "";
    const voided = s.last.status === "voided";
    return h(
      "div",
      { class: `result-banner ${cls}`, testid: "result" },
      h("div", { class: "headline", testid: "result-net", "data-net": String(voided ? 0 : net) }, voided ? "Round voided" : net > 0 ? `You win ${money(net)}` : net < 0 ? `You lose ${money(-net)}` : "Push"),
      h("div", { class: "hands" }, mine.map((b) => `Box ${b.box + 1}: ${signedMoney(b.net || 0)}`).join(" · ")),
    );
  }

  function betForm() {
    const d = s.draft;
    const field = (key, label, attrs) => {
      const input = h("input", { type: "number", step: 1, value: d[key], testid: `bet-${key}`, class: "amount", ...attrs });
      input.addEventListener("input", () => (d[key] = input.value));
      return h("label", { class: "ru-field" }, label, input);
    };
    return h(
      "div",
      { class: "ru-betform", testid: "bet-form" },
      field("ante", "Ante (cents)", { min: rules.ante_min, max: rules.ante_max }),
      field("bonus", "Bonus", { min: 0, max: rules.bonus_max }),
      field("blind", "Blind boxes", { min: 0, max: (rules.boxes || 6) - 1 }),
      h("button", { class: "btn primary", testid: "bet-button", disabled: s.busy, onclick: placeBet }, "Deal"),
    );
  }

  function decisionButtons(legal) {
    const buttons = [];
    for (const a of legal) {
      const disabled = s.busy || (a === "exchange" && s.selected.size === 0);
      const label = a === "exchange" ? `Exchange ${s.selected.size || ""}`.trim() : LABELS[a] || a;
      buttons.push(h("button", { class: `btn act act-${a}`, testid: `act-${a}`, disabled, onclick: () => act(a) }, label));
    }
    const parts = [h("div", { class: "actions" }, buttons)];
    if (legal.includes("bet")) {
      const input = h("input", { type: "number", min: 0, step: 1, value: s.draft.insurance, testid: "insurance-amount", class: "amount" });
      input.addEventListener("input", () => (s.draft.insurance = input.value));
      parts.push(
        h(
          "div",
          { class: "ru-insurance" },
          h("span", { class: "muted" }, "Insurance (three of a kind or better):"),
          input,
          h("button", { class: "btn act act-insurance", testid: "act-insurance", disabled: s.busy, onclick: () => act("insurance") }, "Bet + insure"),
        ),
      );
    }
    return parts;
  }

  function controls() {
    const t = s.table;
    if (!t) return h("div", { class: "controls" });
    const me = mySeat();
    if (me == null) {
      return h("div", { class: "controls" }, h("button", { class: "btn primary", testid: "sit", disabled: s.busy, onclick: () => send({ type: "join" }, "Cannot sit") }, "Take a seat"));
    }
    const v = s.view;
    const haveBoxes = v && v.boxes.some((b) => b.seat === me);
    const legal = (v && v.legal) || [];
    const parts = [];
    if (legal.length) parts.push(decisionButtons(legal));
    else if (!haveBoxes && (!v || v.phase === "betting" || v.phase === "settled" || v.phase === "voided")) parts.push(betForm());
    else if (v && v.to_act_seat != null) parts.push(h("p", { class: "muted" }, `Waiting for seat ${v.to_act_seat}…`));
    parts.push(h("div", { class: "actions" }, h("button", { class: "btn small ghost", testid: "leave", disabled: s.busy || Boolean(haveBoxes && v.phase !== "settled"), onclick: () => send({ type: "leave" }, "Cannot leave") }, "Leave seat")));
    return h("div", { class: "controls" }, parts);
  }

  function render() {
    const t = s.table;
    const phase = s.view ? s.view.phase : s.last ? "settled" : t ? t.status : "connecting";
    root.dataset.phase = phase;
    const all = boxes();
    root.replaceChildren(
      h(
        "div",
        { class: "table-head" },
        h("a", { href: "#/lobby", class: "back" }, "← Lobby"),
        h("h2", {}, info.title || info.name),
        h("span", { class: "limits" }, `Ante ${money(rules.ante_min)}–${money(rules.ante_max)}`),
        t && t.round_id ? h("span", { class: "round" }, `Round ${t.round_id}`) : null,
        h("span", { class: `conn conn-${s.conn}`, testid: "connection" }, s.conn),
      ),
      h(
        "div",
        { class: "table-layout" },
        h(
          "div",
          { class: "table-main" },
          h(
            "div",
            { class: "felt ru-felt", testid: "felt" },
            dealerEl(),
            h("div", { class: "phase", testid: "phase" }, PHASE_TEXT[phase] || phase),
            timerEl(),
            resultBanner(),
            h("div", { class: "ru-boxes", testid: "boxes" }, all.map(boxEl)),
          ),
          controls(),
        ),
        logPanel(s.log),
      ),
    );
  }

  return startTablePage({ root, state: s, socket, render, timerEl });
}
