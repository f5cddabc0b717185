// Playing cards drawn with CSS and inline SVG suit symbols: no image files, nothing fetched.

import { h } from "./api.js";

const SUITS = {
  s: { name: "spades", red: false, path: "M50 8C38 30 10 42 10 64c0 14 11 22 22 22 7 0 12-3 15-7-1 8-4 13-9 17h24c-5-4-8-9-9-17 3 4 8 7 15 7 11 0 22-8 22-22C90 42 62 30 50 8z" },
  h: { name: "hearts", red: true, path: "M50 92C40 80 8 60 8 34 8 20 19 10 31 10c9 0 15 5 19 12 4-7 10-12 19-12 12 0 23 10 23 24 0 26-32 46-42 58z" },
  d: { name: "diamonds", red: true, path: "M50 6 84 50 50 94 16 50z" },
  c: { name: "clubs", red: false, path: "M50 8c-11 0-20 9-20 20 0 5 2 9 4 12-3-1-6-2-9-2-11 0-19 9-19 20s8 20 19 20c8 0 14-4 18-10-1 9-4 15-10 20h34c-6-5-9-11-10-20 4 6 10 10 18 10 11 0 19-9 19-20s-8-20-19-20c-3 0-6 1-9 2 2-3 4-7 4-12 0-11-9-20-20-20z" },
};
const RANK_NAMES = { T: "10" };

function suitSvg(suit, cls) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", SUITS[suit].path);
  svg.append(path);
  return svg;
}

// A card face for "As", a back for null (a hidden card), or an empty slot for undefined.
// When each card code was first drawn face up, so a card animates once as it is dealt and
// not again when the page redraws (the animation resumes where it was, by a negative delay).
const firstSeen = new Map();
export function forgetDealt() {
  firstSeen.clear();
}

export function cardEl(code, { small = false, highlight = false } = {}) {
  const size = small ? " small" : "";
  if (code === undefined) return h("div", { class: "card slot" + size });
  if (code === null) return h("div", { class: "card back" + size, testid: "card-back" });
  const rank = code[0];
  const suit = code[1];
  const info = SUITS[suit];
  const label = RANK_NAMES[rank] || rank;
  const now = performance.now();
  if (!small && !firstSeen.has(code)) firstSeen.set(code, now);
  const age = small ? Infinity : now - firstSeen.get(code);
  return h(
    "div",
    {
      style: age < 300 ? { animationDelay: `-${Math.round(age)}ms` } : null,
      class: `card face ${info.red ? "red" : "black"}${size}${highlight ? " highlight" : ""}${age < 300 ? " dealt" : ""}`,
      testid: "card",
      "data-card": code,
      title: `${label} of ${info.name}`,
    },
    h("div", { class: "corner tl" }, h("span", { class: "rank" }, label), suitSvg(suit, "pip-small")),
    suitSvg(suit, "pip-center"),
    h("div", { class: "corner br" }, h("span", { class: "rank" }, label), suitSvg(suit, "pip-small")),
  );
}

// A row of `slots` card places, filled left to right with `cards`.
export function cardRow(cards, slots, opts = {}) {
  const row = h("div", { class: "card-row" });
  for (let i = 0; i < Math.max(slots, cards.length); i++) {
    row.append(cardEl(i < cards.length ? cards[i] : undefined, opts));
  }
  return row;
}

// The evaluator's values run 1..7462, higher is better (croupier.evaluator.category_of).
const CATEGORY_FLOORS = [
  [7462, "Royal flush"],
  [7453, "Straight flush"],
  [7297, "Four of a kind"],
  [7141, "Full house"],
  [5864, "Flush"],
  [5854, "Straight"],
  [4996, "Three of a kind"],
  [4138, "Two pair"],
  [1278, "Pair"],
  [1, "High card"],
];

export function handName(value) {
  if (!value) return "";
  for (const [floor, name] of CATEGORY_FLOORS) if (value >= floor) return name;
  return "";
}

// Chips: denominations in minor units and their colours (casino convention).
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

export function chipEl(value, attrs = {}) {
  const chip = CHIPS.find((c) => c.value === value) || CHIPS[0];
  return h("div", { class: `chip ${chip.cls}`, ...attrs }, h("span", {}, chipLabel(value)));
}

// A stack of chips making up `amount` (largest first), at most 8 drawn, amount written below.
export function chipStack(amount) {
  const stack = h("div", { class: "chip-stack" });
  if (!amount) return stack;
  let left = amount;
  const drawn = [];
  for (const c of [...CHIPS].reverse()) {
    while (left >= c.value && drawn.length < 8) {
      drawn.push(c.value);
      left -= c.value;
    }
  }
  if (!drawn.length) drawn.push(100);
  drawn.forEach((v, i) => {
    const el = chipEl(v);
    el.style.bottom = `${i * 4}px`;
    stack.append(el);
  });
  return stack;
}
