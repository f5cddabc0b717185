// Languages: Italian, English and Slovenian (the seeds' casinos). The page follows the
// browser's language (navigator.languages) until the player picks one; <html lang> says which
// is active. Money is formatted by Intl.NumberFormat for the active locale ("1.000,00 €" in
// Italian and Slovenian, "€1,000.00" in English); on the wire it is always integer cents.
// Only the active language's texts are loaded (a module of its own, imported when chosen):
// the texts every page shares (`./locales/<lang>.js`) and each game's own, which the game
// registry (games.js) hands over with addTexts (`./locales/<game>/<lang>.js`: this module names
// no game). Every language has every text (a unit test checks), so none falls back on another.

import { changed, setSetting, store } from "./store.js";

export const LANGUAGES = {
  it: { name: "Italiano", region: "it-IT" },
  en: { name: "English", region: "en-GB" },
  sl: { name: "Slovenščina", region: "sl-SI" },
};

let lang = "en";
let tag = "en-GB";
let moneyFormat = null;
let plurals = null;

const loaded = {};
const more = []; // loaders of more texts (each game's): code -> their module
let dict = {};

/** The texts of `code`, the shared ones and every loader's, imported the first time they are
 * asked for (the browser keeps a module once imported). */
async function texts(code) {
  const [shared, ...own] = await Promise.all([loaded[code] || import(`./locales/${code}.js`), ...more.map((load) => load(code))]);
  loaded[code] = shared;
  return Object.assign({}, shared.default, ...own.map((m) => m.default));
}

/** Add the texts `load(code)` imports (a module whose default export maps keys to texts, as
 * `./locales/<lang>.js`) to every language: to the active one now, to another when it is
 * chosen. The game registry calls it with each game's own texts. */
export async function addTexts(load) {
  more.push(load);
  const own = (await load(lang)).default;
  dict = { ...dict, ...own }; // the dictionary as it is once they are here (other texts may have come meanwhile)
}

/** The language the browser asks for, among ours (English when none matches). */
export function browserLanguage() {
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const w of wanted) {
    const base = String(w).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return { lang: base, tag: w };
  }
  return { lang: "en", tag: "en-GB" };
}

/** Switch the page to `code` ("it", "en", "sl") once its texts are loaded; `remember` keeps
 * the choice. */
export async function setLanguage(code, { remember = false } = {}) {
  const browser = browserLanguage();
  const wanted = LANGUAGES[code] ? code : browser.lang;
  dict = await texts(wanted);
  lang = wanted;
  // The browser's own region when it speaks this language (en-US), else the language's casino.
  tag = browser.lang === lang && browser.tag.includes("-") ? browser.tag : LANGUAGES[lang].region;
  // Thousands grouped from four digits on, as Italian and Slovenian casinos write money
  // ("1.000,00 €"; CLDR's default for them starts grouping at five digits).
  const options = { style: "currency", currency: "EUR", useGrouping: "always" };
  try {
    moneyFormat = new Intl.NumberFormat(tag, options);
  } catch {
    tag = LANGUAGES[lang].region;
    moneyFormat = new Intl.NumberFormat(tag, options);
  }
  plurals = new Intl.PluralRules(tag);
  document.documentElement.lang = lang;
  document.title = t("app.title");
  if (remember) setSetting("locale", lang);
  else changed();
}

export function currentLanguage() {
  return lang;
}

export function localeTag() {
  return tag;
}

/** The plural category of `n` in the active language ("one", "two", "few", "other"...). */
export function pluralOf(n) {
  return plurals ? plurals.select(n) : n === 1 ? "one" : "other";
}

/**
 * The text for `key` in the active language (the key itself when it has none). An entry is
 * a string with {name} placeholders or a function of params.
 */
export function t(key, params = {}) {
  const entry = dict[key];
  if (entry === undefined) return key;
  if (typeof entry === "function") return entry(params, { plural: pluralOf, money, t });
  return entry.replace(/\{(\w+)\}/g, (_, k) => (params[k] === undefined ? "" : String(params[k])));
}

/** Whether the active language has a text for `key`. */
export function has(key) {
  return dict[key] !== undefined;
}

/** Integer cents -> "1.000,00 €" (it, sl) / "€1,000.00" (en); "—" when unknown. */
export function money(cents) {
  if (cents === null || cents === undefined || !Number.isFinite(Number(cents))) return "—";
  return moneyFormat.format(Number(cents) / 100).replace("-", "−");
}

/** A plain number in the active locale ("0,123" in Italian, "0.123" in English), with
 * `digits` decimals; a minus sign as money has it. */
export function number(value, digits = 0) {
  if (value === null || value === undefined || !Number.isFinite(Number(value))) return "—";
  return new Intl.NumberFormat(tag, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(Number(value)).replace("-", "−");
}

/** With a sign: "+€5.00", "−€5.00", "€0.00". */
export function signedMoney(cents) {
  return cents > 0 ? "+" + money(cents) : money(cents);
}

/** Cents -> the text an amount box shows ("12,50" in Italian, "12.50" in English). */
export function centsText(cents) {
  if (cents === null || cents === undefined || !Number.isFinite(Number(cents))) return "";
  const abs = Math.abs(Math.round(Number(cents)));
  const sep = decimalSeparator();
  return `${cents < 0 ? "-" : ""}${Math.floor(abs / 100)}${sep}${String(abs % 100).padStart(2, "0")}`;
}

export function decimalSeparator() {
  const part = new Intl.NumberFormat(tag).formatToParts(1.5).find((p) => p.type === "decimal");
  return part ? part.value : ".";
}

/**
 * What a player typed in an amount box -> integer cents, or null when it is not an amount.
 * The locale's decimal separator is the decimal point ("12,50" in Italian); the other of
 * "." and "," is a thousands separator; a lone "." or "," followed by one or two digits is
 * read as the decimal point in any language. Parsed as text, never through a float.
 */
export function toCents(text) {
  let s = String(text ?? "").replace(/[\s\u00a0\u202f€]/g, "");
  if (!s) return null;
  const dec = decimalSeparator();
  const group = dec === "," ? "." : ",";
  const lastDot = Math.max(s.lastIndexOf("."), s.lastIndexOf(","));
  if (lastDot >= 0 && !s.includes(dec) && /^\d{1,2}$/.test(s.slice(lastDot + 1)) && s.indexOf(s[lastDot]) === lastDot) {
    s = s.slice(0, lastDot).split(group).join("") + "." + s.slice(lastDot + 1);
  } else {
    s = s.split(group).join("").replace(dec, ".");
  }
  const m = /^(\d{1,10})(?:\.(\d{0,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "").padEnd(2, "0"));
}

/** A time of day in the active locale. */
export function clock(date = new Date()) {
  return date.toLocaleTimeString(tag, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function dateTime(value) {
  return new Date(value).toLocaleString(tag, { dateStyle: "medium", timeStyle: "short" });
}

// Every module that words anything imports this one: the page starts in its language.
await setLanguage(store.settings.locale);
