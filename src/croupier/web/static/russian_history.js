// Russian Poker in the round history (history.js asks games.js for it): your boxes' cards,
// what each did, each bet's result.

import { bestHand, cardName, CardRow, cardShort } from "./cards.js";
import { BetLines } from "./common.js";
import { money, t } from "./i18n.js";
import { html } from "./ui.js";

/** An option of a decision in the player's words, as the table's Hint says it (russian.js)
 * and the history's decision costs (history.js, from games.js): `{action, cards, insurance}`,
 * the cards an exchange gives up (written as their faces show them, "10♦"), a Bet's insurance
 * in minor units (0 for none). */
export function russianOption(o) {
  const amount = money(o.insurance || 0);
  const word = t(`russian.hint.${o.action}`, { cards: (o.cards || []).map(cardShort).join(" "), amount });
  return o.action === "bet" && o.insurance ? `${word} ${t("russian.hint.insured", { amount })}` : word;
}

/** Russian Poker: your boxes' cards, what each did, each bet's result. */
export function russianHistory(round, seats) {
  const events = ((round.record || {}).events || []);
  const mine = new Set(events.filter((e) => e.kind === "box_placed" && seats.includes(e.seat)).map((e) => e.box));
  const dealt = events.find((e) => e.kind === "cards_dealt");
  const hands = Object.fromEntries(((dealt && dealt.hands) || []).filter(([b]) => mine.has(b)));
  const lines = [];
  const outcomes = [];
  for (const e of events) {
    if (e.box == null || !mine.has(e.box)) continue;
    const box = t("box.n", { n: e.box + 1 });
    if (e.kind === "box_placed") lines.push(`${box}: ${t(e.blind ? "russian.blind" : "spot.ante")} ${money(e.ante)}${e.bonus ? `, ${t("spot.bonus")} ${money(e.bonus)}` : ""}`);
    else if (e.kind === "cards_exchanged") lines.push(`${box}: ${t("russian.log.exchange", { box, n: e.discarded.length, fee: money(e.fee) })} (${e.discarded.map(cardName).join(", ")} → ${e.received.map(cardName).join(", ")})`);
    else if (e.kind === "sixth_card_bought") lines.push(`${box}: ${t("russian.log.sixth", { box, fee: money(e.fee) })} (${cardName(e.card)})`);
    else if (e.kind === "bet_placed") lines.push(t("russian.log.bet", { box, amount: money(e.bet) }));
    else if (e.kind === "folded") lines.push(t("russian.log.fold", { box }));
    else if (e.kind === "game_bought") lines.push(t("russian.log.bought", { box, fee: money(e.fee), hand: bestHand(e.hand).name }));
    else if (e.kind === "buy_declined") lines.push(t("russian.log.declined", { box }));
    else if (e.kind === "box_settled") outcomes.push([e.box, e.settlement.outcomes.map((o) => ({ bet: o.kind, stake: o.stake, outcome: o.outcome, net: o.net }))]);
  }
  const summaryBoxes = ((round.summary || {}).boxes || []).filter((b) => mine.has(b.box));
  const dealer = (round.summary || {}).dealer;
  return html`<div class="round-cards">
      ${dealer ? html`<div><small>${t("table.dealer")} · ${bestHand(dealer).name}</small><${CardRow} cards=${dealer} small=${true} label=${t("table.dealer_cards")} /></div>` : null}
      ${summaryBoxes.map((b) => html`<div key=${b.box}><small>${t("box.n", { n: b.box + 1 })}${b.cards ? ` · ${bestHand(b.cards).name}` : ""}</small><${CardRow} cards=${b.cards || hands[b.box] || []} small=${true} label=${t("your_cards")} /></div>`)}
    </div>
    ${lines.length ? html`<p class="history-actions" data-testid="history-actions">${lines.join(" · ")}</p>` : null}
    ${outcomes.map(([b, l]) => html`<div key=${b}><small>${t("box.n", { n: b + 1 })}</small><${BetLines} lines=${l} testid="history-bets" /></div>`)}`;
}
