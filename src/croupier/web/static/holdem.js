// The Hold'em cash table (No-, Pot- or Fixed-Limit) (docs/protocol.md "Hold'em cash tables"): an oval felt with
// the seats around it (names, stacks, bets, cards), the board and the pot, the buy-in, the
// decision buttons with raise presets (min, ½ pot, ¾ pot, pot, all-in) bounded by the
// server's `options`, pre-actions (check/fold, check, call any) that never act on a changed
// situation, "leave after this hand" (a server-side flag, so it holds if the tab is closed),
// the one timer and the last hand's result with the hands named in full.

import { newKey } from "./api.js";
import { bestHand, Card, CardRow, ChipStack, nameAgainst } from "./cards.js";
import { centsText, money, signedMoney, t, toCents } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { play } from "./sound.js";
import { addLog, LogPanel, nameOf, Notices, OfflineNote, soundFor, TableHead, tableTitle, Timer, useFocusNext, useTable } from "./tablecore.js";
import { html, useEffect, useMedia, useRef, useState, useTicker } from "./ui.js";

// Seat places around the oval, as percentages of the felt (place 0 at the bottom centre: the
// player's own seat). A narrow felt (a phone) pushes the side places up and down, away from
// the board in the middle (style.css reads --y-narrow).
function seatPlace(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  const sin = Math.sin(angle);
  const narrow = Math.abs(sin) < 0.99 ? 50 + 44 * Math.sign(sin) * Math.max(Math.abs(sin), 0.78) : 50 + 43 * sin;
  return { left: `${50 + 43 * Math.cos(angle)}%`, top: `${50 + 42 * sin}%`, "--y-narrow": `${narrow}%` };
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

/** The blinds and structure of a Hold'em table's rules (its header, the lobby). */
export function holdemLimits(rules) {
  const structure = t(`holdem.structure.${rules.structure || "no-limit"}`);
  return t("holdem.limits", { sb: money(rules.small_blind), bb: money(rules.big_blind), structure });
}

// The keys of the decision buttons (shown on them, read out as aria-keyshortcuts).
export const HOTKEYS = { f: "fold", x: "check", c: "call", b: "bet", r: "raise", a: "all_in" };
const KEY_OF = { fold: "F", check: "X", call: "C", bet: "B", raise: "R", all_in: "A" };

/** The action a key press asks for among `actions` ("c" calls, or checks when nothing is to
 * call; "r" bets or raises), or null. */
export function hotkeyAction(key, actions) {
  const k = String(key || "").toLowerCase();
  const can = new Set(actions || []);
  const want = HOTKEYS[k];
  if (!want) return null;
  if (can.has(want)) return want;
  if (k === "c" && can.has("check")) return "check";
  if (k === "x" && can.has("call")) return null; // "check" never calls
  if ((k === "r" || k === "b") && (can.has("bet") || can.has("raise"))) return can.has("bet") ? "bet" : "raise";
  return null;
}

/** Where each seat sits around the oval: the player's own seat at the bottom centre. */
export function placeOf(seat, me, count) {
  return me == null ? seat : (seat - me + count) % count;
}

/** The shown hands of a finished hand, each named on the final board with the kickers that
 * tell it from the others: seat -> {hand, name}. */
export function namedHands(shown, board) {
  const hands = Object.fromEntries(Object.entries(shown || {}).filter(([, c]) => c && c.length === 2 && (board || []).length >= 3).map(([s, c]) => [s, bestHand([...c, ...board])]));
  const all = Object.values(hands);
  return Object.fromEntries(Object.entries(hands).map(([s, h]) => [s, { hand: h, name: nameAgainst(h, all) }]));
}

export function HoldemTable({ info }) {
  const maxSeats = info.max_seats || (info.rules && info.rules.max_seats) || 6;
  const ui = useRef({ raise: null, buyIn: null, dialog: false, pre: null, preFor: null }).current;
  const [, redraw] = useState(0);
  const refresh = () => redraw((n) => n + 1);
  const controls = useRef(null);

  const { model: m, send, decide, canDecide } = useTable(info, {
    limits: holdemLimits,
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
      const mine = ((f.table && f.table.seats) || []).find((x) => x.seat === f.table.your_seat);
      if (mine && mine.stack > 0) mm.rebuy = null;
    },
    event(e, mm, f) {
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
          if (e.seat === me) mm.rebuy = null;
          break;
        }
        case "hand_starting":
          addLog(mm, t("holdem.log.starting"));
          break;
        case "round_opened":
          mm.last = null;
          mm.myHole = null;
          mm.awards = [];
          mm.bank = null;
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
        case "turn":
          // The seat drawing on its time bank: its timer says so until the next turn.
          mm.bank = e.time_bank ? e.seat : null;
          if (e.time_bank) addLog(mm, t("holdem.log.time_bank", { name: who }));
          break;
        case "timed_out":
          addLog(mm, t("holdem.log.timed_out", { name: who }), "bad");
          break;
        case "board_dealt":
          addLog(mm, t(`holdem.street.${["", "flop", "turn", "river"][e.street] || "flop"}`));
          break;
        case "shown":
          // Named once the board is complete (an all-in runs the board out after the show).
          addLog(mm, t("holdem.log.shows_cards", { name: who }));
          break;
        case "mucked":
          addLog(mm, t("holdem.log.mucks", { name: who }));
          break;
        case "pot_awarded":
          mm.awards = [...(mm.awards || []), { pot: e.pot, seats: e.seats || [], amounts: e.amounts || [] }];
          break;
        case "raked":
          if (e.amount) addLog(mm, t("holdem.log.rake", { amount: money(e.amount) }));
          break;
        case "rebuy_offered":
          if (e.seat === me) {
            mm.rebuy = { at: f._at + e.seconds * 1000, total: Math.max(e.seconds, 0.001), min: e.min, max: e.max };
            ui.buyIn = null;
            announce(t("holdem.rebuy.title"));
          }
          break;
        case "round_closed": {
          mm.last = { ...(e.summary || {}), status: e.status, round_id: e.round_id };
          mm.deadline = null;
          mm.bank = null;
          const named = namedHands(mm.last.shown, mm.last.board);
          for (const [s, h] of Object.entries(named)) addLog(mm, t("holdem.log.shows", { name: nameOf(mm, Number(s)), hand: h.name }));
          for (const line of potLines(mm.last, mm.awards, named, (s) => nameOf(mm, s))) addLog(mm, line.text, "good");
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

  const rules = m.rules;
  const tb = m.table;
  const v = m.view;
  const me = tb ? tb.your_seat : null;
  const offline = m.conn !== "open";
  const opts = v && v.options;
  const mine = tb && me != null ? (tb.seats || []).find((x) => x.seat === me) || { stack: 0 } : null;
  const inHand = Boolean(mine && mine.in_hand && v && !m.last);
  const turnKey = opts ? `${tb.round_id}:${v.street}:${v.pot}:${opts.to_call}` : null;
  const live_ = Boolean(opts) && canDecide();
  useFocusNext(m, controls);
  // A phone's oval is narrow: the result goes under it, where it covers no seat or card.
  const narrow = useMedia("(max-width: 700px)");

  // A pre-action fires once, when the turn comes, and only as the situation now allows.
  useEffect(() => {
    if (!opts || !ui.pre || ui.preFor === turnKey) return;
    const action = preActionNow(ui.pre, opts.actions);
    ui.preFor = turnKey;
    ui.pre = null;
    if (action) decide({ type: "act", action });
    else {
      toast(t("holdem.pre.dropped"), "info");
      refresh();
    }
  }, [turnKey]);

  // Keyboard shortcuts while it is the player's turn (not while typing an amount).
  useEffect(() => {
    if (!opts) return undefined;
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
      const el = e.target;
      if (el && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA" || el.isContentEditable)) return;
      const action = hotkeyAction(e.key, opts.actions);
      if (!action) return;
      e.preventDefault();
      if ((action === "bet" || action === "raise") && !(ui.raise >= opts.min_raise_to && ui.raise <= opts.max_raise_to)) return;
      act(action);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [turnKey, live_]);

  function act(action) {
    const message = { type: "act", action };
    if (action === "bet" || action === "raise") message.amount = Math.round(Number(ui.raise));
    return decide(message);
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
      m.rebuy = null;
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

  const board = v ? v.board : m.last ? m.last.board || [] : [];
  const named = m.last ? namedHands(m.last.shown, m.last.board) : {};
  const winners = m.last ? new Set(Object.keys(m.last.won || {})) : new Set();
  // The winner's five, lit on the board and in their hand (the best of them when several).
  const winnerFive = (() => {
    const lit = new Set();
    for (const s of winners) if (named[s]) for (const c of named[s].hand.five) lit.add(c);
    return lit.size ? lit : null;
  })();
  const seats = [];
  for (let i = 0; i < maxSeats; i++) seats.push(html`<${SeatEl} key=${i} index=${i} place=${placeOf(i, me, maxSeats)} model=${m} maxSeats=${maxSeats} named=${named} winners=${winners} lit=${winnerFive} onSit=${(seat) => send({ type: "join", seat })} />`);
  const myCards = (v && ((v.players || []).find((p) => p.seat === me) || {}).cards) || m.myHole;
  const myHand = myCards && board && board.length >= 3 ? bestHand([...myCards, ...board]) : null;
  const street = v ? (v.phase === "void" ? t("holdem.voided") : t(`holdem.street.${v.street}`)) : m.last ? t("holdem.hand_over") : tb ? t(`lobby.status.${tb.status}`) : t("conn.connecting");
  const limits = holdemLimits(rules);

  return html`<section class="table-page holdem" data-testid="holdem-table" data-phase=${v ? v.street || v.phase : tb ? tb.status : "connecting"} data-turn=${opts ? "me" : ""} aria-label=${tableTitle(info)}>
    <${TableHead} info=${info} model=${m} limits=${limits} extra=${tb && tb.round_id ? html`<span class="round">${t("holdem.hand_n", { n: tb.round_id })}</span>` : null} />
    <div class="table-layout">
      <div class="table-main">
        <${Notices} model=${m} />
        <div class="hm-wrap">
          <div class="hm-felt" data-testid="felt">
            ${seats}
            <div class="hm-centre">
              <div class="phase" data-testid="phase">${street}</div>
              <${CardRow} cards=${board} slots=${5} best=${winnerFive || (m.last && myHand ? new Set(myHand.five) : null)} label=${t("board")} testid="board" />
              <${Pots} view=${v} last=${m.last} />
              <${Timer} deadline=${m.deadline && m.bank != null && v && m.bank === v.actor ? { ...m.deadline, bank: true } : m.deadline} active=${Boolean(v && !m.last && v.actor != null)} />
              ${narrow ? null : html`<${HandResult} model=${m} me=${me} named=${named} />`}
            </div>
          </div>
        </div>
        ${narrow ? html`<${HandResult} model=${m} me=${me} named=${named} />` : null}
        ${myHand ? html`<div class="hand-note mine" data-testid="my-hand">${t("your_hand", { hand: m.last && named[String(me)] ? named[String(me)].name : myHand.name })}</div>` : null}
        <div class="controls" data-testid="controls" ref=${controls} tabindex="-1">
          <${OfflineNote} model=${m} />
          ${renderControls()}
        </div>
      </div>
      <${LogPanel} log=${m.log} />
    </div>
  </section>`;

  function renderControls() {
    if (!tb) return null;
    if (me == null) return html`<button type="button" class="btn primary" data-testid="sit" disabled=${m.busy || offline || m.closed} onClick=${() => send({ type: "join" })}>${t("sit")}</button>`;
    const parts = [];
    if (opts) parts.push(html`<${Decision} opts=${opts} ui=${ui} busy=${!live_} onAct=${act} refresh=${refresh} />`);
    else if (inHand && v.actor != null) {
      parts.push(html`<p class="muted" data-testid="waiting">${t("holdem.waiting_for", { name: nameOf(m, v.actor) })}</p>`);
      parts.push(html`<${PreActions} ui=${ui} refresh=${refresh} />`);
    }
    if (!inHand && (mine.stack === 0 || ui.dialog)) parts.push(html`<${BuyIn} tb=${tb} rules=${rules} mine=${mine} ui=${ui} rebuy=${m.rebuy} busy=${m.busy || offline} onBuy=${buyIn} onLeave=${leave} refresh=${refresh} />`);
    parts.push(html`<div class="actions hm-seat-actions">
      ${!inHand && mine.stack > 0 && !ui.dialog ? html`<button type="button" class="btn small" data-testid="topup" onClick=${() => { ui.dialog = true; ui.buyIn = null; refresh(); }}>${t("holdem.topup")}</button>` : null}
      ${mine.sitting_out
        ? html`<button type="button" class="btn small" data-testid="sit-in" disabled=${m.busy || offline} onClick=${() => send({ type: "sit_in" })}>${t("holdem.sit_in")}</button>`
        : html`<button type="button" class="btn small" data-testid="sit-out" disabled=${m.busy || offline} onClick=${() => send({ type: "sit_out" })}>${t("holdem.sit_out")}</button>`}
      ${m.rebuy && !inHand
        ? null
        : inHand
        ? html`<label class="check small" data-testid="leave-after-label"><input type="checkbox" data-testid="leave-after" checked=${Boolean(mine.leaving)} disabled=${m.busy || offline} onChange=${(e) => leaveAfter(e.target.checked)} /> ${t("holdem.leave_after")}</label>`
        : html`<button type="button" class="btn small ghost" data-testid="leave" disabled=${m.busy || offline} onClick=${leave}>${mine.stack > 0 ? t("holdem.cash_out", { amount: money(mine.stack) }) : t("btn.leave")}</button>`}
    </div>`);
    return parts;
  }
}

/** The result lines of a hand: each pot (main, side 1...) with its winners and their hands. */
export function potLines(last, awards, named, nameFor) {
  const pots = (last && last.pots && last.pots.length ? last.pots : awards) || [];
  return pots.map((p) => {
    const amount = p.amount ?? (p.amounts || []).reduce((a, b) => a + b, 0);
    const who = (p.seats || []).map((s) => nameFor(s)).join(", ");
    const hands = (p.seats || []).map((s) => named[String(s)] && named[String(s)].name).filter(Boolean);
    const pot = p.pot === 0 ? t("holdem.main_pot") : t("holdem.side_pot", { n: p.pot });
    const text = hands.length ? t("holdem.pot_won_with", { pot, amount: money(amount), names: who, hand: hands.join(" / ") }) : t("holdem.pot_won", { pot, amount: money(amount), names: who });
    return { pot: p.pot, amount, text };
  });
}

/** The pots in the middle: the main pot and each side pot as its own stack. */
function Pots({ view, last }) {
  if (!view || last) return html`<div class="hm-pots" data-testid="pot" data-pot="0"></div>`;
  const pots = (view.pots || []).filter((p) => p.amount > 0);
  const front = (view.players || []).reduce((a, p) => a + (p.bet || 0), 0);
  return html`<div class="hm-pots" data-testid="pot" data-pot=${String(view.pot)} role="group" aria-label=${t("holdem.pot", { amount: money(view.pot) })}>
    ${pots.length
      ? pots.map((p, i) => html`<div key=${i} class=${`hm-pot${i ? " side" : ""}`} data-testid=${i ? "side-pot" : "main-pot"} data-amount=${String(p.amount)}>
          <${ChipStack} amount=${p.amount} /><span>${i ? t("holdem.side_pot_amount", { n: i, amount: money(p.amount) }) : t("holdem.main_pot_amount", { amount: money(p.amount) })}</span>
        </div>`)
      : html`<div class="hm-pot" data-testid="main-pot" data-amount=${String(view.pot - front)}><span>${t("holdem.pot", { amount: money(view.pot) })}</span></div>`}
    ${pots.length && front ? html`<div class="hm-pot-total muted small">${t("holdem.pot_total", { amount: money(view.pot) })}</div>` : null}
  </div>`;
}

function SeatEl({ index, place, model, maxSeats, named, winners, lit, onSit }) {
  const v = model.view;
  const tb = model.table;
  const occupant = ((tb && tb.seats) || []).find((x) => x.seat === index);
  const player = v ? (v.players || []).find((p) => p.seat === index) : null;
  const mine = tb && index === tb.your_seat;
  const classes = ["hm-seat"];
  if (mine) classes.push("mine");
  if (place === 0) classes.push("bottom");
  if (v && v.actor === index && !model.last) classes.push("acting");
  if (player && !player.in_hand) classes.push("folded");
  if (!occupant && !player) classes.push("empty");
  if (winners.has(String(index))) classes.push("winner");
  const shown = model.last && model.last.shown && model.last.shown[String(index)];
  let cards = null;
  if (shown) cards = shown;
  else if (player) {
    if (player.cards) cards = player.cards;
    else if (player.in_hand) cards = [null, null];
  } else if (mine && model.last && model.myHole) cards = model.myHole;
  const stack = player ? player.stack : occupant ? occupant.stack : null;
  const allIn = Boolean(player && player.in_hand && player.stack === 0 && !model.last);
  const net = model.last && model.last.net ? model.last.net[String(index)] : undefined;
  const name = occupant ? occupant.username : player ? player.name : null;
  const hand = named[String(index)];
  const button = (v && v.button === index) || (!v && tb && tb.button === index);
  const bank = occupant && occupant.time_bank != null && occupant.time_bank > 0 ? occupant.time_bank : null;
  return html`<div class=${classes.join(" ")} style=${seatPlace(place, maxSeats)} data-testid=${`seat-${index}`} data-seat=${String(index)} data-place=${String(place)}>
    ${cards ? html`<div class="hm-cards" data-testid=${mine ? "my-hole" : "hole"} role="group" aria-label=${mine ? t("your_cards") : t("cards_of", { name: name || t("box.n", { n: index + 1 }) })}>${cards.map((c, i) => html`<${Card} key=${c || `b${i}`} code=${c} small=${!mine} highlight=${Boolean(lit && c && lit.has(c))} dim=${Boolean(lit && c && !lit.has(c) && model.last)} />`)}</div>` : null}
    <div class="hm-plate">
      ${name
        ? html`<div class="seat-name"><span class="name-text">${name}</span>${mine ? html` <span class="you-tag">(${t("you")})</span>` : null}</div>`
        : tb && tb.your_seat == null
          ? html`<button type="button" class="btn small" data-testid=${`sit-${index}`} onClick=${() => onSit(index)}>${t("sit_here")}</button>`
          : html`<div class="seat-name muted">${t("empty")}</div>`}
      ${stack != null ? html`<div class="hm-stack" data-testid=${mine ? "my-stack" : null} data-stack=${String(stack)}>${money(stack)}</div>` : null}
      ${allIn ? html`<div class="tag all-in" data-testid="all-in">${t("holdem.all_in_tag")}</div>` : null}
      ${occupant && occupant.sitting_out ? html`<div class="muted">${t("holdem.sitting_out")}</div>` : null}
      ${occupant && occupant.leaving ? html`<div class="muted">${t("holdem.leaving")}</div>` : null}
      ${hand ? html`<div class="hm-hand" data-testid="seat-hand">${hand.name}</div>` : null}
      ${net !== undefined && name ? html`<div class=${net > 0 ? "good" : net < 0 ? "bad" : "muted"}>${signedMoney(net)}</div>` : null}
      ${bank && !model.last ? html`<div class="muted small" data-testid="time-bank">${t("holdem.time_bank_left", { n: Math.round(bank) })}</div>` : null}
    </div>
    ${button ? html`<div class="hm-button" role="img" aria-label=${t("holdem.dealer_button")}>D</div>` : null}
    ${player && player.bet ? html`<div class="hm-bet" data-testid="seat-bet">${money(player.bet)}</div>` : null}
  </div>`;
}

function HandResult({ model, me, named }) {
  const last = model.last;
  if (!last) return null;
  const net = me != null && last.net ? last.net[String(me)] : undefined;
  if (last.status === "voided" || last.void) {
    return html`<div class="result-banner" data-testid="hand-result" data-net="0" role="status"><div class="headline">${t("holdem.voided_long")}</div></div>`;
  }
  const lines = potLines(last, model.awards, named, (s) => nameOf(model, s));
  const cls = net > 0 ? "win" : net < 0 ? "lose" : "";
  const head = net === undefined ? t("holdem.hand_over") : net > 0 ? t("holdem.result.won", { amount: money(net) }) : net < 0 ? t("holdem.result.lost", { amount: money(-net) }) : t("holdem.result.even");
  return html`<div class=${`result-banner compact ${cls}`} data-testid="hand-result" data-net=${net === undefined ? "" : String(net)} role="status">
    <div class="headline" data-testid="hand-net">${head}</div>
    <ul class="pot-lines" data-testid="pot-lines">${lines.map((l) => html`<li key=${l.pot} data-pot=${String(l.pot)} data-amount=${String(l.amount)}>${l.text}</li>`)}</ul>
    ${last.rake ? html`<div class="hands">${t("holdem.rake", { amount: money(last.rake) })}</div>` : null}
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
    const key = KEY_OF[a];
    return html`<button type="button" key=${a} class=${`btn act act-${a}`} data-testid=${`act-${a}`} disabled=${disabled} aria-keyshortcuts=${key} onClick=${() => onAct(a)}>${label}<kbd aria-hidden="true">${key}</kbd></button>`;
  });
  const set = (cents) => {
    ui.raise = cents;
    ui.raiseText = null;
    refresh();
  };
  return html`<div class="hm-decision" data-testid="decision">
    <div class="actions" role="group" aria-label=${t("decision")} data-decision="1" tabindex="-1" data-live=${String(!busy)}>${buttons}</div>
    ${raiseWord
      ? html`<div class="hm-raise">
          <div class="presets" role="group" aria-label=${t("holdem.presets")}>
            ${raisePresets(opts).map((p) => html`<button type="button" key=${p.key} class="btn small" data-testid=${`preset-${p.key}`} disabled=${busy} aria-pressed=${ui.raise === p.to ? "true" : "false"} onClick=${() => set(p.to)}>${t(`holdem.preset.${p.key}`)}</button>`)}
          </div>
          <input type="range" min=${min} max=${max} step="1" value=${value} data-testid="raise-slider" class="hm-slider" aria-label=${t("table.amount")} aria-valuetext=${money(value)} onInput=${(e) => set(Math.round(Number(e.target.value)))} />
          <label class="amount-label"><span class="sr-only">${t("table.amount")}</span>
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

function BuyIn({ tb, rules, mine, ui, rebuy, busy, onBuy, onLeave, refresh }) {
  const limits = tb.buy_in || { min: rules.min_buy_in, max: rules.max_buy_in };
  const stack = mine.stack || 0;
  const max = Math.max(0, (limits.max ?? 0) - stack);
  const min = stack > 0 ? 1 : limits.min ?? 1;
  if (ui.buyIn == null) ui.buyIn = Math.min(max, Math.max(min, limits.min ?? min));
  useTicker(Boolean(rebuy), 1000);
  const left = rebuy ? Math.max(0, Math.ceil((rebuy.at - performance.now()) / 1000)) : null;
  return html`<div class=${`hm-dialog${rebuy ? " rebuy" : ""}`} role="group" aria-labelledby="buyin-title" data-testid=${rebuy ? "rebuy-dialog" : "buyin-dialog"}>
    <h2 id="buyin-title">${rebuy ? t("holdem.rebuy.title") : stack > 0 ? t("holdem.topup") : t("holdem.buyin")}</h2>
    <p class="muted">${rebuy ? html`<span data-testid="rebuy-text">${t("holdem.rebuy.text", { n: left })}</span> ` : null}${t("holdem.buyin.range", { min: money(min), max: money(max) })}</p>
    <label>${t("table.amount")} <input type="text" inputmode="decimal" min=${centsText(min)} max=${centsText(max)} value=${ui.buyInText ?? centsText(ui.buyIn)} data-testid="buyin-amount" class="amount"
      onInput=${(e) => { ui.buyInText = e.target.value; ui.buyIn = toCents(e.target.value); }} /></label>
    <div class="actions">
      <button type="button" class="btn primary" data-testid="buyin-submit" disabled=${busy} onClick=${onBuy}>${rebuy ? t("holdem.rebuy.button") : t("holdem.buyin")}</button>
      ${stack > 0 ? html`<button type="button" class="btn ghost" onClick=${() => { ui.buyIn = null; ui.dialog = false; refresh(); }}>${t("btn.cancel")}</button>` : null}
      ${rebuy ? html`<button type="button" class="btn ghost" data-testid="rebuy-leave" disabled=${busy} onClick=${onLeave}>${t("btn.leave")}</button>` : null}
    </div>
  </div>`;
}
