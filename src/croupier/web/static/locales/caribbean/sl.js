// Caribbean Stud Poker: its texts in Slovenian (the game's own; the texts every page shares
// are in ../sl.js). Keys, placeholders and functions as there.

export default {
  "game.caribbean": "Karibski stud poker",
  "caribbean.limits": "Ante {min}–{max}",
  "caribbean.raise_pays": "Izplačila dviga (delivec se kvalificira)",
  "caribbean.progressive_pays": "Progresivna ({amount})",
  "caribbean.rules_short": "Delivec se kvalificira z asom in kraljem ali bolje. Če se ne: Ante se izplača 1:1, dvig ({n}× Ante) se vrne. Če se: zmaga boljša roka, Ante 1:1 in dvig po tabeli; pri neodločenem se stave vrnejo.",
  "caribbean.folded": "Odstopili ste",
  "caribbean.not_qualified": "(delivec se ne kvalificira)",
  "caribbean.cmp.win": "Vaša roka premaga delivčevo",
  "caribbean.cmp.lose": "Zmaga delivčeva roka",
  "caribbean.cmp.tie": "Neodločeno",
  "caribbean.decide": "Dvignete ali odstopite?",
  "caribbean.phase.betting": "Postavite Ante",
  "caribbean.log.upcard": "Delivec odkrije eno karto",
  "caribbean.log.raised": "{name} dvigne",
  "caribbean.jackpot": "Jackpot {amount}",
  "caribbean.progressive_bet": "Progresivna stava {amount}",
  "caribbean.add_progressive": "Dodaj progresivno stavo ({amount})",
  "caribbean.progressive_placed": "Progresivna stava {amount} postavljena",
  "caribbean.act.raise": "Dvigni {n}× · {cost}",
  "caribbean.act.fold": "Odstopi (izgubite Ante)",
  "op.theory.caribbean": "{ret} na Ante (natančno); element tveganja {risk}",
};
