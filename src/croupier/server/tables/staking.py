"""What a table's requests stake: the :class:`rounds.Stake` of a bet or of a decision
(:func:`stake_order`, the one place it is built), and the answers to a bet."""

from __future__ import annotations

from collections.abc import Mapping

from croupier.errors import IllegalActionError
from croupier.server.rounds import store as rounds
from croupier.server.tables.connection import Prepaid
from croupier.server.tables.wire import BetResult
from croupier.server.wallet.service import Movement

__all__ = [
    "bet_ack",
    "prepaid_ack",
    "returned_hold",
    "stake_order",
    "unverified_hold",
]


def stake_order(
    user_id: int,
    *,
    seat: int,
    amount: int,
    key: str | None = None,
    bets: Mapping[str, int] | None = None,
    decision: str | None = None,
    word: str = "",
) -> rounds.Stake:
    """The record of a stake to hold -- user, seat, amount, idempotency key, details -- the
    one place it is built: the owner (:mod:`.escrow`'s callers) and a cluster's gateway
    (:mod:`..cluster.holds`) both call it, so that either finds the other's hold, and the
    owner verifies a gateway's prepaid hold against it.

    A bet (``decision`` ``None``): under the client's key ``key``, its spots ``bets`` in the
    details (the same key with other bets is a conflict). A decision: under a key naming the
    decision (:class:`.turns.DecisionId`: the round and the turn -- so a seat's boxes, or
    its turns, never share a stake, issue 26) and the seat; ``word`` is its wire name
    (``"4x"``, ``"bet"``...): another decision under the same key is a conflict, never a
    replay."""
    if decision is None:
        assert key is not None and bets is not None, "a bet's stake needs its key and spots"
        return rounds.Stake(
            user_id=user_id,
            seat=seat,
            amount=amount,
            idempotency_key=key,
            details={"bets": dict(bets), "seat": seat},
        )
    return rounds.Stake(
        user_id=user_id,
        seat=seat,
        amount=amount,
        idempotency_key=f"decision:{decision}:seat:{seat}",
        details={"decision": decision, "action": word, "stake": amount, "seat": seat},
    )


def bet_ack(move: Movement, *, round_id: int | None, seat: int) -> BetResult:
    """The answer to a bet held (or replayed)."""
    return BetResult(
        round_id=round_id,
        seat=seat,
        staked=int(move.amount),
        balance=int(move.balance),
        replayed=bool(move.replayed),
    )


def prepaid_ack(paid: Prepaid, seat: int, *, replayed: bool) -> BetResult:
    """The answer to a bet placed whose stake a gateway held (as :func:`bet_ack`)."""
    return BetResult(
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
