// Refusals worded for a person. The server sends a `code` (a class of error), and for the
// refusals a player can meet a `reason` (a stable name, docs/errors.md) with `params` (money
// in minor units). Each reason has a text in every language; a reason this client does not
// know falls back to a wording of its code. The server's own `message` (a developer's
// fragment, with ids and cents) is never shown.

import { has, money, number, t } from "./i18n.js";

// Params that are money (minor units): formatted in the active locale's euros.
const MONEY = new Set([
  "amount", "balance", "min", "max", "need", "have", "stake", "stack", "limit", "cap", "total",
  "ante", "bonus", "trips", "blind", "play", "bet", "cost", "fee", "insurance", "left", "to_call",
  "min_raise", "max_raise", "min_bet", "max_bet", "to", "available", "max_payout", "requested", "unit",
]);

// Refusals whose bounds count things (characters, cards, boxes, players, requests), not money:
// their numbers are said as numbers ("10 to 256 characters", never "€0.10 to €2.56").
const COUNTS = new Set(["password_length", "exchange_count", "players_count", "open_boxes_out_of_range", "deposit_pending_limit", "not_enough_boxes"]);

/** `params` ready for a text: money formatted, spots and actions named, lists joined;
 * `counted`: the refusal's numbers count things and are written as numbers. */
export function wordParams(params = {}, { counted = false } = {}) {
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (typeof v === "number" && counted) out[k] = number(v);
    else if (typeof v === "number" && (MONEY.has(k) || k.endsWith("_amount") || k.endsWith("_cents"))) out[k] = money(v);
    else if ((k === "spot" || k === "bet_name") && typeof v === "string") out[k] = has(`spot.${v}`) ? t(`spot.${v}`) : v;
    else if (k === "action" && typeof v === "string") out[k] = has(`action.${v}`) ? t(`action.${v}`) : v;
    else if (k === "phase" && typeof v === "string") out[k] = has(`phase.${v}`) ? t(`phase.${v}`) : v;
    else if (k === "seat" && typeof v === "number") out[k] = String(v + 1);
    else if (k === "setting" && typeof v === "string") out[k] = has(`op.rule.${v}`) ? t(`op.rule.${v}`) : v;
    else if (k === "choices" && Array.isArray(v)) out[k] = v.map((c) => (has(`op.choice.${c}`) ? t(`op.choice.${c}`) : String(c))).join(", ");
    else if (k === "field" && typeof v === "string") out[k] = has(`field.${v}`) ? t(`field.${v}`) : t("field.other");
    else if (Array.isArray(v)) out[k] = v.map((x) => (typeof x === "number" && MONEY.has(k) ? money(x) : String(x))).join(", ");
    else out[k] = v;
  }
  return out;
}

function passwordAdvice(params) {
  const parts = [];
  if (params.warning && has(`password.${params.warning}`)) parts.push(t(`password.${params.warning}`));
  for (const s of params.suggestions || []) if (has(`password.${s}`)) parts.push(t(`password.${s}`));
  return parts.join(" ");
}

/** The sentence a person reads for an error (an ApiError, or anything thrown). */
export function wordError(err) {
  if (!err) return t("code.error");
  const params = err.params || {};
  if (err.reason === "password_weak") {
    return t("reason.password_weak", { advice: passwordAdvice(params) || t("password.add_words") });
  }
  if (err.reason && has(`reason.${err.reason}`)) {
    const extra = { ...params };
    if (err.retryAfter != null && extra.seconds === undefined) extra.seconds = Math.max(1, Math.ceil(err.retryAfter));
    return t(`reason.${err.reason}`, wordParams(extra, { counted: COUNTS.has(err.reason) }));
  }
  if (err.code === "round_voided") {
    const d = err.details || {};
    return t("code.round_voided", { balance: money(d.balance) });
  }
  if (err.code === "rate_limited") {
    return t("code.rate_limited", { seconds: Math.max(1, Math.ceil(err.retryAfter ?? params.retry_after ?? 1)) });
  }
  if (err.code && has(`code.${err.code}`)) return t(`code.${err.code}`);
  if (err.status >= 500) return t("code.internal");
  return t("code.error");
}
