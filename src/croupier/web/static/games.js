// The client's registry of games (issue 31): a game's name -> its table page, the locale key
// of its title, how the lobby summarises its limits, the suit on its lobby card and its
// detail in the round history. The lobby, the table route and the history ask this module;
// only here (and in each game's own modules, `./<game>.js` and `./<game>_history.js`) is a
// game named. A game is its own modules and one line here.

import { CaribbeanTable, caribbeanLimits } from "./caribbean.js";
import { caribbeanHistory } from "./caribbean_history.js";
import { HoldemTable, holdemLimits } from "./holdem.js";
import { holdemHistory } from "./holdem_history.js";
import { money, t } from "./i18n.js";
import { RussianTable, russianLimits } from "./russian.js";
import { russianHistory } from "./russian_history.js";
import { UthTable, uthLimits } from "./uth.js";
import { uthHistory } from "./uth_history.js";

/** name -> { page, title (locale key), limits(rules) -> text, suit, history(round, seats) ->
 * the round history's detail of the player's boxes, costs: whether the server values its
 * decisions (GET /api/rounds/{id}/costs) } */
export const GAMES = {
  uth: { page: UthTable, title: "game.uth", limits: uthLimits, suit: "♠", history: uthHistory, costs: true },
  holdem: { page: HoldemTable, title: "game.holdem", limits: holdemLimits, suit: "♣", history: holdemHistory },
  russian: { page: RussianTable, title: "game.russian", limits: russianLimits, suit: "♦", history: russianHistory, costs: true },
  caribbean: { page: CaribbeanTable, title: "game.caribbean", limits: caribbeanLimits, suit: "♥", history: caribbeanHistory },
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
