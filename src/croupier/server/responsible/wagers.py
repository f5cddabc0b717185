"""A wager limit inside a cash-game hand (issue 27): what a Hold'em player wagers, and where
a wager limit stops it.

*Wagered* at a cash table is the chips a player puts into the pots: the blinds and antes
they post, and every call, bet and raise (docs/responsible-gaming.md). A buy-in is not a
wager (its chips can go back to the wallet untouched); chips put into a pot are. So the limit
is applied inside the hand, to each decision that puts chips in, and to the forced bets
before a hand is dealt:

- the table asks :func:`check_wagers` with what each player *will have put in* this hand if
  the decision goes through (the forced bets, or the chips in so far plus what the decision
  adds), in one transaction that holds the players' wallet rows (as a stake does), so two
  tables, or a table and a bet at a UTH table, cannot both use the same room;
- what fits is recorded at once as the player's wager in the hand (their ``staked`` in the
  open round), so it counts against their limits everywhere while the hand is played; at the
  settlement it becomes what they actually put into the pots (an uncalled bet returned is not
  a wager);
- what does not fit is refused, ``reason`` ``wager_limit``, ``params`` ``period``, ``limit``,
  ``left`` (what the tightest wager limit still allows) and ``amount`` (what the decision
  adds); nothing is recorded and the decision is not applied.

A hand voided counts nothing (its round is voided). The chips a player has at a table stay
counted as at risk by the loss limits through their stack; a hand's recorded wager is not
counted a second time (:func:`.limits.usage`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.responsible.limits import allowances
from croupier.server.responsible.models import LimitKind
from croupier.server.rounds.models import RoundPlayer
from croupier.server.wallet.ledger import lock_accounts

__all__ = ["check_wagers"]


def check_wagers(
    session: Session, *, round_id: int, totals: Mapping[int, int]
) -> dict[int, int | CroupierError]:
    """For each user of ``totals`` (user id -> the chips they will have put into the pots of
    open hand ``round_id``) who has a wager limit in force: the refusal, or what the
    tightest wager limit leaves once the new total is recorded as their wager in the hand.
    Users without a wager limit are left out (nothing recorded for them).

    In the caller's transaction; the users' wallet rows are locked first (in account order),
    so this waits for any stake of theirs in flight and is counted by the next one.
    """
    limited = {
        user: allowance
        for user, allowance in allowances(session, sorted(totals)).items()
        if any(entry[0] is LimitKind.WAGER for entry in allowance.left)
    }
    if not limited:
        return {}
    lock_accounts(session, [f"player:{user}" for user in sorted(limited)])
    # Read again under the locks: a stake that committed meanwhile counts.
    fresh = allowances(session, sorted(limited))
    rows = {
        row.user_id: row
        for row in session.scalars(
            select(RoundPlayer).where(
                RoundPlayer.round_id == round_id, RoundPlayer.user_id.in_(sorted(limited))
            )
        )
    }
    answers: dict[int, int | CroupierError] = {}
    for user in sorted(limited):
        allowance = fresh.get(user)
        row = rows.get(user)
        if allowance is None or row is None:
            continue  # no longer limited (a raise came into force), or not in this hand
        extra = int(totals[user]) - int(row.staked)
        # The exclusion is the table's to apply before the next hand (self-exclusion stops
        # a seated player there): inside the hand only the wager limits count.
        wagers = dataclasses.replace(allowance, exclusion=None)
        refusal = wagers.refusal(max(0, extra), kinds=(LimitKind.WAGER,))
        if refusal is not None:
            answers[user] = refusal
            continue
        if extra > 0:
            row.staked = int(totals[user])
        left = min(entry[3] for entry in allowance.left if entry[0] is LimitKind.WAGER)
        answers[user] = left - max(0, extra)
    session.flush()
    return answers
