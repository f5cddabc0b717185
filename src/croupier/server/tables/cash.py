"""Cash-game tables (Hold'em): stacks bought in from the wallet, hands dealt continuously.

Money (issue 5, Wallet): each seated player's stack is a ledger account of its own,
``escrow:<table>:u<user id>`` (kind escrow). A ``buy_in`` moves money from the player's
wallet to it, leaving moves it all back; both are ``transfer`` transactions, the buy-in
idempotent under the client's key. Chips move between stacks only when a hand ends: one
``settle`` transaction, written together with the hand's record, takes each seat's net
result from or to its stack account and the rake to the rake account. So a hand that never
finishes -- voided by a malfunction, or cut short by a crash -- has moved nothing: every
stack is where it stood before the hand (spec/uth.md "Faults", the malfunction rule, as
issue 5 asks for Hold'em). At the next start the open hand is voided
(:func:`croupier.server.tables.rounds.recover_open_rounds`, the void recorded) and the
table's first act is to return every stack account left by the crash to its wallet.

A hand's life: when two or more seats have chips and are sitting in, the table shuffles a
shoe from the OS CSPRNG, publishes the commitment (``round_opened``), deals, and asks the
player to act (``turn``) with a timer; a seat that does not act in time checks, or folds.
The result is recorded (PHH text) and after ``pause_seconds`` the next hand starts with the
button moved one seat on.

Fairness between players: the commitment published before the deal is to each card on its
own (:func:`croupier.server.tables.fairness.card_commitment`), because revealing the whole
deck afterwards would show everyone the cards of the players who folded. ``round_closed``
publishes the leaves with the openings of the cards everyone saw (the board and the burns
actually dealt, the hands shown at showdown); each player privately gets the openings of their
own hole cards (a ``seat_event`` ``cards_opened``). The cards left in the stub stay closed: 52
minus the opened cards minus your own would otherwise be the folded hands (issue 13). Nobody
learns a hand that was not shown; everybody can check every card they saw against the
commitment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.deck import Shoe
from croupier.errors import CroupierError, IllegalActionError
from croupier.server.db import Database
from croupier.server.errors import PermissionDeniedError, RoundVoided
from croupier.server.tables import rounds
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.connection import Request
from croupier.server.tables.fairness import (
    card_commitment,
    card_leaves,
    deck_text,
    new_salt,
    open_cards,
    positions_of,
)
from croupier.server.tables.games import GameFactory, GameRound
from croupier.server.tables.models import RoundPlayer
from croupier.server.tables.protocol import (
    ActMessage,
    BuyInMessage,
    LeaveMessage,
    SitInMessage,
    SitOutMessage,
)
from croupier.server.tables.table import Connection, Table
from croupier.server.tables.wire import (
    BoughtIn,
    BuyInLimits,
    CardsOpened,
    HandStarting,
    Left,
    Result,
    Reveal,
    RoundOpened,
    SatIn,
    SatOut,
    SeatEntry,
    TableIdle,
    TableState,
    TimedOut,
    Turn,
    round_closed,
)
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import LedgerAccount, TransactionKind

__all__ = [
    "CashFactory",
    "CashGameTable",
    "CashRound",
    "buy_in",
    "cash_out",
    "open_hand",
    "recover_stacks",
    "replayed_buy_in",
    "settle_hand",
    "stack_account",
]

log = logging.getLogger(__name__)


class CashRound(GameRound, Protocol):
    """A hand at a cash table: a :class:`GameRound` that also reports stacks."""

    @property
    def actor(self) -> int | None: ...

    @property
    def rake(self) -> int: ...

    def starting_stacks(self) -> dict[int, int]: ...

    def final_stacks(self) -> dict[int, int]: ...

    def winnings(self) -> dict[int, int]: ...

    def hole_cards(self) -> dict[int, list[str]]:
        """Every seat's hole cards (the dealer's view)."""
        ...

    def shown_seats(self) -> list[int]:
        """Seats that tabled their cards at showdown."""
        ...

    def public_cards(self) -> list[str]:
        """The cards everyone saw: the board and burns dealt, the hands shown."""
        ...


class CashFactory(GameFactory, Protocol):
    """Builds the hands of a cash table."""

    @property
    def min_buy_in(self) -> int: ...

    @property
    def max_buy_in(self) -> int: ...

    def new_hand(
        self,
        shoe: Shoe,
        *,
        seats: Sequence[int],
        stacks: Sequence[int],
        names: Sequence[str],
        button: int,
    ) -> CashRound: ...


# -- ledger services (keyword-only, the caller's session and transaction) -----------------


def stack_account(session: Session, *, table: str, user_id: int) -> LedgerAccount:
    """The escrow account holding ``user_id``'s chips at cash table ``table``."""
    return wallet.escrow_account(session, table=f"{table}:u{user_id}")


def buy_in(
    session: Session, *, table: str, user_id: int, amount: int, idempotency_key: str
) -> tuple[wallet.Movement, int]:
    """Move ``amount`` from the wallet to the table stack; return the movement and the stack.

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


def open_hand(
    session: Session,
    *,
    table: str,
    game: str,
    commitment: str,
    salt: str,
    deck: str,
    players: Mapping[int, int],
) -> int:
    """Record a new open hand and who is dealt in (``players``: user id -> seat)."""
    row = rounds.open_round(
        session, table=table, game=game, commitment=commitment, salt=salt, deck=deck
    )
    session.add_all(
        RoundPlayer(round_id=row.id, user_id=user, seat=seat, staked=0)
        for user, seat in sorted(players.items())
    )
    session.flush()
    return row.id


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


# -- the table ---------------------------------------------------------------------------


class CashGameTable(Table):
    """A table whose players sit with stacks and play hand after hand (Hold'em)."""

    def __init__(
        self,
        config: TableConfig,
        factory: GameFactory,
        *,
        db: Database,
        clock: Clock,
        shoe_factory: Callable[[], Shoe],
        history: int = 1024,
    ) -> None:
        super().__init__(
            config, factory, db=db, clock=clock, shoe_factory=shoe_factory, history=history
        )
        self.cash: CashFactory = factory  # type: ignore[assignment]
        self._stacks: dict[int, int] = {}
        self._leaving: set[int] = set()
        """Seats that leave when the hand in play ends (``leave`` with ``after_hand``): kept
        here, so a player who closes the tab still leaves after the hand, and never before."""
        """seat -> chips at the table (equal to its stack account between hands)."""
        self._out: set[int] = set()
        """Seats sitting out."""
        self._button: int | None = None
        self._hand: CashRound | None = None
        self._closing = False
        self._sitting_keys: dict[int, set[str]] = {}
        """user id -> the buy-in keys of the chips at the table now (a resent key not among
        them funded a stack that has since gone back to the wallet)."""
        self._timed_out: set[int] = set()
        """Seats that timed out in the hand in play (a hand they let pass, issue 13)."""

    async def run(self) -> None:
        try:
            returned = await self._db_call(self._with_session(recover_stacks, table=self.name))
        except Exception:  # pragma: no cover - the database is down at start
            log.exception("could not return the stacks left at %s", self.name)
        else:
            if returned:
                log.warning("returned stacks left at %s by a crash: %s", self.name, returned)
        await super().run()

    @property
    def name(self) -> str:
        return self.config.name

    def _with_session(self, fn: Callable[..., Any], **kwargs: Any) -> Callable[[], Any]:
        def run() -> Any:
            with self._db.session() as session:
                return fn(session, **kwargs)

        return run

    def _in_hand(self, seat: int) -> bool:
        return self._hand is not None and seat in self._round_users

    # -- seat rules (seats.py): a seat needs a buy-in's worth, and chips to play with ------

    def _seat_minimum(self) -> int:
        return self.cash.min_buy_in

    def _idle_candidates(self) -> list[int]:
        ready = set(self._ready())
        return sorted(s for s in self._seats if s not in ready)

    async def _free_idle(self, seats: Sequence[int]) -> None:
        for seat in seats:
            occupant = self._seats.get(seat)
            if occupant is None or self._in_hand(seat):
                continue
            try:
                await self._cash_out(seat, occupant.user_id, occupant.username, reason="idle")
            except Exception:
                log.exception("cash-out of idle seat %s at %s failed", seat, self.name)
                continue
            self._idle.pop(seat, None)
            self._cooldown[occupant.user_id] = self._clock.now() + self.config.betting_seconds

    # -- seats and money ---------------------------------------------------------------

    async def _seat_request(
        self, conn: Connection, message: BuyInMessage | SitOutMessage | SitInMessage
    ) -> Result | None:
        seat = self._seat(conn)
        if isinstance(message, BuyInMessage):
            return await self._buy_in(conn, seat, message)
        out = isinstance(message, SitOutMessage)
        if (seat in self._out) == out:
            # Nothing changes: acknowledged, and nobody else hears of it (issue 13: a
            # repeated sit_out must not make every socket at the table busy).
            return Result(seat=seat, sitting_out=out)
        if out:
            self._out.add(seat)
            self._emit(SatOut(seat=seat))
            self._broadcast_state()
            self._arm_idle()
            return Result(seat=seat, sitting_out=True)
        self._out.discard(seat)
        self._emit(SatIn(seat=seat))
        self._broadcast_state()
        await self._maybe_start()
        return Result(seat=seat, sitting_out=False)

    async def _buy_in(self, conn: Connection, seat: int, message: BuyInMessage) -> Result:
        args = {"table": self.name, "user_id": conn.user_id, "amount": message.amount}
        replay = await self._db_call(
            self._with_session(replayed_buy_in, idempotency_key=message.key, **args)
        )
        if replay is None:
            if self._in_hand(seat):
                raise IllegalActionError(
                    f"seat {seat} is in the hand in play: buy in after it",
                    reason="buy_in_during_hand",
                )
            stack = self._stacks.get(seat, 0)
            total = stack + message.amount
            low, high = self.cash.min_buy_in, self.cash.max_buy_in
            if stack == 0 and message.amount < low:
                raise IllegalActionError(
                    f"buy-in {message.amount} is below the table minimum {low}",
                    reason="buy_in_below_min",
                    params={"amount": message.amount, "min": low},
                )
            if total > high:
                raise IllegalActionError(
                    f"buy-in {message.amount} would make the stack {total}, above the table "
                    f"maximum {high}",
                    reason="buy_in_above_max",
                    params={"amount": message.amount, "total": total, "max": high},
                )
            move, stack = await self._db_call(
                self._with_session(buy_in, idempotency_key=message.key, **args)
            )
            self._sitting_keys.setdefault(conn.user_id, set()).add(message.key)
            self._stacks[seat] = stack
            self._emit(BoughtIn(seat=seat, amount=message.amount, stack=stack))
            self._broadcast_state()
            await self._maybe_start()
            balance = int(move.balance)
        else:
            move, _ = replay
            # A retry: answered with what is true now, not what was true then (issue 13).
            balance = await self._db_call(self._wallet_balance, conn.user_id)
            if message.key not in self._sitting_keys.get(conn.user_id, ()):
                raise RoundVoided(
                    f"buy-in {message.key!r} was taken before, and its chips have gone back "
                    f"to your wallet since (a restart voided the hand in play, or the seat "
                    f"was left): the wallet holds {balance}; buy in again with a new key",
                    balance=balance,
                    stack=self._stacks.get(seat, 0),
                    reason="round_voided",
                    params={"balance": balance},
                )
        return Result(
            seat=seat,
            amount=int(move.amount),
            stack=self._stacks.get(seat, 0),
            balance=balance,
            replayed=bool(move.replayed),
        )

    async def _leave_seat(self, conn: Connection, message: LeaveMessage) -> Result:
        seat = self._seat(conn)
        if message.after_hand is not None and (self._in_hand(seat) or not message.after_hand):
            # Flagged on the server: it holds whatever the client does next.
            changed = (seat in self._leaving) != message.after_hand
            (self._leaving.add if message.after_hand else self._leaving.discard)(seat)
            if changed:
                self._broadcast_state()
            return Result(seat=seat, leaving=message.after_hand)
        if self._in_hand(seat):
            raise IllegalActionError(
                f"seat {seat} is in the hand in play: leave after it (sit_out skips the next)",
                reason="leave_during_hand",
            )
        amount, balance = await self._cash_out(seat, conn.user_id, conn.username)
        self._send_state_to(conn.user_id)
        return Result(seat=None, cashed_out=amount, balance=balance)

    async def _cash_out(
        self, seat: int, user_id: int, username: str, *, reason: str | None = None
    ) -> tuple[int, int]:
        amount, balance = await self._db_call(
            self._with_session(cash_out, table=self.name, user_id=user_id)
        )
        self._seats.pop(seat, None)
        self._seat_of.pop(user_id, None)
        self._stacks.pop(seat, None)
        self._out.discard(seat)
        self._leaving.discard(seat)
        self._idle.pop(seat, None)
        self._sitting_keys.pop(user_id, None)
        left = Left(seat=seat, username=username, cashed_out=amount)
        if reason is not None:
            left.reason = reason
        self._emit(left)
        self._broadcast_state()
        return int(amount), int(balance)

    async def _release_ghosts(self) -> None:
        """Seats with no hand in play whose player has no connection left or asked to leave
        after the hand: cash out, leave."""
        for seat, occupant in list(self._seats.items()):
            staying = occupant.user_id in self._by_user and seat not in self._leaving
            if staying or self._in_hand(seat):
                continue
            try:
                await self._cash_out(seat, occupant.user_id, occupant.username)
            except Exception:
                # The chips stay in the stack account; the next start returns them.
                log.exception("cash-out of seat %s at %s failed", seat, self.name)

    async def _bets(self, requests: list[Request]) -> None:
        for request in requests:
            self._refuse(
                request,
                IllegalActionError(
                    "a hold'em table takes no bets: buy_in, then act in turn",
                    reason="no_bets_cash_game",
                ),
            )

    # -- hands -------------------------------------------------------------------------

    def _ready(self) -> list[int]:
        return sorted(s for s in self._seats if self._stacks.get(s, 0) > 0 and s not in self._out)

    async def _maybe_start(self, *, wait: bool = True) -> None:
        """Deal the next hand if two or more seats are ready: after ``pause_seconds`` (so
        that others can sit down), or now when the pause is over (``wait=False``)."""
        if self._closing or self.status != "idle" or self._hand is not None:
            return
        ready = self._ready()
        if len(ready) < 2:
            return
        if wait and self.config.pause_seconds > 0:
            self.status = "pause"
            self._arm(self.config.pause_seconds)
            self._emit(HandStarting(in_seconds=self.config.pause_seconds))
            self._broadcast_state()
            return
        prev = self._button
        # spec/holdem.md "Table": the button moves one seat clockwise after every hand.
        button = next((s for s in ready if prev is None or s > prev), ready[0])
        order = [s for s in ready if s > button] + [s for s in ready if s < button] + [button]
        shoe = self._shoe_factory()
        salt, deck = new_salt(), deck_text(shoe)
        commitment = card_commitment(salt=salt, deck=deck)
        names = [self._seats[s].username for s in order]
        try:
            hand = self.cash.new_hand(
                shoe,
                seats=order,
                stacks=[self._stacks[s] for s in order],
                names=names,
                button=button,
            )
        except CroupierError:
            log.exception("could not deal a hand at %s", self.name)
            return
        users = {s: self._seats[s].user_id for s in order}
        round_id = await self._db_call(
            self._with_session(
                open_hand,
                table=self.name,
                game=self.factory.game,
                commitment=commitment,
                salt=salt,
                deck=deck,
                players={u: s for s, u in users.items()},
            )
        )
        self._hand = hand
        self._timed_out = set()
        self._round, self._round_id = hand, round_id
        self._commitment, self._salt, self._deck = commitment, salt, deck
        self._cursor = 0
        self._round_users = users
        self._button = button
        self.status = "playing"
        self._emit(
            RoundOpened(
                round_id=round_id,
                commitment=commitment,
                button=button,
                seats=order,
                stacks={str(s): self._stacks[s] for s in order},
            )
        )
        self._drain_engine()
        await self._next_turn()

    async def _next_turn(self) -> None:
        hand = self._hand
        assert hand is not None
        if hand.finished:
            await self._settle_hand()
            return
        self._arm(self.config.decision_seconds)
        self._emit(
            Turn(seat=hand.actor, phase=hand.phase, decision_seconds=self.config.decision_seconds)
        )
        self._broadcast_state()

    async def _acts(self, requests: list[Request]) -> None:
        """Decisions, one at a time in turn (a cash hand stakes nothing outside the hand)."""
        for request in requests:
            message = request.message
            assert isinstance(message, ActMessage)
            try:
                result = await self._act(request.conn, message)
            except CroupierError as exc:
                self._refuse(request, exc)
            else:
                self._answer(request, result)

    async def _act(self, conn: Connection, message: ActMessage) -> Result:
        seat = self._seat(conn)
        if message.seat is not None and message.seat != seat:
            raise PermissionDeniedError(
                f"seat {message.seat} is not yours (you sit in {seat})", reason="not_your_seat"
            )
        hand = self._hand
        if self.status != "playing" or hand is None:
            raise IllegalActionError(
                f"no hand in play: the table is {self.status}", reason="no_hand_in_play"
            )
        if self._round_users.get(seat) != conn.user_id:
            raise IllegalActionError(
                f"seat {seat} is not dealt in this hand", reason="not_dealt_in"
            )
        hand.check_act(seat, message)
        try:
            hand.act(seat, message)
        except CroupierError:
            raise
        except Exception as exc:
            log.exception("engine failed at %s", self.name)
            await self._void(f"engine malfunction: {exc}")
            return Result(seat=seat, action=message.action, voided=True)
        self._drain_engine()
        await self._next_turn()
        return Result(seat=seat, action=message.action)

    async def _on_timer(self) -> None:
        hand = self._hand
        if self.status == "playing" and hand is not None:
            actor = hand.actor
            if actor is None:  # pragma: no cover - a hand in play always has an actor
                return
            try:
                hand.apply_timeout(actor)
            except Exception as exc:
                log.exception("timeout failed at %s", self.name)
                await self._void(f"engine malfunction: {exc}")
                return
            self._timed_out.add(actor)
            self._emit(TimedOut(seat=actor))
            self._drain_engine()
            await self._next_turn()
        elif self.status == "pause":
            self.status = "idle"
            await self._maybe_start(wait=False)
            if self.status == "idle":
                self._emit(TableIdle())
                self._broadcast_state()
                self._arm_idle()
        elif self.status == "idle":
            await self._idle_window()

    async def _settle_hand(self) -> None:
        hand, round_id = self._hand, self._round_id
        assert hand is not None and round_id is not None
        users = self._round_users
        start, final, won = hand.starting_stacks(), hand.final_stacks(), hand.winnings()
        record = hand.record(round_id)
        summary = hand.summary()
        try:
            await self._db_call(
                self._with_session(
                    settle_hand,
                    table=self.name,
                    round_id=round_id,
                    net={users[s]: final[s] - start[s] for s in final},
                    staked={users[s]: start[s] - final[s] + won[s] for s in final},
                    won={users[s]: won[s] for s in final},
                    rake=hand.rake,
                    record=record,
                    summary=summary,
                )
            )
        except Exception as exc:
            log.exception("settlement of hand %s failed", round_id)
            await self._void(f"settlement failed: {exc}")
            return
        self._stacks.update(final)
        await self._close_hand("settled", summary)

    async def _void(self, reason: str) -> None:
        """Void the hand in play: nothing moved, every stack stays as before the hand."""
        hand, round_id = self._hand, self._round_id
        assert hand is not None and round_id is not None
        hand.void(reason)
        self._drain_engine()
        record = hand.record(round_id)
        try:
            await self._db_call(
                self._with_session(
                    rounds.void_round, round_id=round_id, reason=reason, record=record
                )
            )
        except Exception:
            log.exception("void of hand %s failed; it will be voided at restart", round_id)
        await self._close_hand("voided", {"void": reason, "stacks": hand.starting_stacks()})

    async def _close_hand(
        self, status: Literal["settled", "voided"], summary: Mapping[str, Any]
    ) -> None:
        hand = self._hand
        assert hand is not None
        holes = hand.hole_cards()
        public = positions_of(self._deck, hand.public_cards())
        reveal = Reveal(
            commitment=self._commitment,
            leaves=card_leaves(salt=self._salt, deck=self._deck),
            openings=open_cards(salt=self._salt, deck=self._deck, positions=public),
        )
        self._emit(
            round_closed(
                round_id=self._round_id,
                status=status,
                summary=summary,
                reveal=reveal,
                stacks={s: self._stacks.get(s, 0) for s in hand.seats},
            )
        )
        for seat, user in self._round_users.items():
            own = positions_of(self._deck, holes.get(seat, ())) - public
            if own:
                openings = open_cards(salt=self._salt, deck=self._deck, positions=own)
                self._to_user(
                    user, CardsOpened(round_id=self._round_id, seat=seat, openings=openings)
                )
        self.rounds_played += 1
        played = list(self._round_users)
        self._hand = self._round = None
        self._round_id = self._commitment = None
        self._salt = self._deck = ""
        self._round_users = {}
        self._deadline = None
        self._timer_generation += 1
        if self._closing:
            return
        self.status = "idle"
        await self._free_idle(self._count_round(set(played) - self._timed_out))
        await self._release_ghosts()
        await self._maybe_start()
        if self.status == "idle":
            self._emit(TableIdle())
            self._broadcast_state()
            self._arm_idle()

    async def _shutdown(self, reason: str) -> None:
        self._closing = True
        if self._hand is not None:
            await self._void(reason)
        self.status = "closed"
        for seat, occupant in list(self._seats.items()):
            try:
                await self._cash_out(seat, occupant.user_id, occupant.username)
            except Exception:
                log.exception("cash-out of seat %s at %s failed at shut-down", seat, self.name)
        await super()._shutdown(reason)

    # -- frames ------------------------------------------------------------------------

    def _table_state(self, conn: Connection) -> TableState:
        table = super()._table_state(conn)
        table.seats = [
            SeatEntry(
                seat=s,
                username=o.username,
                stack=self._stacks.get(s, 0),
                sitting_out=s in self._out,
                in_hand=s in self._round_users,
                leaving=s in self._leaving,
            )
            for s, o in sorted(self._seats.items())
        ]
        table.button = self._button
        table.buy_in = BuyInLimits(min=self.cash.min_buy_in, max=self.cash.max_buy_in)
        return table
