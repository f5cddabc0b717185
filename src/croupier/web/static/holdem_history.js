// Texas Hold'em in the round history (history.js asks games.js for it): the hand's actions
// read from its PHH record, the pots won, your hole cards on the board.

import { bestHand, cardName, CardRow } from "./cards.js";
import { namedHands } from "./holdem.js";
import { money, t } from "./i18n.js";
import { html } from "./ui.js";

function phhList(text, key) {
  const m = new RegExp(`^${key} = (\\[.*\\])$`, "m").exec(text || "");
  if (!m) return [];
  try {
    return JSON.parse(m[1].replace(/'/g, '"').replace(/\btrue\b/g, "true").replace(/\bfalse\b/g, "false"));
  } catch {
    return [];
  }
}

const cardsOf = (text) => (text || "").match(/../g) || [];

/** Hold'em: the hand's actions read from its PHH record, in words, with the amounts; cards
 * named, not written in notation; a hand shown named on the final board. */
export function holdemActions(phh) {
  const actions = phhList(phh, "actions");
  const names = phhList(phh, "players");
  const blinds = phhList(phh, "blinds_or_straddles");
  const who = (p) => names[Number(p.slice(1)) - 1] || p;
  let bets = blinds.map((b) => Number(b) || 0);
  let high = Math.max(0, ...bets);
  const board = [];
  for (const line of actions) {
    const parts = line.split(" ");
    if (parts[0] === "d" && parts[1] === "db") board.push(...cardsOf(parts[2]));
  }
  const out = [];
  for (const line of actions) {
    const parts = line.split(" ");
    if (parts[0] === "d") {
      if (parts[1] === "db") {
        bets = bets.map(() => 0);
        high = 0;
        const dealt = cardsOf(parts[2]);
        const street = dealt.length === 3 ? "flop" : board.indexOf(dealt[0]) === 3 ? "turn" : "river";
        out.push(`${t(`holdem.street.${street}`)}: ${dealt.map(cardName).join(", ")}`);
      }
      continue;
    }
    const p = Number(parts[0].slice(1)) - 1;
    const name = who(parts[0]);
    if (parts[1] === "f") out.push(t("log.folded", { name }));
    else if (parts[1] === "cc") {
      if ((bets[p] || 0) < high) {
        out.push(t("holdem.log.calls", { name, amount: money(high - (bets[p] || 0)) }));
        bets[p] = high;
      } else out.push(t("log.checked", { name }));
    } else if (parts[1] === "cbr") {
      const to = Number(parts[2]);
      out.push(t(high ? "holdem.log.raises" : "holdem.log.bets", { name, amount: money(to) }));
      bets[p] = to;
      high = to;
    } else if (parts[1] === "sm") {
      const shown = cardsOf(parts[2]);
      const hand = shown.length === 2 && board.length >= 3 ? bestHand([...shown, ...board]).name : shown.map(cardName).join(", ");
      out.push(shown.length ? t("holdem.log.shows", { name, hand }) : t("holdem.log.mucks", { name }));
    }
  }
  return out;
}

/** A Hold'em hand's blinds, pot and winners, in words: "Blinds €1.00/€2.00 · Pot €40.00 ·
 * ann wins €39.00 with Pair of Queens, Ace kicker". */
export function holdemSummary(round) {
  const rec = round.record || {};
  const summary = round.summary || {};
  const blinds = phhList(rec.phh, "blinds_or_straddles").map(Number).filter((b) => b > 0);
  const names = phhList(rec.phh, "players");
  const order = rec.seats || [];
  const nameOfSeat = (s) => names[order.indexOf(Number(s))] || t("box.n", { n: Number(s) + 1 });
  const won = summary.won || {};
  const pot = Object.values(won).reduce((a, b) => a + b, 0) + (rec.rake || summary.rake || 0);
  const board = rec.board || summary.board || [];
  const shown = summary.shown || Object.fromEntries((rec.shown || []).map((s) => [String(s), (rec.hole_cards || {})[String(s)]]).filter(([, c]) => c));
  const named = namedHands(shown, board);
  const parts = [];
  if (blinds.length) parts.push(t("history.blinds", { blinds: blinds.map((b) => money(b)).join("/") }));
  if (pot) parts.push(t("history.pot", { amount: money(pot) }));
  for (const [s, amount] of Object.entries(won)) {
    parts.push(named[s] ? t("history.wins_with", { name: nameOfSeat(s), amount: money(amount), hand: named[s].name }) : t("holdem.wins", { name: nameOfSeat(s), amount: money(amount) }));
  }
  return parts.join(" · ");
}

export function holdemHistory(round, seats) {
  const rec = round.record || {};
  const mine = seats.map((s) => (rec.hole_cards || {})[String(s)]).filter(Boolean);
  const board = rec.board || (round.summary || {}).board || [];
  const actions = holdemActions(rec.phh);
  const summary = holdemSummary(round);
  return html`${summary ? html`<p class="history-summary" data-testid="history-summary">${summary}</p>` : null}<div class="round-cards">
      ${board.length ? html`<div><small>${t("board")}</small><${CardRow} cards=${board} slots=${5} small=${true} label=${t("board")} /></div>` : null}
      ${mine.map((c, i) => html`<div key=${i}><small>${t("history.your_cards")}${board.length >= 3 ? ` · ${bestHand([...c, ...board]).name}` : ""}</small><${CardRow} cards=${c} slots=${2} small=${true} label=${t("your_cards")} /></div>`)}
    </div>
    ${actions.length ? html`<p class="history-actions" data-testid="history-actions">${actions.join(" · ")}</p>` : null}`;
}
