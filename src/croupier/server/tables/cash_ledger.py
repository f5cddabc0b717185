"""A cash table's money (issue 5, Wallet): stacks bought in from the wallet, hands settled
between stacks. Keyword-only services that take the caller's session (one transaction each,
run in a worker thread by :class:`croupier.server.tables.cash.CashDriver`).

Each seated player's stack is a ledger account of its own, ``escrow:<table>:u<user id>``
(kind escrow). A ``buy_in`` moves money from the player's wallet to it, leaving moves it all
back; both are ``transfer`` transactions, the buy-in idempotent under the client's key. Chips
move between stacks only when a hand ends: one ``settle`` transaction, written together with
the hand's record, takes each seat's net result from or to its stack account and the rake to
the rake account. So a hand that never finishes has moved nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.rounds import store as rounds
from croupier.server.rounds.models import RoundPlayer
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import LedgerAccount, TransactionKind

__all__ = [
    "WagersRefused",
    "buy_in",
    "cash_out",
    "open_hand",
    "recover_stacks",
    "replayed_buy_in",
    "settle_hand",
    "stack_account",
]


def stack_account(session: Session, *, table: str, user_id: int) -> LedgerAccount:
    """The escrow account holding ``user_id``'s chips at cash table ``table``."""
    return wallet.escrow_account(session, table=f"{table}:u{user_id}")


def buy_in(
    session: Session,
    *,
    table: str,
    user_id: int,
    amount: int,
    idempotency_key: str,
    check: Callable[[Session, int, int], None] | None = None,
) -> tuple[wallet.Movement, int]:
    """Move ``amount`` from the wallet to the table stack; return the movement and the stack.

    ``check(session, user_id, amount)`` runs after the money moved, in the same transaction
    (a responsible-gaming limit: see :class:`croupier.server.tables.admission.Admission`); what
    it raises undoes the buy-in.

    Raises:
        InsufficientFunds: the wallet holds less; nothing moves.
        IdempotencyConflict: the key was used for another request.
    """
    chips = wallet.check_amount(amount, what="buy-in")
    player = wallet.player_account(session, user_id=user_id)
    stack = stack_account(session, table=table, user_id=user_id)

    def apply() -> tuple[dict[str, Any], int | None]:
        txn_id = wallet.post(
            session,
            kind=TransactionKind.TRANSFER,
            legs=[(player, -chips), (stack, chips)],
            user_id=user_id,
            memo=f"buy-in at {table}",
        )
        if check is not None:
            check(session, user_id, int(chips))
        balance = wallet.account_balance(session, account_id=player.id)
        move = wallet.Movement(transaction_id=txn_id, kind="buy_in", amount=chips, balance=balance)
        at_table = wallet.account_balance(session, account_id=stack.id)
        return {**move.to_json(), "stack": int(at_table)}, txn_id

    request = {"op": "buy_in", "table": table, "amount": int(chips)}
    response, replayed = wallet.idempotent(
        session, scope=f"user:{user_id}", key=idempotency_key, request=request, apply=apply
    )
    return wallet.Movement.from_json(response, replayed=replayed), int(response["stack"])


def replayed_buy_in(
    session: Session, *, table: str, user_id: int, amount: int, idempotency_key: str
) -> tuple[wallet.Movement, int] | None:
    """The stored answer to a buy-in already applied under this key, else ``None``."""
    request = {"op": "buy_in", "table": table, "amount": int(amount)}
    response = wallet.find_replay(
        session, scope=f"user:{user_id}", key=idempotency_key, request=request
    )
    if response is None:
        return None
    return wallet.Movement.from_json(response, replayed=True), int(response["stack"])


def cash_out(session: Session, *, table: str, user_id: int, memo: str = "") -> tuple[int, int]:
    """Move the whole stack back to the wallet; return (amount moved, wallet balance)."""
    stack = stack_account(session, table=table, user_id=user_id)
    player = wallet.player_account(session, user_id=user_id)
    amount = int(wallet.account_balance(session, account_id=stack.id))
    if amount:
        wallet.post(
            session,
            kind=TransactionKind.TRANSFER,
            legs=[(stack, -amount), (player, amount)],
            user_id=user_id,
            memo=(memo or f"cash-out at {table}")[:255],
        )
    return amount, int(wallet.account_balance(session, account_id=player.id))


def recover_stacks(session: Session, *, table: str) -> dict[int, int]:
    """Return to their wallets the stacks a previous run left at ``table`` (after a crash
    nobody is seated at start); return user id -> amount."""
    prefix = f"escrow:{table}:u"
    codes = session.scalars(
        select(LedgerAccount.code).where(
            LedgerAccount.code.startswith(prefix, autoescape=True), LedgerAccount.balance != 0
        )
    ).all()
    returned: dict[int, int] = {}
    for code in codes:
        user_id = int(code.removeprefix(prefix))
        amount, _ = cash_out(
            session,
            table=table,
            user_id=user_id,
            memo=f"stack at {table} returned after a restart (the hand in play was voided)",
        )
        returned[user_id] = amount
    return returned


WagerCheck = Callable[..., dict[int, "int | CroupierError"]]
"""The table's :meth:`croupier.server.tables.admission.Admission.check_wagers`."""


class WagersRefused(CroupierError):
    """Forced bets a player's wager limit does not allow (issue 27): the hand is not dealt."""

    def __init__(self, refusals: Mapping[int, CroupierError]) -> None:
        super().__init__(f"wager limits refuse the forced bets of users {sorted(refusals)}")
        self.refusals = dict(refusals)


def open_hand(
    session: Session,
    *,
    table: str,
    game: str,
    commitment: str,
    salt: str,
    deck: str,
    players: Mapping[int, int],
    forced: Mapping[int, int] | None = None,
    check: WagerCheck | None = None,
) -> tuple[int, dict[int, int]]:
    """Record a new open hand and who is dealt in (``players``: user id -> seat); with
    ``check``, the forced bets (``forced``: user id -> blinds and antes) go through the
    players' wager limits in the same transaction (issue 27). The hand's round id, and what
    each limited player's wager limit leaves after them.

    Raises:
        WagersRefused: a wager limit refuses a player's forced bets; nothing is recorded.
    """
    row = rounds.open_round(
        session, table=table, game=game, commitment=commitment, salt=salt, deck=deck
    )
    session.add_all(
        RoundPlayer(round_id=row.id, user_id=user, seat=seat, staked=0)
        for user, seat in sorted(players.items())
    )
    session.flush()
    if check is None or not forced:
        return row.id, {}
    answers = check(session, round_id=row.id, totals=forced)
    refused = {u: a for u, a in answers.items() if isinstance(a, CroupierError)}
    if refused:
        raise WagersRefused(refused)
    return row.id, {u: a for u, a in answers.items() if isinstance(a, int)}


def settle_hand(
    session: Session,
    *,
    table: str,
    round_id: int,
    net: Mapping[int, int],
    staked: Mapping[int, int],
    won: Mapping[int, int],
    rake: int,
    record: Mapping[str, Any],
    summary: Mapping[str, Any],
) -> None:
    """Close the hand: the record, each stack's net result and the rake, in one transaction.

    ``net``, ``staked`` and ``won`` are by user id; the nets and the rake sum to zero.
    """
    rounds.settle_round(session, round_id=round_id, returns={}, record=record, summary=summary)
    legs: list[tuple[LedgerAccount, int]] = [
        (stack_account(session, table=table, user_id=user), amount)
        for user, amount in sorted(net.items())
    ]
    if rake:
        legs.append((wallet.rake_account(session), rake))
    if any(amount for _, amount in legs):
        wallet.post(
            session,
            kind=TransactionKind.SETTLE,
            legs=legs,
            round_id=round_id,
            memo=f"hand {round_id} at {table}",
        )
    for player in session.scalars(select(RoundPlayer).where(RoundPlayer.round_id == round_id)):
        player.staked = int(staked.get(player.user_id, 0))
        player.returned = int(won.get(player.user_id, 0))
    session.flush()
