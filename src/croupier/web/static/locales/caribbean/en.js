// Caribbean Stud Poker: its texts in English (the game's own; the texts every page shares
// are in ../en.js). Keys, placeholders and functions as there.

export default {
  "game.caribbean": "Caribbean Stud Poker",
  "caribbean.limits": "Ante {min}–{max}",
  "caribbean.raise_pays": "Raise pays (dealer qualified)",
  "caribbean.progressive_pays": "Progressive ({amount})",
  "caribbean.rules_short": "The dealer qualifies with Ace-King or better. Not qualified: the Ante pays 1:1, the Raise ({n}× Ante) is returned. Qualified: the better hand wins, the Ante 1:1 and the Raise by the table; a tie pushes.",
  "caribbean.folded": "You folded",
  "caribbean.not_qualified": "(the dealer does not qualify)",
  "caribbean.cmp.win": "Your hand beats the dealer's",
  "caribbean.cmp.lose": "The dealer's hand wins",
  "caribbean.cmp.tie": "A tie",
  "caribbean.decide": "Raise or fold?",
  "caribbean.phase.betting": "Place your Ante",
  "caribbean.log.upcard": "The dealer shows one card",
  "caribbean.log.raised": "{name} raises",
  "caribbean.jackpot": "Jackpot {amount}",
  "caribbean.progressive_bet": "Progressive bet {amount}",
  "caribbean.add_progressive": "Add the progressive bet ({amount})",
  "caribbean.progressive_placed": "Progressive bet of {amount} placed",
  "caribbean.act.raise": "Raise {n}× · {cost}",
  "caribbean.act.fold": "Fold (lose the Ante)",
  "op.theory.caribbean": "{ret} per Ante (exact); element of risk {risk}",
};
