"""What a table's requests stake: the :class:`rounds.Stake` of a bet or of a decision, and the
answer to a bet. Pure helpers of :class:`croupier.server.tables.table.Table`'s one staking
path (``_bets`` / ``_acts``: a lone request is a batch of one)."""

from __future__ import annotations

from croupier.errors import IllegalActionError
from croupier.server.tables import rounds
from croupier.server.tables.connection import Prepaid, Request
from croupier.server.tables.wire import BetMessage, Result
from croupier.server.wallet.service import Movement

__all__ = [
    "bet_ack",
    "bet_message",
    "bet_stake",
    "decision_stake",
    "prepaid_ack",
    "returned_hold",
    "unverified_hold",
]


def bet_message(request: Request) -> BetMessage:
    """The request's bet (the caller routed only bets here)."""
    message = request.message
    assert isinstance(message, BetMessage)
    return message


def bet_stake(
    user_id: int, key: str, *, seat: int, amount: int, bets: dict[str, int]
) -> rounds.Stake:
    """The stake of a bet, under the client's idempotency key ``key``; the spots are part of
    the request (the same key with other bets is a conflict). The owner and a cluster's
    gateway both build a bet's stake here, so that either finds the other's hold."""
    return rounds.Stake(
        user_id=user_id,
        seat=seat,
        amount=amount,
        idempotency_key=key,
        details={"bets": bets, "seat": seat},
    )


def decision_stake(
    user_id: int, word: str, *, decision: str, seat: int, extra: int
) -> rounds.Stake:
    """The stake a decision adds (a UTH Play bet, a Russian Poker fee, Bet, insurance or
    buy), under a key naming the decision (:class:`.turns.DecisionId`: the round and the
    turn) and the seat: a decision resent is held once, by the table or by a cluster's
    gateway (issue 18), and two boxes or two turns never share a stake (issue 26). ``word``
    is the decision's wire name (``"4x"``, ``"bet"``...): another decision under the same
    key is a conflict, never a replay."""
    return rounds.Stake(
        user_id=user_id,
        seat=seat,
        amount=extra,
        idempotency_key=f"decision:{decision}:seat:{seat}",
        details={"decision": decision, "action": word, "stake": extra, "seat": seat},
    )


def bet_ack(move: Movement, *, round_id: int | None, seat: int) -> Result:
    """The answer to a bet held (or replayed)."""
    return Result(
        round_id=round_id,
        seat=seat,
        staked=int(move.amount),
        balance=int(move.balance),
        replayed=bool(move.replayed),
    )


def prepaid_ack(paid: Prepaid, seat: int, *, replayed: bool) -> Result:
    """The answer to a bet placed whose stake a gateway held (as :func:`bet_ack`)."""
    return Result(
        round_id=paid.round_id,
        seat=seat,
        staked=paid.amount,
        balance=paid.balance,
        replayed=replayed,
    )


def returned_hold(hold: int, *, what: str = "bet") -> IllegalActionError:
    """A bet (or decision) resent under the key of one refused before, whose stake was
    returned."""
    again = "bet again with a new key" if what == "bet" else "it cannot be made again"
    return IllegalActionError(
        f"this {what} was refused before and its stake returned (hold {hold}): {again}",
        reason="idempotency_conflict",
    )


def unverified_hold() -> IllegalActionError:
    """A bet (or decision) whose stake a cluster's gateway says it held, which the wallet
    does not hold for it (issue 26): nothing is placed or applied, and nothing returned."""
    return IllegalActionError(
        "the stake said to be held for this request is not held for it in the wallet: "
        "nothing was done; send it again",
        reason="hold_unverified",
    )
