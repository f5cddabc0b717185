// The Caribbean Stud Poker table (docs/rules.md "Caribbean Stud Poker"; docs/protocol.md
// "Caribbean Stud Poker tables"): the dealer's five cards with one face up, the pay tables,
// the other boxes' bets, your box (Ante and the progressive bet in the betting window, your
// five cards), Raise or Fold at the price and with the decision id the server sends, the one
// timer, each bet's result, and the Hint from the game's advisor. The page draws only what the
// server's `state` frames and events say: it never holds a card the seat may not see.

import { api, newKey } from "./api.js";
import { bestHand, CardRow, CHIPS, categoryName, categoryOfValue, nameAgainst } from "./cards.js";
import { BetLines, ChipTray, limitError, priceText, Spot } from "./common.js";
import { wordError } from "./errors.js";
import { money, number, signedMoney, t } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { play } from "./sound.js";
import { addLog, LogPanel, nameOf, Notices, OfflineNote, soundFor, TableHead, tableTitle, Timer, useFocusNext, useTable } from "./tablecore.js";
import { html, useRef, useState } from "./ui.js";

/** The Ante limits of a Caribbean Stud table's rules (its header, the lobby). */
export function caribbeanLimits(rules) {
  return t("caribbean.limits", { min: money(rules.ante_min), max: money(rules.ante_max) });
}

/** One line of a pay table: "100:1", a share of the meter "10 %", or a fixed prize. */
function prize(value, ratio) {
  if (typeof value === "string") return value.endsWith("%") ? `${value.slice(0, -1)} %` : value;
  return ratio ? `${value}:1` : money(value);
}

function PayTables({ rules }) {
  const rows = (table, ratio) => Object.entries(table || {}).map(([k, val]) => html`<tr key=${k}><th scope="row">${categoryName(k)}</th><td>${prize(val, ratio)}</td></tr>`);
  return html`<details class="paytables" data-testid="paytables">
    <summary>${t("paytable.title")}</summary>
    <div class="pt-grid">
      <table class="paytable"><caption>${t("caribbean.raise_pays")}</caption><tbody>${rows(rules.raise_paytable, true)}</tbody></table>
      ${rules.progressive_bet ? html`<table class="paytable"><caption>${t("caribbean.progressive_pays", { amount: money(rules.progressive_bet) })}</caption><tbody>${rows(rules.progressive_paytable, false)}</tbody></table>` : null}
    </div>
    <p class="pt-note">${t("caribbean.rules_short", { n: rules.raise_multiple || 2 })}</p>
  </details>`;
}

/** Your box's result: each bet's line (stake, outcome, net) and the round's net. */
function Result({ result, hand, dealer }) {
  const net = result.net;
  const cls = net > 0 ? "win" : net < 0 ? "lose" : "push";
  const why = result.comparison === "fold" ? t("caribbean.folded") : !result.dealer_qualifies ? t("caribbean.not_qualified") : t(`caribbean.cmp.${result.comparison}`);
  const lines = (result.bets || []).map((b) => ({ bet: b.bet, stake: b.stake, outcome: b.outcome, net: b.net }));
  return html`<div class=${`result-banner compact ${cls}`} data-testid="result" role="status">
    <div class="headline" data-testid="result-net" data-net=${String(net)}>${net > 0 ? t("result.you_win", { amount: money(net) }) : net < 0 ? t("result.you_lose", { amount: money(-net) }) : t("result.push")}</div>
    <div class="hands">${why}${hand ? ` · ${hand.name}` : ""}${dealer ? ` · ${t("table.dealer")}: ${dealer}` : ""}</div>
    <${BetLines} lines=${lines} testid="bet-lines" />
  </div>`;
}

/** The other boxes at the table: who sits there, their bets and whether they raised. */
function OtherBoxes({ model, me }) {
  const boxes = ((model.view && model.view.boxes) || []).filter((b) => b.seat !== me);
  if (!boxes.length) return null;
  return html`<ul class="cs-others" data-testid="other-boxes" aria-label=${t("boxes")}>
    ${boxes.map((b) => html`<li key=${b.seat} class="cs-other" data-testid="box">
      <div class="felt-label">${nameOf(model, b.seat)}</div>
      <${CardRow} cards=${[null, null, null, null, null]} small=${true} label=${t("box.n", { n: b.seat + 1 })} />
      <div class="cs-stakes">${t("spot.ante")} ${money(b.ante)}${b.raised ? ` · ${t("spot.raise")} ${money(b.raised)}` : ""}${b.folded ? ` · ${t("action.fold")}` : ""}</div>
    </li>`)}
  </ul>`;
}

export function CaribbeanTable({ info }) {
  const betPrice = (info.prices && info.prices.bet) || {};
  const ui = useRef({ chip: CHIPS[1].value, draft: { ante: 0, progressive: false }, lastBet: null, hint: null }).current;
  const [, redraw] = useState(0);
  const refresh = () => redraw((n) => n + 1);
  const controls = useRef(null);

  const { model: m, send, decide, canDecide } = useTable(info, {
    limits: caribbeanLimits,
    state(f, mm) {
      const before = mm.view;
      mm.view = f.view || null;
      if (f.view && f.view.result) mm.last = f.view;
      if (f.view && f.view.legal && f.view.legal.length && !(before && before.legal && before.legal.length)) {
        play("turn");
        announce(t("caribbean.decide"));
      }
    },
    event(e, mm, f) {
      const me = mm.table ? mm.table.your_seat : null;
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
          ui.hint = null;
          addLog(mm, t("log.round_opens", { n: e.round_id }));
          break;
        case "betting_closed":
          addLog(mm, t("log.no_more_bets"));
          announce(t("log.no_more_bets"));
          if (ui.draft.ante && !ui.sending && !(mm.view && mm.view.box)) {
            addLog(mm, t("bet.not_played"), "bad");
            toast(t("bet.not_played"), "error");
            ui.draft = { ante: 0, progressive: false };
          }
          break;
        case "upcard_shown":
          addLog(mm, t("caribbean.log.upcard"));
          break;
        case "raised":
          addLog(mm, t("caribbean.log.raised", { name: who }));
          break;
        case "folded":
          addLog(mm, t("log.folded", { name: who }) + (e.timeout ? ` ${t("log.by_timer")}` : ""), "bad");
          break;
        case "dealer_revealed": {
          const cat = categoryOfValue(e.value);
          const text = t("table.log.dealer", { hand: cat ? categoryName(cat) : "" }) + (e.qualifies ? "" : ` ${t("caribbean.not_qualified")}`);
          addLog(mm, text);
          announce(text);
          break;
        }
        case "box_settled":
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
          break;
        default:
          break;
      }
    },
  });

  const rules = m.rules;
  const tb = m.table;
  const v = m.view;
  const me = tb ? tb.your_seat : null;
  useFocusNext(m, controls);

  const offline = m.conn !== "open";
  const box = v && v.box;
  const canBet = Boolean(tb && me != null && !m.closed && (tb.status === "idle" || tb.status === "betting") && !box);
  const canAddProgressive = Boolean(tb && box && v.phase === "betting" && tb.status === "betting" && !box.progressive && rules.progressive_bet);
  const legal = (v && v.legal) || [];
  const live_ = canDecide();

  function addChip() {
    const cap = rules.ante_max || Infinity;
    ui.draft = { ...ui.draft, ante: Math.min(ui.draft.ante + ui.chip, cap) };
    refresh();
  }
  async function deal() {
    const { ante, progressive } = ui.draft;
    const outside = limitError([["ante", ante, rules.ante_min, rules.ante_max]]);
    if (outside) {
      toast(outside, "error");
      return;
    }
    const bets = progressive ? { ante, progressive: 1 } : { ante };
    ui.sending = true;
    const result = await send({ type: "bet", key: newKey(), bets });
    ui.sending = false;
    if (result) {
      ui.lastBet = { ante, progressive };
      ui.draft = { ante: 0, progressive: false };
      m.last = null;
      const staked = result.staked != null ? result.staked : ante * (betPrice.ante || 1) + (progressive ? betPrice.progressive || 0 : 0);
      announce(t("table.bet_placed", { amount: money(staked) }));
      refresh();
    }
  }
  async function addProgressive() {
    const result = await send({ type: "bet", key: newKey(), bets: { progressive: 1 } });
    if (result) announce(t("caribbean.progressive_placed", { amount: money(rules.progressive_bet) }));
    refresh();
  }
  function act(action) {
    return decide({ type: "act", action });
  }
  async function hint() {
    if (!v || !v.hand || v.hand.length !== 5 || !v.upcard) return;
    ui.hint = { text: t("table.hint.asking") };
    refresh();
    const q = new URLSearchParams({ hand: v.hand.join(""), upcard: v.upcard });
    try {
      const advice = await api(`/api/games/caribbean/advice?${q}`);
      const opts = (advice.options || []).map((o) => `${t(`action.${o.action}`)} ${number(o.ev, 3)}`).join(" · ");
      ui.hint = { text: t("table.hint.best", { action: t(`action.${advice.best}`) }), best: advice.best, detail: opts ? t("table.hint.ev", { list: opts }) : "" };
    } catch (err) {
      ui.hint = { text: err.status === 404 ? t("table.hint.none") : wordError(err) };
    }
    refresh();
  }

  // -- drawing -----------------------------------------------------------------------------
  const shown = v && v.phase !== "betting" ? v : !v && m.last ? m.last : null;
  const result = (shown && shown.result) || null;
  const hand = shown && shown.hand && shown.hand.length ? shown.hand : [];
  const mine = hand.length === 5 ? bestHand(hand) : null;
  // The up card stays first when the other four are turned over.
  const up = shown && shown.upcard;
  const dealerCards = !shown ? [] : shown.dealer && shown.dealer.length ? (up && shown.dealer.includes(up) ? [up, ...shown.dealer.filter((c) => c !== up)] : shown.dealer) : up ? [up, null, null, null, null] : [];
  const dealerHand = shown && shown.dealer && shown.dealer.length === 5 ? bestHand(shown.dealer) : null;
  if (mine && dealerHand) {
    // each hand named down to the kicker that tells it from the other (as UTH's)
    mine.name = nameAgainst(mine, [dealerHand]);
    dealerHand.name = nameAgainst(dealerHand, [mine]);
  }
  const shownBox = canBet ? null : box || (shown && shown.box);
  const byBet = Object.fromEntries(((result && result.bets) || []).map((b) => [b.bet, b]));
  const motion = (name) => (byBet[name] ? (byBet[name].net > 0 ? "won" : byBet[name].net < 0 ? "lost" : "") : canBet ? "" : "in");
  const ante = canBet ? ui.draft.ante : shownBox ? shownBox.ante : 0;
  const progressive = canBet ? (ui.draft.progressive ? rules.progressive_bet : 0) : shownBox ? shownBox.progressive : 0;
  const raised = shownBox ? shownBox.raised : 0;

  const phase = v ? v.phase : m.last ? "settled" : tb ? tb.status : "connecting";
  const phaseText = (() => {
    if (!tb) return t("conn.connecting");
    if (v && legal.length) return t("caribbean.decide");
    if (v && v.phase === "deciding") return box ? t("table.waiting_others") : t("table.round_in_play");
    if (v && v.phase === "betting") return box ? t("table.waiting_deal") : t("caribbean.phase.betting");
    if (v && v.phase === "voided") return t("log.voided");
    if (tb.status === "pause") return t("table.next_round");
    if (tb.status === "playing") return t("table.round_in_play");
    return me == null ? t("table.take_seat") : t("caribbean.phase.betting");
  })();
  const jackpot = rules.progressive_bet && (v ? v.jackpot : rules.jackpot);

  return html`<section class="table-page caribbean" data-testid="caribbean-table" data-phase=${phase} aria-label=${tableTitle(info)}>
    <${TableHead} info=${info} model=${m} limits=${caribbeanLimits(rules)} extra=${tb && tb.round_id ? html`<span class="round" data-testid="round-id">${t("round.n", { n: tb.round_id })}</span>` : null} />
    <div class="table-layout">
      <div class="table-main">
        <${Notices} model=${m} />
        <div class="felt cs-felt" data-testid="felt">
          <${PayTables} rules=${rules} />
          ${jackpot ? html`<div class="cs-jackpot" data-testid="jackpot">${t("caribbean.jackpot", { amount: money(jackpot) })}</div>` : null}
          <div class="dealer-area" data-testid="dealer">
            <div class="felt-label">${t("table.dealer")}</div>
            <${CardRow} cards=${dealerCards} slots=${dealerCards.length ? 0 : 5} label=${t("table.dealer_cards")} />
            <div class="hand-note" data-testid="dealer-hand">${dealerHand ? html`${dealerHand.name}${result && !result.dealer_qualifies ? html` <span class="nq">${t("caribbean.not_qualified")}</span>` : null}` : ""}</div>
          </div>
          ${result ? html`<${Result} result=${result} hand=${mine} dealer=${dealerHand ? dealerHand.name : ""} />` : html`<div class="status-line"><div class="phase" data-testid="phase">${phaseText}</div><${Timer} deadline=${m.deadline} active=${Boolean(tb && tb.status !== "idle" && tb.status !== "pause")} /></div>`}
          <${OtherBoxes} model=${m} me=${me} />
          <div class=${`box mine${shownBox && shownBox.folded ? " folded" : ""}`} data-testid="my-box">
            <${CardRow} cards=${hand} slots=${hand.length ? 0 : 5} best=${mine && mine.rank > 0 ? new Set(mine.five) : null} label=${t("your_cards")} testid="my-hand-cards" />
            <div class="hand-note" data-testid="my-hand">${mine ? mine.name : ""}</div>
            <div class="spots">
              ${rules.progressive_bet ? html`<${Spot} name="progressive" label=${t("spot.progressive")} amount=${progressive} motion=${motion("progressive")} />` : null}
              <${Spot} name="ante" label=${t("spot.ante")} amount=${ante} chip=${ui.chip} motion=${motion("ante")} onAdd=${canBet && !offline ? addChip : null} />
              <${Spot} name="raise" label=${t("spot.raise")} amount=${raised} motion=${motion("raise")} />
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
    if (!tb) return null;
    if (me == null) return html`<button type="button" class="btn primary" data-testid="sit" disabled=${m.busy || offline} onClick=${() => send({ type: "join" })}>${t("sit")}</button>`;
    if (legal.length) return decisionButtons();
    if (canBet) {
      const d = ui.draft;
      const total = d.ante * (betPrice.ante || 1) + (d.progressive ? betPrice.progressive || rules.progressive_bet || 0 : 0);
      return html`<div class="cs-betform" data-testid="bet-form">
        <${ChipTray} selected=${ui.chip} max=${rules.ante_max || Infinity} onSelect=${(c) => { ui.chip = c; refresh(); }} />
        <div class="bet-row">
          ${rules.progressive_bet
            ? html`<label class="check"><input type="checkbox" data-testid="progressive" checked=${d.progressive} onChange=${(e) => { ui.draft = { ...ui.draft, progressive: e.target.checked }; refresh(); }} /> ${t("caribbean.progressive_bet", { amount: money(rules.progressive_bet) })}</label>`
            : null}
          <div class="bet-total" aria-live="polite">${t("table.total", { amount: money(total) })}</div>
          <button type="button" class="btn" data-testid="clear" disabled=${!total} onClick=${() => { ui.draft = { ante: 0, progressive: false }; refresh(); }}>${t("btn.clear")}</button>
          <button type="button" class="btn" data-testid="rebet" disabled=${!ui.lastBet} onClick=${() => { ui.draft = { ...ui.lastBet }; refresh(); }}>${t("btn.rebet")}</button>
          <button type="button" class="btn primary" data-testid="bet-button" disabled=${m.busy || offline || !d.ante} onClick=${deal}>${t("btn.confirm_bet")}</button>
          <button type="button" class="btn ghost" data-testid="leave" disabled=${m.busy || offline} onClick=${() => send({ type: "leave" })}>${t("btn.leave")}</button>
        </div>
      </div>`;
    }
    const busyRound = Boolean(box && v && v.phase !== "settled" && v.phase !== "voided");
    return html`${busyRound ? html`<p class="muted" data-testid="waiting">${phaseText}</p>` : null}
      ${canAddProgressive ? html`<button type="button" class="btn" data-testid="add-progressive" disabled=${m.busy || offline} onClick=${addProgressive}>${t("caribbean.add_progressive", { amount: money(rules.progressive_bet) })}</button>` : null}
      <div class="actions"><button type="button" class="btn small ghost" data-testid="leave" disabled=${m.busy || offline || busyRound} onClick=${() => send({ type: "leave" })}>${t("btn.leave")}</button></div>`;
  }

  function decisionButtons() {
    // The Raise at the price the server's engine gives (the view's `prices`).
    const cost = priceText(v, "raise", money);
    const label = { raise: t("caribbean.act.raise", { n: v.raise_multiple || 2, cost }), fold: t("caribbean.act.fold") };
    return html`<div class="actions" role="group" aria-label=${t("decision")} data-decision="1" tabindex="-1">
        ${legal.map((a) => html`<button type="button" key=${a} class=${`btn act act-${a}${ui.hint && ui.hint.best === a ? " hinted" : ""}`} data-testid=${`act-${a}`} disabled=${!live_} onClick=${() => act(a)}>${label[a] || a}</button>`)}
      </div>
      <button type="button" class="btn ghost small" data-testid="hint" onClick=${hint}>${t("btn.hint")}</button>
      ${ui.hint ? html`<div class="hint" data-testid="hint-text" role="status">${ui.hint.text}${ui.hint.detail ? html`<small>${ui.hint.detail}</small>` : null}</div>` : null}`;
  }
}
