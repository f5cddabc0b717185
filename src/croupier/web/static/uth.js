// The Ultimate Texas Hold'em table (spec/uth.md): felt, dealer, board, betting boxes with
// Trips / Ante / Blind / Play spots, chips, timers and the decision buttons.
// Everything drawn comes from the server's `state` frames (the seat's own view) and events;
// the page never holds a card the seat may not see, because the server never sends one.

import { api, h, logPanel, money, newKey, signedMoney, startTablePage, tablePageSocket, tableSender } from "./api.js";
import { CHIPS, cardRow, chipEl, chipStack, forgetDealt, handName } from "./cards.js";

const ACTIONS = [
  { action: "check", label: "Check", send: { action: "check" } },
  { action: "4x", label: "Bet 4×", send: { action: "play", multiple: 4 } },
  { action: "3x", label: "Bet 3×", send: { action: "play", multiple: 3 } },
  { action: "2x", label: "Bet 2×", send: { action: "play", multiple: 2 } },
  { action: "1x", label: "Bet 1×", send: { action: "play", multiple: 1 } },
  { action: "fold", label: "Fold", send: { action: "fold" } },
];
const PHASE_TEXT = {
  betting: "Place your bets",
  "pre-flop": "Pre-flop: check or bet 4× / 3×",
  flop: "Flop: check or bet 2×",
  river: "River: bet 1× or fold",
  showdown: "Showdown",
  settled: "Round settled",
  void: "Round voided — every bet returned",
};
const OUTCOME_TEXT = { won: "won", lost: "lost", push: "push", pushed: "push" };

export function uthTablePage(ctx, info) {
  const { view, wallet, toast } = ctx;
  const rules = info.rules || {};
  const live = info.max_seats == null;
  const s = {
    table: null, // the `table` part of the last state frame
    view: null, // the seat's own view in the round (null between rounds)
    deadline: null, // performance.now() when the current timer runs out
    deadlineTotal: null,
    conn: "connecting",
    chip: CHIPS[0].value,
    draft: { ante: 0, trips: 0 },
    lastBet: null,
    last: null, // the last finished round as this seat saw it: {hole, board, dealer, result}
    log: [],
    busy: false,
    hint: null,
    tally: null, // a live table's last counts: seats taken, boxes in play, decisions pending
  };

  const root = h("section", { class: "table-page uth", testid: "uth-table" });
  view.replaceChildren(root);

  const socket = tablePageSocket(info.name, { state: s, onFrame: (f) => onFrame(f), toast, render });

  function addLog(text, cls = "") {
    s.log.unshift({ text, cls, at: new Date().toLocaleTimeString() });
    s.log.length = Math.min(s.log.length, 60);
  }

  function mySeat() {
    return s.table ? s.table.your_seat : null;
  }

  function onFrame(f) {
    switch (f.type) {
      case "welcome":
        addLog(`Connected to ${f.table.title} as ${f.user.username}`);
        break;
      case "state":
        s.table = f.table;
        if (f.view) {
          s.view = f.view;
          if (f.view.result) s.last = snapshot(f.view);
        } else {
          if (s.view && (s.view.phase === "settled" || s.view.result)) s.last = snapshot(s.view);
          s.view = null;
        }
        if (f.table.deadline_in != null) {
          s.deadline = performance.now() + f.table.deadline_in * 1000;
          s.deadlineTotal = Math.max(f.table.deadline_in, 0.001);
        } else {
          s.deadline = null;
        }
        break;
      case "event":
      case "seat_event": // a live table sends what concerns your seat alone this way
        onEvent(f.event);
        break;
      case "error":
        if (f.ref == null) toast(f.message, "error");
        break;
      case "closing":
        addLog(`The table is closing: ${f.reason}`, "bad");
        break;
    }
    render();
  }

  function snapshot(v) {
    return { hole: v.hole || [], board: v.board || [], dealer: v.dealer, result: v.result, box: v.box };
  }

  function who(seat) {
    if (seat === -1) return "the player hand";
    const occupant = s.table && s.table.seats ? s.table.seats.find((o) => o.seat === seat) : null;
    if (seat === mySeat()) return "you";
    return occupant ? occupant.username : `seat ${seat + 1}`;
  }

  function onEvent(e) {
    switch (e.kind) {
      case "seated":
        addLog(`${e.username} sits down`);
        break;
      case "left":
        addLog(`${e.username} leaves`);
        break;
      case "round_opened":
        s.last = null;
        s.hint = null;
        s.tally = null;
        forgetDealt();
        addLog(`Round ${e.round_id} opens — deck committed ${e.commitment.slice(0, 12)}…`);
        break;
      case "bets_placed":
        addLog(`${who(e.seat)}: Ante ${money(e.ante)}, Blind ${money(e.blind)}${e.trips ? `, Trips ${money(e.trips)}` : ""}`);
        break;
      case "betting_closed":
        addLog("No more bets");
        break;
      case "board_dealt":
        addLog(e.cards.length === 3 ? `Flop ${e.cards.join(" ")}` : `Turn and river ${e.cards.join(" ")}`);
        s.hint = null;
        break;
      case "play_bet":
        addLog(`${who(e.seat)} bet${e.timeout ? " (timeout)" : ""} Play ${e.multiple}× = ${money(e.amount)}`);
        break;
      case "checked":
        addLog(`${who(e.seat)} checked${e.timeout ? " (timeout)" : ""}`);
        break;
      case "folded":
        addLog(`${who(e.seat)} folded${e.timeout ? " (timeout)" : ""}`, "bad");
        break;
      case "dealer_revealed":
        addLog(`Dealer shows ${e.cards.join(" ")}: ${handName(e.value)}${e.qualifies ? "" : " — does not qualify"}`);
        break;
      case "seat_settled":
        if (e.result && e.result.seat === mySeat()) {
          addLog(`Your result: ${signedMoney(e.result.net)}`, e.result.net > 0 ? "good" : e.result.net < 0 ? "bad" : "");
        }
        break;
      case "round_voided":
        addLog(`Round voided: ${e.reason} — every bet returned`, "bad");
        break;
      case "round_closed":
        if (e.status === "voided") addLog(`Round ${e.round_id} voided`, "bad");
        wallet.refresh();
        break;
      case "tally":
        // A live table's counts (its players are counted, not listed).
        if (s.table) s.table.seats_taken = e.seats_taken;
        s.tally = e;
        break;
    }
  }

  // -- requests ---------------------------------------------------------------------------

  const send = tableSender({ state: s, socket, wallet, toast, render, oneAtATime: true });

  async function join(seat) {
    await send(seat == null ? { type: "join" } : { type: "join", seat }, "Cannot sit");
  }

  async function leave() {
    await send({ type: "leave" }, "Cannot leave");
  }

  async function placeBet() {
    const { ante, trips } = s.draft;
    if (!ante) {
      toast("Put chips on the Ante first", "error");
      return;
    }
    const bets = trips ? { ante, trips } : { ante };
    const result = await send({ type: "bet", key: newKey(), bets }, "Bet refused");
    if (result) {
      s.lastBet = { ante, trips };
      s.draft = { ante: 0, trips: 0 };
      s.last = null;
      render();
    }
  }

  async function act(spec) {
    await send({ type: "act", ...spec.send }, "Action refused");
  }

  async function hint() {
    const v = s.view;
    if (!v || !v.hole || v.hole.length !== 2) return;
    s.hint = { text: "Asking the strategy advisor…" };
    render();
    const q = new URLSearchParams({ hole: v.hole.join(""), board: (v.board || []).join("") });
    try {
      const advice = await api(`/api/uth/advice?${q}`);
      const opts = (advice.options || []).map((o) => `${o.action} ${Number(o.ev).toFixed(3)}`).join(" · ");
      s.hint = { text: `Best: ${advice.best}`, detail: opts ? `EV per Ante: ${opts}` : "" };
    } catch (err) {
      s.hint = { text: err.status === 404 ? "This server offers no strategy advisor" : `No hint: ${err.message}` };
    }
    render();
  }

  function addChip(spot) {
    const cap = spot === "ante" ? rules.ante_max : rules.trips_max;
    const next = s.draft[spot] + s.chip;
    s.draft[spot] = cap ? Math.min(next, cap) : next;
    render();
  }

  // -- drawing ----------------------------------------------------------------------------

  function canBet() {
    const t = s.table;
    if (!t || t.your_seat == null) return false;
    if (t.status !== "idle" && t.status !== "betting" && t.status !== "pause") return false;
    if (t.status === "pause") return false;
    const box = s.view && s.view.box;
    return !box; // not yet in this round
  }

  function timerEl() {
    if (s.deadline == null) return h("div", { class: "timer idle", testid: "timer" });
    const left = Math.max(0, (s.deadline - performance.now()) / 1000);
    const frac = Math.max(0, Math.min(1, left / s.deadlineTotal));
    return h(
      "div",
      { class: "timer", testid: "timer" },
      h("div", { class: "timer-bar", style: { width: `${frac * 100}%` } }),
      h("span", { class: "timer-text" }, `${Math.ceil(left)}s`),
    );
  }

  function spot(name, label, amount, { clickable = false, testid } = {}) {
    return h(
      "div",
      {
        class: `spot spot-${name}${clickable ? " clickable" : ""}${amount ? " filled" : ""}`,
        testid: testid || `spot-${name}`,
        onclick: clickable ? () => addChip(name) : null,
        title: clickable ? `Add a ${money(s.chip)} chip` : null,
      },
      h("span", { class: "spot-label" }, label),
      chipStack(amount),
      amount ? h("span", { class: "spot-amount" }, money(amount)) : null,
    );
  }

  function myBox() {
    const v = s.view;
    const box = v && v.box;
    const betting = canBet();
    const draft = s.draft;
    const last = !box && s.last ? s.last : null;
    const shown = box || (last && last.box);
    const ante = box ? box.ante : betting ? draft.ante : shown ? shown.ante : 0;
    const trips = box ? box.trips : betting ? draft.trips : shown ? shown.trips : 0;
    const play = shown ? shown.play : 0;
    const hole = v && v.hole && v.hole.length ? v.hole : last ? last.hole : [];
    const folded = shown && shown.folded;
    const cards = live ? null : h("div", { class: `hole${folded ? " folded" : ""}`, testid: "my-hole" }, cardRow(hole, 2));
    return h(
      "div",
      { class: "box mine", testid: "my-box" },
      cards,
      h(
        "div",
        { class: "spots" },
        spot("trips", "TRIPS", trips, { clickable: betting && (!box || !box.trips) }),
        h("div", { class: "spot-pair" },
          spot("ante", "ANTE", ante, { clickable: betting }),
          h("span", { class: "equals" }, "="),
          spot("blind", "BLIND", ante, { testid: "spot-blind" }),
        ),
        spot("play", "PLAY", play),
      ),
    );
  }

  function otherBoxes() {
    const t = s.table;
    if (!t || live || !t.seats) return null;
    const v = s.view;
    const boxes = new Map(((v && v.boxes) || []).map((b) => [b.seat, b]));
    const places = [];
    const n = info.max_seats || 6;
    for (let seat = 0; seat < n; seat++) {
      const occupant = t.seats.find((o) => o.seat === seat);
      const mine = seat === t.your_seat;
      const box = boxes.get(seat);
      let body;
      if (mine) body = h("span", { class: "you-tag" }, "you");
      else if (occupant) {
        body = [
          box && v && v.phase !== "betting" ? cardRow([null, null], 2, { small: true }) : null,
          box ? h("span", { class: "mini-bets" }, `${money(box.ante * 2 + box.trips + box.play)}${box.folded ? " · folded" : box.play ? ` · ${box.play_multiple}×` : ""}`) : null,
        ];
      } else if (t.your_seat == null) {
        body = h("button", { class: "btn small", testid: `sit-${seat}`, onclick: () => join(seat) }, "Sit here");
      } else body = h("span", { class: "empty" }, "empty");
      places.push(
        h(
          "div",
          { class: `seat-place${mine ? " mine" : ""}${occupant ? " taken" : ""}`, testid: `seat-${seat}` },
          h("div", { class: "seat-name" }, occupant ? occupant.username : `Box ${seat + 1}`),
          body,
        ),
      );
    }
    return h("div", { class: "seat-arc" }, places);
  }

  function dealerArea() {
    const v = s.view;
    const last = !v && s.last ? s.last : null;
    let cards = [];
    if (v && v.dealer) cards = v.dealer;
    else if (v && v.phase !== "betting") cards = [null, null];
    else if (last && last.dealer) cards = last.dealer;
    const result = (v && v.result) || (last && last.result);
    const note = result ? `${handName(result.dealer_value)}${result.dealer_qualifies ? "" : " · does not qualify"}` : "";
    return h(
      "div",
      { class: "dealer-area", testid: "dealer" },
      h("div", { class: "felt-label" }, "DEALER"),
      cardRow(cards, 2),
      h("div", { class: "hand-note" }, note),
    );
  }

  function boardArea() {
    const v = s.view;
    const board = v ? v.board || [] : s.last ? s.last.board : [];
    const shared = live ? h("div", { class: "shared-hand" }, h("div", { class: "felt-label" }, "PLAYER HAND"), cardRow((v && v.hole) || (s.last && s.last.hole) || [], 2)) : null;
    return h("div", { class: "board-area" }, h("div", { class: "board", testid: "board" }, cardRow(board, 5)), shared);
  }

  function feltPrint() {
    const blind = rules.blind_paytable || {};
    const trips = rules.trips_paytable || {};
    const rows = (pt) => Object.entries(pt).map(([k, v]) => h("div", { class: "pt-row" }, h("span", {}, k.replaceAll("_", " ")), h("span", {}, v)));
    return [
      h("div", { class: "felt-arc" }, "DEALER QUALIFIES WITH A PAIR OR BETTER"),
      h("div", { class: "paytable left" }, h("div", { class: "pt-title" }, "BLIND PAYS"), rows(blind)),
      h("div", { class: "paytable right" }, h("div", { class: "pt-title" }, "TRIPS PAYS"), rows(trips)),
    ];
  }

  function resultBanner() {
    const v = s.view;
    const result = (v && v.result) || (!v && s.last && s.last.result);
    if (!result) return null;
    const net = result.net;
    const cls = net > 0 ? "win" : net < 0 ? "lose" : "push";
    const headline = net > 0 ? `You win ${signedMoney(net)}` : net < 0 ? `You lose ${money(-net)}` : "Push";
    const hand = handName(result.player_value);
    return h(
      "div",
      { class: `result-banner ${cls}`, testid: "result" },
      h("div", { class: "headline", testid: "result-net", "data-net": String(net) }, headline),
      h("div", { class: "hands" }, `${hand ? "Your " + hand.toLowerCase() : ""}${result.comparison ? ` · ${result.comparison}` : ""}`),
      h(
        "table",
        { class: "bet-lines" },
        (result.bets || []).map((b) =>
          h("tr", {}, h("td", {}, b.bet), h("td", {}, money(b.stake)), h("td", {}, OUTCOME_TEXT[b.outcome] || b.outcome), h("td", { class: b.net > 0 ? "good" : b.net < 0 ? "bad" : "" }, signedMoney(b.net)), h("td", { class: "muted" }, b.line || "")),
        ),
      ),
    );
  }

  function controls() {
    const t = s.table;
    const v = s.view;
    if (!t) return h("div", { class: "controls" }, "Connecting…");
    if (t.your_seat == null) {
      return h(
        "div",
        { class: "controls" },
        h("span", { class: "muted" }, live ? "Join the live table to play the shared hand." : "Pick a free box, or:"),
        h("button", { class: "btn primary", testid: "sit", onclick: () => join(null), disabled: s.busy }, "Take a seat"),
      );
    }
    if (canBet()) {
      const max = rules.ante_max || Infinity;
      const tray = h(
        "div",
        { class: "chip-tray", testid: "chip-tray" },
        CHIPS.filter((c) => c.value <= max).map((c) =>
          chipEl(c.value, {
            class: `chip ${c.cls}${s.chip === c.value ? " selected" : ""}`,
            testid: `chip-${c.value}`,
            onclick: () => {
              s.chip = c.value;
              render();
            },
            role: "button",
            title: `${money(c.value)} chip`,
          }),
        ),
      );
      const total = s.draft.ante * 2 + s.draft.trips;
      return h(
        "div",
        { class: "controls" },
        tray,
        h("div", { class: "bet-total" }, `Bet ${money(total)}`),
        h("button", { class: "btn", testid: "clear", onclick: () => ((s.draft = { ante: 0, trips: 0 }), render()) }, "Clear"),
        s.lastBet ? h("button", { class: "btn", testid: "rebet", onclick: () => ((s.draft = { ...s.lastBet }), render()) }, "Same bet") : null,
        h("button", { class: "btn primary", testid: "bet-button", onclick: placeBet, disabled: s.busy || !s.draft.ante }, "Deal"),
        h("button", { class: "btn ghost", testid: "leave", onclick: leave, disabled: s.busy }, "Leave seat"),
      );
    }
    const legal = new Set((v && v.legal) || []);
    const buttons = ACTIONS.map((a) =>
      h("button", { class: `btn act act-${a.action}`, testid: `act-${a.action}`, disabled: s.busy || !legal.has(a.action), onclick: () => act(a) }, a.label),
    );
    const inRound = v && v.box;
    return h(
      "div",
      { class: "controls" },
      h("div", { class: "actions" }, buttons),
      h("button", { class: "btn ghost", testid: "hint", disabled: !(inRound && legal.size), onclick: hint }, "Hint"),
      s.hint ? h("div", { class: "hint", testid: "hint-text" }, s.hint.text, s.hint.detail ? h("small", {}, s.hint.detail) : null) : null,
      !inRound && t.status !== "pause" ? h("span", { class: "muted" }, "Round in play — you join the next one.") : null,
    );
  }

  function statusLine() {
    const t = s.table;
    const v = s.view;
    let text = "";
    if (!t) text = "Connecting…";
    else if (v && PHASE_TEXT[v.phase]) {
      text = PHASE_TEXT[v.phase];
      if (v.box && v.box.decided && v.phase !== "settled") text = "Waiting for the other players";
    } else if (t.status === "betting") text = "Betting is open";
    else if (t.status === "pause") text = "Next round in a moment";
    else if (t.status === "playing") text = "Round in play";
    else text = t.your_seat == null ? "Take a seat to play" : "Place your bets";
    return h("div", { class: "phase", testid: "phase" }, text);
  }

  function crowdText(t) {
    const players = `${t.seats_taken} player${t.seats_taken === 1 ? "" : "s"}`;
    const tally = s.tally && t.status !== "idle" ? s.tally : null;
    if (!tally || !tally.boxes_in_play) return players;
    const waiting = t.status === "playing" && tally.pending ? ` · ${tally.pending} to decide` : "";
    return `${players} · ${tally.boxes_in_play} in play${waiting}`;
  }

  function header() {
    const t = s.table;
    return h(
      "div",
      { class: "table-head" },
      h("a", { href: "#/lobby", class: "back" }, "← Lobby"),
      h("h2", {}, info.title || info.name),
      h("span", { class: "limits" }, `Ante ${money(rules.ante_min)}–${money(rules.ante_max)} · Trips ${money(rules.trips_min)}–${money(rules.trips_max)}`),
      t && t.round_id ? h("span", { class: "round", testid: "round-id" }, `Round ${t.round_id}`) : null,
      t && t.commitment ? h("span", { class: "commit", title: t.commitment }, `commit ${t.commitment.slice(0, 10)}…`) : null,
      live && t ? h("span", { class: "players", testid: "players" }, crowdText(t)) : null,
      h("span", { class: `conn conn-${s.conn}`, testid: "connection" }, s.conn),
    );
  }

  function render() {
    const v = s.view;
    const felt = h(
      "div",
      { class: `felt${live ? " live" : ""}` },
      feltPrint(),
      dealerArea(),
      boardArea(),
      resultBanner() || [statusLine(), timerEl()],
      otherBoxes(),
      myBox(),
    );
    root.replaceChildren(
      header(),
      h("div", { class: "table-layout" }, h("div", { class: "table-main" }, felt, controls()), logPanel(s.log)),
    );
    root.dataset.phase = v ? v.phase : (s.table && s.table.status) || "";
  }

  return startTablePage({ root, state: s, socket, render, timerEl });
}
