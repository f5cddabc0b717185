"""The Caribbean Stud round: dealing by the plan, decisions, the showdown against the
independent reference, the progressive shared by two royals, views, prices and the money
proven by a state machine."""

from __future__ import annotations

import caribbean_reference as ref
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from croupier.cards import DECK, format_cards, parse_cards
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import ConfigError, IllegalActionError
from croupier.games.caribbean import (
    AddProgressive,
    CaribbeanConfig,
    CaribbeanRound,
    Deal,
    Dealing,
    Fold,
    Phase,
    PlaceBets,
    Raise,
    WithdrawBets,
    audit_line,
    events,
)
from croupier.games.protocol import HOUSE


def stacked(*hands: str) -> Shoe:
    """A shoe dealing ``hands`` (each box's five, then the dealer's, the up card last) by
    ``Dealing.HANDS``, the rest of the deck after them."""
    top = parse_cards("".join(hands))
    return Shoe(top + tuple(c for c in DECK if c not in top))


def test_one_card_at_a_time_deals_by_the_plan_and_shows_the_last_dealer_card() -> None:
    shoe = Shoe(shuffled(seeded_source(11)))
    rnd = CaribbeanRound(CaribbeanConfig(), shoe)
    for seat in (0, 3):
        rnd.apply(PlaceBets(seat=seat, ante=100))
    rnd.apply(Deal())
    deck = shoe.order
    # two boxes and the dealer: positions k * 3 + i
    assert rnd.hand(0) == tuple(deck[k * 3] for k in range(5))
    assert rnd.hand(3) == tuple(deck[k * 3 + 1] for k in range(5))
    assert rnd.dealer_cards == tuple(deck[k * 3 + 2] for k in range(5))
    assert rnd.upcard == deck[14]
    shown = [e for e in rnd.events if isinstance(e, events.UpcardShown)]
    assert [e.card for e in shown] == [deck[14]]


def test_the_dealer_is_hidden_until_the_showdown_but_the_up_card() -> None:
    rnd = CaribbeanRound(CaribbeanConfig(), Shoe(shuffled(seeded_source(3))))
    rnd.apply(PlaceBets(seat=1, ante=100))
    rnd.apply(PlaceBets(seat=2, ante=100))
    rnd.apply(Deal())
    view = rnd.view(1)
    assert view.dealer is None and view.upcard == rnd.upcard and view.hand == rnd.hand(1)
    assert rnd.view(2).hand != view.hand and rnd.view(None).hand == ()
    dealt = next(e for e in rnd.events if isinstance(e, events.DealerHandDealt))
    assert dealt.audience == HOUSE and dealt.seen_by(1).cards is None
    rnd.apply(Raise(seat=1))
    assert rnd.view(1).dealer is None  # seat 2 has not decided
    rnd.apply(Fold(seat=2, timeout=True))
    assert rnd.phase is Phase.SETTLED and rnd.view(None).dealer == rnd.dealer_cards


def test_every_box_settles_as_the_reference_says() -> None:
    for seed in range(40):
        rnd = CaribbeanRound(CaribbeanConfig(), Shoe(shuffled(seeded_source(seed))))
        seats = (0, 2, 3, 5)
        for seat in seats:
            rnd.apply(PlaceBets(seat=seat, ante=100 * (seat + 1)))
        rnd.apply(Deal())
        choice = {s: "raise" if (seed + s) % 3 else "fold" for s in seats}
        for seat in seats:
            rnd.apply(Raise(seat=seat) if choice[seat] == "raise" else Fold(seat=seat))
        dealer = format_cards(rnd.dealer_cards)
        assert list(rnd.results) == [5, 3, 2, 0]  # right to left
        for seat in seats:
            expected = ref.settle(
                format_cards(rnd.hand(seat)), dealer, ante=100 * (seat + 1), action=choice[seat]
            )
            assert audit_line(rnd.results[seat]) == expected
        settled = rnd.events[-1]
        assert isinstance(settled, events.RoundSettled)
        assert settled.players_net == sum(r.net for r in rnd.results.values()) == -settled.house_net


def test_two_royals_share_the_jackpot_paid_when_the_first_is_paid() -> None:
    config = CaribbeanConfig(progressive_bet=100, dealing=Dealing.HANDS)
    shoe = stacked("AsKsQsJsTs", "9h8h7h6h5h", "AhKhQhJhTh", "2c3d4c6d8s")
    rnd = CaribbeanRound(config, shoe, jackpot=1_000_001)
    for seat in (0, 1, 2):
        rnd.apply(PlaceBets(seat=seat, ante=100, progressive=True))
    rnd.apply(Deal())
    for seat in (0, 1, 2):
        rnd.apply(Raise(seat=seat))
    # paid right to left: seat 2's royal first (half the meter), seat 1's straight flush 10 %
    # of what is left, seat 0's royal the same half as seat 2
    side = {s: r.bet(r.bets[-1].bet).net for s, r in rnd.results.items()}  # type: ignore[union-attr]
    assert side == {2: 500_000 - 100, 1: 50_000 - 100, 0: 500_000 - 100}
    assert rnd.jackpot_paid == 1_050_000
    assert rnd.events[-1] == events.RoundSettled(
        players_net=rnd.events[-1].players_net,  # type: ignore[attr-defined]
        house_net=rnd.events[-1].house_net,  # type: ignore[attr-defined]
        jackpot_paid=1_050_000,
    )
    assert not rnd.results[0].dealer_qualifies  # the dealer's 8-high: Antes 1:1


def test_the_progressive_may_come_after_the_ante_once() -> None:
    rnd = CaribbeanRound(CaribbeanConfig(progressive_bet=100), Shoe(DECK))
    rnd.apply(PlaceBets(seat=0, ante=500))
    assert rnd.price(AddProgressive(seat=0)) == 100
    rnd.apply(AddProgressive(seat=0))
    assert rnd.staked() == {0: 600}
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(AddProgressive(seat=0))
    assert caught.value.reason == "already_bet"
    with pytest.raises(IllegalActionError) as caught:
        CaribbeanRound(CaribbeanConfig(), Shoe(DECK)).apply(
            PlaceBets(seat=0, ante=500, progressive=True)
        )
    assert caught.value.reason == "unknown_spots"


def test_prices_are_what_the_stakes_become() -> None:
    config = CaribbeanConfig(progressive_bet=100, raise_multiple=2)
    rnd = CaribbeanRound(config, Shoe(shuffled(seeded_source(5))))
    assert rnd.price(PlaceBets(seat=1, ante=700, progressive=True)) == 800
    assert rnd.price(PlaceBets(seat=1, ante=700)) == 700
    rnd.apply(PlaceBets(seat=1, ante=700, progressive=True))
    assert rnd.price(WithdrawBets(seat=1)) == 0 and rnd.price(Deal()) == 0
    rnd.apply(Deal())
    assert rnd.price(Raise(seat=1)) == 1400 and rnd.price(Fold(seat=1)) == 0
    with pytest.raises(IllegalActionError) as caught:
        rnd.price(Raise(seat=2))
    assert caught.value.reason == "no_bets_this_round"


def test_a_decision_is_taken_once_and_a_timeout_folds() -> None:
    rnd = CaribbeanRound(CaribbeanConfig(), Shoe(shuffled(seeded_source(8))))
    rnd.apply(PlaceBets(seat=0, ante=100))
    rnd.apply(PlaceBets(seat=4, ante=100))
    assert rnd.default_action(0) is None  # nothing to decide before the deal
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(Raise(seat=0))
    assert caught.value.reason == "no_decisions_now"
    rnd.apply(Deal())
    rnd.apply(Raise(seat=0))
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(Fold(seat=0))
    assert caught.value.reason == "already_acted"
    assert rnd.pending_seats == (4,) and rnd.default_action(4) == Fold(seat=4, timeout=True)
    folded = rnd.apply(rnd.default_action(4))[0]  # type: ignore[arg-type]
    assert folded == events.Folded(seat=4, timeout=True) and folded.timeout


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (PlaceBets(seat=6, ante=100), "seat_does_not_exist"),
        (PlaceBets(seat=0, ante=99), "bet_out_of_limits"),
        (PlaceBets(seat=0, ante=10_001), "bet_out_of_limits"),
        (PlaceBets(seat=0, ante=True), "amount_not_whole"),  # type: ignore[arg-type]
        (PlaceBets(seat=0, ante=100, progressive=1), "not_a_choice"),  # type: ignore[arg-type]
        (WithdrawBets(seat=0), "no_bets_this_round"),
        (Deal(), "no_bets"),
    ],
)
def test_refusals_name_their_reason_and_change_nothing(
    action: PlaceBets | WithdrawBets | Deal, reason: str
) -> None:
    rnd = CaribbeanRound(CaribbeanConfig(), Shoe(DECK))
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(action)
    assert caught.value.reason == reason and rnd.events == ()


def test_a_full_table_and_a_short_shoe_are_refused() -> None:
    rnd = CaribbeanRound(CaribbeanConfig(max_seats=2), Shoe(DECK[:14]))
    rnd.apply(PlaceBets(seat=0, ante=100))
    rnd.apply(PlaceBets(seat=1, ante=100))
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(Deal())
    assert caught.value.reason == "shoe_short" and caught.value.params["needed"] == 15
    assert rnd.can(PlaceBets(seat=1, ante=200))  # replacing a box's bets on a full table


def test_configs_refuse_what_cannot_be() -> None:
    for bad in (
        {"max_seats": 10},
        {"ante_min": 0},
        {"ante_min": 500, "ante_max": 100},
        {"raise_multiple": 0},
        {"dealing": "faceup"},
        {"progressive_paytable": {"flush": "150%"}},
        {"progressive_paytable": {"flush": 1.5}},
        {"colour": "green"},
    ):
        with pytest.raises(ConfigError):
            CaribbeanConfig.from_dict(bad)
    with pytest.raises(ConfigError):
        CaribbeanRound(CaribbeanConfig(), Shoe(DECK), jackpot=-1)
    options = CaribbeanConfig.from_dict(
        {"max_payout": "none", "progressive_bet": 0, "dealing": "hands"}
    )
    assert options.max_payout is None and options.progressive_bet is None


class Money(RuleBasedStateMachine):
    """Random rounds at a table with the progressive: after every step each seat's wallet
    plus its money on the table is what it started with; at the end the wallet is the start
    minus every price paid plus every return, and the house's net is minus the players'."""

    START = 1_000_000

    def __init__(self) -> None:
        super().__init__()
        self.rnd: CaribbeanRound
        self.wallet: dict[int, int] = {}

    @initialize(seed=st.integers(0, 10**6), jackpot=st.integers(0, 10**7))
    def new_round(self, seed: int, jackpot: int) -> None:
        config = CaribbeanConfig(progressive_bet=100, max_payout=100_000)
        self.rnd = CaribbeanRound(config, Shoe(shuffled(seeded_source(seed))), jackpot=jackpot)
        self.wallet = dict.fromkeys(range(6), self.START)

    def _take(
        self, action: PlaceBets | AddProgressive | WithdrawBets | Raise | Fold | Deal
    ) -> None:
        if not self.rnd.can(action):
            with pytest.raises(IllegalActionError):
                self.rnd.price(action)
            return
        seat = getattr(action, "seat", None)
        before = self.rnd.staked().get(seat, 0) if seat is not None else 0
        price = self.rnd.price(action)
        self.rnd.apply(action)
        if seat is not None:
            # a replaced box's old bets come back, as a withdrawal's do
            back = before if isinstance(action, PlaceBets | WithdrawBets) else 0
            self.wallet[seat] += back - price

    @rule(seat=st.integers(0, 5), ante=st.sampled_from([100, 250, 10_000]), side=st.booleans())
    def bet(self, seat: int, ante: int, side: bool) -> None:
        self._take(PlaceBets(seat=seat, ante=ante, progressive=side))

    @rule(seat=st.integers(0, 5))
    def add_progressive(self, seat: int) -> None:
        self._take(AddProgressive(seat=seat))

    @rule(seat=st.integers(0, 5))
    def withdraw(self, seat: int) -> None:
        self._take(WithdrawBets(seat=seat))

    @rule()
    def deal(self) -> None:
        self._take(Deal())

    @rule(seat=st.integers(0, 5), stay=st.booleans())
    def decide(self, seat: int, stay: bool) -> None:
        self._take(Raise(seat=seat) if stay else Fold(seat=seat))

    @rule()
    def void(self) -> None:
        if self.rnd.can_void():
            self.rnd.void("a malfunction")

    @invariant()
    def money_is_conserved(self) -> None:
        staked = self.rnd.staked()
        if not self.rnd.finished:
            for seat, amount in self.wallet.items():
                assert amount + staked.get(seat, 0) == self.START
            return
        returns = self.rnd.returns()
        net = {s: returns.get(s, 0) - staked.get(s, 0) for s in self.wallet}
        if self.rnd.phase is Phase.VOIDED:
            assert all(v == 0 for v in net.values())
        else:
            assert {s: r.net for s, r in self.rnd.results.items()} == {
                s: net[s] for s in self.rnd.results
            }
            settled = self.rnd.events[-1]
            assert isinstance(settled, events.RoundSettled)
            assert settled.house_net == -sum(net.values())
            assert all(r >= 0 for r in returns.values())


TestMoney = Money.TestCase
TestMoney.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
