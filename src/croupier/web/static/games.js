// The client's registry of games (issue 31): a game's name -> its table page, the locale key
// of its title, how the lobby summarises its limits, and the suit on its lobby card. The
// lobby, the table route and the other shared pages ask this module; only here (and in each
// game's own page module) is a game named. A game is one module `./<game>.js` and one line.

import { CaribbeanTable, caribbeanLimits } from "./caribbean.js";
import { HoldemTable, holdemLimits } from "./holdem.js";
import { money, t } from "./i18n.js";
import { RussianTable, russianLimits } from "./russian.js";
import { UthTable, uthLimits } from "./uth.js";

/** name -> { page, title (locale key), limits(rules) -> text, suit } */
export const GAMES = {
  uth: { page: UthTable, title: "game.uth", limits: uthLimits, suit: "♠" },
  holdem: { page: HoldemTable, title: "game.holdem", limits: holdemLimits, suit: "♣" },
  russian: { page: RussianTable, title: "game.russian", limits: russianLimits, suit: "♦" },
  caribbean: { page: CaribbeanTable, title: "game.caribbean", limits: caribbeanLimits, suit: "♥" },
};

/** The registry's entry of a game, or null for one this client does not know. */
export function gameOf(name) {
  return Object.prototype.hasOwnProperty.call(GAMES, name) ? GAMES[name] : null;
}

/** The game's title in the player's language ("Casino game" for one not known here). */
export function gameTitle(name) {
  const game = gameOf(name);
  return t(game ? game.title : "game.other");
}

/** The lobby's line of a table's limits: its game's own summary, or the generic bet range. */
export function limitsOf(tb) {
  const r = tb.rules || {};
  const game = gameOf(tb.game);
  if (game) return game.limits(r);
  if (r.min_bet !== undefined) return `${money(r.min_bet)}–${money(r.max_bet)}`;
  return "";
}

/** The suit drawn on a table's lobby card. */
export function gameSuit(name) {
  const game = gameOf(name);
  return game ? game.suit : "♠";
}
