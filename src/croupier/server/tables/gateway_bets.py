"""Bets whose stakes a cluster's gateway held (issue 18; issue 26's third defect):
:class:`GatewayBets`, a part of a banked table's driver (:mod:`.banked`).

A gateway holds a bet's stake in the database itself (:mod:`..cluster.holds`, the record
built by :func:`.staking.stake_order` as the owner builds it) and forwards the bet marked
prepaid. The owner takes nothing on trust: the escrow verifies each hold in the database (it
exists, is a hold of that user, for that round, that bet and that amount:
:func:`.window.verified_holds`); a bet it cannot verify is refused and nothing moves; one the
table refuses (betting closed, another seat, another price) has its hold returned at once,
before it is told why. One process has no gateways: this part is never called there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from croupier.errors import CroupierError, IllegalActionError
from croupier.server.rounds import store as rounds
from croupier.server.tables import nextround, window
from croupier.server.tables.broadcast import Broadcaster
from croupier.server.tables.connection import Prepaid, Request
from croupier.server.tables.core import TableCore, TableStatus
from croupier.server.tables.escrow import Escrow
from croupier.server.tables.games import BankedFactory, BankedRound
from croupier.server.tables.seats import Seats
from croupier.server.tables.staking import (
    bet_ack,
    prepaid_ack,
    returned_hold,
    stake_order,
    unverified_hold,
)
from croupier.server.tables.wire import BetMessage, Result, Spots, read_spots

__all__ = ["BettingLife", "GatewayBets"]


class BettingLife(Protocol):
    """What :class:`GatewayBets` needs of the driver whose part it is."""

    core: TableCore
    escrow: Escrow
    seats: Seats
    next: nextround.NextRounds
    factory: BankedFactory
    round: BankedRound | None

    out: Broadcaster

    async def play_ready(self) -> None: ...

    async def bets_malfunction(self, exc: Exception, requests: list[Request]) -> None: ...

    async def answer_bets(self, acks: list[tuple[Request, Result]], *, lone: bool) -> None: ...


class GatewayBets:
    """The prepaid bets of one banked table."""

    def __init__(self, life: BettingLife) -> None:
        self.life = life

    async def place(self, requests: list[Request]) -> None:
        """Bets a cluster's gateway has held the stakes of, for the round in betting: each
        placed as it came (its hold kept), or refused and its hold returned at once."""
        core = self.life.core
        placed: list[tuple[Request, Result]] = []
        refused: list[tuple[Request, CroupierError]] = []
        earlier: list[tuple[Request, rounds.Stake]] = []
        claims = []
        for request in requests:
            paid, bet = request.prepaid, request.message
            assert paid is not None and isinstance(bet, BetMessage)
            user = request.conn.user_id
            stake = stake_order(
                user, seat=paid.seat, amount=paid.amount, key=bet.key, bets=bet.bets
            )
            claims.append((paid, stake))
        verdicts = await self.life.escrow.verify(claims)
        for request, (paid, stake), verdict in zip(list(requests), claims, verdicts, strict=True):
            if verdict is window.Verdict.UNKNOWN:  # issue 26: nothing placed or returned
                self.life.out.refuse(request, unverified_hold())
                continue
            if verdict is window.Verdict.RETURNED:  # refused before, its stake returned
                self.life.out.refuse(request, returned_hold(paid.transaction_id))
                continue
            if self.life.escrow.kept(paid.transaction_id):  # a resend of a bet placed
                self.life.out.answer(request, prepaid_ack(paid, paid.seat, replayed=True))
                continue
            if self._of_a_round_before(paid) and not core.closed:  # its round moved on
                earlier.append((request, stake))
                continue
            try:
                seat, spots = self._check(request)
            except CroupierError as exc:
                refused.append((request, exc))
                continue
            if self.life.round is None:  # the first bet of a cluster's round prepared
                try:
                    await self.life.play_ready()
                except CroupierError as exc:
                    refused.append((request, exc))
                    continue
            game_round = self.life.round
            assert game_round is not None
            try:
                game_round.place_bets(seat, spots)
            except Exception as exc:
                await self.life.bets_malfunction(exc, requests)
                return
            core.round_users[seat] = request.conn.user_id
            self.life.escrow.keep(paid.transaction_id)
            placed.append((request, prepaid_ack(paid, seat, replayed=paid.replayed)))
        if earlier:
            await self._earlier(earlier)
        if refused:
            await self._release(refused)
        if placed:
            await self.life.answer_bets(placed, lone=len(requests) == 1)

    def _of_a_round_before(self, paid: Prepaid) -> bool:
        """Whether ``paid`` was held for a round before the one in play or recorded."""
        life = self.life
        if life.round is not None:
            return paid.round_id != life.core.round_id
        return life.next.ready is None or paid.round_id != life.next.ready.round_id

    async def _earlier(self, earlier: list[tuple[Request, rounds.Stake]]) -> None:
        """Bets delivered again after the round their stakes were held for moved on (found by
        red-teaming: told their stakes were returned, when the round had taken them): each
        answered as a client's resend is -- its first answer again, with that round's id, or
        that round's void."""
        found = await self.life.escrow.earlier([stake for _, stake in earlier])
        for (request, _), answer in zip(earlier, found, strict=True):
            if answer is None:
                self.life.out.refuse(request, _closed(returned=False))
            elif isinstance(answer, CroupierError):
                self.life.out.refuse(request, answer)
            else:
                round_id, seat, move = answer
                self.life.out.answer(request, bet_ack(move, round_id=round_id, seat=seat))

    def _check(self, request: Request) -> tuple[int, Spots]:
        """The seat and spots of a bet a gateway held the stake of, if the table takes it
        as it is: in this round's betting, from the seat it was held for, for that stake.

        Raises:
            CroupierError: why the table refuses it.
        """
        core = self.life.core
        paid = request.prepaid
        assert paid is not None
        ready = self.life.next.ready if self.life.round is None else None
        game_round: BankedRound | None
        returned: Callable[[int], bool]
        if ready is not None and paid.round_id == ready.round_id:
            returned, game_round = (
                ready.released.__contains__,
                ready.shuffled(core, self.life.factory),
            )
        else:
            returned, game_round = self.life.escrow.returned, self.life.round
        if returned(paid.transaction_id):
            raise returned_hold(paid.transaction_id)
        self.life.seats.check_open()
        if game_round is None or (
            ready is None
            and (paid.round_id != core.round_id or core.status is not TableStatus.BETTING)
        ):
            raise _closed(returned=True)
        seat = self.life.seats.seat(request.conn)
        if seat != paid.seat:
            raise IllegalActionError(
                f"the bet was made for seat {paid.seat}, but you sit at seat {seat}: its "
                "stake is returned",
                reason="not_your_seat",
            )
        bet = request.message
        assert isinstance(bet, BetMessage)
        spots = read_spots(bet.bets, self.life.factory.spots)
        total = game_round.check_bets(seat, spots)
        if total != paid.amount:  # the table's rules changed after the gateway priced it
            raise IllegalActionError(
                f"the bet stakes {total}, not the {paid.amount} held (the table's rules "
                "changed): its stake is returned; bet again",
                reason="price_changed",
            )
        return seat, spots

    async def _release(self, refused: list[tuple[Request, CroupierError]]) -> None:
        """Return the holds of the bets refused, then say why to each (after the return:
        the balance they see is whole again)."""
        core = self.life.core
        ready = self.life.next.ready if self.life.round is None else None
        betting = (
            ready.round_id
            if ready
            else core.round_id
            if core.status is TableStatus.BETTING
            else None
        )
        holds = []
        for request, _ in refused:
            paid = request.prepaid
            assert paid is not None
            if paid.round_id == betting and not self.life.escrow.kept(paid.transaction_id):
                holds.append(paid.transaction_id)
        if betting is not None:
            # Not returned (the database failed): the close of betting does.
            returned = ready.released if ready else None
            await self.life.escrow.release(holds, round_id=betting, returned=returned)
        for request, exc in refused:
            self.life.out.refuse(request, exc)


def _closed(*, returned: bool) -> IllegalActionError:
    """The refusal of a bet whose round's betting closed (its stake ``returned`` with it)."""
    then = "its stake is returned" if returned else "nothing was done"
    return IllegalActionError(
        f"bets are closed for the round this bet was held for: {then}", reason="bets_closed"
    )
