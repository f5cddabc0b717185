// The Ultimate Texas Hold'em table (spec/uth.md): the felt with the dealer, the board, the
// pay tables, the other boxes and yours (Trips / Ante = Blind / Play spots), the chip tray with
// Undo, Rebet and Double, the decision buttons and the one timer. Everything drawn comes from
// the server's `state` frames (the seat's own view) and events; the page never holds a card
// the seat may not see, because the server never sends one.

import { api, newKey } from "./api.js";
import { bestHand, CardRow, CHIPS, categoryOfValue, categoryName, nameAgainst } from "./cards.js";
import { BetLines, ChipTray, holeCardsFromDeck, limitError, payLine, priceOf, priceText, Spot } from "./common.js";
import { wordError } from "./errors.js";
import { money, number, signedMoney, t } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { play } from "./sound.js";
import { store } from "./store.js";
import { addLog, LogPanel, nameOf, Notices, OfflineNote, secondsLeft, soundFor, TableHead, tableTitle, Timer, UnconfirmedWarning, useFocusNext, useTable, WinnersPanel } from "./tablecore.js";
import { html, useEffect, useRef, useState } from "./ui.js";

// Moved to common.js (issue 31: Russian Poker and Caribbean Stud price and check bets alike).
export { limitError, priceOf };

const ACTIONS = [
  { action: "check", send: { action: "check" } },
  { action: "4x", send: { action: "play", multiple: 4 } },
  { action: "3x", send: { action: "play", multiple: 3 } },
  { action: "2x", send: { action: "play", multiple: 2 } },
  { action: "1x", send: { action: "play", multiple: 1 } },
  { action: "fold", send: { action: "fold" } },
];

function snapshot(v) {
  return { hole: v.hole || [], board: v.board || [], dealer: v.dealer, result: v.result, box: v.box };
}

/** The seat's own Ante in an `antes_returned` event (seed 003: the dealer, not qualified,
 * returns every Ante still in play first, right to left); a live table sends only the count
 * of boxes, and the seat's box says its Ante. */
export function anteReturned(e, v, me) {
  if (me == null || !v) return null;
  const own = (e.antes || []).find((a) => a[0] === me);
  if (own) return own[1];
  const box = v.box;
  return e.boxes != null && box && box.seat === me && !box.folded ? box.ante : null;
}

/** The seat's view follows the events (issue 18): a live table sends no `state` during a
 * round (docs/protocol.md "Live tables"), so the hole cards, the box, the legal actions (its
 * `your_turn`), the board, the dealer's cards and the result are taken from the events; a
 * casino table's `state` replaces the whole view after each of them. */
export function follow(mm, e, me) {
  const v = mm.view;
  const own = me != null && e.seat === me;
  const box = (v && v.box) || null;
  const decided = (changes) => {
    mm.view = { ...v, legal: [], box: box && { ...box, decided: true, ...changes } };
  };
  switch (e.kind) {
    case "round_opened":
      mm.view = { seat: me, phase: "betting", hole: [], board: [], dealer: null, legal: [], result: null, box: null };
      mm.anteBack = null;
      break;
    case "table_idle":
      // No round in play (a casino table's `state` follows and says the same).
      if (v && (v.phase === "settled" || v.result)) mm.last = snapshot(v);
      mm.view = null;
      break;
    case "hole_cards_dealt":
      // A live table's one shared hand is dealt to seat -1, in public.
      if (v && Array.isArray(e.cards) && (own || e.seat === -1)) mm.view = { ...v, hole: e.cards };
      break;
    case "your_turn":
      if (v) mm.view = { ...v, phase: e.phase, legal: e.legal || [], stakes: e.stakes || null, decision: e.decision ?? null, box: box && { ...box, decided: false } };
      break;
    case "bets_placed":
      if (!own) return;
      mm.view = {
        seat: me, phase: "betting", hole: [], board: [], dealer: null, legal: [], result: null, ...v,
        box: { seat: me, ante: e.ante, blind: e.blind, trips: e.trips, play: 0, play_multiple: 0, folded: false, decided: false },
      };
      break;
    case "trips_placed":
      if (own && box) mm.view = { ...v, box: { ...box, trips: e.trips } };
      break;
    case "checked":
      if (own && v) decided({});
      break;
    case "play_bet":
      if (own && v) decided({ play: e.amount, play_multiple: e.multiple });
      break;
    case "folded":
      if (own && v) decided({ folded: true });
      break;
    case "phase_changed":
      if (v) mm.view = { ...v, phase: e.phase, legal: [] };
      break;
    case "board_dealt":
      if (v && Array.isArray(e.cards)) mm.view = { ...v, board: [...(v.board || []), ...e.cards] };
      break;
    case "dealer_revealed":
      if (v && Array.isArray(e.cards)) mm.view = { ...v, dealer: e.cards };
      break;
    case "antes_returned":
      // kept beside the view: a casino table's `state` replaces the view after each event
      mm.anteBack = anteReturned(e, v, me);
      break;
    case "seat_settled":
      if (v && e.result && me != null && e.result.seat === me) {
        mm.view = { ...v, result: e.result };
        mm.last = snapshot(mm.view);
      }
      break;
    default:
      break;
  }
}

/** The limits of a UTH table's rules, as its header and the lobby say them. */
export function uthLimits(rules) {
  return t("uth.limits", { amin: money(rules.ante_min), amax: money(rules.ante_max), tmin: money(rules.trips_min), tmax: money(rules.trips_max) });
}

export function UthTable({ info }) {
  const live = info.max_seats == null;
  // What a bet stakes, at the prices the server's engine gives (the lobby's `prices`).
  const betPrice = (info.prices && info.prices.bet) || {};
  const stakeOf = (ante, trips) => ante * (betPrice.ante || 0) + trips * (betPrice.trips || 0);
  const ui = useRef({ chip: CHIPS[1].value, draft: { ante: 0, trips: 0 }, placed: [], lastBet: null, hint: null, addTrips: 0 }).current;
  const [, redraw] = useState(0);
  const refresh = () => redraw((n) => n + 1);
  const controls = useRef(null);

  const { model: m, send, decide, canDecide } = useTable(info, {
    limits: uthLimits,
    state(f, mm) {
      const before = mm.view;
      if (f.view) {
        mm.view = f.view;
        if (f.view.result) mm.last = snapshot(f.view);
        if (f.view.legal && f.view.legal.length && !(before && before.legal && before.legal.length)) {
          play("turn");
          announce(t(`uth.phase.${f.view.phase}`));
        }
      } else {
        if (mm.view && (mm.view.phase === "settled" || mm.view.result)) mm.last = snapshot(mm.view);
        mm.view = null;
      }
    },
    event(e, mm, f) {
      const me = mm.table ? mm.table.your_seat : null;
      follow(mm, e, me);
      soundFor(e, e.seat === me || f.type === "seat_event");
      const who = e.seat != null ? nameOf(mm, e.seat) : "";
      switch (e.kind) {
        case "seated":
          addLog(mm, t("log.sits", { name: e.username }));
          break;
        case "left":
          addLog(mm, t(e.reason === "idle" ? "log.left_idle" : "log.leaves", { name: e.username }));
          break;
        case "round_opened":
          mm.last = null;
          mm.reveal = null;
          ui.hint = null;
          addLog(mm, t("log.round_opens", { n: e.round_id }));
          break;
        case "bets_placed":
          addLog(mm, t("uth.log.bets", { name: who, ante: money(e.ante), trips: e.trips ? money(e.trips) : "" }));
          break;
        case "your_turn":
          play("turn");
          announce(t(`uth.phase.${e.phase}`));
          break;
        case "betting_closed":
          addLog(mm, t("log.no_more_bets"));
          announce(t("log.no_more_bets"));
          if ((ui.draft.ante || ui.draft.trips) && !ui.sending && !(mm.view && mm.view.box)) {
            // Chips left on the layout were never a bet: say so, and take them back.
            addLog(mm, t("bet.not_played"), "bad");
            toast(t("bet.not_played"), "error");
            ui.draft = { ante: 0, trips: 0 };
            ui.placed = [];
          }
          ui.addTrips = 0;
          break;
        case "board_dealt":
          addLog(mm, t(e.cards.length === 3 ? "uth.log.flop" : "uth.log.turn_river"));
          ui.hint = null;
          break;
        case "play_bet":
          addLog(mm, t("uth.log.play", { name: who, n: e.multiple, amount: money(e.amount) }) + (e.timeout ? ` ${t("log.by_timer")}` : ""));
          break;
        case "checked":
          addLog(mm, t("log.checked", { name: who }) + (e.timeout ? ` ${t("log.by_timer")}` : ""));
          break;
        case "folded":
          addLog(mm, t("log.folded", { name: who }) + (e.timeout ? ` ${t("log.by_timer")}` : ""), "bad");
          break;
        case "dealer_revealed": {
          const cat = categoryOfValue(e.value);
          const text = t("table.log.dealer", { hand: cat ? categoryName(cat) : "" }) + (e.qualifies ? "" : ` ${t("uth.not_qualify")}`);
          addLog(mm, text);
          announce(text);
          break;
        }
        case "antes_returned": {
          addLog(mm, t("uth.log.antes_returned"));
          const ante = mm.anteBack;
          if (ante != null) {
            addLog(mm, t("uth.log.your_ante_returned", { amount: money(ante) }), "good");
            announce(t("uth.log.your_ante_returned", { amount: money(ante) }));
          }
          break;
        }
        case "seat_settled":
          if (e.result && e.result.seat === me) {
            const net = e.result.net;
            addLog(mm, t("log.your_result", { net: signedMoney(net) }), net > 0 ? "good" : net < 0 ? "bad" : "");
            play(net > 0 ? "win" : net < 0 ? "lose" : "chip");
          }
          break;
        case "round_voided":
          addLog(mm, t("log.voided"), "bad");
          break;
        case "round_closed":
          if (e.status === "voided") addLog(mm, t("log.voided"), "bad");
          if (!live && e.reveal && e.reveal.deck && e.summary && e.summary.results) {
            mm.reveal = holeCardsFromDeck(e.reveal.deck, e.summary.results.map((r) => r.seat));
            mm.results = Object.fromEntries(e.summary.results.map((r) => [r.seat, r]));
          }
          if (mm.last && mm.last.result) announce(resultSentence(mm.last.result));
          break;
        case "tally":
          if (mm.table) mm.table.seats_taken = e.seats_taken;
          mm.tally = e;
          break;
        default:
          break;
      }
    },
  });

  const rules = m.rules;
  const t0 = m.table;
  const v = m.view;
  const mySeat = t0 ? t0.your_seat : null;
  useFocusNext(m, controls);

  // -- what may be done now --------------------------------------------------------------
  const canBet = Boolean(t0 && mySeat != null && !m.closed && (t0.status === "idle" || t0.status === "betting") && !(v && v.box));
  // seed 001: Trips may be added after the Ante, in the same betting window.
  const canAddTrips = Boolean(t0 && v && v.box && v.phase === "betting" && t0.status === "betting" && !v.box.trips && rules.trips_max);
  const legal = new Set((v && v.legal) || []);
  const deciding = legal.size > 0;
  const offline = m.conn !== "open";
  const live_ = canDecide();
  const pending = canBet && ui.draft.ante > 0;
  const autoConfirm = Boolean(store.settings.auto_confirm);

  // "Confirm automatically" (a setting, off by default): the chips on the layout are bet
  // just before the betting closes, as if the player had pressed "Confirm bet".
  const bettingDeadline = m.deadline && m.deadline.betting ? m.deadline : null;
  useEffect(() => {
    if (!bettingDeadline || !autoConfirm) return undefined;
    const ms = Math.max(0, secondsLeft(bettingDeadline) * 1000 - 1200);
    const id = setTimeout(() => {
      if (ui.draft.ante && !m.busy) deal({ auto: true });
    }, ms);
    return () => clearTimeout(id);
  }, [bettingDeadline && bettingDeadline.at, autoConfirm]);

  function addTripsChip() {
    const cap = rules.trips_max || Infinity;
    ui.addTrips = Math.min(ui.addTrips + ui.chip, cap);
    refresh();
  }
  async function confirmTrips() {
    const trips = ui.addTrips;
    const outside = limitError([["trips", trips, rules.trips_min, rules.trips_max]]);
    if (outside) {
      toast(outside, "error");
      return;
    }
    const result = await send({ type: "bet", key: newKey(), bets: { trips } });
    if (result) {
      ui.addTrips = 0;
      announce(t("uth.trips_placed", { amount: money(trips) }));
      refresh();
    }
  }
  function addChip(spot) {
    const cap = spot === "ante" ? rules.ante_max : rules.trips_max;
    const before = ui.draft[spot];
    const next = cap ? Math.min(before + ui.chip, cap) : before + ui.chip;
    if (next === before) return;
    ui.draft = { ...ui.draft, [spot]: next };
    ui.placed.push({ spot, amount: next - before });
    refresh();
  }
  function undo() {
    const last = ui.placed.pop();
    if (last) ui.draft = { ...ui.draft, [last.spot]: ui.draft[last.spot] - last.amount };
    refresh();
  }
  function clear() {
    ui.draft = { ante: 0, trips: 0 };
    ui.placed = [];
    refresh();
  }
  function rebet() {
    if (!ui.lastBet) return;
    ui.draft = { ...ui.lastBet };
    ui.placed = [{ spot: "ante", amount: ui.lastBet.ante }, ...(ui.lastBet.trips ? [{ spot: "trips", amount: ui.lastBet.trips }] : [])];
    refresh();
  }
  function double() {
    const base = ui.draft.ante ? ui.draft : ui.lastBet;
    if (!base) return;
    const ante = Math.min(base.ante * 2, rules.ante_max || Infinity);
    const trips = Math.min((base.trips || 0) * 2, rules.trips_max || Infinity);
    ui.placed.push({ spot: "ante", amount: ante - ui.draft.ante }, { spot: "trips", amount: trips - ui.draft.trips });
    ui.draft = { ante, trips };
    refresh();
  }
  async function deal({ auto = false } = {}) {
    const { ante, trips } = ui.draft;
    if (!ante) {
      toast(t("uth.ante_first"), "error");
      return;
    }
    // The table's limits, said before asking (the server refuses the same, spec/uth.md).
    const outside = limitError([["ante", ante, rules.ante_min, rules.ante_max], ["trips", trips, rules.trips_min, rules.trips_max]], rules.bet_unit);
    if (outside) {
      toast(outside, "error");
      return;
    }
    const bets = trips ? { ante, trips } : { ante };
    ui.sending = true;
    const result = await send({ type: "bet", key: newKey(), bets });
    ui.sending = false;
    if (result) {
      ui.lastBet = { ante, trips };
      ui.draft = { ante: 0, trips: 0 };
      ui.placed = [];
      m.last = null;
      const stakedText = money(result.staked != null ? result.staked : stakeOf(ante, trips));
      announce(t(auto ? "bet.auto_done" : "table.bet_placed", { amount: stakedText }));
      if (auto) addLog(m, t("bet.auto_done", { amount: stakedText }));
      refresh();
    }
  }
  async function hint() {
    if (!v || !v.hole || v.hole.length !== 2) return;
    ui.hint = { text: t("table.hint.asking") };
    refresh();
    const q = new URLSearchParams({ hole: v.hole.join(""), board: (v.board || []).join("") });
    try {
      const advice = await api(`/api/games/uth/advice?${q}`);
      const opts = (advice.options || []).map((o) => `${t(`action.${o.action}`)} ${number(o.ev, 3)}`).join(" · ");
      ui.hint = { text: t("table.hint.best", { action: t(`action.${advice.best}`) }), best: advice.best, detail: opts ? t("table.hint.ev", { list: opts }) : "" };
    } catch (err) {
      ui.hint = { text: err.status === 404 ? t("table.hint.none") : wordError(err) };
    }
    refresh();
  }

  // -- drawing ---------------------------------------------------------------------------
  const last = !v && m.last ? m.last : null;
  const result = (v && v.result) || (last && last.result);
  const hole = v && v.hole && v.hole.length ? v.hole : last ? last.hole : [];
  const board = v ? v.board || [] : last ? last.board : [];
  const dealer = v && v.dealer ? v.dealer : v && v.phase !== "betting" ? [null, null] : last && last.dealer ? last.dealer : [];
  const mine = result && hole.length === 2 && board.length === 5 ? bestHand([...hole, ...board]) : hole.length === 2 ? bestHand([...hole, ...board]) : null;
  const dealersHand = dealer.length === 2 && dealer[0] && board.length === 5 ? bestHand([...dealer, ...board]) : null;
  if (mine && dealersHand) {
    // Face to face, each hand is named down to the kicker that tells it from the other.
    mine.name = nameAgainst(mine, [dealersHand]);
    dealersHand.name = nameAgainst(dealersHand, [mine]);
  }
  const best = result && mine ? new Set(mine.five) : null;

  const box = v && v.box;
  const shownBox = canBet ? null : box || (last && last.box);
  const ante = canBet ? ui.draft.ante : shownBox ? shownBox.ante : 0;
  const trips = canBet ? ui.draft.trips : canAddTrips ? ui.addTrips : shownBox ? shownBox.trips : 0;
  const playAmt = canBet ? 0 : shownBox ? shownBox.play : 0;
  const byBet = Object.fromEntries(((result && result.bets) || []).map((b) => [b.bet, b]));
  const motion = (name) => (byBet[name] ? (byBet[name].net > 0 ? "won" : byBet[name].net < 0 ? "lost" : "") : canBet ? "" : "in");

  const phaseText = (() => {
    if (!t0) return t("conn.connecting");
    if (v && v.phase) {
      if (v.box && v.box.decided && v.phase !== "settled" && v.phase !== "showdown") return t("table.waiting_others");
      if (v.phase === "betting") return v.box ? t("table.waiting_deal") : t("uth.phase.betting");
      if (v.phase === "pre-flop" && !v.box) return t("table.round_in_play");
      return t(`uth.phase.${v.phase}`);
    }
    if (t0.status === "pause") return t("table.next_round");
    if (t0.status === "playing") return t("table.round_in_play");
    return mySeat == null ? t("table.take_seat") : t("uth.phase.betting");
  })();

  const limits = uthLimits(rules);
  const crowd = live && t0 ? html`<span class="players" data-testid="players">${crowdText(t0, m.tally)}</span>` : null;

  return html`<section class=${`table-page uth${live ? " live" : ""}`} data-testid="uth-table" data-phase=${v ? v.phase : (t0 && t0.status) || ""} aria-label=${tableTitle(info)}>
    <${TableHead} info=${info} model=${m} limits=${limits} extra=${[t0 && t0.round_id ? html`<span class="round" data-testid="round-id">${t("round.n", { n: t0.round_id })}</span>` : null, crowd]} />
    <div class="table-layout">
      <div class="table-main">
        <${Notices} model=${m} />
        <div class=${`felt uth-felt${live ? " live" : ""}`} data-testid="felt">
          <${PayTables} rules=${rules} />
          <div class="dealer-area" data-testid="dealer">
            <div class="felt-label">${t("table.dealer")}</div>
            <${CardRow} cards=${dealer} slots=${2} label=${t("table.dealer_cards")} />
            <div class="hand-note" data-testid="dealer-hand">${result ? html`${dealersHand ? dealersHand.name : categoryName(categoryOfValue(result.dealer_value) || "high_card")}${result.dealer_qualifies ? "" : html` <span class="nq">${t("uth.not_qualify")}</span>`}` : ""}</div>
          </div>
          <div class="board-area">
            <${CardRow} cards=${board} slots=${5} best=${best} label=${t("board")} testid="board" />
            ${live ? html`<div class="shared-hand"><div class="felt-label">${t("table.shared_hand")}</div><${CardRow} cards=${hole} slots=${2} best=${best} label=${t("table.shared_hand")} /></div>` : null}
          </div>
          ${result ? html`<${UthResult} result=${result} hand=${mine} anteBack=${m.anteBack} />` : html`<div class="status-line">${pending || (canAddTrips && ui.addTrips > 0)
            ? html`<div class="phase sr-only" data-testid="phase">${phaseText}</div><${UnconfirmedWarning} deadline=${m.deadline} pending=${true} auto=${autoConfirm && pending} trips=${!pending} />`
            : html`<div class="phase" data-testid="phase">${phaseText}</div>`}<${Timer} deadline=${m.deadline} active=${Boolean(t0 && t0.status !== "idle" && t0.status !== "pause")} /></div>`}
          <${WinnersPanel} winners=${m.winners} />
          ${live ? null : html`<${OtherBoxes} info=${info} model=${m} onSit=${(seat) => send({ type: "join", seat })} />`}
          <div class="box mine" data-testid="my-box">
            ${live ? null : html`<div class=${`hole${shownBox && shownBox.folded ? " folded" : ""}`}>
              <${CardRow} cards=${hole} slots=${2} best=${best} label=${t("your_cards")} testid="my-hole" />
              <div class="hand-note" data-testid="my-hand">${mine && hole.length ? mine.name : ""}</div>
            </div>`}
            <div class="spots">
              <${Spot} name="trips" label=${t("spot.trips")} amount=${trips} chip=${ui.chip} motion=${canAddTrips ? "" : motion("trips")} onAdd=${offline ? null : canBet ? addChip : canAddTrips ? addTripsChip : null} />
              <div class="spot-pair">
                <${Spot} name="ante" label=${t("spot.ante")} amount=${ante} chip=${ui.chip} motion=${motion("ante")} onAdd=${canBet && !offline ? addChip : null} />
                <span class="equals" aria-hidden="true">=</span>
                <${Spot} name="blind" label=${t("spot.blind")} amount=${ante} motion=${motion("blind")} />
              </div>
              <${Spot} name="play" label=${t("spot.play")} amount=${playAmt} motion=${motion("play")} />
            </div>
          </div>
        </div>
        <div class="controls" data-testid="controls" ref=${controls} tabindex="-1">
          <${OfflineNote} model=${m} />
          ${renderControls()}
        </div>
      </div>
      <${LogPanel} log=${m.log} />
    </div>
  </section>`;

  function renderControls() {
    if (!t0) return null;
    if (mySeat == null) {
      return html`<p class="muted">${live ? t("uth.join_live") : t("uth.pick_box")}</p>
        <button type="button" class="btn primary" data-testid="sit" disabled=${m.busy || offline} onClick=${() => send({ type: "join" })}>${t("sit")}</button>`;
    }
    if (canBet) {
      const total = stakeOf(ui.draft.ante, ui.draft.trips);
      return html`<${ChipTray} selected=${ui.chip} max=${rules.ante_max || Infinity} onSelect=${(c) => { ui.chip = c; refresh(); }} />
        <div class="bet-row">
          <div class="bet-total" aria-live="polite">${t("table.total", { amount: money(total) })}</div>
          <button type="button" class="btn" data-testid="undo" disabled=${!ui.placed.length} onClick=${undo}>${t("btn.undo")}</button>
          <button type="button" class="btn" data-testid="clear" disabled=${!total} onClick=${clear}>${t("btn.clear")}</button>
          <button type="button" class="btn" data-testid="rebet" disabled=${!ui.lastBet} onClick=${rebet}>${t("btn.rebet")}</button>
          <button type="button" class="btn" data-testid="double" disabled=${!(ui.draft.ante || ui.lastBet)} onClick=${double}>${t("btn.double")}</button>
          <button type="button" class="btn primary" data-testid="bet-button" disabled=${m.busy || offline || !ui.draft.ante} onClick=${() => deal()}>${t("btn.confirm_bet")}</button>
          <button type="button" class="btn ghost" data-testid="leave" disabled=${m.busy || offline} onClick=${() => send({ type: "leave" })}>${t("btn.leave")}</button>
        </div>`;
    }
    if (canAddTrips) {
      return html`<p class="muted" data-testid="waiting">${phaseText}</p>
        <div class="trips-after" data-testid="trips-after" role="group" aria-label=${t("uth.add_trips")}>
          <p class="small">${t("uth.add_trips_help")}</p>
          <${ChipTray} selected=${ui.chip} max=${rules.trips_max || Infinity} onSelect=${(c) => { ui.chip = c; refresh(); }} />
          <div class="bet-row">
            <button type="button" class="btn" data-testid="trips-clear" disabled=${!ui.addTrips} onClick=${() => { ui.addTrips = 0; refresh(); }}>${t("btn.clear")}</button>
            <button type="button" class="btn primary" data-testid="trips-confirm" disabled=${m.busy || offline || !ui.addTrips} onClick=${confirmTrips}>${t("uth.confirm_trips", { amount: money(ui.addTrips) })}</button>
          </div>
        </div>`;
    }
    const inRound = Boolean(v && v.box);
    const buttons = ACTIONS.filter((a) => legal.has(a.action)).map((a) => {
      const multiple = a.send.multiple;
      const label = multiple ? t("uth.act.play", { n: multiple, amount: priceText(v, a.action, money) }) : t(`action.${a.action}`);
      return html`<button type="button" key=${a.action} class=${`btn act act-${a.action}${ui.hint && ui.hint.best === a.action ? " hinted" : ""}`} data-testid=${`act-${a.action}`}
        disabled=${!live_} onClick=${() => decide({ type: "act", ...a.send })}>${label}</button>`;
    });
    return html`${deciding ? html`<div class="actions" role="group" aria-label=${t("decision")} data-decision="1" tabindex="-1" data-live=${String(live_)}>${buttons}</div>` : null}
      ${deciding ? html`<button type="button" class="btn ghost small" data-testid="hint" onClick=${hint}>${t("btn.hint")}</button>` : null}
      ${ui.hint && deciding ? html`<div class="hint" data-testid="hint-text" role="status">${ui.hint.text}${ui.hint.detail ? html`<small>${ui.hint.detail}</small>` : null}</div>` : null}
      ${!deciding && v && v.box && !result ? html`<p class="muted" data-testid="waiting">${phaseText}</p>` : null}
      ${!inRound && t0.status === "playing" ? html`<p class="muted">${t("uth.next_round_join")}</p>` : null}`;
  }
}

function crowdText(t0, tally) {
  const players = t("players.n", { n: t0.seats_taken });
  const tl = tally && t0.status !== "idle" ? tally : null;
  if (!tl || !tl.boxes_in_play) return players;
  const waiting = t0.status === "playing" && tl.pending ? ` · ${t("players.to_decide", { n: tl.pending })}` : "";
  return `${players} · ${t("players.in_play", { n: tl.boxes_in_play })}${waiting}`;
}

function resultSentence(result) {
  const net = result.net;
  const head = headline(result);
  return net ? `${head}: ${signedMoney(net)}` : head;
}

/** The result's headline from the hand's comparison; the net amount is said beside it. */
function headline(result) {
  switch (result.comparison) {
    case "win":
      return t("uth.result.win");
    case "lose":
      return t("uth.result.lose");
    case "fold":
      return t("uth.result.fold");
    case "tie":
    case "push":
      // The hands tie: the main game is a push, whatever a side bet did (its line says).
      return t("uth.result.tie");
    default:
      return result.net > 0 ? t("uth.result.win") : result.net < 0 ? t("uth.result.lose") : t("uth.result.tie");
  }
}

function UthResult({ result, hand, anteBack }) {
  const net = result.net;
  const cls = net > 0 ? "win" : net < 0 ? "lose" : "push";
  const lines = (result.bets || []).map((b) => ({ ...b, note: payLine(b.line) }));
  const name = hand ? hand.name : categoryName(categoryOfValue(result.player_value) || "high_card");
  return html`<div class=${`result-banner ${cls}`} data-testid="result" role="status">
    <div class="headline" data-testid="result-net" data-net=${String(net)}>${headline(result)}</div>
    <div class="net-line">${net === 0 ? t("result.net_even") : t("result.net", { net: signedMoney(net) })}</div>
    <div class="hands">${t("uth.your_hand", { hand: name })}${result.dealer_qualifies === false ? ` · ${t("uth.dealer_not_qualify")}` : ""}</div>
    ${anteBack != null && result.dealer_qualifies === false ? html`<div class="ante-back" data-testid="ante-returned">${t("uth.log.your_ante_returned", { amount: money(anteBack) })}</div>` : null}
    <${BetLines} lines=${lines} />
  </div>`;
}

function PayTables({ rules }) {
  const rows = (pt) => Object.entries(pt || {}).map(([k, val]) => html`<tr key=${k}><th scope="row">${categoryName(k)}</th><td>${val}</td></tr>`);
  return html`<details class="paytables" data-testid="paytables">
    <summary>${t("paytable.title")}</summary>
    <div class="pt-grid">
      <table class="paytable"><caption>${t("uth.blind_pays")}</caption><tbody>${rows(rules.blind_paytable)}</tbody></table>
      <table class="paytable"><caption>${t("uth.trips_pays")}</caption><tbody>${rows(rules.trips_paytable)}</tbody></table>
    </div>
    <p class="pt-note">${t("uth.rules_short")}</p>
  </details>`;
}

function OtherBoxes({ info, model, onSit }) {
  const t0 = model.table;
  if (!t0 || !t0.seats) return null;
  const v = model.view;
  const boxes = new Map(((v && v.boxes) || []).map((b) => [b.seat, b]));
  const n = info.max_seats || 6;
  const places = [];
  for (let seat = 0; seat < n; seat++) {
    const occupant = t0.seats.find((o) => o.seat === seat);
    const mine = seat === t0.your_seat;
    const box = boxes.get(seat);
    const revealed = model.reveal && model.reveal[seat];
    const res = model.results && model.results[seat];
    let body;
    if (mine) body = html`<span class="you-tag">${t("you")}</span>`;
    else if (occupant) {
      const cards = revealed ? revealed : box && v && v.phase !== "betting" ? [null, null] : null;
      body = html`${cards ? html`<${CardRow} cards=${cards} slots=${2} small=${true} label=${t("cards_of", { name: occupant.username })} />` : null}
        ${box ? html`<span class="mini-bets">${money(box.ante + box.blind + box.trips + box.play)}${box.folded ? ` · ${t("folded")}` : box.play ? ` · ${box.play_multiple}×` : ""}</span>` : null}
        ${res && !mine ? html`<span class=${res.net > 0 ? "good" : res.net < 0 ? "bad" : "muted"}>${signedMoney(res.net)}</span>` : null}`;
    } else if (t0.your_seat == null) {
      body = html`<button type="button" class="btn small" data-testid=${`sit-${seat}`} onClick=${() => onSit(seat)}>${t("sit_here")}</button>`;
    } else continue; // seated: empty boxes take no room on a phone
    places.push(html`<li key=${seat} class=${`seat-place${mine ? " mine" : ""}${occupant ? " taken" : ""}`} data-testid=${`seat-${seat}`}>
      <div class="seat-name" title=${occupant ? occupant.username : null}>${occupant ? occupant.username : t("box.n", { n: seat + 1 })}</div>${body}</li>`);
  }
  return html`<ul class="seat-arc" aria-label=${t("boxes")}>${places}</ul>`;
}
