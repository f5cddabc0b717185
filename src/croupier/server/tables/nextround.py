"""A cluster's banked table records its next round before anyone bets (issue 18).

A gateway holds a bet's stake only for a round whose betting window is open in the database
(:mod:`.window`). If the round were recorded with its first bet, as in one process, the first
bets of every round -- at a live table, the burst that follows ``table_idle`` -- would find no
round, go to the owner and be held there: one process doing the wallet work of everyone who
bets first. So a windowed table (:class:`.escrow.WindowedEscrow`) records its next round as
soon as it is idle (:func:`prepare`): open, its betting window open, no deck yet. The gateways
hold stakes for it from then on.

The rest is as in one process. The first bet the owner takes shuffles the round's shoe; the
owner records the deck's commitment (with that bet's stake, when the owner held it) and
``round_opened`` publishes it before any card is dealt; the betting timer starts. Until then
the round is :class:`NextRound`, the driver's, not the core's: the table's state says idle,
with no round in play.

A round recorded and never played -- the table stops or an operator closes it -- is voided
(:func:`drop`): every stake a gateway held for it is returned, as any void returns them
(:func:`.rounds.void_round`). So is one holding stakes whose bets never came for
:data:`UNCLAIMED_SECONDS` (lost on the bus, or refused ``table_moved`` by a new owner):
nothing else would return them while nobody bets (:meth:`NextRounds.unclaimed`). It has no
deck to reveal: none was shuffled for it. New rules do not void it: it is the next round
they apply from (:meth:`NextRounds.renew`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from croupier.server.errors import ServiceUnavailable
from croupier.server.tables import stakes
from croupier.server.tables.core import TableCore
from croupier.server.tables.fairness import commit as commit_to
from croupier.server.tables.fairness import deck_text, new_salt
from croupier.server.tables.games import BankedFactory, BankedRound, game_round_shoe
from croupier.server.wallet import service as wallet

__all__ = ["NextRound", "NextRounds", "commit", "drop", "opening", "prepare", "shuffle"]

log = logging.getLogger(__name__)

UNCLAIMED_SECONDS = 30.0
"""How long stakes held for the round recorded wait for their bets (which follow their holds
within the gateways' request timeout) before the round is voided and recorded anew."""


@dataclass(slots=True)
class NextRound:
    """A round recorded open for the gateways' holds, not yet in play."""

    round_id: int
    released: set[int] = field(default_factory=set)
    """Holds of bets the table refused before the round was in play (returned at once):
    a resend under their key must not be taken as a bet made."""
    salt: str = ""
    unclaimed_since: float | None = None
    """When the table first found stakes held for it (the table's clock), while it waits."""
    game_round: BankedRound | None = None
    """Its shoe, shuffled when a bet first needs it (:meth:`shuffled`); committed to in the
    database when the first bet is placed."""

    def shuffled(self, core: TableCore, factory: BankedFactory) -> BankedRound:
        """The round's game, its shoe shuffled now if it was not before."""
        if self.game_round is None:
            self.salt, self.game_round = shuffle(core, factory)
        return self.game_round


def shuffle(core: TableCore, factory: BankedFactory) -> tuple[str, BankedRound]:
    """A new round's salt and game, its shoe shuffled from the table's source (any banked
    table's round)."""
    salt = new_salt()
    return salt, factory.new_round(core.shoe_factory(), salt=salt)


async def prepare(core: TableCore, factory: BankedFactory) -> NextRound | None:
    """The table's next round, recorded open for bets (``None``: the database failed; the
    first bet then opens a round, as in one process)."""
    try:
        round_id = await core.db_call(
            stakes.open_for_bets, core.db, table=core.name, game=factory.game
        )
    except Exception:
        log.exception("recording the next round of %s failed", core.name)
        return None
    return NextRound(round_id)


async def drop(core: TableCore, ready: NextRound, reason: str) -> None:
    """Void round ``ready``, never played: every stake held for it returned. If the database
    fails, the round stays open and the next start voids it (as a crash's)."""
    try:
        await core.db_call(
            stakes.void,
            core.db,
            round_id=ready.round_id,
            reason=f"never played: {reason}",
            record={"table": core.name, "round_id": ready.round_id, "played": False},
        )
    except Exception:
        log.exception("void of %s's next round %s failed", core.name, ready.round_id)


def opening(
    core: TableCore, factory: BankedFactory, game_round: BankedRound, salt: str
) -> stakes.Opening:
    """A round's deck and the commitment to it, as recorded (any banked table's round)."""
    deck = deck_text(game_round_shoe(game_round))
    return stakes.Opening(
        table=core.name,
        game=factory.game,
        commitment=commit_to(salt=salt, deck=deck),
        salt=salt,
        deck=deck,
    )


async def commit(
    core: TableCore, factory: BankedFactory, ready: NextRound
) -> tuple[BankedRound, stakes.Opening]:
    """Round ``ready`` in play (its first bet, held by a gateway, is placed now): its shoe
    and the deck's commitment, recorded.

    Raises:
        ServiceUnavailable: the database failed; the round was voided (its stakes returned).
    """
    game_round = ready.shuffled(core, factory)
    recorded = opening(core, factory, game_round, ready.salt)
    try:
        await core.db_call(stakes.commit_deck, core.db, round_id=ready.round_id, opening=recorded)
    except Exception as exc:
        log.exception("recording the deck of %s's round %s failed", core.name, ready.round_id)
        await drop(core, ready, f"its deck could not be recorded: {exc}")
        raise ServiceUnavailable(
            "the round could not be opened (the database failed): its stakes are returned; "
            "bet again",
            reason="database_unavailable",
        ) from None
    return game_round, recorded


@dataclass(slots=True)
class NextRounds:
    """A banked table driver's next round: recorded when a cluster's table is idle, played
    from its first bet, voided when it is not to be played."""

    core: TableCore
    factory: BankedFactory
    windowed: bool
    """A cluster's table (:attr:`.escrow.Escrow.windowed`)."""
    ready: NextRound | None = None
    """The round recorded for the gateways' holds, not yet in play."""
    stopping: bool = False

    async def prepare(self, *, in_play: bool) -> None:
        """A cluster's idle open table (no round ``in_play``): its next round recorded."""
        core = self.core
        if self.windowed and not (core.closed or self.stopping or self.ready or in_play):
            self.ready = await prepare(core, self.factory)

    def renew(self) -> None:
        """The table's rules changed: the round recorded takes them. Its shoe, if a bet
        shuffled it under the old ones (a bet refused, nothing committed), is shuffled again
        when a bet next needs it."""
        if self.ready is not None:
            self.ready.salt, self.ready.game_round = "", None

    async def drop(self, reason: str) -> None:
        """The round recorded is not played: voided, every stake held for it back."""
        ready, self.ready = self.ready, None
        if ready is not None:
            await drop(self.core, ready, reason)

    async def play(self) -> tuple[NextRound, BankedRound, stakes.Opening]:
        """The round recorded, in play from now: its game and deck, recorded (:func:`commit`).

        Raises:
            ServiceUnavailable: the database failed; the round was voided.
        """
        ready, self.ready = self.ready, None
        assert ready is not None
        game_round, recorded = await commit(self.core, self.factory, ready)
        return ready, game_round, recorded

    async def unclaimed(self, *, in_play: bool) -> None:
        """Stakes held for the round recorded whose bets never came (found by red-teaming:
        the gateway's message lost on the bus after its hold, or refused ``table_moved``) wait
        for that round to be played; at a table nobody bets at, for ever. Found again
        :data:`UNCLAIMED_SECONDS` after they were first, the round is voided (every stake
        held for it back; a bet still on its way is told its round was voided) and recorded
        anew. A round in play returns them when its betting closes."""
        ready = self.ready
        if ready is None or in_play:
            return
        held = await self.core.in_session(wallet.held_in_round, round_id=ready.round_id)
        now = self.core.clock.now()
        if not held:
            ready.unclaimed_since = None
        elif ready.unclaimed_since is None:
            ready.unclaimed_since = now
        elif now - ready.unclaimed_since >= UNCLAIMED_SECONDS and self.ready is ready:
            await self.drop("stakes held for bets that never came are returned")
            await self.prepare(in_play=False)

    async def gateway_lost(self, *, in_play: bool) -> None:
        """A gateway died. A stake it held for the round recorded, whose bet it never sent,
        would wait for that round to be played: not in play yet, the round is voided (every
        stake held for it back; bets still on their way are then refused, their stakes
        returned) and recorded anew. A round in play returns such stakes when its betting
        closes (:func:`.window.close_window`)."""
        ready = self.ready
        if ready is None or in_play:
            return
        if await self.core.in_session(wallet.round_holds, round_id=ready.round_id):
            await self.drop("a gateway stopped: the stakes it held are returned")
            await self.prepare(in_play=False)
