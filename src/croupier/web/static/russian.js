// The Russian Poker table (spec/russian.md; docs/protocol.md "Russian Poker tables") on a
// felt: the dealer's hand, the pay tables, the layout's boxes; chips on your open box's Ante
// and Bonus and a count of blind boxes; decisions whose buttons say what they cost; your
// cards selectable for an exchange; insurance only when the hand allows it; hands named (the
// two-combination rule said when it pays); each bet's result; the dealer's game you bought
// shown card by card. The page draws only what the server sends.

import { api, newKey } from "./api.js";
import { bestHand, Card, CardRow, cardName, CHIPS, categoryName, nameAgainst } from "./cards.js";
import { BetLines, ChipTray, limitError, priceText, Spot } from "./common.js";
import { centsText, money, number, signedMoney, t, toCents } from "./i18n.js";
import { russianOption } from "./russian_history.js";
import { announce, toast } from "./notify.js";
import { play } from "./sound.js";
import { addLog, LogPanel, nameOf, Notices, OfflineNote, soundFor, TableHead, tableTitle, Timer, useFocusNext, useTable } from "./tablecore.js";
import { html, useRef, useState } from "./ui.js";

// The Bet's combinations as the engine numbers them (games/russian/config.py Combination).
const COMBINATIONS = ["ace_king", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush"];

function comboName(c) {
  const kind = typeof c === "number" ? COMBINATIONS[c] : typeof c === "string" ? c.toLowerCase() : c && (c.kind || c.combination || c.name);
  return kind ? categoryName(typeof kind === "number" ? COMBINATIONS[kind] : kind) : "";
}

/** The Ante limits of a Russian Poker table's rules (its header, the lobby). */
export function russianLimits(rules) {
  return t("russian.limits", { min: money(rules.ante_min), max: money(rules.ante_max) });
}

/** What the open box may do now, in words: "exchange, sixth card, bet or fold" -- from the
 * server's legal actions, so it changes as they do (after an exchange: "bet or fold"). */
export function decisionText(legal) {
  const words = legal.filter((a) => a !== "decline" && a !== "buy").map((a) => t(`russian.word.${a}`));
  return words.length ? t("russian.phase.deciding_list", { list: listText(words) }) : t("russian.your_turn");
}

function listText(words) {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} ${t("list.or")} ${words[words.length - 1]}` : words.join("");
}

export function RussianTable({ info }) {
  const ui = useRef({ chip: CHIPS[0].value, draft: { ante: 0, bonus: 0, blind: 0 }, lastBet: null, selected: new Set(), insurance: "", hint: null, seen: {}, decision: "" }).current;
  const [, redraw] = useState(0);
  const refresh = () => redraw((n) => n + 1);

  const controls = useRef(null);
  const { model: m, send, decide, canDecide } = useTable(info, {
    limits: russianLimits,
    state(f, mm) {
      const before = mm.view && mm.view.legal && mm.view.legal.length;
      mm.view = f.view && Array.isArray(f.view.boxes) ? f.view : null;
      const legal = (mm.view && mm.view.legal) || [];
      if (legal.join() !== ui.decision) {
        ui.decision = legal.join();
        ui.hint = null;
      }
      if (legal.length && !before) {
        play("turn");
        announce(t(legal.includes("buy") ? "russian.phase.buying" : "russian.your_turn"));
      }
    },
    event(e, mm) {
      const me = mm.table ? mm.table.your_seat : null;
      const myBoxes = new Set(((mm.view && mm.view.boxes) || []).filter((b) => b.seat === me).map((b) => b.box));
      const mine = e.seat === me || (e.box != null && myBoxes.has(e.box));
      soundFor(e, mine);
      const boxName = e.box != null ? t("box.n", { n: e.box + 1 }) : "";
      switch (e.kind) {
        case "seated":
          addLog(mm, t("log.sits", { name: e.username }));
          break;
        case "left":
          addLog(mm, t("log.leaves", { name: e.username }));
          break;
        case "round_opened":
          mm.last = null;
          mm.bought = null;
          mm.settled = {};
          ui.selected.clear();
          ui.seen = {};
          ui.hint = null;
          addLog(mm, t("log.round_opens", { n: e.round_id }));
          break;
        case "box_placed":
          addLog(mm, t(e.blind ? "russian.log.blind_box" : "russian.log.box", { name: nameOf(mm, e.seat), box: boxName, ante: money(e.ante) }));
          break;
        case "cards_dealt":
          addLog(mm, t("russian.log.dealt"));
          break;
        case "cards_exchanged":
          ui.selected.clear();
          if (e.discarded) ui.seen[e.box] = [...(ui.seen[e.box] || []), ...e.discarded];
          addLog(mm, t("russian.log.exchange", { box: boxName, n: (e.discarded || e.received || []).length, fee: money(e.fee) }));
          break;
        case "sixth_card_bought":
          addLog(mm, t("russian.log.sixth", { box: boxName, fee: money(e.fee) }));
          break;
        case "bet_placed":
          addLog(mm, t("russian.log.bet", { box: boxName, amount: money(e.bet) }) + (e.insurance ? ` · ${t("russian.log.insured", { amount: money(e.insurance) })}` : ""));
          break;
        case "folded":
          addLog(mm, t("russian.log.fold", { box: boxName }) + (e.timeout ? ` ${t("log.by_timer")}` : ""));
          break;
        case "dealer_revealed": {
          const hand = bestHand(e.cards || []);
          addLog(mm, t("russian.log.dealer", { hand: hand ? hand.name : "" }) + (e.qualifies ? "" : ` ${t("russian.not_qualify")}`));
          announce(t("russian.log.dealer", { hand: hand ? hand.name : "" }));
          break;
        }
        case "game_bought": {
          // For the box that bought only: the dealer's highest card replaced (spec "Buying").
          if (mine) mm.bought = { box: e.box, hand: e.hand, replaced: e.replaced, drawn: e.drawn, qualifies: e.qualifies };
          const hand = bestHand(e.hand || []);
          addLog(mm, t("russian.log.bought", { box: boxName, fee: money(e.fee), hand: hand ? hand.name : "" }) + (e.qualifies ? "" : ` ${t("russian.not_qualify")}`));
          break;
        }
        case "buy_declined":
          addLog(mm, t("russian.log.declined", { box: boxName }));
          break;
        case "box_settled":
          if (mine) {
            mm.settled = { ...(mm.settled || {}), [e.box]: e.settlement };
            const net = (e.settlement.outcomes || []).reduce((a, o) => a + o.net, 0);
            addLog(mm, t("russian.log.settled", { box: boxName, net: signedMoney(net) }), net > 0 ? "good" : net < 0 ? "bad" : "");
          }
          break;
        case "round_voided":
          addLog(mm, t("log.voided"), "bad");
          break;
        case "round_closed": {
          mm.last = { summary: e.summary || {}, returns: e.returns || {}, status: e.status };
          mm.deadline = null;
          const boxes = (mm.last.summary.boxes || []).filter((b) => b.seat === me);
          const net = boxes.reduce((a, b) => a + (b.net || 0), 0);
          if (boxes.length) {
            play(net > 0 ? "win" : net < 0 ? "lose" : "chip");
            announce(net > 0 ? t("result.you_win", { amount: money(net) }) : net < 0 ? t("result.you_lose", { amount: money(-net) }) : t("result.push"));
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
  const live_ = canDecide();
  useFocusNext(m, controls);
  const legal = (v && v.legal) || [];
  const haveBoxes = Boolean(v && v.boxes.some((b) => b.seat === me));
  const canBet = Boolean(tb && me != null && !haveBoxes && (!v || v.phase === "betting" || v.phase === "settled" || v.phase === "voided") && tb.status !== "playing" && tb.status !== "pause");
  // Your open box deciding now (the second one, when you have two, in its turn), else your first.
  const mine = v ? v.boxes.filter((b) => b.seat === me && !b.blind) : [];
  const open = mine.find((b) => b.box === v.to_act) || mine[0] || null;
  const ante = open ? open.ante : 0;

  // At the showdown every box is opened: the round's summary has all their cards.
  const shown = Object.fromEntries(((m.last && m.last.summary && m.last.summary.boxes) || []).filter((b) => b.cards).map((b) => [b.box, b.cards]));
  const boxes = v ? v.boxes.map((b) => (b.cards || !shown[b.box] ? b : { ...b, cards: shown[b.box] })) : m.last && m.last.summary && m.last.summary.boxes ? m.last.summary.boxes.map((b) => ({ ...b, blind: false })) : [];
  const dealerCards = m.bought ? m.bought.hand : v ? v.dealer || [] : m.last && m.last.summary.dealer ? m.last.summary.dealer : [];
  // Once the dealer's five are shown, the dealer's hand and each of your boxes' are named down
  // to the kicker that tells them apart (as UTH's).
  const dealerHand = dealerCards.length === 5 && dealerCards.every(Boolean) ? bestHand(dealerCards) : null;
  const myHands = boxes.filter((b) => b.seat === me && b.cards && b.cards.length >= 5).map((b) => bestHand(b.cards));

  function addChip(spot) {
    const cap = spot === "ante" ? rules.ante_max : rules.bonus_max;
    const next = ui.draft[spot] + ui.chip;
    ui.draft = { ...ui.draft, [spot]: cap ? Math.min(next, cap) : next };
    refresh();
  }
  function blindCount(delta) {
    const max = (rules.boxes || 6) - 1;
    ui.draft = { ...ui.draft, blind: Math.max(0, Math.min(max, ui.draft.blind + delta)) };
    refresh();
  }
  async function deal() {
    const d = ui.draft;
    const outside = limitError([["ante", d.ante, rules.ante_min, rules.ante_max], ["bonus", d.bonus, rules.bonus_min, rules.bonus_max]]);
    if (outside) {
      toast(outside, "error");
      return;
    }
    const bets = { ante: d.ante };
    if (d.bonus > 0) bets.bonus = d.bonus;
    if (d.blind > 0) bets.blind_boxes = d.blind;
    const result = await send({ type: "bet", key: newKey(), bets });
    if (result) {
      ui.lastBet = { ...d };
      ui.draft = { ante: 0, bonus: 0, blind: 0 };
      refresh();
    }
  }
  function act(action) {
    const message = { type: "act", action };
    if (action === "exchange") message.cards = [...ui.selected];
    if (action === "insurance") {
      message.action = "bet";
      message.amount = toCents(ui.insurance) || 0;
    }
    return decide(message);
  }
  // The advisor's exact EV of each legal option (GET /api/games/russian/advice, issue 32).
  async function hint() {
    if (!open || !open.cards) return;
    ui.hint = { text: t("table.hint.asking") };
    refresh();
    const buying = legal.includes("buy") || legal.includes("decline");
    const q = new URLSearchParams({ hand: open.cards.join(""), seen: (open.discarded || ui.seen[open.box] || []).join(""), dealer: buying ? dealerCards.join("") : "" });
    try {
      const advice = await api(`/api/games/russian/advice?${q}`);
      const name = (o) => russianOption({ action: o.action, cards: o.discard, insurance: o.insurance * ante });
      const list = advice.options.slice(0, 6).map((o) => `${name(o)} ${o.ev >= 0 ? "+" : ""}${number(o.ev, 3)}${o.cost ? ` (${t("russian.hint.cost", { amount: money(Math.round(o.cost * ante)) })})` : ""}`).join(" · ");
      ui.hint = { text: t("table.hint.best", { action: name(advice.options[0]) }), best: advice.best, detail: t("table.hint.ev", { list }) };
    } catch (err) {
      ui.hint = { text: err.status === 404 ? t("table.hint.none") : err.message || String(err) };
    }
    refresh();
  }
  function toggle(card) {
    if (ui.selected.has(card)) ui.selected.delete(card);
    else ui.selected.add(card);
    refresh();
  }

  const limits = russianLimits(rules);
  const phase = v ? v.phase : m.last ? "settled" : tb ? tb.status : "connecting";
  const phaseText = (() => {
    if (!tb) return t("conn.connecting");
    if (v && legal.length) return legal.includes("buy") ? t("russian.phase.buying") : decisionText(legal);
    if (v && haveBoxes && v.to_act_seat != null && v.phase !== "settled") return t("russian.waiting_for", { name: nameOf(m, v.to_act_seat) });
    if (v && v.phase === "betting") return haveBoxes ? t("table.waiting_deal") : t("russian.phase.betting");
    if (v && v.phase === "voided") return t("log.voided");
    if (tb.status === "pause") return t("table.next_round");
    if (tb.status === "playing") return t("table.round_in_play");
    return me == null ? t("table.take_seat") : t("russian.phase.betting");
  })();

  return html`<section class="table-page russian" data-testid="russian-table" data-phase=${phase} aria-label=${tableTitle(info)}>
    <${TableHead} info=${info} model=${m} limits=${limits} extra=${tb && tb.round_id ? html`<span class="round">${t("round.n", { n: tb.round_id })}</span>` : null} />
    <div class="table-layout">
      <div class="table-main">
        <${Notices} model=${m} />
        <div class="felt ru-felt" data-testid="felt">
          <${RussianPayTables} rules=${rules} />
          <div class="dealer-area" data-testid="dealer">
            <div class="felt-label">${m.bought ? t("russian.dealer_bought") : t("table.dealer")}</div>
            <${CardRow} cards=${dealerCards} slots=${dealerCards.length ? 0 : 5} label=${t("table.dealer_cards")} />
            ${m.bought ? html`<div class="hand-note" data-testid="bought">${t("russian.bought_note", { replaced: cardName(m.bought.replaced), drawn: (m.bought.drawn || []).map(cardName).join(", ") })}</div>` : null}
            <div class="hand-note" data-testid="dealer-hand">${dealerHand ? nameAgainst(dealerHand, myHands) : dealerCards.length && dealerCards[0] ? (bestHand(dealerCards) || {}).name : ""}</div>
          </div>
          <div class="status-line"><div class="phase" data-testid="phase">${phaseText}</div><${Timer} deadline=${m.deadline} active=${Boolean(v && v.phase !== "settled" && v.phase !== "voided" && tb && tb.status === "playing")} /></div>
          <${RussianResult} model=${m} me=${me} />
          <ul class="ru-boxes" data-testid="boxes" aria-label=${t("boxes")}>
            ${boxes.map((b) => html`<${BoxEl} key=${b.box} b=${b} model=${m} me=${me} ui=${ui} dealerHand=${dealerHand} canSelect=${legal.includes("exchange") && open && open.box === b.box} onToggle=${toggle} />`)}
            ${canBet ? html`<li class="ru-box draft mine"><div class="felt-label">${t("russian.your_box")}</div>
              <div class="spots">
                <${Spot} name="ante" label=${t("spot.ante")} amount=${ui.draft.ante} chip=${ui.chip} onAdd=${offline ? null : addChip} />
                <${Spot} name="bonus" label=${t("spot.bonus")} amount=${ui.draft.bonus} chip=${ui.chip} onAdd=${offline ? null : addChip} />
              </div></li>` : null}
          </ul>
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
      // At the prices the server's engine gives (the lobby's `prices`): each open box its
      // Ante and Bonus, each blind box its Ante with the Bet placed with it.
      const boxPrice = (info.prices && info.prices.box) || {};
      const blindPrice = (info.prices && info.prices.blind_box) || {};
      const total = d.ante * (boxPrice.ante || 0) + d.bonus * (boxPrice.bonus || 0) + d.blind * d.ante * (blindPrice.ante || 0);
      return html`<div class="ru-betform" data-testid="bet-form">
        <${ChipTray} selected=${ui.chip} max=${rules.ante_max || Infinity} onSelect=${(c) => { ui.chip = c; refresh(); }} />
        <div class="bet-row">
          <span class="stepper" role="group" aria-label=${t("russian.blind_boxes")}>
            <span class="stepper-label" id="blind-label">${t("russian.blind_boxes")}</span>
            <button type="button" class="btn small" data-testid="blind-minus" aria-label=${t("russian.blind_minus")} disabled=${!d.blind} onClick=${() => blindCount(-1)}>−</button>
            <output data-testid="blind-count" aria-labelledby="blind-label">${d.blind}</output>
            <button type="button" class="btn small" data-testid="blind-plus" aria-label=${t("russian.blind_plus")} onClick=${() => blindCount(1)}>+</button>
          </span>
          <div class="bet-total" aria-live="polite">${t("table.total", { amount: money(total) })}</div>
          <button type="button" class="btn" data-testid="clear" disabled=${!total} onClick=${() => { ui.draft = { ante: 0, bonus: 0, blind: 0 }; refresh(); }}>${t("btn.clear")}</button>
          <button type="button" class="btn" data-testid="rebet" disabled=${!ui.lastBet} onClick=${() => { ui.draft = { ...ui.lastBet }; refresh(); }}>${t("btn.rebet")}</button>
          <button type="button" class="btn primary" data-testid="bet-button" disabled=${m.busy || offline || !d.ante} onClick=${deal}>${t("btn.confirm_bet")}</button>
          <button type="button" class="btn ghost" data-testid="leave" disabled=${m.busy || offline} onClick=${() => send({ type: "leave" })}>${t("btn.leave")}</button>
        </div>
      </div>`;
    }
    return html`${haveBoxes && v && v.phase !== "settled" ? html`<p class="muted" data-testid="waiting">${phaseText}</p>` : null}
      <div class="actions"><button type="button" class="btn small ghost" data-testid="leave" disabled=${m.busy || offline || Boolean(haveBoxes && v.phase !== "settled")} onClick=${() => send({ type: "leave" })}>${t("btn.leave")}</button></div>`;
  }

  function decisionButtons() {
    const n = ui.selected.size;
    // What each decision costs: the server's hints price every option of the box deciding.
    const price = (a) => priceText(v, a, money);
    const label = {
      exchange: n ? t("russian.act.exchange_n", { n, cost: price("exchange") }) : t("russian.act.exchange", { cost: price("exchange") }),
      sixth_card: t("russian.act.sixth", { cost: price("sixth_card") }),
      bet: t("russian.act.bet", { cost: price("bet") }),
      fold: t("action.fold"),
      buy: t("russian.act.buy", { cost: price("buy") }),
      decline: t("russian.act.decline"),
    };
    const ins = v && v.insurance;
    const hand = open && open.cards ? bestHand(open.cards) : null;
    const insurable = legal.includes("bet") && (ins ? true : Boolean(hand && hand.rank >= 3));
    return html`<div class="actions" role="group" aria-label=${t("decision")} data-decision="1" tabindex="-1" data-live=${String(live_)}>
        ${legal.map((a) => html`<button type="button" key=${a} class=${`btn act act-${a}`} data-testid=${`act-${a}`} data-label=${a}
          disabled=${!live_ || (a === "exchange" && n === 0)} onClick=${() => act(a)}>${label[a] || a}</button>`)}
      </div>
      ${legal.includes("exchange") ? html`<p class="muted small">${t("russian.select_hint")}</p>` : null}
      ${open && open.cards ? html`<button type="button" class="btn ghost small" data-testid="hint" onClick=${hint}>${t("btn.hint")}</button>` : null}
      ${ui.hint ? html`<div class="hint" data-testid="hint-text" role="status">${ui.hint.text}${ui.hint.detail ? html`<small>${ui.hint.detail}</small>` : null}</div>` : null}
      ${insurable
        ? html`<div class="ru-insurance" data-testid="insurance">
            <label>${t("russian.insurance")} ${ins ? html`<span class="muted">(${money(ins[0])}–${money(ins[1])})</span>` : null}
              <input type="text" inputmode="decimal" class="amount" data-testid="insurance-amount" value=${ui.insurance} placeholder=${ins ? centsText(ins[0]) : centsText(ante)} onInput=${(e) => (ui.insurance = e.target.value)} /></label>
            <button type="button" class="btn act act-insurance" data-testid="act-insurance" disabled=${!live_} onClick=${() => act("insurance")}>${t("russian.act.insure")}</button>
          </div>`
        : null}`;
  }
}

function BoxEl({ b, model, me, ui, canSelect, onToggle, dealerHand }) {
  const mine = b.seat === me;
  const toAct = model.view && model.view.to_act === b.box;
  const settlement = model.settled && model.settled[b.box];
  const cards = b.cards || null;
  const hand = cards && cards.length >= 5 ? bestHand(cards) : null;
  const combos = settlement && settlement.payout ? settlement.payout.combinations || [] : [];
  let body;
  if (cards && canSelect) {
    body = html`<div class="card-row" role="group" aria-label=${t("russian.select_hint")}>${cards.map((c) => html`<button type="button" key=${c} class=${`card-pick${ui.selected.has(c) ? " selected" : ""}`} aria-pressed=${ui.selected.has(c) ? "true" : "false"} onClick=${() => onToggle(c)}><${Card} code=${c} /></button>`)}</div>`;
  } else if (cards) body = html`<${CardRow} cards=${cards} small=${!mine} best=${hand && hand.rank > 0 ? new Set(hand.five) : null} label=${mine ? t("your_cards") : t("box.n", { n: b.box + 1 })} />`;
  else body = html`<${CardRow} cards=${[null, null, null, null, null]} small=${!mine} label=${t("box.n", { n: b.box + 1 })} />`;
  const lines = settlement ? (settlement.outcomes || []).map((o) => ({ bet: o.kind, stake: o.stake, outcome: o.outcome, net: o.net })) : null;
  return html`<li class=${`ru-box${mine ? " mine" : ""}${b.blind ? " blind" : ""}${toAct ? " acting" : ""}`} data-testid=${mine ? (b.blind ? "my-blind-box" : "my-box") : "box"} data-box=${String(b.box)}>
    <div class="felt-label">${t("box.n", { n: b.box + 1 })}${b.blind ? ` · ${t("russian.blind")}` : ""}${mine ? ` · ${t("you")}` : b.seat != null ? ` · ${nameOf(model, b.seat)}` : ""}</div>
    ${body}
    ${hand && mine ? html`<div class="hand-note" data-testid="box-hand">${dealerHand ? nameAgainst(hand, [dealerHand]) : hand.name}</div>` : null}
    ${combos.length > 1 ? html`<div class="hand-note two-combos" data-testid="two-combos">${t("russian.two_combos", { a: comboName(combos[0]), b: comboName(combos[1]) })}</div>` : null}
    ${b.ante != null
      ? html`<div class="ru-stakes">${t("spot.ante")} ${money(b.ante)}${b.bet ? ` · ${t("spot.bet")} ${money(b.bet)}` : ""}${b.bonus ? ` · ${t("spot.bonus")} ${money(b.bonus)}` : ""}${b.fee ? ` · ${t("spot.fee")} ${money(b.fee)}` : ""}${b.insurance ? ` · ${t("spot.insurance")} ${money(b.insurance)}` : ""}</div>`
      : null}
    ${b.status ? html`<div class="ru-status">${t(`russian.status.${b.status}`)}</div>` : null}
    ${lines && mine ? html`<${BetLines} lines=${lines} testid="box-lines" />` : null}
    ${b.net != null && mine ? html`<div class=${b.net > 0 ? "good" : b.net < 0 ? "bad" : "muted"} data-testid="box-net" data-net=${String(b.net)}>${signedMoney(b.net)}</div>` : null}
  </li>`;
}

/** A box's hand named down to the kicker that tells it from the dealer's hand it met (each
 * box its own: buying the dealer's game changes it for that box only). */
function handAgainst(cards, dealer) {
  const hand = cards ? bestHand(cards) : null;
  if (!hand) return "";
  const theirs = dealer && dealer.length === 5 ? bestHand(dealer) : null;
  return theirs ? nameAgainst(hand, [theirs]) : hand.name;
}

function RussianResult({ model, me }) {
  const v = model.view;
  if (v && v.phase !== "settled" && v.phase !== "voided") return null;
  if (!model.last) return null;
  const mine = (model.last.summary.boxes || []).filter((b) => b.seat === me);
  if (!mine.length) return null;
  const net = mine.reduce((a, b) => a + (b.net || 0), 0);
  const voided = model.last.status === "voided";
  const cls = net > 0 ? "win" : net < 0 ? "lose" : "push";
  return html`<div class=${`result-banner compact ${cls}`} data-testid="result" role="status">
    <div class="headline" data-testid="result-net" data-net=${String(voided ? 0 : net)}>${voided ? t("log.voided") : net > 0 ? t("result.you_win", { amount: money(net) }) : net < 0 ? t("result.you_lose", { amount: money(-net) }) : t("result.push")}</div>
    <div class="hands">${mine.map((b) => `${t("box.n", { n: b.box + 1 })}: ${handAgainst(b.cards, b.dealer_hand)} ${signedMoney(b.net || 0)}`).join(" · ")}</div>
  </div>`;
}

function RussianPayTables({ rules }) {
  const rows = (pt, unit) => Object.entries(pt || {}).filter(([, val]) => val).map(([k, val]) => html`<tr key=${k}><th scope="row">${categoryName(k)}</th><td>${unit === "x" ? `${val}:1` : `${val}:1`}</td></tr>`);
  const betPt = rules.bet_paytable || { royal_flush: 100, straight_flush: 50, four_of_a_kind: 20, full_house: 7, flush: 5, straight: 4, three_of_a_kind: 3, two_pair: 2, pair: 1, ace_king: 1 };
  return html`<details class="paytables" data-testid="paytables">
    <summary>${t("paytable.title")}</summary>
    <div class="pt-grid">
      <table class="paytable"><caption>${t("russian.bet_pays")}</caption><tbody>${rows(betPt, "x")}</tbody></table>
      ${rules.bonus_paytable ? html`<table class="paytable"><caption>${t("russian.bonus_pays")}</caption><tbody>${rows(rules.bonus_paytable, "x")}</tbody></table>` : null}
    </div>
    <p class="pt-note">${t("russian.rules_short")}</p>
  </details>`;
}
