// Caribbean Stud Poker in the round history (history.js asks games.js for it): your five
// cards from the revealed deck (docs/rules.md "Caribbean Stud Poker", the dealing order of
// croupier.games.caribbean.dealing), the dealer's hand, your decision, each bet's result.

import { bestHand, CardRow } from "./cards.js";
import { BetLines } from "./common.js";
import { t } from "./i18n.js";
import { html } from "./ui.js";

/** The five cards of each box and the dealer's, from the revealed deck: one card at a time
 * to each box in seat order and the dealer last, five times round (or five at a time to each
 * box, then the dealer, at a table that deals hands). */
export function caribbeanHands(deck, seats, dealing) {
  if (!deck || !seats || !seats.length) return { boxes: {}, dealer: null };
  const cards = deck.split(" ");
  const order = [...seats].sort((a, b) => a - b);
  const boxes = {};
  if (dealing === "hands") {
    order.forEach((seat, i) => (boxes[seat] = cards.slice(5 * i, 5 * i + 5)));
    return { boxes, dealer: cards.slice(5 * order.length, 5 * order.length + 5) };
  }
  const width = order.length + 1;
  const at = (i) => [0, 1, 2, 3, 4].map((k) => cards[k * width + i]);
  order.forEach((seat, i) => (boxes[seat] = at(i)));
  return { boxes, dealer: at(order.length) };
}

export function caribbeanHistory(round, seats) {
  const rec = round.record || {};
  const summary = round.summary || {};
  const dealing = rec.config ? rec.config.dealing : null;
  const { boxes, dealer: dealt } = caribbeanHands(rec.deck, (rec.bets || []).map((b) => b.seat), dealing);
  const dealer = summary.dealer || dealt;
  const mine = seats.filter((s) => boxes[s]);
  const actions = (rec.actions || []).filter((a) => seats.includes(a.seat)).map((a) => t(`action.${a.action}`) + (a.timeout ? ` (${t("history.timer")})` : ""));
  const results = (summary.results || rec.results || []).filter((r) => seats.includes(r.seat));
  return html`<div class="round-cards">
      ${dealer ? html`<div><small>${t("table.dealer")} · ${bestHand(dealer).name}</small><${CardRow} cards=${dealer} small=${true} label=${t("table.dealer_cards")} /></div>` : null}
      ${mine.map((s) => html`<div key=${s}><small>${t("history.your_cards")} · ${bestHand(boxes[s]).name}</small><${CardRow} cards=${boxes[s]} small=${true} label=${t("your_cards")} /></div>`)}
    </div>
    ${actions.length ? html`<p class="history-actions" data-testid="history-actions">${t("history.actions")}: ${actions.join(" → ")}</p>` : null}
    ${results.map((r, i) => html`<${BetLines} key=${i} lines=${r.bets} testid="history-bets" />`)}`;
}
