"""The decisions a round asks for, each with an id issued with its turn: :class:`Turns`.

Every decision the server asks for -- a seat's turn in a UTH phase, a Russian Poker box's
turn (and its Bet after an exchange), a Hold'em player's turn -- gets an id when the turn
opens (:class:`DecisionId`, ``"<round>-<number>"`` on the wire), sent with the turn
(``decisions_open``, ``your_turn``, a cash table's ``turn``) and in the seat's ``state``. An
``act`` may carry it (docs/protocol.md "Decisions"):

- a decision resent with its id gets its first answer again and changes nothing, however the
  round has moved on (the answers of the table's last :data:`KEPT_ROUNDS` rounds are kept);
  only its player gets it: resent by whoever sits at that seat since, it is stale;
- a decision naming a turn that is not open any more (decided, timed out, another round) is
  refused, ``stale_decision``, whatever it carries;
- without an id, it is the decision its seat is asked for now.

The id is the decision's identity in the wallet too: the idempotency key of the stake it
adds names it (:func:`croupier.server.tables.staking.stake_order`), so two boxes or two
turns never share a stake and a resend always does. Nothing here touches the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from croupier.errors import CroupierError, IllegalActionError
from croupier.server.tables.wire import ActMessage, ActResult

__all__ = ["KEPT_ROUNDS", "DecisionId", "Fresh", "Resent", "Turns", "stale"]

_ID = re.compile(r"^([0-9]{1,18})-([0-9]{1,9})$")


@dataclass(frozen=True, slots=True, order=True)
class DecisionId:
    """A decision of round :attr:`round_id`: the :attr:`number`-th turn it opened.

    >>> DecisionId.parse("812-3")
    DecisionId(round_id=812, number=3)
    >>> str(DecisionId(812, 3))
    '812-3'
    """

    round_id: int
    number: int

    def __str__(self) -> str:
        return f"{self.round_id}-{self.number}"

    @classmethod
    def parse(cls, text: str) -> DecisionId | None:
        """The id written as ``text``, or ``None`` when it is not one."""
        found = _ID.match(text)
        return None if found is None else cls(int(found.group(1)), int(found.group(2)))


@dataclass(frozen=True, slots=True)
class Fresh:
    """A decision to take: the one open for its seat (``None``: the seat has none open, and
    the engine says why it refuses)."""

    decision: DecisionId | None


@dataclass(frozen=True, slots=True)
class Resent:
    """A decision answered before: its first answer, again."""

    result: ActResult


Fingerprint = tuple[str, int | None, int | None, tuple[str, ...]]


KEPT_ROUNDS = 8
"""The rounds whose decisions' first answers a table keeps for a resend: the round in play
and the seven before it (a Hold'em hand closes in seconds, a retry may come hands later;
bounded, so a table's memory does not grow; a resend older than that is ``stale_decision``)."""


Word = Callable[[ActMessage], str | None]
"""The wire name of the decision an ``act`` asks for (a game's ``decision_word``): one name
for its spellings (UTH's ``play`` with ``multiple`` 4 and ``"4x"``)."""


def _fingerprint(act: ActMessage, word: Word | None = None) -> Fingerprint:
    """What makes two ``act`` frames the same decision (not their request ids): its name,
    however it is spelt, with its amount and cards -- an amount of 0 as none (a Russian
    ``bet`` without insurance), the cards in any order (an exchange's discards are a set;
    found by red-teaming: such a resend was refused as another decision)."""
    named = word(act) if word is not None else None
    cards = tuple(sorted(act.cards or ()))
    if named is not None:
        return (named, None, act.amount or None, cards)
    return (act.action, act.multiple, act.amount or None, cards)


def stale(decision: str, why: str) -> IllegalActionError:
    """The refusal of a decision for a turn that is not open."""
    return IllegalActionError(
        f"decision {decision} {why}: nothing was done",
        reason="stale_decision",
        params={"decision": decision},
    )


class Turns:
    """One table's decisions: the ids of the turns open, and the answers given."""

    def __init__(self, word: Word | None = None) -> None:
        self._word = word
        """The game's name of a decision (its spellings one decision); ``None``: as sent."""
        self.round_id: int | None = None
        self._number = 0
        self._open: dict[int, int] = {}
        """seat -> the number of the decision it is asked for now."""
        self._answers: dict[int, dict[tuple[int, int], tuple[int, Fingerprint, ActResult]]] = {}
        """round id -> (seat, number) -> the player who decided, the decision's fingerprint
        and its first answer: the round in play's and those of the rounds before it."""

    def begin(self, round_id: int) -> None:
        """Round ``round_id`` is in play: no turn open yet; the answers of the
        :data:`KEPT_ROUNDS` - 1 rounds before are kept (a decision may be resent after its
        round closed)."""
        self.round_id, self._number, self._open = round_id, 0, {}
        self._answers.setdefault(round_id, {})
        for old in [r for r in self._answers if r != round_id][: -(KEPT_ROUNDS - 1)]:
            del self._answers[old]

    def end(self) -> None:
        """The round closed: no turn is open."""
        self._open = {}

    def open(self, seats: tuple[int, ...] | list[int]) -> DecisionId:
        """A turn opens for ``seats`` (each decides once in it): its id."""
        assert self.round_id is not None, "a turn opens in a round"
        self._number += 1
        for seat in seats:
            self._open[seat] = self._number
        return DecisionId(self.round_id, self._number)

    def again(self, seats: set[int], pending: set[int]) -> list[int]:
        """The ``seats`` that just decided and still have to (a Russian Poker box's Bet
        after its exchange): each is owed a turn of its own -- a new id, and its own time
        to decide (the driver opens it)."""
        return [seat for seat in seats if seat in pending and seat not in self._open]

    def close(self, seats: tuple[int, ...] | list[int] | set[int]) -> None:
        """``seats`` decided (or had the default): their turns are over."""
        for seat in seats:
            self._open.pop(seat, None)

    def word(self, act: ActMessage) -> str:
        """The name a decision's stake is recorded under: the game's name of ``act`` (one
        for its spellings), else its action -- whether or not a round is in play."""
        named = self._word(act) if self._word is not None else None
        return named or act.action

    def current(self, seat: int | None) -> DecisionId | None:
        """The decision ``seat`` is asked for now."""
        number = None if seat is None else self._open.get(seat)
        if number is None or self.round_id is None:
            return None
        return DecisionId(self.round_id, number)

    def ask(self, seat: int, user_id: int, act: ActMessage) -> Fresh | Resent:
        """What ``act`` from player ``user_id`` at ``seat`` is: the decision open for it, or
        one they answered before.

        A decision they answered at the seat they had before (a retry after a lost ack,
        from the seat they took since theirs was freed; found by red-teaming: refused as
        stale) is answered its first answer too: a player sits at one seat of a table.

        Raises:
            IllegalActionError: ``stale_decision``, a turn not open, another decision than
                the one answered under its id, or one another player at that seat answered
                (its answer is theirs: their wallet's balance is in it).
        """
        if act.decision is None:
            return Fresh(self.current(seat))
        named = DecisionId.parse(act.decision)
        answers = self._answers.get(named.round_id) if named is not None else None
        if named is None or answers is None:
            raise stale(act.decision, "is not a turn of this table's rounds in play")
        first = answers.get((seat, named.number))
        if first is not None and first[0] == user_id:
            if first[1] != _fingerprint(act, self._word):
                raise stale(act.decision, "was answered already, with another decision")
            return Resent(first[2])
        open_here = named.round_id == self.round_id and self._open.get(seat) == named.number
        if first is None and open_here:
            return Fresh(named)
        before = self.answered_before(user_id, act)
        if before is not None:
            return before
        raise stale(act.decision, "is not your turn now (it has passed)")

    def answered_before(self, user_id: int, act: ActMessage) -> Resent | None:
        """The first answer of player ``user_id``'s decision ``act`` names by its id, from
        whatever seat they had (a retry after a lost ack, from a seat freed since the
        connection dropped); ``None``: none such, the same decision."""
        named = DecisionId.parse(act.decision) if act.decision is not None else None
        answers = self._answers.get(named.round_id) if named is not None else None
        if named is None or answers is None:
            return None
        fingerprint = _fingerprint(act, self._word)
        for (_, number), (decider, first, result) in answers.items():
            if number == named.number and decider == user_id and first == fingerprint:
                return Resent(result)
        return None

    def unseated(self, user_id: int, act: ActMessage, exc: CroupierError) -> Resent:
        """A decision from player ``user_id``, seated nowhere: its first answer if they
        answered it before (:meth:`answered_before`).

        Raises:
            IllegalActionError: ``stale_decision`` where it names a turn, which cannot be
                theirs now (found by red-teaming: a decision resent after a restart voided
                its round was told to take a seat).
            CroupierError: ``exc`` (not seated) where it names none.
        """
        before = self.answered_before(user_id, act)
        if before is not None:
            return before
        if act.decision is not None:
            raise stale(act.decision, "is not your turn: you sit at no seat of this table")
        raise exc

    def answered(
        self, seat: int, user_id: int, decision: DecisionId, act: ActMessage, result: ActResult
    ) -> None:
        """Player ``user_id``'s decision ``decision`` at ``seat`` was taken, answered
        ``result`` (kept for their resend)."""
        answers = self._answers.setdefault(decision.round_id, {})
        answers[(seat, decision.number)] = (user_id, _fingerprint(act, self._word), result)
        if self._open.get(seat) == decision.number:
            del self._open[seat]
