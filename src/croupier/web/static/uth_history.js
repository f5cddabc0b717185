// Ultimate Texas Hold'em in the round history (history.js asks games.js for it): your hole
// cards from the revealed deck, your decisions, the Antes returned, each bet's result.

import { bestHand, CardRow } from "./cards.js";
import { BetLines, holeCardsFromDeck } from "./common.js";
import { has, money, t } from "./i18n.js";
import { html } from "./ui.js";

function actionWord(a) {
  return has(`action.${a}`) ? t(`action.${a}`) : a;
}

/** UTH: your hole cards (from the deck), your decisions, each bet's result. */
export function uthHistory(round, seats) {
  const rec = round.record || {};
  const summary = round.summary || {};
  const shared = rec.config && rec.config.shared_hand;
  const cards = shared && rec.deck ? [[-1, rec.deck.split(" ").filter((_, i) => i === 0 || i === 2)]] : Object.entries(holeCardsFromDeck(rec.deck, (rec.bets || []).map((b) => b.seat))).filter(([s]) => seats.includes(Number(s)));
  const actions = (rec.actions || []).filter((a) => seats.includes(a.seat) || shared).map((a) => actionWord(a.action) + (a.timeout ? ` (${t("history.timer")})` : ""));
  const results = (summary.results || []).filter((r) => seats.includes(r.seat) || shared);
  const board = summary.board || [];
  // seed 003: the dealer did not qualify and returned every Ante still in play first, right to left
  const back = (rec.antes_returned || []).filter(([s]) => seats.includes(s) || shared);
  const antesBack = back.length ? html`<p class="history-actions" data-testid="history-antes-returned">${t("history.antes_returned", { list: back.map(([s, a]) => `${t("box.n", { n: s + 1 })} ${money(a)}`).join(", ") })}</p>` : null;
  return html`<div class="round-cards">
      ${summary.dealer ? html`<div><small>${t("table.dealer")}</small><${CardRow} cards=${summary.dealer} slots=${2} small=${true} label=${t("table.dealer_cards")} /></div>` : null}
      ${board.length ? html`<div><small>${t("board")}</small><${CardRow} cards=${board} slots=${5} small=${true} label=${t("board")} /></div>` : null}
      ${cards.map(([s, c]) => html`<div key=${s}><small>${t("history.your_cards")}${board.length === 5 && c[0] ? ` · ${bestHand([...c, ...board]).name}` : ""}</small><${CardRow} cards=${c} slots=${2} small=${true} label=${t("your_cards")} /></div>`)}
    </div>
    ${actions.length ? html`<p class="history-actions" data-testid="history-actions">${t("history.actions")}: ${actions.join(" → ")}</p>` : null}
    ${antesBack}
    ${results.map((r, i) => html`<${BetLines} key=${i} lines=${r.bets} testid="history-bets" />`)}`;
}

