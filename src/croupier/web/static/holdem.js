// The Hold'em No-Limit cash table (docs/protocol.md "Hold'em cash tables"): an oval felt with
// the seats around it (names, stacks, bets, cards), the board and the pot, a buy-in dialog,
// the decision buttons with a raise amount bounded by the server's `options`, the decision
// timer, the last hand's result and cash-out. Everything drawn comes from `state` frames
// (the seat's own view) and events; the server never sends a card the seat may not see.

import { centsText, h, logPanel, money, newKey, signedMoney, startTablePage, tablePageSocket, tableSender, toCents } from "./api.js";
import { cardEl, cardRow, forgetDealt } from "./cards.js";

const ACTION_LABEL = { fold: "Fold", check: "Check", call: "Call", bet: "Bet", raise: "Raise to", all_in: "All-in" };

// Seat places around the oval, as percentages of the felt (seat 0 at the bottom centre).
function seatPlace(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  return { left: `${50 + 44 * Math.cos(angle)}%`, top: `${50 + 40 * Math.sin(angle)}%` };
}

export function holdemTablePage({ view, wallet, toast }, info) {
  const rules = info.rules || {};
  const maxSeats = info.max_seats || rules.max_seats || 6;
  const s = {
    table: null,
    view: null,
    conn: "connecting",
    deadline: null,
    deadlineTotal: null,
    last: null, // the last hand's round_closed summary
    log: [],
    busy: false,
    buyIn: null, // the amount typed in the buy-in dialog (null: dialog closed)
    raise: null, // the raise amount chosen for the current decision
    dialog: false, // the top-up dialog is open
    names: {}, // seat -> username, from `seated` events between state frames
    myHole: null, // your hole cards in the hand in play or just finished
  };
  const root = h("section", { class: "table-page holdem", testid: "holdem-table" });
  view.replaceChildren(root);

  const socket = tablePageSocket(info.name, { state: s, onFrame: (f) => onFrame(f), toast, render });

  const mySeat = () => (s.table ? s.table.your_seat : null);
  const nameOf = (seat) => {
    const entry = ((s.table && s.table.seats) || []).find((x) => x.seat === seat);
    return entry ? entry.username : s.names[seat] || `seat ${seat}`;
  };

  function addLog(text, cls = "") {
    s.log.unshift({ text, cls, at: new Date().toLocaleTimeString() });
    s.log.length = Math.min(s.log.length, 80);
  }

  function onFrame(f) {
    if (f.type === "state") {
      s.table = f.table;
      const before = s.view && s.view.options;
      s.view = f.view && f.view.game === "holdem" ? f.view : null;
      const me = s.view && (s.view.players || []).find((p) => p.seat === f.table.your_seat);
      if (me && me.cards) s.myHole = me.cards;
      const opts = s.view && s.view.options;
      if (opts && (!before || s.raise == null)) s.raise = opts.min_raise_to;
      if (!opts) s.raise = null;
      if (f.table && typeof f.table.deadline_in === "number" && f.table.deadline_in > 0) {
        s.deadline = performance.now() + f.table.deadline_in * 1000;
        s.deadlineTotal = s.deadlineTotal || f.table.deadline_in;
      }
    } else if (f.type === "event") {
      onEvent(f.event);
    } else if (f.type === "error" && f.ref == null) {
      toast(f.message, "error");
    }
    render();
  }

  function onEvent(e) {
    const who = e.seat != null ? nameOf(e.seat) : "";
    switch (e.kind) {
      case "seated":
        s.names[e.seat] = e.username;
        addLog(`${e.username} sits down`);
        break;
      case "left":
        addLog(`${e.username} leaves${e.cashed_out != null ? ` with ${money(e.cashed_out)}` : ""}`);
        break;
      case "bought_in": {
        addLog(`${who} buys in ${money(e.amount)}`);
        const entry = ((s.table && s.table.seats) || []).find((x) => x.seat === e.seat);
        if (entry) entry.stack = e.stack;
        break;
      }
      case "hand_starting":
        addLog("A new hand is starting");
        break;
      case "round_opened":
        forgetDealt();
        s.last = null;
        s.myHole = null;
        addLog(`Hand #${e.round_id} dealt`);
        break;
      case "turn":
        s.deadline = performance.now() + e.decision_seconds * 1000;
        s.deadlineTotal = e.decision_seconds;
        break;
      case "blind_posted":
        addLog(`${who} posts ${money(e.amount)}`);
        break;
      case "folded":
        addLog(`${who} folds`);
        break;
      case "checked":
        addLog(`${who} checks`);
        break;
      case "called":
        addLog(`${who} calls ${money(e.amount)}${e.all_in ? " (all-in)" : ""}`);
        break;
      case "raised":
        addLog(`${who} ${e.all_in ? "goes all-in" : "raises"} to ${money(e.to)}`);
        break;
      case "timed_out":
        addLog(`${who} timed out`, "bad");
        break;
      case "shown":
        addLog(`${who} shows ${(e.cards || []).join(" ")}`);
        break;
      case "mucked":
        addLog(`${who} mucks`);
        break;
      case "pot_awarded":
        addLog(`Pot ${money((e.amounts || []).reduce((a, b) => a + b, 0))} to ${(e.seats || []).map(nameOf).join(", ")}`, "good");
        break;
      case "raked":
        if (e.amount) addLog(`Rake ${money(e.amount)}`);
        break;
      case "round_closed":
        s.last = { ...(e.summary || {}), status: e.status, round_id: e.round_id };
        s.deadline = null;
        wallet.refresh();
        break;
      default:
        break;
    }
  }

  const send = tableSender({ state: s, socket, wallet, toast, render });

  async function buyIn() {
    const amount = s.buyIn;
    if (amount == null) {
      toast("Type the amount to buy in, in euros (for example 200.00)", "error");
      return;
    }
    const result = await send({ type: "buy_in", key: newKey(), amount }, "Buy-in refused");
    if (result) {
      s.buyIn = null;
      addLog(`You buy in ${money(amount)}: stack ${money(result.stack)}`, "good");
      render();
    }
  }

  async function leave() {
    const result = await send({ type: "leave" }, "Cannot leave");
    if (result) {
      addLog(`You cash out ${money(result.cashed_out || 0)}`, "good");
      await wallet.refresh();
      render();
    }
  }

  function act(action) {
    const message = { type: "act", action };
    if (action === "bet" || action === "raise") message.amount = Math.round(Number(s.raise));
    return send(message, "Refused");
  }

  // -- drawing ------------------------------------------------------------------------

  function seatEl(index) {
    const v = s.view;
    const t = s.table;
    const occupant = ((t && t.seats) || []).find((x) => x.seat === index);
    const player = v ? (v.players || []).find((p) => p.seat === index) : null;
    const mine = index === mySeat();
    const classes = ["hm-seat"];
    if (mine) classes.push("mine");
    if (v && v.actor === index) classes.push("acting");
    if (player && !player.in_hand) classes.push("folded");
    if (!occupant && !player) classes.push("empty");
    const shown = s.last && s.last.shown && s.last.shown[String(index)];
    let cards = null;
    if (player) {
      if (player.cards) cards = player.cards;
      else if (player.in_hand) cards = [null, null];
    } else if (shown) cards = shown;
    else if (mine && s.last && s.myHole) cards = s.myHole;
    const stack = player ? player.stack : occupant ? occupant.stack : null;
    const net = s.last && s.last.net ? s.last.net[String(index)] : undefined;
    return h(
      "div",
      { class: classes.join(" "), style: seatPlace(index, maxSeats), testid: `seat-${index}`, "data-seat": String(index) },
      cards ? h("div", { class: "hm-cards", testid: mine ? "my-hole" : "hole" }, cards.map((c) => cardEl(c, { small: !mine }))) : null,
      h(
        "div",
        { class: "hm-plate" },
        h("div", { class: "seat-name" }, occupant ? occupant.username : player ? player.name : "empty", mine ? h("span", { class: "you-tag" }, "you") : null),
        stack != null ? h("div", { class: "hm-stack", testid: mine ? "my-stack" : null, "data-stack": String(stack) }, money(stack)) : null,
        occupant && occupant.sitting_out ? h("div", { class: "muted" }, "sitting out") : null,
        net !== undefined && (occupant || player) ? h("div", { class: net > 0 ? "good" : net < 0 ? "bad" : "muted" }, signedMoney(net)) : null,
      ),
      ((v && v.button === index) || (!v && t && t.button === index)) ? h("div", { class: "hm-button", title: "dealer button" }, "D") : null,
      player && player.bet ? h("div", { class: "hm-bet", testid: "seat-bet" }, money(player.bet)) : null,
    );
  }

  function timerEl() {
    if (s.deadline == null || !s.view) return h("div", { class: "timer idle", testid: "timer" });
    const left = Math.max(0, (s.deadline - performance.now()) / 1000);
    const frac = s.deadlineTotal ? Math.min(1, left / s.deadlineTotal) : 0;
    return h(
      "div",
      { class: "timer", testid: "timer" },
      h("div", { class: "timer-bar", style: { width: `${frac * 100}%` } }),
      h("span", { class: "timer-text" }, `${Math.ceil(left)}s`),
    );
  }

  function centre() {
    const v = s.view;
    const board = v ? v.board : s.last ? s.last.board || [] : [];
    const street = v ? (v.phase === "void" ? "hand voided" : v.street) : s.table ? s.table.status : "connecting";
    return h(
      "div",
      { class: "hm-centre" },
      h("div", { class: "phase", testid: "phase" }, street || ""),
      h("div", { testid: "board" }, cardRow(board, 5)),
      h("div", { class: "hm-pot", testid: "pot", "data-pot": String(v ? v.pot : 0) }, v ? `Pot ${money(v.pot)}` : ""),
      timerEl(),
      resultBanner(),
    );
  }

  function resultBanner() {
    if (!s.last) return null;
    const me = mySeat();
    const net = me != null && s.last.net ? s.last.net[String(me)] : undefined;
    if (s.last.status === "voided" || s.last.void) {
      return h("div", { class: "result-banner", testid: "hand-result", "data-net": "0" }, h("div", { class: "headline" }, "Hand voided: every stack restored"));
    }
    const winners = Object.entries(s.last.won || {}).map(([seat, amount]) => `${nameOf(Number(seat))} wins ${money(amount)}`);
    const cls = net > 0 ? "win" : net < 0 ? "lose" : "";
    return h(
      "div",
      { class: `result-banner ${cls}`, testid: "hand-result", "data-net": net === undefined ? "" : String(net) },
      h("div", { class: "headline", testid: "hand-net" }, net === undefined ? "Hand over" : `You ${net > 0 ? "won" : net < 0 ? "lost" : "broke even"} ${net ? money(Math.abs(net)) : ""}`),
      h("div", { class: "hands" }, winners.join(" · "), s.last.rake ? ` · rake ${money(s.last.rake)}` : ""),
    );
  }

  function decisionControls(opts) {
    const raiseWord = opts.actions.find((a) => a === "bet" || a === "raise");
    const min = opts.min_raise_to;
    const max = opts.max_raise_to;
    const value = Math.min(max ?? 0, Math.max(min ?? 0, Number(s.raise) || 0));
    const slider = raiseWord
      ? h("input", { type: "range", min, max, step: 1, value, testid: "raise-slider", class: "hm-slider" })
      : null;
    // The box shows euros (as every label does); the slider and the wire count cents.
    const input = raiseWord
      ? h("input", { type: "number", min: centsText(min), max: centsText(max), step: "0.01", value: centsText(value), testid: "raise-amount", class: "amount", "data-cents": value })
      : null;
    const sync = (from) => {
      s.raise = from === slider ? Math.round(Number(slider.value)) : toCents(input.value);
      if (from === slider) input.value = centsText(s.raise);
      else if (s.raise != null) slider.value = s.raise;
      input.dataset.cents = s.raise ?? "";
      const button = root.querySelector(`[data-testid=act-${raiseWord}]`);
      if (button) {
        button.textContent = `${ACTION_LABEL[raiseWord]} ${money(s.raise)}`;
        button.disabled = s.busy || !(s.raise >= min && s.raise <= max);
      }
    };
    if (slider) {
      slider.addEventListener("input", () => sync(slider));
      input.addEventListener("input", () => sync(input));
    }
    const buttons = opts.actions.map((a) => {
      let label = ACTION_LABEL[a] || a;
      if (a === "call") label = `Call ${money(opts.to_call)}`;
      if (a === "bet" || a === "raise") label = `${label} ${money(s.raise)}`;
      if (a === "all_in") label = `All-in ${money(opts.stack + opts.bet)}`;
      const outOfRange = (a === "bet" || a === "raise") && (s.raise == null || s.raise < min || s.raise > max);
      return h("button", { class: `btn act act-${a}`, testid: `act-${a}`, disabled: s.busy || outOfRange, onclick: () => act(a) }, label);
    });
    return h(
      "div",
      { class: "hm-decision", testid: "decision" },
      h("div", { class: "actions" }, buttons),
      raiseWord
        ? h("div", { class: "hm-raise" }, h("span", { class: "muted" }, `${raiseWord === "bet" ? "Bet" : "Raise to"} ${money(min)}–${money(max)}`), slider, input)
        : null,
    );
  }

  function buyInDialog() {
    const t = s.table || {};
    const limits = t.buy_in || { min: rules.min_buy_in, max: rules.max_buy_in };
    const mine = (t.seats || []).find((x) => x.seat === mySeat());
    const stack = mine ? mine.stack : 0;
    const max = Math.max(0, (limits.max ?? 0) - stack);
    const min = stack > 0 ? 1 : limits.min ?? 1;
    if (s.buyIn == null) s.buyIn = Math.min(max, Math.max(min, limits.min ?? min));
    const input = h("input", { type: "number", min: centsText(min), max: centsText(max), step: "0.01", value: centsText(s.buyIn), testid: "buyin-amount", class: "amount" });
    input.addEventListener("input", () => (s.buyIn = toCents(input.value)));
    return h(
      "div",
      { class: "hm-dialog", role: "dialog", testid: "buyin-dialog" },
      h("h3", {}, stack > 0 ? "Top up" : "Buy in"),
      h("p", { class: "muted" }, `Between ${money(min)} and ${money(max)}. Wallet: ${money(wallet.balance)}`),
      input,
      h(
        "div",
        { class: "actions" },
        h("button", { class: "btn primary", testid: "buyin-submit", disabled: s.busy, onclick: buyIn }, "Buy in"),
        stack > 0 ? h("button", { class: "btn ghost", onclick: () => ((s.buyIn = null), (s.dialog = false), render()) }, "Cancel") : null,
      ),
    );
  }

  function controls() {
    const t = s.table;
    if (!t) return h("div", { class: "controls" });
    const me = mySeat();
    if (me == null) {
      return h("div", { class: "controls" }, h("button", { class: "btn primary", testid: "sit", disabled: s.busy, onclick: () => send({ type: "join" }, "Cannot sit") }, "Take a seat"));
    }
    const mine = (t.seats || []).find((x) => x.seat === me) || { stack: 0 };
    const inHand = Boolean(mine.in_hand) && Boolean(s.view) && !s.last;
    const opts = s.view && s.view.options;
    const parts = [];
    if (opts) parts.push(decisionControls(opts));
    else if (s.view && s.view.actor != null && inHand) parts.push(h("p", { class: "muted", testid: "waiting" }, `Waiting for ${nameOf(s.view.actor)}…`));
    if (!inHand && (mine.stack === 0 || s.dialog)) parts.push(buyInDialog());
    parts.push(
      h(
        "div",
        { class: "actions hm-seat-actions" },
        !inHand && mine.stack > 0 && !s.dialog ? h("button", { class: "btn small", testid: "topup", onclick: () => ((s.dialog = true), (s.buyIn = null), render()) }, "Top up") : null,
        mine.sitting_out
          ? h("button", { class: "btn small", testid: "sit-in", disabled: s.busy, onclick: () => send({ type: "sit_in" }, "Cannot sit in") }, "Sit in")
          : h("button", { class: "btn small", testid: "sit-out", disabled: s.busy, onclick: () => send({ type: "sit_out" }, "Cannot sit out") }, "Sit out"),
        h("button", { class: "btn small ghost", testid: "leave", disabled: s.busy || inHand, onclick: leave }, mine.stack > 0 ? `Cash out ${money(mine.stack)}` : "Leave seat"),
      ),
    );
    return h("div", { class: "controls" }, parts);
  }

  function render() {
    const t = s.table;
    root.dataset.phase = s.view ? s.view.street || s.view.phase : t ? t.status : "connecting";
    root.dataset.turn = s.view && s.view.options ? "me" : "";
    const seats = [];
    for (let i = 0; i < maxSeats; i++) seats.push(seatEl(i));
    root.replaceChildren(
      h(
        "div",
        { class: "table-head" },
        h("a", { href: "#/lobby", class: "back" }, "← Lobby"),
        h("h2", {}, info.title || info.name),
        h("span", { class: "limits" }, `Blinds ${money(rules.small_blind)}/${money(rules.big_blind)} · No-Limit`),
        t && t.round_id ? h("span", { class: "round" }, `Hand ${t.round_id}`) : null,
        h("span", { class: `conn conn-${s.conn}`, testid: "connection" }, s.conn),
      ),
      h(
        "div",
        { class: "table-layout" },
        h("div", { class: "table-main" }, h("div", { class: "hm-felt", testid: "felt" }, seats, centre()), controls()),
        logPanel(s.log),
      ),
    );
  }

  return startTablePage({ root, state: s, socket, render, timerEl });
}
