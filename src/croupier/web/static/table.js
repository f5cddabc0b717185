// A table of a game without its own page yet (Hold'em, Russian Poker as the server opens them):
// the same protocol (join / bet / act / resync), drawn from the seat's view as the server
// sends it: hole cards, board, legal actions, results. Amounts typed by the player.

import { h, money, newKey, TableSocket } from "./api.js";
import { cardRow } from "./cards.js";

const CARD = /^[2-9TJQKA][cdhs]$/;
const isCards = (v) => Array.isArray(v) && v.length > 0 && v.every((c) => c === null || (typeof c === "string" && CARD.test(c)));

export function genericTablePage({ view, wallet, toast }, info) {
  const s = { table: null, view: null, log: [], conn: "connecting", busy: false };
  const root = h("section", { class: "table-page generic", testid: "generic-table" });
  view.replaceChildren(root);
  const socket = new TableSocket(info.name, {
    onFrame(f) {
      if (f.type === "state") {
        s.table = f.table;
        s.view = f.view;
      } else if (f.type === "event") {
        s.log.unshift(`${f.event.kind}${f.event.seat != null ? ` · seat ${f.event.seat}` : ""}`);
        s.log.length = Math.min(s.log.length, 60);
        if (f.event.kind === "round_closed") wallet.refresh();
      } else if (f.type === "error" && f.ref == null) toast(f.message, "error");
      render();
    },
    onStatus(status) {
      s.conn = status;
      render();
    },
  });

  async function send(message, what) {
    s.busy = true;
    render();
    try {
      const result = await socket.request(message);
      if (result && typeof result.balance === "number") wallet.set(result.balance);
    } catch (err) {
      toast(`${what}: ${err.message}`, "error");
    } finally {
      s.busy = false;
      render();
    }
  }

  function cardsIn(v) {
    const rows = [];
    for (const [k, val] of Object.entries(v || {})) if (isCards(val)) rows.push([k, val]);
    return rows;
  }

  function render() {
    const t = s.table;
    const v = s.view;
    const amount = h("input", { type: "number", min: 0, step: 1, value: 100, testid: "amount", class: "amount" });
    const spot = h("input", { value: info.game === "holdem" ? "buy_in" : "ante", testid: "spot", class: "spot-name" });
    const legal = (v && v.legal) || [];
    root.replaceChildren(
      h(
        "div",
        { class: "table-head" },
        h("a", { href: "#/lobby", class: "back" }, "← Lobby"),
        h("h2", {}, info.title || info.name),
        t && t.round_id ? h("span", { class: "round" }, `Round ${t.round_id}`) : null,
        h("span", { class: `conn conn-${s.conn}` }, s.conn),
      ),
      h(
        "div",
        { class: "table-layout" },
        h(
          "div",
          { class: "table-main" },
          h(
            "div",
            { class: "felt" },
            h("div", { class: "phase", testid: "phase" }, v ? v.phase || "" : t ? t.status : "connecting"),
            cardsIn(v).map(([k, cards]) => h("div", { class: "generic-cards" }, h("div", { class: "felt-label" }, k.toUpperCase()), cardRow(cards, cards.length))),
            v && v.result ? h("div", { class: "result-banner" }, `Result: ${money(v.result.net ?? 0)}`) : null,
          ),
          h(
            "div",
            { class: "controls" },
            t && t.your_seat == null
              ? h("button", { class: "btn primary", testid: "sit", onclick: () => send({ type: "join" }, "Cannot sit") }, "Take a seat")
              : [
                  spot,
                  amount,
                  h("button", { class: "btn primary", testid: "bet-button", disabled: s.busy, onclick: () => send({ type: "bet", key: newKey(), bets: { [spot.value]: Number(amount.value) } }, "Bet refused") }, "Bet"),
                  legal.map((a) =>
                    h("button", { class: "btn act", testid: `act-${a}`, disabled: s.busy, onclick: () => send({ type: "act", action: a, amount: Number(amount.value) || undefined }, "Refused") }, a),
                  ),
                  h("button", { class: "btn ghost", onclick: () => send({ type: "leave" }, "Cannot leave") }, "Leave seat"),
                ],
          ),
        ),
        h("aside", { class: "side" }, h("h3", {}, "Table log"), h("ol", { class: "log" }, s.log.map((l) => h("li", {}, l)))),
      ),
    );
  }

  render();
  socket.connect();
  return () => socket.close();
}
