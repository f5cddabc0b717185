"""A banked round's betting window in the database (issue 18): stakes held for it by a
cluster's gateways, the holds its table did not take returned, and its close.

A gateway holds a bet's stake itself, before the table's owner sees the bet, so that the
owner does not do every player's wallet work. The round row's ``betting_open`` is the guard:

- :func:`hold_in_window` (a gateway) reads the table's open round with betting open under a
  key-share lock (``SELECT ... FOR KEY SHARE`` on PostgreSQL) and holds the stakes in that
  transaction, exactly as the owner would (:func:`.rounds.stake_many`: the same ledger
  transactions, idempotency records and round players);
- :func:`close_window` (the owner, when betting closes) locks the row ``FOR UPDATE`` -- the
  lock waits for the holds in flight, and a hold that comes after it waits for its commit,
  then finds betting closed -- clears ``betting_open``, and returns every hold of the round
  the table did not take (:func:`release`): a bet the owner never received because its
  gateway died between the hold and the message, say. A settlement or a void locks the row
  the same way (:func:`.rounds.void_round`), so no hold is left in a round closed;
- :func:`release` (the owner) returns at once the holds of bets it refused.

A live table's decisions that add a stake (a UTH Play bet) have the same window, one phase at
a time: ``decision_phase`` names the phase whose stakes gateways may hold (with the round's
id and the phase, :func:`hold_in_window`); the owner moves it on as phases open and closes
it with :func:`close_window`, returning the holds of decisions it never applied, and a
settlement closes it first (a stray hold left in escrow would be paid to the house).

The holds' lock is the weakest that conflicts with ``FOR UPDATE``: it lets the owner record
the deck's commitment of a cluster's next round (:func:`.rounds.commit_deck`, a plain update of
other columns) while the gateways hold the first bets. Under a share lock that update waited
for every hold in flight, and a stream of them starved it: at a live table of 3,000 bots,
every other bet of the round waited 0.7-1.6 s behind the first, whose placing records the deck.

A hold is released at most once (:func:`croupier.server.wallet.service.release_holds`), and
a round voided returns what is held less what was released.

The owner takes a gateway's word for nothing (issue 26): before it places a bet or applies a
decision whose stake a gateway says it held, :func:`verified_holds` finds that hold in the
database under the request's own idempotency key, user, round, amount and details.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.rounds import store as rounds
from croupier.server.rounds.models import Round, RoundPlayer, RoundStatus
from croupier.server.wallet import service as wallet

__all__ = ["Claim", "Verdict", "close_window", "hold_in_window", "release", "verified_holds"]


def hold_in_window(
    session: Session,
    *,
    table: str,
    stakes: Sequence[rounds.Stake],
    check: wallet.StakeCheck | None = None,
    decisions: tuple[int, str] | None = None,
) -> tuple[int | None, list[wallet.Movement | CroupierError]]:
    """Hold ``stakes`` for table ``table``'s round whose betting is open -- or, with
    ``decisions`` (a round id and a phase), for that round while that decision phase is open
    -- in the caller's one transaction: the round's id and each stake's answer
    (:func:`.rounds.stake_many`), or ``(None, [])`` when no round of the table takes them now
    (nothing was written: the requests then go to the table's owner as they are)."""
    query = select(Round).where(Round.table_name == table, Round.status == RoundStatus.OPEN.value)
    if decisions is None:
        query = query.where(Round.betting_open.is_(True))
    else:
        query = query.where(Round.id == decisions[0], Round.decision_phase == decisions[1])
    # The row, not its id: :func:`.rounds.stake_many` then finds it in the session rather
    # than reading it again (each statement of a hold waits its turn on a loaded machine).
    locked = query.with_for_update(read=True, key_share=True)
    row = session.scalars(locked.execution_options(populate_existing=True)).first()
    if row is None:
        return None, []
    return row.id, rounds.stake_many(session, round_id=row.id, stakes=stakes, check=check)


@dataclass(frozen=True, slots=True)
class Claim:
    """What a gateway says it held: hold transaction :attr:`hold` for round
    :attr:`round_id`, of :attr:`stake` (its user, amount, idempotency key and details)."""

    round_id: int
    hold: int
    stake: rounds.Stake


class Verdict(StrEnum):
    """What the database says of a gateway's :class:`Claim`."""

    HELD = "held"
    """The hold is the claim's, and it is held."""
    RETURNED = "returned"
    """The hold is the claim's, and it was returned (the table refused the request)."""
    UNKNOWN = "unknown"
    """No such hold of that request: the claim is false."""


def verified_holds(session: Session, claims: Sequence[Claim], *, table: str) -> list[Verdict]:
    """What the database says of each claim of a gateway holding for table ``table`` (issue
    26): the hold is the one recorded under the stake's idempotency key in its user's key
    space, for that very request -- the table, the round, the amount and the details (the
    bet's spots and seat, or the decision and its seat), which the key's digest binds -- and
    whether it was returned since (its ``release`` key). The owner of a table places a bet or
    applies a decision whose stake a gateway held only when it is :attr:`Verdict.HELD`.

    One statement for the whole batch: the stakes' keys and the releases' keys are looked up
    together, and what a hold answered is not read back (the digest proves the amount, the
    key's ledger transaction the hold)."""
    keyed: list[wallet.Keyed | None] = []
    for claim in claims:
        stake = claim.stake
        request = wallet.hold_request(
            table=table, round_id=claim.round_id, amount=stake.amount, details=stake.details
        )
        try:
            key = wallet.check_idempotency_key(stake.idempotency_key)
        except CroupierError:
            keyed.append(None)  # no such key was ever stored
            continue
        keyed.append(wallet.Keyed(f"user:{stake.user_id}", key, request))
    releases = [(f"release:{claim.round_id}", f"hold:{claim.hold}") for claim in claims]
    asked = [(k.scope, k.key) for k in keyed if k is not None] + releases
    stored = wallet.stored_keys(session, asked)
    verdicts = []
    for claim, one, release in zip(claims, keyed, releases, strict=True):
        found = None if one is None else stored.get((one.scope, one.key))
        if one is None or found != (one.digest, claim.hold):
            verdicts.append(Verdict.UNKNOWN)
        elif release in stored:
            verdicts.append(Verdict.RETURNED)
        else:
            verdicts.append(Verdict.HELD)
    return verdicts


def release(session: Session, *, round_id: int, holds: Sequence[int]) -> list[wallet.Released]:
    """Return the stakes of hold transactions ``holds`` of open round ``round_id`` (each at
    most once) and take them off the round's players (a player left with no stake is no
    longer one of the round's).

    Raises:
        NotFoundError, ConflictError: no such round, or it is closed.
        LedgerInvariantError: an id that is not a hold of the round.
    """
    row = rounds.open_row(session, round_id)
    released = wallet.release_holds(session, table=row.table_name, round_id=round_id, holds=holds)
    if released:
        back: dict[int, int] = {}
        for one in released:
            back[one.user_id] = back.get(one.user_id, 0) + one.amount
        for player in session.scalars(
            select(RoundPlayer).where(
                RoundPlayer.round_id == round_id, RoundPlayer.user_id.in_(back)
            )
        ):
            player.staked -= back[player.user_id]
        session.flush()
        session.execute(
            delete(RoundPlayer).where(RoundPlayer.round_id == round_id, RoundPlayer.staked <= 0)
        )
    return released


def close_window(
    session: Session, *, round_id: int, kept: Collection[int], decisions: str | None = None
) -> list[wallet.Released]:
    """Close round ``round_id``'s betting, or its decision phase, in the caller's one
    transaction: no hold is taken for it from now on but those of decision phase
    ``decisions`` (``None``: none), and every hold of the round whose transaction is not in
    ``kept`` (the stakes of the bets and decisions the table took) is returned; what was
    returned.

    Raises:
        NotFoundError, ConflictError: no such round, or it is closed.
    """
    rounds.open_row(session, round_id, lock=True)
    session.execute(
        update(Round)
        .where(Round.id == round_id)
        .values(betting_open=False, decision_phase=decisions)
        .execution_options(synchronize_session=False)
    )
    stray = [h for h in wallet.round_holds(session, round_id=round_id) if h not in kept]
    return release(session, round_id=round_id, holds=stray) if stray else []
