// Pieces two or three table pages draw alike: the chip tray, a betting spot, the result's
// per-bet lines, the other boxes' cards computed from a revealed deck.

import { chipName, CHIPS, ChipStack, Chip } from "./cards.js";
import { wordError } from "./errors.js";
import { has, money, signedMoney, t } from "./i18n.js";
import { play } from "./sound.js";
import { html } from "./ui.js";

/** The chip tray: one button per denomination up to `max`, the selected one pressed. */
export function ChipTray({ selected, onSelect, max = Infinity }) {
  return html`<div class="chip-tray" data-testid="chip-tray" role="group" aria-label=${t("chips.tray")}>
    ${CHIPS.filter((c) => c.value <= max).map(
      (c) => html`<button type="button" key=${c.value} class=${`chip-btn${selected === c.value ? " selected" : ""}`} data-testid=${`chip-${c.value}`}
        aria-pressed=${selected === c.value ? "true" : "false"} aria-label=${chipName(c.value)} title=${chipName(c.value)}
        onClick=${() => { onSelect(c.value); play("chip"); }}><${Chip} value=${c.value} /></button>`,
    )}
  </div>`;
}

/**
 * A betting spot: a button while chips can go on it (each press adds the selected chip), a
 * plain mark otherwise. `motion` animates its chips ("in" when placed, "won"/"lost" at the end).
 */
export function Spot({ name, label, amount, onAdd = null, chip = 0, motion = "", testid = null, cls = "" }) {
  const amountText = amount ? money(amount) : t("spot.empty");
  const inner = html`<span class="spot-label">${label}</span><${ChipStack} amount=${amount} motion=${motion} />${amount ? html`<span class="spot-amount">${money(amount)}</span>` : null}`;
  const classes = `spot spot-${name}${amount ? " filled" : ""}${cls ? " " + cls : ""}`;
  if (onAdd) {
    return html`<button type="button" class=${classes + " clickable"} data-testid=${testid || `spot-${name}`}
      aria-label=${t("spot.add", { spot: label, amount: amountText, chip: money(chip) })}
      onClick=${() => { onAdd(name); play("chip"); }}>${inner}</button>`;
  }
  return html`<div class=${classes} data-testid=${testid || `spot-${name}`} role="img" aria-label=${`${label}: ${amountText}`}>${inner}</div>`;
}

/** The words for an outcome ("won", "lost", "push"). */
export function outcomeText(outcome) {
  const key = `outcome.${outcome === "pushed" ? "push" : outcome}`;
  return has(key) ? t(key) : outcome;
}

/** A pay line the engine wrote: a ratio ("3:2") is kept, words are replaced by ours. */
export function payLine(line) {
  return typeof line === "string" && /^\d+(?:\.\d+)?:\d+$/.test(line) ? line : "";
}

/** A table of each bet's stake, outcome and result. */
export function BetLines({ lines, testid = "bet-lines" }) {
  if (!lines || !lines.length) return null;
  return html`<table class="bet-lines" data-testid=${testid}>
    <thead class="sr-only"><tr><th>${t("col.bet")}</th><th>${t("col.stake")}</th><th>${t("col.outcome")}</th><th>${t("col.net")}</th></tr></thead>
    <tbody>${lines.map(
      (b, i) => html`<tr key=${i} data-bet=${b.bet}>
        <td>${has(`spot.${b.bet}`) ? t(`spot.${b.bet}`) : b.bet}</td><td>${money(b.stake)}</td>
        <td>${outcomeText(b.outcome)}${b.note ? html` <small>${b.note}</small>` : null}</td>
        <td class=${b.net > 0 ? "good" : b.net < 0 ? "bad" : ""}>${signedMoney(b.net)}</td></tr>`,
    )}</tbody>
  </table>`;
}

/**
 * A casino deal's hole cards from the revealed deck (spec/uth.md "Dealing": one card at a
 * time to each box in seat order, the dealer last, twice): seat -> [c1, c2].
 */
export function holeCardsFromDeck(deck, seats) {
  if (!deck || !seats || !seats.length) return {};
  const cards = deck.split(" ");
  const order = [...seats].sort((a, b) => a - b);
  const n = order.length + 1;
  const out = {};
  order.forEach((seat, i) => (out[seat] = [cards[i], cards[i + n]]));
  return out;
}

/** The first of `[spot, amount, min, max]` outside its limits or off the table's bet unit
 * (seed 003: bets are multiples of the base unit), worded; null when all fit. */
export function limitError(checks, unit = 1) {
  for (const [spot, amount, min, max] of checks) {
    if (!amount || min == null || max == null) continue;
    if (amount < min || amount > max) return wordError({ code: "illegal_action", reason: "bet_out_of_limits", params: { spot, amount, min, max } });
    if (unit > 1 && amount % unit) return wordError({ code: "illegal_action", reason: "bet_not_a_multiple", params: { spot, amount, unit } });
  }
  return null;
}

/** What an action costs from the wallet, as the server's engine priced it (the live
 * `your_turn`'s `stakes`, a view's `prices`; docs/protocol.md); `null` where it named no
 * price. The client computes no price of its own (issue 26). */
export function priceOf(v, action) {
  const prices = (v && (v.prices || v.stakes)) || null;
  return prices && typeof prices[action] === "number" ? prices[action] : null;
}

/** A price for a label: the amount, or an empty text where the server named none. */
export function priceText(v, action, money) {
  const price = priceOf(v, action);
  return price == null ? "" : money(price);
}
