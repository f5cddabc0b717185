"""The Caribbean Stud table adapter's money, as the table's driver uses it: random bets in
wire form, decisions, timeouts and voids; after every step each seat's wallet plus what it
has on the table is what it started with, and a closed round pays back what the engine says."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import CroupierError
from croupier.server.tables.caribbean import CaribbeanFactory, CaribbeanTableRound
from croupier.server.tables.caribbean_wire import CaribbeanSpots
from croupier.server.tables.config import TableConfig
from croupier.server.tables.protocol import ActMessage
from croupier.server.tables.wire import read_spots

START = 1_000_000
SEATS = range(7)  # one more than the table's boxes: a seat that does not exist is refused
PLAYERS = st.sampled_from([0, 1, 2, 6])
ANTES = st.one_of(st.integers(100, 10_000), st.sampled_from([0, 99, 10_001]))


class TableMoney(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.round: CaribbeanTableRound
        self.wallet: dict[int, int] = {}
        self.held: dict[int, int] = {}

    @initialize(seed=st.integers(0, 10**6), jackpot=st.integers(0, 10**6))
    def open_table(self, seed: int, jackpot: int) -> None:
        table = TableConfig(
            name="c", game="caribbean", rules={"progressive_bet": 100, "jackpot": jackpot}
        )
        factory = CaribbeanFactory(table)
        self.round = factory.new_round(Shoe(shuffled(seeded_source(seed))))
        self.wallet = dict.fromkeys(SEATS, START)
        self.held = dict.fromkeys(SEATS, 0)

    def _hold(self, seat: int, amount: int) -> None:
        self.wallet[seat] -= amount
        self.held[seat] += amount

    @rule(
        seat=PLAYERS,
        ante=ANTES,
        progressive=st.sampled_from([None, 0, 1, 2]),
    )
    def bet(self, seat: int, ante: int, progressive: int | None) -> None:
        bets = {"ante": ante} if progressive is None else {"ante": ante, "progressive": progressive}
        self._bet(seat, bets)

    @rule(seat=PLAYERS)
    def add_progressive(self, seat: int) -> None:
        self._bet(seat, {"progressive": 1})

    def _bet(self, seat: int, bets: dict[str, int]) -> None:
        try:
            spots = read_spots(bets, CaribbeanSpots)  # decoded once, as the table does
            price = self.round.check_bets(seat, spots)
        except CroupierError:
            return  # refused: nothing changed (the invariant checks it)
        assert price == self.round.bets_total(spots)
        self._hold(seat, price)
        self.round.place_bets(seat, spots)

    @rule()
    def close_betting(self) -> None:
        if self.round.can_close_betting():
            self.round.close_betting()

    @rule(seat=PLAYERS, word=st.sampled_from(["raise", "raise", "fold", "check"]))
    def decide(self, seat: int, word: str) -> None:
        try:
            action = self.round.action(seat, ActMessage(action=word))
            price = self.round.check(action)
        except CroupierError:
            return
        assert self.round.turn_stakes(seat).get(word, 0) == price
        self._hold(seat, price)
        self.round.apply(action)
        self._closed()

    @rule(seat=PLAYERS)
    def timeout(self, seat: int) -> None:
        try:
            self.round.apply_timeout(seat)
        except CroupierError:
            return
        self._closed()

    @rule(data=st.data(), word=st.sampled_from(["raise", "fold"]))
    def a_pending_seat_decides(self, data: st.DataObject, word: str) -> None:
        pending = self.round.pending_seats
        if pending:
            self.decide(data.draw(st.sampled_from(pending)), word)

    @rule(dice=st.integers(0, 9))
    def void(self, dice: int) -> None:
        if not dice and not self.round.finished:
            self.round.void("a malfunction")
            # the table's driver returns every stake of a voided round
            for seat in SEATS:
                self.wallet[seat] += self.held[seat]
                self.held[seat] = 0
            assert self.round.returns() == {}

    def _closed(self) -> None:
        if self.round.phase != "settled":
            return
        returns = self.round.returns()
        assert set(returns) == set(self.round.seats)
        summary = self.round.summary()
        assert summary["players_net"] == sum(returns.values()) - sum(self.held.values())
        assert summary["house_net"] == -summary["players_net"]
        for seat in SEATS:
            self.wallet[seat] += returns.get(seat, 0)
            self.held[seat] = 0

    @invariant()
    def money_is_kept(self) -> None:
        if not self.wallet:
            return
        for seat in SEATS:
            if self.round.phase != "settled":
                assert self.wallet[seat] + self.held[seat] == START
        staked = self.round.engine.staked() if not self.round.finished else {}
        for seat, amount in staked.items():
            assert self.held[seat] == amount


TestTableMoney = TableMoney.TestCase
TestTableMoney.settings = settings(max_examples=200, stateful_step_count=30, deadline=None)


@pytest.mark.slow
def test_table_money_long() -> None:
    """The same with many more rounds (``make test-all``)."""
    run_state_machine_as_test(
        TableMoney, settings=settings(max_examples=3_000, stateful_step_count=40, deadline=None)
    )
