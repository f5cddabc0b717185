// The client's registry of games (issue 31): a game's name -> its table page, the locale key
// of its title, the suit on its lobby card, its detail in the round history, its own texts
// (`./locales/<game>/<lang>.js`, handed to i18n.js, which loads the active language's) and its
// own stylesheet (`./<game>.css`, linked after style.css). The lobby's
// line of a table's limits comes from the game's descriptor (GET /api/games), not from here. The lobby, the table route and the history ask this module;
// only here (and in each game's own modules, `./<game>.js` and `./<game>_history.js`) is a
// game named. A game is its own modules and one line here.

import { api } from "./api.js";
import { CaribbeanTable } from "./caribbean.js";
import { caribbeanHistory } from "./caribbean_history.js";
import { HoldemTable } from "./holdem.js";
import { holdemHistory } from "./holdem_history.js";
import { addTexts, has, money, number, t } from "./i18n.js";
import { RussianTable } from "./russian.js";
import { russianHistory, russianOption } from "./russian_history.js";
import { UthTable } from "./uth.js";
import { uthHistory } from "./uth_history.js";

/** name -> { page, title (locale key), suit, history(round, seats) ->
 * the round history's detail of the player's boxes, texts(lang) -> the module of its texts in
 * a language, style: its stylesheet, costs: whether the server values its decisions
 * (GET /api/rounds/{id}/costs), option({action, cards, insurance}) -> an option of a decision
 * in the player's words as the game's Hint says it (`action.<action>` when a game has none) } */
export const GAMES = {
  uth: { page: UthTable, title: "game.uth", suit: "♠", history: uthHistory, texts: (lang) => import(`./locales/uth/${lang}.js`), style: "./uth.css", costs: true },
  holdem: { page: HoldemTable, title: "game.holdem", suit: "♣", history: holdemHistory, texts: (lang) => import(`./locales/holdem/${lang}.js`), style: "./holdem.css" },
  russian: { page: RussianTable, title: "game.russian", suit: "♦", history: russianHistory, texts: (lang) => import(`./locales/russian/${lang}.js`), style: "./russian.css", costs: true, option: russianOption },
  caribbean: { page: CaribbeanTable, title: "game.caribbean", suit: "♥", history: caribbeanHistory, texts: (lang) => import(`./locales/caribbean/${lang}.js`), style: "./caribbean.css", costs: true },
};

/** Link a game's stylesheet (`path`, from here) after style.css; it resolves once the rules
 * are there, so nothing is drawn without them. A document without elements (the unit tests
 * under Node) has nothing to style. */
function linkStyle(path) {
  if (typeof document.createElement !== "function") return null;
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL(path, import.meta.url).href });
  const loaded = new Promise((resolve) => {
    link.onload = resolve;
    link.onerror = resolve; // the page still works without a game's rules
  });
  document.head.append(link);
  return loaded;
}

// Every game's texts in the page's language and its rules, before anything is drawn.
await Promise.all(Object.values(GAMES).flatMap((game) => [addTexts(game.texts), linkStyle(game.style)]));

/** The registry's entry of a game, or null for one this client does not know. */
export function gameOf(name) {
  return Object.prototype.hasOwnProperty.call(GAMES, name) ? GAMES[name] : null;
}

/** The game's title in the player's language ("Casino game" for one not known here). */
export function gameTitle(name) {
  const game = gameOf(name);
  return t(game ? game.title : "game.other");
}

let described = null;

/** The server's descriptors of its games (GET /api/games), name -> descriptor, asked once. */
export function loadDescriptors() {
  if (!described) {
    described = api("/api/games")
      .then((list) => Object.fromEntries(list.map((g) => [g.name, g])))
      .catch((err) => {
        described = null;
        throw err;
      });
  }
  return described;
}

/** A setting's value as a player reads it, by its kind: money in the language's euros, a
 * count as a number, a percentage with its sign, a choice or a flag by the locale key
 * `<game>.<setting>.<value>` (the value itself where the language has none). */
export function settingText(game, setting, value) {
  const kind = setting ? setting.kind : "";
  if (kind === "money") return money(value);
  if (kind === "count") return number(value);
  if (kind === "percent") return `${number(value, Number.isInteger(Number(value)) ? 0 : 1)} %`;
  const key = `${game}.${setting ? setting.name : ""}.${value}`;
  return has(key) ? t(key) : String(value ?? "—");
}

/** The lobby's line of a table's limits, from its game's descriptor (`game`, from
 * loadDescriptors): the settings its `lobby_params` name, each formatted by its kind (a
 * table's own value, else the setting's default) into the line `lobby_text`; the generic
 * bet range for a table without one. A new game needs no code here. */
export function limitsOf(tb, game) {
  const r = tb.rules || {};
  if (game && game.lobby_params && Object.keys(game.lobby_params).length) {
    const settings = Object.fromEntries((game.settings || []).map((s) => [s.name, s]));
    const params = {};
    for (const [slot, name] of Object.entries(game.lobby_params)) {
      const setting = settings[name];
      const value = r[name] !== undefined ? r[name] : setting ? setting.default : undefined;
      params[slot] = settingText(game.name, setting, value);
    }
    return has(game.lobby_text) ? t(game.lobby_text, params) : Object.values(params).join(" · ");
  }
  if (r.min_bet !== undefined) return `${money(r.min_bet)}–${money(r.max_bet)}`;
  return "";
}

/** The suit drawn on a table's lobby card. */
export function gameSuit(name) {
  const game = gameOf(name);
  return game ? game.suit : "♠";
}
