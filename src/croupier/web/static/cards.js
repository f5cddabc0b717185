// Playing cards (CSS and inline SVG suits: no image files), chips, and poker hands: the best
// five of up to seven cards, named in full in the active language ("Queens and Sevens, Ace
// kicker"), for highlighting the five and announcing the hand.

import { money, t } from "./i18n.js";
import { html } from "./ui.js";

const SUIT_PATHS = {
  s: "M50 8C38 30 10 42 10 64c0 14 11 22 22 22 7 0 12-3 15-7-1 8-4 13-9 17h24c-5-4-8-9-9-17 3 4 8 7 15 7 11 0 22-8 22-22C90 42 62 30 50 8z",
  h: "M50 92C40 80 8 60 8 34 8 20 19 10 31 10c9 0 15 5 19 12 4-7 10-12 19-12 12 0 23 10 23 24 0 26-32 46-42 58z",
  d: "M50 6 84 50 50 94 16 50z",
  c: "M50 8c-11 0-20 9-20 20 0 5 2 9 4 12-3-1-6-2-9-2-11 0-19 9-19 20s8 20 19 20c8 0 14-4 18-10-1 9-4 15-10 20h34c-6-5-9-11-10-20 4 6 10 10 18 10 11 0 19-9 19-20s-8-20-19-20c-3 0-6 1-9 2 2-3 4-7 4-12 0-11-9-20-20-20z",
};
const RED = new Set(["h", "d"]);
export const RANKS = "23456789TJQKA";
export const rankValue = (code) => RANKS.indexOf(code[0]) + 2;

const Suit = ({ suit, cls }) => html`<svg viewBox="0 0 100 100" class=${cls} aria-hidden="true" focusable="false"><path d=${SUIT_PATHS[suit]} /></svg>`;

const SUIT_SIGNS = { s: "♠", h: "♥", d: "♦", c: "♣" };

/** "Td" -> "10♦": a card as its face's corner shows it, rank and suit sign (a short list of
 * cards inside a sentence, the same in every language). */
export function cardShort(code) {
  return `${code[0] === "T" ? "10" : code[0]}${SUIT_SIGNS[code[1]] || code[1]}`;
}

/** "As" -> "Ace of spades" (in the active language). */
export function cardName(code) {
  if (!code) return t("card.hidden");
  return t("card.name", { rank: rankValue(code), suit: code[1] });
}

/**
 * One card: a face for "As", a back for null (a hidden card), an empty place for undefined.
 * A face is mounted once per code (keyed by it), so it is dealt/turned with an animation
 * exactly when it appears, never again when the table updates.
 */
export function Card({ code, small = false, highlight = false, dim = false }) {
  const size = small ? " small" : "";
  if (code === undefined) return html`<div class=${"card slot" + size} aria-hidden="true"></div>`;
  if (code === null) return html`<div class=${"card back" + size} data-testid="card-back" role="img" aria-label=${t("card.hidden")}></div>`;
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const cls = `card face ${RED.has(suit) ? "red" : "black"}${size}${highlight ? " best" : ""}${dim ? " dim" : ""}`;
  return html`<div class=${cls} data-testid="card" data-card=${code} role="img" aria-label=${cardName(code)} title=${cardName(code)}>
    <div class="corner tl" aria-hidden="true"><span class="rank">${rank}</span><${Suit} suit=${suit} cls="pip-small" /></div>
    <${Suit} suit=${suit} cls="pip-center" />
    <div class="corner br" aria-hidden="true"><span class="rank">${rank}</span><${Suit} suit=${suit} cls="pip-small" /></div>
  </div>`;
}

/** `slots` card places filled left to right with `cards`; `best` (a set of codes) highlighted. */
export function CardRow({ cards = [], slots = 0, small = false, best = null, label = null, testid = null }) {
  const items = [];
  const n = Math.max(slots, cards.length);
  for (let i = 0; i < n; i++) {
    const code = i < cards.length ? cards[i] : undefined;
    const key = code ? code : `${i}-${code === null ? "back" : "slot"}`;
    items.push(html`<${Card} key=${key} code=${code} small=${small} highlight=${Boolean(best && code && best.has(code))} dim=${Boolean(best && code && best.size && !best.has(code))} />`);
  }
  return html`<div class="card-row" role=${label ? "group" : null} aria-label=${label} data-testid=${testid}>${items}</div>`;
}

// -- hands -------------------------------------------------------------------------------

export const CATEGORIES = ["high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush"];

/** A score of 1 to 5 cards: [category index, ranks in order of importance...]. */
function score(cards) {
  const values = cards.map(rankValue).sort((a, b) => b - a);
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const ranks = groups.map(([v]) => v);
  const shape = groups.map(([, c]) => c).join("");
  if (cards.length === 5) {
    const flush = cards.every((c) => c[1] === cards[0][1]);
    let high = 0;
    if (groups.length === 5) {
      if (values[0] - values[4] === 4) high = values[0];
      else if (values.join() === "14,5,4,3,2") high = 5; // the wheel: Ace plays low
    }
    if (high && flush) return [high === 14 ? 9 : 8, high];
    if (shape === "41") return [7, ...ranks];
    if (shape === "32") return [6, ...ranks];
    if (flush) return [5, ...values];
    if (high) return [4, high];
  }
  if (shape.startsWith("4")) return [7, ...ranks];
  if (shape.startsWith("3")) return [3, ...ranks];
  if (shape.startsWith("22")) return [2, ...ranks];
  if (shape.startsWith("2")) return [1, ...ranks];
  return [0, ...ranks];
}

function better(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return false;
}

/**
 * The best hand of `cards` (2 to 7 known cards): {category, ranks, five, name}. With more
 * than five cards every five-card subset is scored (21 for seven).
 */
export function bestHand(cards) {
  const known = (cards || []).filter(Boolean);
  if (!known.length) return null;
  let best = null;
  let five = known;
  if (known.length > 5) {
    const n = known.length;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        for (let c = b + 1; c < n; c++)
          for (let d = c + 1; d < n; d++)
            for (let e = d + 1; e < n; e++) {
              const hand = [known[a], known[b], known[c], known[d], known[e]];
              const s = score(hand);
              if (!best || better(s, best)) {
                best = s;
                five = hand;
              }
            }
  } else best = score(known);
  // The cards that make the hand: kickers beyond five never count.
  const [cat, ...ranks] = best;
  return { category: CATEGORIES[cat], rank: cat, ranks, five, name: t("hand.describe", { cat: CATEGORIES[cat], ranks }) };
}

// How many of a category's ranks make the hand itself (the rest are kickers).
const MAIN = { four_of_a_kind: 1, three_of_a_kind: 1, two_pair: 2, pair: 1, high_card: 1 };

/**
 * How many kickers `hand`'s name needs beside `others` (hands of the same deal): the ranks up
 * to the first that tells it from another hand of its category and main ranks. Two players'
 * "Pair of Queens" differ at a kicker; each is named down to it ("Pair of Queens, Ace-King-Nine
 * kickers" against "..., Ace-King-Eight kickers"). A flush counts its cards from the top.
 */
export function kickersNeeded(hand, others) {
  if (!hand) return 1;
  const flush = hand.category === "flush";
  const main = flush ? 0 : MAIN[hand.category];
  if (main === undefined) return 1;
  let need = flush ? 1 : 1;
  for (const o of others) {
    if (!o || o === hand || o.category !== hand.category) continue;
    let i = 0;
    while (i < hand.ranks.length && hand.ranks[i] === o.ranks[i]) i++;
    if (i < main) continue; // told apart by the hand itself
    const upTo = i < hand.ranks.length ? i : hand.ranks.length - 1; // a tie: every card named
    need = Math.max(need, flush ? upTo + 1 : upTo - main + 1);
  }
  return need;
}

/** `hand`'s name, with the kickers that tell it from `others` (see kickersNeeded). */
export function nameAgainst(hand, others) {
  if (!hand) return "";
  return t("hand.describe", { cat: hand.category, ranks: hand.ranks, kickers: kickersNeeded(hand, others) });
}

/** The category's name ("Two pair") in the active language. */
export function categoryName(category) {
  return t(`cat.${category}`);
}

// The evaluator's values run 1..7462, higher is better (croupier.evaluator.category_of).
const CATEGORY_FLOORS = [[7462, 9], [7453, 8], [7297, 7], [7141, 6], [5864, 5], [5854, 4], [4996, 3], [4138, 2], [1278, 1], [1, 0]];

/** The category of one of the server's hand values (1..7462). */
export function categoryOfValue(value) {
  if (!value) return null;
  for (const [floor, cat] of CATEGORY_FLOORS) if (value >= floor) return CATEGORIES[cat];
  return null;
}

// -- chips -------------------------------------------------------------------------------

// Denominations in minor units and their colours (casino convention).
export const CHIPS = [
  { value: 100, cls: "chip-white" },
  { value: 500, cls: "chip-red" },
  { value: 2500, cls: "chip-green" },
  { value: 10000, cls: "chip-black" },
  { value: 50000, cls: "chip-purple" },
];

export function chipLabel(value) {
  const e = value / 100;
  return e >= 1000 ? `${e / 1000}k` : String(e);
}

export function Chip({ value }) {
  const chip = CHIPS.find((c) => c.value === value) || CHIPS[0];
  return html`<span class=${`chip ${chip.cls}`} aria-hidden="true"><span>${chipLabel(value)}</span></span>`;
}

/** The chips making up `amount` (largest first), at most 8 drawn. */
export function chipsFor(amount) {
  const drawn = [];
  let left = amount || 0;
  for (const c of [...CHIPS].reverse()) {
    while (left >= c.value && drawn.length < 8) {
      drawn.push(c.value);
      left -= c.value;
    }
  }
  if (amount && !drawn.length) drawn.push(100);
  return drawn;
}

/** A stack of chips for `amount`; `motion` names how it moved there ("in", "won", "lost"). */
export function ChipStack({ amount, motion = "" }) {
  const chips = chipsFor(amount);
  return html`<span class=${`chip-stack ${motion}`} aria-hidden="true">${chips.map((v, i) => html`<span class="stacked" key=${i} data-i=${i}><${Chip} value=${v} /></span>`)}</span>`;
}

export function chipName(value) {
  return t("chip.name", { amount: money(value) });
}
