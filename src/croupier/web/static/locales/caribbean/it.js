// Caribbean Stud Poker: its texts in Italian (the game's own; the texts every page shares
// are in ../it.js). Keys, placeholders and functions as there.

export default {
  "game.caribbean": "Caribbean Stud Poker",
  "caribbean.limits": "Ante {min}–{max}",
  "caribbean.raise_pays": "Pagamenti del rilancio (banco qualificato)",
  "caribbean.progressive_pays": "Progressivo ({amount})",
  "caribbean.rules_short": "Il banco si qualifica con Asso-Re o meglio. Non qualificato: l'Ante è pagato 1:1, il rilancio ({n}× Ante) è restituito. Qualificato: vince la mano migliore, l'Ante 1:1 e il rilancio secondo la tabella; in parità le puntate sono restituite.",
  "caribbean.folded": "Hai passato",
  "caribbean.not_qualified": "(il banco non si qualifica)",
  "caribbean.cmp.win": "La tua mano batte quella del banco",
  "caribbean.cmp.lose": "Vince la mano del banco",
  "caribbean.cmp.tie": "Parità",
  "caribbean.decide": "Rilanci o passi?",
  "caribbean.phase.betting": "Punta l'Ante",
  "caribbean.log.upcard": "Il banco scopre una carta",
  "caribbean.log.raised": "{name} rilancia",
  "caribbean.jackpot": "Jackpot {amount}",
  "caribbean.progressive_bet": "Puntata progressiva {amount}",
  "caribbean.add_progressive": "Aggiungi la puntata progressiva ({amount})",
  "caribbean.progressive_placed": "Puntata progressiva di {amount} piazzata",
  "caribbean.act.raise": "Rilancia {n}× · {cost}",
  "caribbean.act.fold": "Passa (perdi l'Ante)",
  "op.theory.caribbean": "{ret} per Ante (esatto); elemento di rischio {risk}",
};
