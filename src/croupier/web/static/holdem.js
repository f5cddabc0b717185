// The Hold'em cash table (No-, Pot- or Fixed-Limit) (docs/protocol.md "Hold'em cash tables"): an oval felt with
// the seats around it (names, stacks, bets, cards), the board and the pot, the buy-in, the
// decision buttons with raise presets (min, ½ pot, ¾ pot, pot, all-in) bounded by the
// server's `options`, pre-actions (check/fold, check, call any) that never act on a changed
// situation, "leave after this hand" (a server-side flag, so it holds if the tab is closed),
// the one timer and the last hand's result with the hands named in full.

import { newKey } from "./api.js";
import { bestHand, Card, CardRow } from "./cards.js";
import { centsText, money, signedMoney, t, toCents } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { play } from "./sound.js";
import { addLog, LogPanel, nameOf, OfflineNote, soundFor, TableHead, Timer, useTable } from "./tablecore.js";
import { html, useEffect, useRef, useState } from "./ui.js";

// Seat places around the oval, as percentages of the felt (seat 0 at the bottom centre).
function seatPlace(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  return { left: `${50 + 43 * Math.cos(angle)}%`, top: `${50 + 42 * Math.sin(angle)}%` };
}

/** Raise presets as street totals, each within the server's bounds. */
export function raisePresets(opts) {
  const min = opts.min_raise_to;
  const max = opts.max_raise_to;
  if (min == null || max == null) return [];
  // A pot-sized raise: call first, then raise by the pot as it would be after the call.
  const potAfterCall = opts.pot + opts.to_call;
  const raiseTo = (fraction) => Math.max(min, Math.min(max, opts.bet + opts.to_call + Math.round(potAfterCall * fraction)));
  // The most the server offers is the whole stack, unless a wager limit caps it (issue 27:
  // `wager_left`): then the last preset is the limit, not an all-in.
  const capped = opts.wager_left != null && max < opts.bet + opts.stack;
  const list = [
    { key: "min", to: min },
    { key: "half", to: raiseTo(0.5) },
    { key: "three_quarters", to: raiseTo(0.75) },
    { key: "pot", to: raiseTo(1) },
    { key: capped ? "limit" : "all_in", to: max },
  ];
  return list;
}

/** What a pre-action does now: the action to send, or null (the situation changed: drop it). */
export function preActionNow(pre, actions) {
  const can = new Set(actions);
  if (pre === "check_fold") return can.has("check") ? "check" : "fold";
  if (pre === "check") return can.has("check") ? "check" : null;
  if (pre === "call_any") return can.has("call") ? "call" : can.has("check") ? "check" : null;
  return null;
}

export function HoldemTable({ info }) {
  const rules = info.rules || {};
  const maxSeats = info.max_seats || rules.max_seats || 6;
  const ui = useRef({ raise: null, buyIn: null, dialog: false, pre: null, preFor: null }).current;
  const [, redraw] = useState(0);
  const refresh = () => redraw((n) => n + 1);

  const { model: m, send } = useTable(info, {
    state(f, mm) {
      const before = mm.view && mm.view.options;
      mm.view = f.view && f.view.game === "holdem" ? f.view : null;
      const me = mm.view && (mm.view.players || []).find((p) => p.seat === f.table.your_seat);
      if (me && me.cards) mm.myHole = me.cards;
      const opts = mm.view && mm.view.options;
      if (opts && (!before || ui.raise == null)) ui.raise = opts.min_raise_to;
      if (!opts) {
        ui.raise = null;
        ui.raiseText = null;
      }
      if (opts && !before) {
        play("turn");
        announce(t("holdem.your_turn"));
      }
    },
    event(e, mm) {
      const me = mm.table ? mm.table.your_seat : null;
      soundFor(e, e.seat === me);
      const who = e.seat != null ? nameOf(mm, e.seat) : "";
      switch (e.kind) {
        case "seated":
          addLog(mm, t("log.sits", { name: e.username }));
          break;
        case "left":
          addLog(mm, e.cashed_out != null ? t("holdem.log.leaves_with", { name: e.username, amount: money(e.cashed_out) }) : t("log.leaves", { name: e.username }));
          break;
        case "bought_in": {
          addLog(mm, t("holdem.log.buys_in", { name: who, amount: money(e.amount) }));
          const entry = ((mm.table && mm.table.seats) || []).find((x) => x.seat === e.seat);
          if (entry) entry.stack = e.stack;
          break;
        }
        case "hand_starting":
          addLog(mm, t("holdem.log.starting"));
          break;
        case "round_opened":
          mm.last = null;
          mm.myHole = null;
          ui.pre = null;
          addLog(mm, t("holdem.log.hand", { n: e.round_id }));
          break;
        case "blind_posted":
        case "ante_posted":
          addLog(mm, t("holdem.log.posts", { name: who, amount: money(e.amount) }));
          break;
        case "folded":
          addLog(mm, t("log.folded", { name: who }));
          break;
        case "checked":
          addLog(mm, t("log.checked", { name: who }));
          break;
        case "called":
          addLog(mm, t("holdem.log.calls", { name: who, amount: money(e.amount) }) + (e.all_in ? ` (${t("action.all_in")})` : ""));
          break;
        case "raised":
          addLog(mm, t(e.all_in ? "holdem.log.all_in" : "holdem.log.raises", { name: who, amount: money(e.to) }));
          break;
        case "timed_out":
          addLog(mm, t("holdem.log.timed_out", { name: who }), "bad");
          break;
        case "board_dealt":
          addLog(mm, t(`holdem.street.${["", "flop", "turn", "river"][e.street] || "flop"}`));
          break;
        case "shown": {
          const board = (mm.view && mm.view.board) || [];
          const hand = board.length ? bestHand([...(e.cards || []), ...board]) : null;
          addLog(mm, t("holdem.log.shows", { name: who, hand: hand ? hand.name : "" }));
          break;
        }
        case "mucked":
          addLog(mm, t("holdem.log.mucks", { name: who }));
          break;
        case "pot_awarded":
          addLog(mm, t("holdem.log.pot", { amount: money((e.amounts || []).reduce((a, b) => a + b, 0)), names: (e.seats || []).map((s) => nameOf(mm, s)).join(", ") }), "good");
          break;
        case "raked":
          if (e.amount) addLog(mm, t("holdem.log.rake", { amount: money(e.amount) }));
          break;
        case "round_closed": {
          mm.last = { ...(e.summary || {}), status: e.status, round_id: e.round_id };
          mm.deadline = null;
          const net = me != null && mm.last.net ? mm.last.net[String(me)] : undefined;
          if (net !== undefined) {
            play(net > 0 ? "win" : net < 0 ? "lose" : "chip");
            announce(net > 0 ? t("holdem.result.won", { amount: money(net) }) : net < 0 ? t("holdem.result.lost", { amount: money(-net) }) : t("holdem.result.even"));
          }
          break;
        }
        default:
          break;
      }
    },
  });

  const tb = m.table;
  const v = m.view;
  const me = tb ? tb.your_seat : null;
  const offline = m.conn !== "open";
  const opts = v && v.options;
  const mine = tb && me != null ? (tb.seats || []).find((x) => x.seat === me) || { stack: 0 } : null;
  const inHand = Boolean(mine && mine.in_hand && v && !m.last);
  const turnKey = opts ? `${tb.round_id}:${v.street}:${v.pot}:${opts.to_call}` : null;

  // A pre-action fires once, when the turn comes, and only as the situation now allows.
  useEffect(() => {
    if (!opts || !ui.pre || ui.preFor === turnKey) return;
    const action = preActionNow(ui.pre, opts.actions);
    ui.preFor = turnKey;
    ui.pre = null;
    if (action) send({ type: "act", action });
    else {
      toast(t("holdem.pre.dropped"), "info");
      refresh();
    }
  }, [turnKey]);

  function act(action) {
    const message = { type: "act", action };
    if (action === "bet" || action === "raise") message.amount = Math.round(Number(ui.raise));
    return send(message);
  }
  async function buyIn() {
    const amount = ui.buyIn;
    if (amount == null) {
      toast(t("holdem.buyin.type"), "error");
      return;
    }
    const result = await send({ type: "buy_in", key: newKey(), amount });
    if (result) {
      ui.buyIn = null;
      ui.buyInText = null;
      ui.dialog = false;
      addLog(m, t("holdem.log.you_buy_in", { amount: money(amount), stack: money(result.stack) }), "good");
      refresh();
    }
  }
  async function leave() {
    const result = await send({ type: "leave" });
    if (result) addLog(m, t("holdem.log.cash_out", { amount: money(result.cashed_out || 0) }), "good");
  }
  async function leaveAfter(flag) {
    await send({ type: "leave", after_hand: flag });
  }

  const seats = [];
  for (let i = 0; i < maxSeats; i++) seats.push(html`<${SeatEl} key=${i} index=${i} model=${m} maxSeats=${maxSeats} onSit=${(seat) => send({ type: "join", seat })} />`);
  const board = v ? v.board : m.last ? m.last.board || [] : [];
  const myCards = (v && ((v.players || []).find((p) => p.seat === me) || {}).cards) || m.myHole;
  const myHand = myCards && board && board.length >= 3 ? bestHand([...myCards, ...board]) : null;
  const street = v ? (v.phase === "void" ? t("holdem.voided") : t(`holdem.street.${v.street}`)) : tb ? t(`lobby.status.${tb.status}`) : t("conn.connecting");
  const structure = t(`holdem.structure.${rules.structure || "no-limit"}`);
  const limits = t("holdem.limits", { sb: money(rules.small_blind), bb: money(rules.big_blind), structure });

  return html`<section class="table-page holdem" data-testid="holdem-table" data-phase=${v ? v.street || v.phase : tb ? tb.status : "connecting"} data-turn=${opts ? "me" : ""} aria-label=${info.title || info.name}>
    <${TableHead} info=${info} model=${m} limits=${limits} extra=${tb && tb.round_id ? html`<span class="round">${t("holdem.hand_n", { n: tb.round_id })}</span>` : null} />
    <div class="table-layout">
      <div class="table-main">
        <div class="hm-wrap">
          <div class="hm-felt" data-testid="felt">
            ${seats}
            <div class="hm-centre">
              <div class="phase" data-testid="phase">${street}</div>
              <${CardRow} cards=${board} slots=${5} best=${m.last && myHand ? new Set(myHand.five) : null} label=${t("board")} testid="board" />
              <div class="hm-pot" data-testid="pot" data-pot=${String(v ? v.pot : 0)}>${v ? t("holdem.pot", { amount: money(v.pot) }) : ""}</div>
              <${Timer} deadline=${m.deadline} active=${Boolean(v && !m.last && v.actor != null)} />
              <${HandResult} model=${m} me=${me} />
            </div>
          </div>
        </div>
        ${myHand ? html`<div class="hand-note mine" data-testid="my-hand">${t("your_hand", { hand: myHand.name })}</div>` : null}
        <div class="controls" data-testid="controls">
          <${OfflineNote} model=${m} />
          ${renderControls()}
        </div>
      </div>
      <${LogPanel} log=${m.log} />
    </div>
  </section>`;

  function renderControls() {
    if (!tb) return null;
    if (me == null) return html`<button type="button" class="btn primary" data-testid="sit" disabled=${m.busy || offline} onClick=${() => send({ type: "join" })}>${t("sit")}</button>`;
    const parts = [];
    if (opts) parts.push(html`<${Decision} opts=${opts} ui=${ui} busy=${m.busy || offline} onAct=${act} refresh=${refresh} />`);
    else if (inHand && v.actor != null) {
      parts.push(html`<p class="muted" data-testid="waiting">${t("holdem.waiting_for", { name: nameOf(m, v.actor) })}</p>`);
      parts.push(html`<${PreActions} ui=${ui} refresh=${refresh} />`);
    }
    if (!inHand && (mine.stack === 0 || ui.dialog)) parts.push(html`<${BuyIn} tb=${tb} rules=${rules} mine=${mine} ui=${ui} busy=${m.busy || offline} onBuy=${buyIn} refresh=${refresh} />`);
    parts.push(html`<div class="actions hm-seat-actions">
      ${!inHand && mine.stack > 0 && !ui.dialog ? html`<button type="button" class="btn small" data-testid="topup" onClick=${() => { ui.dialog = true; ui.buyIn = null; refresh(); }}>${t("holdem.topup")}</button>` : null}
      ${mine.sitting_out
        ? html`<button type="button" class="btn small" data-testid="sit-in" disabled=${m.busy || offline} onClick=${() => send({ type: "sit_in" })}>${t("holdem.sit_in")}</button>`
        : html`<button type="button" class="btn small" data-testid="sit-out" disabled=${m.busy || offline} onClick=${() => send({ type: "sit_out" })}>${t("holdem.sit_out")}</button>`}
      ${inHand
        ? html`<label class="check small" data-testid="leave-after-label"><input type="checkbox" data-testid="leave-after" checked=${Boolean(mine.leaving)} disabled=${m.busy || offline} onChange=${(e) => leaveAfter(e.target.checked)} /> ${t("holdem.leave_after")}</label>`
        : html`<button type="button" class="btn small ghost" data-testid="leave" disabled=${m.busy || offline} onClick=${leave}>${mine.stack > 0 ? t("holdem.cash_out", { amount: money(mine.stack) }) : t("btn.leave")}</button>`}
    </div>`);
    return parts;
  }
}

function SeatEl({ index, model, maxSeats, onSit }) {
  const v = model.view;
  const tb = model.table;
  const occupant = ((tb && tb.seats) || []).find((x) => x.seat === index);
  const player = v ? (v.players || []).find((p) => p.seat === index) : null;
  const mine = tb && index === tb.your_seat;
  const classes = ["hm-seat"];
  if (mine) classes.push("mine");
  if (v && v.actor === index && !model.last) classes.push("acting");
  if (player && !player.in_hand) classes.push("folded");
  if (!occupant && !player) classes.push("empty");
  const shown = model.last && model.last.shown && model.last.shown[String(index)];
  let cards = null;
  if (shown) cards = shown;
  else if (player) {
    if (player.cards) cards = player.cards;
    else if (player.in_hand) cards = [null, null];
  } else if (mine && model.last && model.myHole) cards = model.myHole;
  const stack = player ? player.stack : occupant ? occupant.stack : null;
  const net = model.last && model.last.net ? model.last.net[String(index)] : undefined;
  const name = occupant ? occupant.username : player ? player.name : null;
  const board = (model.last && model.last.board) || [];
  const hand = shown && board.length === 5 && !mine ? bestHand([...shown, ...board]) : null;
  const button = (v && v.button === index) || (!v && tb && tb.button === index);
  return html`<div class=${classes.join(" ")} style=${seatPlace(index, maxSeats)} data-testid=${`seat-${index}`} data-seat=${String(index)}>
    ${cards ? html`<div class="hm-cards" data-testid=${mine ? "my-hole" : "hole"} role="group" aria-label=${mine ? t("your_cards") : t("cards_of", { name: name || t("box.n", { n: index + 1 }) })}>${cards.map((c, i) => html`<${Card} key=${c || `b${i}`} code=${c} small=${!mine} />`)}</div>` : null}
    <div class="hm-plate">
      ${name
        ? html`<div class="seat-name"><span>${name}</span>${mine ? html` <span class="you-tag">(${t("you")})</span>` : null}</div>`
        : tb && tb.your_seat == null
          ? html`<button type="button" class="btn small" data-testid=${`sit-${index}`} onClick=${() => onSit(index)}>${t("sit_here")}</button>`
          : html`<div class="seat-name muted">${t("empty")}</div>`}
      ${stack != null ? html`<div class="hm-stack" data-testid=${mine ? "my-stack" : null} data-stack=${String(stack)}>${money(stack)}</div>` : null}
      ${occupant && occupant.sitting_out ? html`<div class="muted">${t("holdem.sitting_out")}</div>` : null}
      ${occupant && occupant.leaving ? html`<div class="muted">${t("holdem.leaving")}</div>` : null}
      ${hand ? html`<div class="hm-hand">${hand.name}</div>` : null}
      ${net !== undefined && name ? html`<div class=${net > 0 ? "good" : net < 0 ? "bad" : "muted"}>${signedMoney(net)}</div>` : null}
    </div>
    ${button ? html`<div class="hm-button" role="img" aria-label=${t("holdem.dealer_button")}>D</div>` : null}
    ${player && player.bet ? html`<div class="hm-bet" data-testid="seat-bet">${money(player.bet)}</div>` : null}
  </div>`;
}

function HandResult({ model, me }) {
  const last = model.last;
  if (!last) return null;
  const net = me != null && last.net ? last.net[String(me)] : undefined;
  if (last.status === "voided" || last.void) {
    return html`<div class="result-banner" data-testid="hand-result" data-net="0" role="status"><div class="headline">${t("holdem.voided_long")}</div></div>`;
  }
  const winners = Object.entries(last.won || {}).map(([seat, amount]) => t("holdem.wins", { name: nameOf(model, Number(seat)), amount: money(amount) }));
  const cls = net > 0 ? "win" : net < 0 ? "lose" : "";
  const head = net === undefined ? t("holdem.hand_over") : net > 0 ? t("holdem.result.won", { amount: money(net) }) : net < 0 ? t("holdem.result.lost", { amount: money(-net) }) : t("holdem.result.even");
  return html`<div class=${`result-banner compact ${cls}`} data-testid="hand-result" data-net=${net === undefined ? "" : String(net)} role="status">
    <div class="headline" data-testid="hand-net">${head}</div>
    <div class="hands">${winners.join(" · ")}${last.rake ? ` · ${t("holdem.rake", { amount: money(last.rake) })}` : ""}</div>
  </div>`;
}

function Decision({ opts, ui, busy, onAct, refresh }) {
  const raiseWord = opts.actions.find((a) => a === "bet" || a === "raise");
  const min = opts.min_raise_to;
  const max = opts.max_raise_to;
  const value = Math.min(max ?? 0, Math.max(min ?? 0, Number(ui.raise) || 0));
  const inRange = ui.raise != null && ui.raise >= min && ui.raise <= max;
  const buttons = opts.actions.map((a) => {
    let label = t(`action.${a}`);
    if (a === "call") label = t("holdem.call", { amount: money(opts.to_call) });
    if (a === "bet" || a === "raise") label = t(`holdem.${a}_to`, { amount: money(ui.raise) });
    if (a === "all_in") label = t("holdem.all_in", { amount: money(opts.stack + opts.bet) });
    const disabled = busy || ((a === "bet" || a === "raise") && !inRange);
    return html`<button type="button" key=${a} class=${`btn act act-${a}`} data-testid=${`act-${a}`} disabled=${disabled} onClick=${() => onAct(a)}>${label}</button>`;
  });
  const set = (cents) => {
    ui.raise = cents;
    ui.raiseText = null;
    refresh();
  };
  return html`<div class="hm-decision" data-testid="decision">
    <div class="actions" role="group" aria-label=${t("decision")}>${buttons}</div>
    ${raiseWord
      ? html`<div class="hm-raise">
          <div class="presets" role="group" aria-label=${t("holdem.presets")}>
            ${raisePresets(opts).map((p) => html`<button type="button" key=${p.key} class="btn small" data-testid=${`preset-${p.key}`} disabled=${busy} aria-pressed=${ui.raise === p.to ? "true" : "false"} onClick=${() => set(p.to)}>${t(`holdem.preset.${p.key}`)}</button>`)}
          </div>
          <input type="range" min=${min} max=${max} step="1" value=${value} data-testid="raise-slider" class="hm-slider" aria-label=${t("holdem.amount")} aria-valuetext=${money(value)} onInput=${(e) => set(Math.round(Number(e.target.value)))} />
          <label class="amount-label"><span class="sr-only">${t("holdem.amount")}</span>
            <input type="text" inputmode="decimal" min=${centsText(min)} max=${centsText(max)} value=${ui.raiseText ?? centsText(ui.raise ?? value)} data-testid="raise-amount" class="amount" data-cents=${ui.raise ?? ""}
              onInput=${(e) => { ui.raiseText = e.target.value; ui.raise = toCents(e.target.value); refresh(); }} /></label>
          <span class="muted small">${t("holdem.range", { min: money(min), max: money(max) })}</span>
        </div>`
      : null}
    ${opts.wager_left != null
      ? html`<p class="muted small" data-testid="wager-left">${t("holdem.wager_left", { amount: money(opts.wager_left) })}</p>`
      : null}
  </div>`;
}

function PreActions({ ui, refresh }) {
  const box = (key) => html`<label class="check" key=${key}><input type="checkbox" data-testid=${`pre-${key}`} checked=${ui.pre === key}
      onChange=${(e) => { ui.pre = e.target.checked ? key : null; ui.preFor = null; refresh(); }} /> ${t(`holdem.pre.${key}`)}</label>`;
  return html`<div class="pre-actions" role="group" aria-label=${t("holdem.pre.title")}>${box("check_fold")}${box("check")}${box("call_any")}</div>`;
}

function BuyIn({ tb, rules, mine, ui, busy, onBuy, refresh }) {
  const limits = tb.buy_in || { min: rules.min_buy_in, max: rules.max_buy_in };
  const stack = mine.stack || 0;
  const max = Math.max(0, (limits.max ?? 0) - stack);
  const min = stack > 0 ? 1 : limits.min ?? 1;
  if (ui.buyIn == null) ui.buyIn = Math.min(max, Math.max(min, limits.min ?? min));
  return html`<div class="hm-dialog" role="group" aria-labelledby="buyin-title" data-testid="buyin-dialog">
    <h2 id="buyin-title">${stack > 0 ? t("holdem.topup") : t("holdem.buyin")}</h2>
    <p class="muted">${t("holdem.buyin.range", { min: money(min), max: money(max) })}</p>
    <label>${t("holdem.amount")} <input type="text" inputmode="decimal" min=${centsText(min)} max=${centsText(max)} value=${ui.buyInText ?? centsText(ui.buyIn)} data-testid="buyin-amount" class="amount"
      onInput=${(e) => { ui.buyInText = e.target.value; ui.buyIn = toCents(e.target.value); }} /></label>
    <div class="actions">
      <button type="button" class="btn primary" data-testid="buyin-submit" disabled=${busy} onClick=${onBuy}>${t("holdem.buyin")}</button>
      ${stack > 0 ? html`<button type="button" class="btn ghost" onClick=${() => { ui.buyIn = null; ui.dialog = false; refresh(); }}>${t("btn.cancel")}</button>` : null}
    </div>
  </div>`;
}
