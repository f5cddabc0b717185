// Unit tests of the browser client's pure parts, run by `node --test` (tests/web/test_js.py).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { load, STATIC } from "./setup.js";

const i18n = await load("i18n.js");
const cards = await load("cards.js");
const holdem = await load("holdem.js");
const errors = await load("errors.js");
const games = await load("games.js"); // the registry: it hands each game's texts to i18n

test("every text the client asks for exists in Italian, English and Slovenian", async () => {
  const dir = fileURLToPath(STATIC);
  const used = new Set();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
    for (const m of readFileSync(dir + file, "utf8").matchAll(/\bt\("([a-z_.0-9-]+)"/g)) used.add(m[1]);
  }
  assert.ok(used.size > 200, `only ${used.size} keys found`);
  // The shared texts (locales/<lang>.js) and each game's own (locales/<game>/<lang>.js, one
  // directory per game of the registry): together every key, each in one file only.
  const names = Object.keys(games.GAMES).sort();
  const dirs = readdirSync(dir + "locales", { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  assert.deepEqual(dirs.sort(), names);
  const files = ["", ...names.map((g) => `${g}/`)];
  // the page's first language (English here) has every game's texts once the registry is loaded
  for (const prefix of files) {
    const unloaded = Object.keys((await load(`locales/${prefix}en.js`)).default).filter((k) => !i18n.has(k));
    assert.deepEqual(unloaded, [], `locales/${prefix}en.js is not loaded: ${unloaded.join(", ")}`);
  }
  for (const code of ["it", "en", "sl"]) {
    const dict = {};
    for (const prefix of files) {
      const own = (await load(`locales/${prefix}${code}.js`)).default;
      assert.ok(Object.keys(own).length > 0, `locales/${prefix}${code}.js is empty`);
      const twice = Object.keys(own).filter((k) => dict[k] !== undefined);
      assert.deepEqual(twice, [], `locales/${prefix}${code}.js repeats ${twice.join(", ")}`);
      Object.assign(dict, own);
    }
    const missing = [...used].filter((k) => dict[k] === undefined);
    assert.deepEqual(missing, [], `${code} lacks ${missing.join(", ")}`);
    // the page's language, once chosen, has them all: the shared texts and every game's
    await i18n.setLanguage(code);
    const unloaded = Object.keys(dict).filter((k) => !i18n.has(k));
    assert.deepEqual(unloaded, [], `${code} did not load ${unloaded.join(", ")}`);
  }
  await i18n.setLanguage("en");
  for (const prefix of files) {
    const en = Object.keys((await load(`locales/${prefix}en.js`)).default).sort();
    for (const code of ["it", "sl"]) {
      const keys = Object.keys((await load(`locales/${prefix}${code}.js`)).default).sort();
      assert.deepEqual(keys, en, `locales/${prefix}${code}.js and locales/${prefix}en.js have different keys`);
    }
  }
});

test("money follows the locale (Intl.NumberFormat), amounts typed are read as cents", async () => {
  await i18n.setLanguage("it");
  assert.equal(i18n.money(1234567).replace(/\s/g, " "), "12.345,67 €");
  assert.equal(i18n.money(100000).replace(/\s/g, " "), "1.000,00 €");
  assert.equal(i18n.toCents("12,50"), 1250);
  assert.equal(i18n.toCents("1.250,5"), 125050);
  assert.equal(i18n.toCents("7.5"), 750);
  assert.equal(i18n.toCents("abc"), null);
  await i18n.setLanguage("sl");
  assert.equal(i18n.money(-500).replace(/\s/g, " "), "−5,00 €");
  await i18n.setLanguage("en");
  assert.equal(i18n.money(1234567), "€12,345.67");
  assert.equal(i18n.toCents("1,234.5"), 123450);
});

test("hands are named in full and the best five found among seven", async () => {
  await i18n.setLanguage("en");
  const h = cards.bestHand(["Qs", "7d", "Qh", "7c", "As", "2d", "3c"]);
  assert.equal(h.name, "Queens and Sevens, Ace kicker");
  assert.deepEqual(new Set(h.five), new Set(["Qs", "Qh", "7d", "7c", "As"]));
  assert.equal(cards.bestHand(["As", "2d", "3c", "4h", "5s", "Kd", "Kh"]).name, "Straight, Five high");
  assert.equal(cards.bestHand(["Ts", "Js", "Qs", "Ks", "As", "2d", "2h"]).name, "Royal flush");
  assert.equal(cards.bestHand(["9h", "9d", "9c", "4s", "4d"]).name, "Nines full of Fours");
  await i18n.setLanguage("it");
  assert.equal(cards.bestHand(["Qs", "7d", "Qh", "7c", "As"]).name, "Doppia coppia, Donne e Sette, kicker Asso");
  assert.equal(cards.cardName("As"), "Asso di picche");
  await i18n.setLanguage("sl");
  assert.equal(cards.bestHand(["Qs", "Qh", "2c", "5d", "9s"]).name, "Par dam, kicker devetka");
  assert.equal(cards.cardName("Kh"), "Kralj src");
  await i18n.setLanguage("en");
});

test("a hand is named down to the kicker that tells it from the others, in three languages", async () => {
  const board = ["Qs", "Qd", "7c", "3h", "2s"];
  const ann = cards.bestHand(["Ac", "9h", ...board]);
  const bea = cards.bestHand(["Ad", "8s", ...board]);
  const cid = cards.bestHand(["Kc", "5d", ...board]);
  const expect = {
    en: ["Pair of Queens, Ace-Nine kickers", "Pair of Queens, Ace-Eight kickers", "Pair of Queens, King kicker"],
    it: ["Coppia di Donne, kicker Asso e Nove", "Coppia di Donne, kicker Asso e Otto", "Coppia di Donne, kicker Re"],
    sl: ["Par dam, kickerji as in devetka", "Par dam, kickerji as in osmica", "Par dam, kicker kralj"],
  };
  for (const [code, names] of Object.entries(expect)) {
    await i18n.setLanguage(code);
    assert.deepEqual([cards.nameAgainst(ann, [bea, cid]), cards.nameAgainst(bea, [ann, cid]), cards.nameAgainst(cid, [ann, bea])], names);
  }
  // alone, or against a hand of another category, one kicker is enough
  await i18n.setLanguage("en");
  assert.equal(cards.nameAgainst(ann, []), "Pair of Queens, Ace kicker");
  assert.equal(cards.nameAgainst(ann, [cards.bestHand(["7d", "7s", ...board])]), "Pair of Queens, Ace kicker");
  // two flushes differ at their fourth card: named down to it
  const f1 = cards.bestHand(["Ah", "Kh", "9h", "6h", "3h", "2c", "2d"]);
  const f2 = cards.bestHand(["Ah", "Kh", "9h", "5h", "3h", "2c", "2d"]);
  assert.equal(cards.nameAgainst(f1, [f2]), "Flush, Ace-King-Nine-Six high");
});

test("a pre-action never acts on a changed situation", async () => {
  // check/fold: checks when it can, folds only facing a bet
  assert.equal(holdem.preActionNow("check_fold", ["fold", "check", "bet"]), "check");
  assert.equal(holdem.preActionNow("check_fold", ["fold", "call", "raise"]), "fold");
  // check: dropped when someone bet meanwhile
  assert.equal(holdem.preActionNow("check", ["fold", "call", "raise"]), null);
  // call any: calls whatever it is now, checks when there is nothing to call
  assert.equal(holdem.preActionNow("call_any", ["fold", "call", "raise"]), "call");
  assert.equal(holdem.preActionNow("call_any", ["fold", "check", "bet"]), "check");
});

test("raise presets stay within the server's bounds", async () => {
  const opts = { actions: ["fold", "call", "raise"], to_call: 200, min_raise_to: 600, max_raise_to: 10000, pot: 700, bet: 200, stack: 9800 };
  const p = Object.fromEntries(holdem.raisePresets(opts).map((x) => [x.key, x.to]));
  assert.equal(p.min, 600);
  assert.equal(p.all_in, 10000);
  assert.equal(p.pot, 200 + 200 + 900); // call 200, then raise by the pot after the call (900)
  for (const v of Object.values(p)) assert.ok(v >= 600 && v <= 10000);
});

test("a wager limit caps the presets: the last one is the limit, not an all-in", () => {
  // issue 27: the server caps max_raise_to at bet + wager_left
  const opts = { actions: ["fold", "call", "raise"], to_call: 200, min_raise_to: 600, max_raise_to: 900, pot: 700, bet: 200, stack: 9800, wager_left: 700 };
  const p = Object.fromEntries(holdem.raisePresets(opts).map((x) => [x.key, x.to]));
  assert.equal(p.limit, 900);
  assert.equal(p.all_in, undefined);
  for (const v of Object.values(p)) assert.ok(v >= 600 && v <= 900);
  // a limit wide enough for the whole stack changes nothing
  const wide = Object.fromEntries(holdem.raisePresets({ ...opts, max_raise_to: 10000, wager_left: 50000 }).map((x) => [x.key, x.to]));
  assert.equal(wide.all_in, 10000);
});

test("errors are worded from the reason, in euros, and never as the raw message", async () => {
  await i18n.setLanguage("en");
  const e = { code: "insufficient_funds", message: "player:2 cannot pay 1000: balance is 300", reason: "insufficient_funds", params: { need: 1000, balance: 300 } };
  assert.equal(errors.wordError(e), "You need €10.00 but your balance is €3.00.");
  const unknown = { code: "illegal_action", message: "ante 50 is outside", reason: "some_reason_we_do_not_know", params: {} };
  assert.equal(errors.wordError(unknown), "The table does not allow that now.");
  assert.equal(errors.wordError({ code: "weird", message: "x", status: 500 }), "Something went wrong on the server: the table resynchronises.");
  await i18n.setLanguage("it");
  assert.match(errors.wordError(e), /10,00\s€.*3,00\s€/);
  await i18n.setLanguage("en");
});

test("a bet outside the table's limits is said in euros before it is sent", async () => {
  const uth = await load("uth.js");
  await i18n.setLanguage("en");
  assert.equal(uth.limitError([["ante", 50, 100, 100000]]), "The Ante must be between €1.00 and €1,000.00.");
  assert.equal(uth.limitError([["ante", 500, 100, 100000], ["trips", 0, 100, 50000]]), null);
  // seed 003: bets are whole multiples of the table's bet unit (issue 28)
  assert.equal(uth.limitError([["ante", 150, 100, 100000]], 100), "The Ante must be a multiple of €1.00.");
  assert.equal(uth.limitError([["ante", 300, 100, 100000]], 100), null);
});

test("the Antes returned first when the dealer does not qualify reach the seat's view", async () => {
  const uth = await load("uth.js");
  const box = { seat: 2, ante: 500, blind: 500, trips: 0, play: 500, play_multiple: 1, folded: false, decided: true };
  const m = { view: { seat: 2, phase: "showdown", hole: [], board: [], dealer: null, legal: [], result: null, box }, last: null };
  // a casino table lists every box, right to left; a live one counts them
  uth.follow(m, { kind: "antes_returned", antes: [[4, 100], [2, 500], [0, 300]] }, 2);
  assert.equal(m.anteBack, 500);
  assert.equal(uth.anteReturned({ kind: "antes_returned", antes: [], boxes: 900 }, m.view, 2), 500);
  assert.equal(uth.anteReturned({ kind: "antes_returned", antes: [[4, 100]] }, m.view, 2), null);
  const folded = { ...m.view, box: { ...box, folded: true } };
  assert.equal(uth.anteReturned({ kind: "antes_returned", antes: [], boxes: 900 }, folded, 2), null);
  // a casino table's state frame replaces the view: the Ante returned stays until the next round
  m.view = { ...m.view, phase: "settled" };
  uth.follow(m, { kind: "seat_settled", result: { seat: 2, net: 1000, comparison: "win", bets: [] } }, 2);
  assert.equal(m.anteBack, 500);
  uth.follow(m, { kind: "round_opened", round_id: 9, commitment: "c", betting_seconds: 10 }, 2);
  assert.equal(m.anteBack, null);
});

test("a live seat's view follows the events: no state frame during a round", async () => {
  const uth = await load("uth.js");
  const m = { view: null, last: null };
  uth.follow(m, { kind: "round_opened", round_id: 7, commitment: "c", betting_seconds: 10 }, 3);
  assert.deepEqual([m.view.phase, m.view.box, m.view.board, m.view.legal], ["betting", null, [], []]);
  // Another seat's bet changes nothing; the seat's own makes its box (so no second bet).
  uth.follow(m, { kind: "bets_placed", seat: 8, ante: 500, blind: 500, trips: 0 }, 3);
  assert.equal(m.view.box, null);
  uth.follow(m, { kind: "bets_placed", seat: 3, ante: 100, blind: 100, trips: 0 }, 3);
  assert.deepEqual([m.view.box.ante, m.view.box.decided, m.view.legal], [100, false, []]);
  uth.follow(m, { kind: "trips_placed", seat: 3, trips: 200 }, 3);
  assert.equal(m.view.box.trips, 200);
  // The shared hand (seat -1) is everyone's; another seat's own cards are not.
  uth.follow(m, { kind: "hole_cards_dealt", seat: 5, cards: ["2h", "2d"] }, 3);
  assert.deepEqual(m.view.hole, []);
  uth.follow(m, { kind: "hole_cards_dealt", seat: -1, cards: ["As", "Kd"] }, 3);
  uth.follow(m, { kind: "phase_changed", phase: "pre-flop" }, 3);
  assert.deepEqual([m.view.hole, m.view.phase, m.view.legal], [["As", "Kd"], "pre-flop", []]);
  // The seat's your_turn gives the legal actions; its own 4x takes them away.
  uth.follow(m, { kind: "your_turn", phase: "pre-flop", legal: ["check", "4x", "3x"] }, 3);
  assert.deepEqual(m.view.legal, ["check", "4x", "3x"]);
  uth.follow(m, { kind: "checked", seat: 4 }, 3);
  assert.deepEqual(m.view.legal, ["check", "4x", "3x"]);
  uth.follow(m, { kind: "play_bet", seat: 3, multiple: 4, amount: 400 }, 3);
  assert.deepEqual([m.view.legal, m.view.box.play, m.view.box.decided], [[], 400, true]);
  uth.follow(m, { kind: "board_dealt", cards: ["2c", "3d", "4h"] }, 3);
  uth.follow(m, { kind: "board_dealt", cards: ["5s", "9c"] }, 3);
  uth.follow(m, { kind: "phase_changed", phase: "showdown" }, 3);
  uth.follow(m, { kind: "dealer_revealed", cards: ["Qh", "Qs"], value: 1, qualifies: true }, 3);
  uth.follow(m, { kind: "seat_settled", result: { seat: 3, net: 1200, comparison: "win", bets: [] } }, 3);
  assert.deepEqual(m.view.board, ["2c", "3d", "4h", "5s", "9c"]);
  assert.deepEqual([m.view.phase, m.view.dealer, m.view.result.net], ["showdown", ["Qh", "Qs"], 1200]);
  assert.equal(m.last.result.net, 1200);
  // The table goes idle (no state at a live table): no view, the last result kept.
  m.last = null;
  uth.follow(m, { kind: "table_idle" }, 3);
  assert.deepEqual([m.view, m.last.result.net, m.last.board.length], [null, 1200, 5]);
  // A spectator (no seat) sees the shared hand and the board from the same events.
  const s = { view: null, last: null };
  for (const e of [
    { kind: "round_opened", round_id: 8, commitment: "c", betting_seconds: 10 },
    { kind: "hole_cards_dealt", seat: -1, cards: ["Th", "Td"] },
    { kind: "board_dealt", cards: ["2c", "3d", "4h"] },
  ]) uth.follow(s, e, null);
  assert.deepEqual([s.view.hole, s.view.board, s.view.box], [["Th", "Td"], ["2c", "3d", "4h"], null]);
});
