"""What each decision of a recorded Russian Poker round cost (issue 32): rounds played by
the engine, their records valued by :func:`croupier.analysis.russian.costs.decision_costs`."""

from __future__ import annotations

from fractions import Fraction

from croupier.analysis.russian.advisor import advise_bet, advise_buy, advise_first
from croupier.analysis.russian.costs import decision_costs
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.games.russian import RussianConfig, RussianRound
from croupier.history import russian as history

ANTE = 1_000


def _round(seed: int) -> RussianRound:
    game = RussianRound(config=RussianConfig(), shoe=Shoe(shuffled(seeded_source(seed))))
    game.place_box(0, box=0, ante=ANTE)
    game.place_box(0, box=1, ante=ANTE, blind=True)
    game.deal()
    return game


def test_following_the_advisor_costs_nothing_and_a_fold_costs_what_it_gives_up() -> None:
    game = _round(5)
    first = advise_first(game.cards(0))
    best = first.options[0]
    if best.action == "exchange":
        game.exchange(0, box=0, discard=best.discard)
    elif best.action == "sixth_card":
        game.sixth_card(0, box=0)
    if best.action in ("exchange", "sixth_card"):
        game.fold(0, box=0)  # whatever the Bet was worth, folding gives it up
        bet = advise_bet(game.cards(0), best.discard)
    else:
        game.fold(0, box=0)
        bet = first
    costs = decision_costs(history.record(game, round_id=5))
    assert all(c.box == 0 for c in costs)  # the blind box decides nothing
    if best.action in ("exchange", "sixth_card"):
        assert costs[0].cost == 0 and costs[0].taken == best.label
    last = costs[-1]
    assert last.taken == "fold" and last.taken_ev == -1
    assert last.cost == bet.options[0].ev + 1
    assert last.cost_money == round((bet.options[0].ev + 1) * ANTE)


def test_a_bet_with_insurance_and_a_buy_are_valued_as_taken() -> None:
    # find a deal with a Bet and a dealer who does not qualify; buy his game
    for seed in range(1, 60):
        game = _round(seed)
        game.bet(0, box=0, insurance=0)
        if game.can_decline_buy(0, box=0):
            dealer = game.dealer
            game.buy_game(0, box=0)
            break
    else:  # pragma: no cover - a non-qualifying dealer comes within a few deals
        raise AssertionError("no dealer that does not qualify")
    costs = decision_costs(history.record(game, round_id=seed))
    assert [c.decision for c in costs] == ["first", "buy"]
    first = advise_first(game.cards(0))
    plain = next(o for o in first.options if o.action == "bet" and not o.insurance)
    assert costs[0].taken == "bet" and costs[0].taken_ev == plain.ev
    buy = advise_buy(game.cards(0), dealer)
    assert costs[1].taken == "buy" and costs[1].cost == buy.cost("buy")
    bought = next(o.ev for o in buy.options if o.action == "buy")
    assert costs[1].cost == max(Fraction(1), bought) - bought


def test_an_exchange_names_exactly_the_cards_given_up_as_data() -> None:
    """The cost record names each option as data as well as by its English label: the
    exchange taken names exactly the cards the box gave up, the best option the advisor's own
    action, cards and insurance (minor units), for a client to word in its language."""
    game = _round(11)
    hand = game.cards(0)
    discard = (hand[3], hand[1])  # given up out of order
    game.exchange(0, box=0, discard=discard)
    game.fold(0, box=0)
    first, _ = decision_costs(history.record(game, round_id=11))
    named = sorted(discard, key=lambda c: c.id)
    assert first.taken == "exchange " + " ".join(str(c) for c in named)
    got = first.to_json()
    assert got["taken_option"] == {
        "action": "exchange",
        "cards": [str(c) for c in named],
        "insurance": 0,
    }
    best = advise_first(hand).options[0]
    assert got["best"] == best.label
    assert got["best_option"] == {
        "action": best.action,
        "cards": [str(c) for c in best.discard],
        "insurance": best.insurance * ANTE,
    }


def test_an_insured_bet_names_its_insurance_in_minor_units() -> None:
    for seed in range(1, 400):
        game = _round(seed)
        limits = game.insurance_limits(0)
        if limits is not None and limits[1] >= 2 * ANTE:
            break
    else:  # pragma: no cover - three of a kind comes within a few hundred deals
        raise AssertionError("no insurable hand")
    game.bet(0, box=0, insurance=2 * ANTE)
    first = decision_costs(history.record(game, round_id=seed))[0]
    assert first.taken == "bet + insurance 2"
    assert first.to_json()["taken_option"] == {"action": "bet", "cards": [], "insurance": 2 * ANTE}
    best = advise_first(game.cards(0)).options[0]
    assert first.best_option.insurance == best.insurance * ANTE
    assert first.best_option.action == best.action
