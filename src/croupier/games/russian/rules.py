"""Russian Poker rules as pure functions: combinations, qualification, buying, settlement.

>>> from croupier.cards import parse_cards
>>> two_combination_pay(parse_cards("Ah Kh Qh Jh Th 9h")).multiple
150
>>> dealer_qualifies(parse_cards("As Kd 7c 4h 2d"))
True
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import accumulate, combinations

from croupier.cards import Card, check_distinct
from croupier.chips import Chips, pay_ratio
from croupier.errors import InvalidCardsError
from croupier.evaluator import CATEGORY_COUNTS_5, HandCategory, evaluate_ids
from croupier.games.protocol import refused
from croupier.games.russian.config import (
    BetPaytable,
    BonusOnFold,
    Combination,
    DuplicateRankStraights,
    FailedBuyAnte,
    RussianConfig,
)

__all__ = [
    "BetKind",
    "BetOutcome",
    "BoxSettlement",
    "Draw",
    "Outcome",
    "Payout",
    "audit_box",
    "blind_insurance_multiples",
    "bonus_pays",
    "buy_dealer_game",
    "check_draw",
    "dealer_qualifies",
    "find_combinations",
    "insurance_limits",
    "settle_box",
    "two_combination_pay",
    "verify_blind_choices",
]

_ACE = 12
_KING = 11
_ALL_SUBSETS5 = tuple(combinations(range(6), 5))


class Draw(StrEnum):
    """What the open box did before betting."""

    NONE = "none"
    EXCHANGE = "exchange"
    SIXTH = "sixth"


class BetKind(StrEnum):
    """The money a box puts at risk; fees are recorded as bets that always lose."""

    ANTE = "ante"
    BET = "bet"
    FEE = "fee"
    INSURANCE = "insurance"
    BONUS = "bonus"
    BUY = "buy"


class Outcome(StrEnum):
    """How one bet ended."""

    WON = "won"
    LOST = "lost"
    PUSH = "push"
    RETURNED = "returned"
    """Voided round: the stake goes back."""


@dataclass(frozen=True, slots=True)
class Payout:
    """The paid combinations of a hand and their total multiple of the Bet."""

    multiple: int
    combinations: tuple[Combination, ...]

    @property
    def line(self) -> str:
        """The pay line as printed: ``"Straight flush + Straight"``."""
        return " + ".join(c.label for c in self.combinations) or "no combination"


@dataclass(frozen=True, slots=True, kw_only=True)
class BetOutcome:
    """The settlement of one bet: the player's net result and why."""

    kind: BetKind
    stake: Chips
    outcome: Outcome
    net: int
    """The player's net in minor units: +win, -stake, 0 for a push or return."""
    pay_line: str
    rounding: int = 0
    """Fraction of a minor unit rounded away (numerator over the odds' denominator)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxSettlement:
    """Every bet of one box settled, and the hands that decided it."""

    outcomes: tuple[BetOutcome, ...]
    dealer_qualified: bool
    """Whether the dealer's hand as dealt qualifies."""
    dealer_hand: tuple[Card, ...]
    """The dealer's hand the box was compared with (after a bought game)."""
    payout: Payout | None
    """The player's combinations, when the box stood."""

    @property
    def net(self) -> int:
        """The player's net over all bets of the box."""
        return sum(o.net for o in self.outcomes)

    @property
    def returned(self) -> int:
        """Everything paid back to the player: stakes kept plus wins."""
        return sum(o.stake + o.net for o in self.outcomes)

    def net_of(self, kind: BetKind) -> int:
        """The player's net on one kind of bet (0 when the box did not place it)."""
        return sum(o.net for o in self.outcomes if o.kind is kind)


@dataclass(frozen=True, slots=True)
class _Combo:
    pay: int
    kind: Combination
    mask: int
    ranks: int


def find_combinations(
    cards: Sequence[Card], paytable: BetPaytable | None = None
) -> list[tuple[Combination, tuple[Card, ...]]]:
    """Every combination in the hand with its defining cards (spec "Two combinations")."""
    ids = [c.id for c in cards]
    combos = _combos(ids, paytable or _DEFAULT_PAYTABLE)
    return [(c.kind, tuple(cards[i] for i in range(len(ids)) if c.mask >> i & 1)) for c in combos]


@cache
def _pays(paytable: BetPaytable) -> tuple[int, ...]:
    return paytable.as_tuple()


_BOUNDS = tuple(accumulate(CATEGORY_COUNTS_5[c] for c in HandCategory))


def _category(value: int) -> HandCategory:
    """:func:`category_of` without NumPy, for the per-line audit path."""
    return HandCategory(bisect_left(_BOUNDS, value))


def _combos(ids: Sequence[int], paytable: BetPaytable) -> list[_Combo]:
    pays = _pays(paytable)
    n = len(ids)
    by_rank: dict[int, list[int]] = {}
    for position, card in enumerate(ids):
        by_rank.setdefault(card >> 2, []).append(1 << position)
    out: list[_Combo] = []
    groups: list[tuple[int, list[int]]] = []
    for rank, bits in by_rank.items():
        count = len(bits)
        if count >= 2:
            pairs = [a | b for a, b in combinations(bits, 2)]
            groups.append((rank, pairs))
            out.extend(_Combo(pays[Combination.PAIR], Combination.PAIR, m, 0) for m in pairs)
            if count >= 3:
                others = [
                    a | b
                    for r, other in by_rank.items()
                    if r != rank and len(other) >= 2
                    for a, b in combinations(other, 2)
                ]
                for a, b, c in combinations(bits, 3):
                    m = a | b | c
                    out.append(
                        _Combo(pays[Combination.THREE_OF_A_KIND], Combination.THREE_OF_A_KIND, m, 0)
                    )
                    out.extend(
                        _Combo(pays[Combination.FULL_HOUSE], Combination.FULL_HOUSE, m | p, 0)
                        for p in others
                    )
            if count == 4:
                out.append(
                    _Combo(
                        pays[Combination.FOUR_OF_A_KIND], Combination.FOUR_OF_A_KIND, sum(bits), 0
                    )
                )
    for (_, first), (_, second) in combinations(groups, 2):
        out.extend(
            _Combo(pays[Combination.TWO_PAIR], Combination.TWO_PAIR, a | b, 0)
            for a in first
            for b in second
        )
    for ace in by_rank.get(_ACE, ()):
        out.extend(
            _Combo(pays[Combination.ACE_KING], Combination.ACE_KING, ace | king, 0)
            for king in by_rank.get(_KING, ())
        )
    if n >= 5:
        subsets = ((0, 1, 2, 3, 4),) if n == 5 else _ALL_SUBSETS5
        for subset in subsets:
            five = _five_card_combo(ids, subset, pays)
            if five is not None:
                out.append(five)
    out.sort(key=lambda c: c.pay, reverse=True)
    return out


def _straight_top(rank_mask: int) -> int:
    """The top rank of a five-rank straight in ``rank_mask``, or -1 (the wheel tops at Five)."""
    if rank_mask == 0b1_0000_0000_1111:
        return 3
    low = (rank_mask & -rank_mask).bit_length() - 1
    return low + 4 if rank_mask == 0b11111 << low else -1


def _five_card_combo(
    ids: Sequence[int], subset: Sequence[int], pays: Sequence[int]
) -> _Combo | None:
    rank_mask = 0
    suits = set()
    mask = 0
    for position in subset:
        rank_mask |= 1 << (ids[position] >> 2)
        suits.add(ids[position] & 3)
        mask |= 1 << position
    flush = len(suits) == 1
    top = _straight_top(rank_mask) if rank_mask.bit_count() == 5 else -1
    if top >= 0 and flush:
        kind = Combination.ROYAL_FLUSH if top == _ACE else Combination.STRAIGHT_FLUSH
    elif flush:
        kind = Combination.FLUSH
    elif top >= 0:
        kind = Combination.STRAIGHT
    else:
        return None  # full houses come from the rank groups
    return _Combo(pays[kind], kind, mask, rank_mask)


_STRAIGHTS = (Combination.STRAIGHT, Combination.STRAIGHT_FLUSH, Combination.ROYAL_FLUSH)
_DEFAULT_PAYTABLE = BetPaytable()


def two_combination_pay(
    cards: Sequence[Card],
    *,
    paytable: BetPaytable | None = None,
    duplicate_rank_straights: DuplicateRankStraights = DuplicateRankStraights.TWO_STRAIGHTS,
) -> Payout:
    """The multiple of the Bet paid for the two best combinations (spec "Two combinations").

    The first combination is the higher-paying one; a second counts when its defining cards
    include a card outside the first's; the pair with the largest total pay is paid.
    """
    ids = [c.id for c in cards]
    table = paytable or _DEFAULT_PAYTABLE
    if len(ids) != 5:
        return _best_pair(_combos(ids, table), duplicate_rank_straights)
    # five cards: the value fixes the ranks and whether they are suited, so the payout too
    key = (evaluate_ids(ids), table, duplicate_rank_straights)
    payout = _FIVE_CARD_PAYOUTS.get(key)
    if payout is None:
        payout = _FIVE_CARD_PAYOUTS[key] = _best_pair(_combos(ids, table), duplicate_rank_straights)
    return payout


_FIVE_CARD_PAYOUTS: dict[tuple[int, BetPaytable, DuplicateRankStraights], Payout] = {}


def _best_pair(combos: list[_Combo], duplicates: DuplicateRankStraights) -> Payout:
    if not combos:
        return Payout(0, ())
    best = Payout(combos[0].pay, (combos[0].kind,))
    pair_plus = duplicates is DuplicateRankStraights.STRAIGHT_PLUS_PAIR
    for i, first in enumerate(combos):
        if 2 * first.pay <= best.multiple:
            break
        for second in combos[i + 1 :]:
            if not second.mask & ~first.mask:
                continue
            if (
                pair_plus
                and second.kind is Combination.STRAIGHT
                and first.kind in _STRAIGHTS
                and second.ranks == first.ranks
            ):
                continue  # spec option: K-Q-J-T-9-9 pays a straight and a pair
            total = first.pay + second.pay
            if total > best.multiple:
                best = Payout(total, (first.kind, second.kind))
            break  # sorted by pay: the first fitting second combination is the best one
    return best


def dealer_qualifies(cards: Sequence[Card]) -> bool:
    """Ace-King or better: a pair or better, or an Ace and a King (spec "Dealer")."""
    value = evaluate_ids([c.id for c in cards])
    if _category(value) is not HandCategory.HIGH_CARD:
        return True
    ranks = {c.id >> 2 for c in cards}
    return _ACE in ranks and _KING in ranks


def bonus_pays(initial: Sequence[Card], config: RussianConfig) -> tuple[int, HandCategory]:
    """The Bonus odds for the first five cards and their category (spec "Bonus")."""
    category = _category(evaluate_ids([c.id for c in initial]))
    return config.bonus_paytable.pay(category), category


def buy_dealer_game(
    dealer: Sequence[Card], draws: Sequence[Card], *, rebuy_same_rank: bool
) -> tuple[tuple[Card, ...], int]:
    """Replace the dealer's highest card by the next card(s) (spec "Dealer and settlement").

    Returns the new hand and how many of ``draws`` were used. With ``rebuy_same_rank`` a new
    card of the replaced card's rank is replaced again.

    Raises:
        InvalidCardsError: ``draws`` runs out.
    """
    highest = max(dealer, key=lambda c: c.id)
    kept = tuple(c for c in dealer if c is not highest)
    used = 0
    while True:
        if used >= len(draws):
            raise InvalidCardsError(
                f"buying the dealer's game needs more cards than the {len(draws)} given"
            )
        card = draws[used]
        used += 1
        if not (rebuy_same_rank and card.rank == highest.rank):
            return (*kept, card), used


def potential_multiple(final: Sequence[Card], config: RussianConfig) -> int:
    """The two-combination multiple of ``final`` under the table's options."""
    return two_combination_pay(
        final,
        paytable=config.bet_paytable,
        duplicate_rank_straights=config.duplicate_rank_straights,
    ).multiple


def _capped(win: int, config: RussianConfig) -> tuple[int, int]:
    if config.max_payout is not None and win > config.max_payout:
        return config.max_payout, win - config.max_payout
    return win, 0


def insurance_limits(
    final: Sequence[Card], *, ante: int, config: RussianConfig
) -> tuple[int, int] | None:
    """The smallest and largest insurance the hand allows, or ``None`` below three of a kind.

    Spec "The player's decisions" 3: at least 1x Ante, at most the Bet times the hand's
    two-combination multiple (after the table's maximum payout).
    """
    if _category(evaluate_ids([c.id for c in final])) < HandCategory.THREE_OF_A_KIND:
        return None
    bet = ante * config.bet_multiple
    top, _ = _capped(bet * potential_multiple(final, config), config)
    return ante * config.insurance_min_multiple, top


def verify_blind_choices(
    config: RussianConfig, *, ante: int, blind: bool, insurance: int, sixth_card: bool
) -> None:
    """Raise unless a box may make these choices with its Ante: insurance and a sixth card
    bought in advance, for a blind box where the table offers them (docs/rules.md, options
    ``blind_insurance`` and ``blind_sixth_card``). The insurance is at least the table's
    minimum and at most the largest win a box can have.

    Raises:
        IllegalActionError: a choice the table does not offer, or an amount out of range.
    """
    c = config
    if insurance < 0:
        raise refused(
            f"insurance {insurance} is negative",
            "amount_negative",
            spot="insurance",
            amount=insurance,
        )
    if (insurance or sixth_card) and not blind:
        raise refused(
            "only a blind box chooses insurance or a sixth card with its Ante",
            "blind_choice_on_open_box",
        )
    if insurance:
        if not c.blind_insurance:
            raise refused("this table takes no insurance on blind boxes", "no_blind_insurance")
        low, high = blind_insurance_multiples(c)
        low, high = ante * low, ante * high
        if c.max_payout is not None:
            high = min(high, c.max_payout)
        if not low <= insurance <= max(low, high):
            raise refused(
                f"blind insurance {insurance} is outside {low}..{max(low, high)}",
                "bet_out_of_limits",
                spot="blind_insurance",
                amount=insurance,
                min=low,
                max=max(low, high),
            )
    if sixth_card and not c.blind_sixth_card:
        raise refused(
            "this table sells no sixth card in advance to blind boxes", "no_blind_sixth_card"
        )


def blind_insurance_multiples(config: RussianConfig) -> tuple[int, int]:
    """The least and the most insurance a blind box may place, in Antes: the table's
    minimum, and the largest win a box can have (two royal flushes on the Bet)."""
    return config.insurance_min_multiple, config.bet_multiple * 2 * config.bet_paytable.royal_flush


def check_draw(initial: Sequence[Card], final: Sequence[Card], draw: Draw) -> None:
    """Check that ``final`` can follow from ``initial`` by ``draw``.

    Raises:
        InvalidCardsError: counts or cards that do not match the draw.
    """
    if len(initial) != 5:
        raise InvalidCardsError(f"the first hand has 5 cards, not {len(initial)}")
    check_distinct(initial)
    check_distinct(final)
    first = {c.id for c in initial}
    last = {c.id for c in final}
    if draw is Draw.NONE:
        if first != last:
            raise InvalidCardsError("without a draw the final hand must be the first five cards")
    elif draw is Draw.SIXTH:
        if len(final) != 6 or not first < last:
            raise InvalidCardsError("a sixth card makes six cards: the first five and one more")
    else:
        if len(final) != 5:
            raise InvalidCardsError(f"an exchange keeps five cards, not {len(final)}")
        if first == last:
            raise InvalidCardsError("an exchange replaces 1 to 5 cards, not none")
    if draw is not Draw.SIXTH and len(final) != 5:
        raise InvalidCardsError(f"the final hand has 5 cards, not {len(final)}")


def settle_box(
    *,
    config: RussianConfig,
    ante: int,
    initial: Sequence[Card],
    final: Sequence[Card],
    draw: Draw,
    folded: bool,
    dealer: Sequence[Card],
    bonus: int = 0,
    insurance: int = 0,
    buy: bool = False,
    dealer_draws: Sequence[Card] = (),
    blind_insurance: bool = False,
) -> BoxSettlement:
    """Settle every bet of one box (spec "Dealer and settlement", "Two combinations", "Bonus").

    Pure: the caller has dealt the cards. ``dealer_draws`` are the cards the dealer takes if
    the game is bought, in order. ``blind_insurance``: the insurance was placed unseen with a
    blind box (option ``blind_insurance``): it returns below three of a kind, and what is
    above the hand's limit returns. Checks the rules that the cards and bets must satisfy.

    Raises:
        IllegalActionError: insurance without three of a kind, outside its limits or on a
            fold; buying on a fold or when the dealer qualifies.
        InvalidCardsError: cards that do not fit together.
    """
    outcomes: list[BetOutcome] = []
    if bonus:
        outcomes.append(_bonus(bonus, initial, config, folded=folded))
    fee = ante * config.draw_fee_multiple if draw is not Draw.NONE else 0
    if fee:
        outcomes.append(_lost(BetKind.FEE, fee, f"{draw.value} fee"))
    qualified = dealer_qualifies(dealer)
    if folded:
        if insurance:
            raise refused("insurance cannot be placed on a folded box", "insurance_on_fold")
        if buy:
            raise refused("a folded box cannot buy the dealer's game", "buy_on_fold")
        outcomes.append(_lost(BetKind.ANTE, ante, "fold"))
        return BoxSettlement(
            outcomes=tuple(outcomes),
            dealer_qualified=qualified,
            dealer_hand=tuple(dealer),
            payout=None,
        )
    payout = two_combination_pay(
        final,
        paytable=config.bet_paytable,
        duplicate_rank_straights=config.duplicate_rank_straights,
    )
    if insurance:
        outcomes.append(
            _insurance(
                insurance,
                insurance_limits(final, ante=ante, config=config),
                qualified=qualified,
                blind=blind_insurance,
            )
        )
    hand = tuple(dealer)
    compare = qualified
    if buy:
        if qualified:
            raise refused(
                "the dealer's game can be bought only when it does not qualify",
                "buy_dealer_qualifies",
            )
        buy_fee = ante * config.buy_fee_multiple
        outcomes.append(_lost(BetKind.BUY, buy_fee, "bought the dealer's game"))
        hand, _ = buy_dealer_game(dealer, dealer_draws, rebuy_same_rank=config.rebuy_same_rank)
        compare = dealer_qualifies(hand)
    outcomes.extend(_ante_and_bet(config, ante, payout, final, hand, compare=compare, buy=buy))
    return BoxSettlement(
        outcomes=tuple(outcomes), dealer_qualified=qualified, dealer_hand=hand, payout=payout
    )


def _bonus(
    bonus: int, initial: Sequence[Card], config: RussianConfig, *, folded: bool
) -> BetOutcome:
    """The Bonus, on the first five cards (spec "Bonus"); a folded box's is lost with its
    other bets unless the table's ``bonus_on_fold`` is ``stands``."""
    if folded and config.bonus_on_fold is BonusOnFold.LOST:
        # seed 004: "altrimenti perde le puntate fatte" -- a fold loses every bet made
        return _lost(BetKind.BONUS, bonus, "fold")
    odds, category = bonus_pays(initial, config)
    if odds:
        win, rest = pay_ratio(bonus, odds, 1)
        return _won(BetKind.BONUS, bonus, win, f"{category.label} {odds}:1", rest)
    return _lost(BetKind.BONUS, bonus, f"{category.label} loses")


def _ante_and_bet(
    config: RussianConfig,
    ante: int,
    payout: Payout,
    final: Sequence[Card],
    hand: tuple[Card, ...],
    *,
    compare: bool,
    buy: bool = False,
) -> tuple[BetOutcome, BetOutcome]:
    """The Ante and the Bet of a box that stood, against the dealer's ``hand`` (spec "Dealer
    and settlement"); ``compare``: the hand qualifies; ``buy``: the box bought it."""
    bet = ante * config.bet_multiple
    if not compare:
        if buy and config.failed_buy_ante is FailedBuyAnte.FORFEIT:
            # seed 004: the buyer may "non accettare il pagamento di Ante alla pari" and buy --
            # gave up the Ante's payment; the bought game still does not qualify: returned
            return (
                _push(BetKind.ANTE, ante, "not paid: game bought"),
                _push(BetKind.BET, bet, "bought game does not qualify"),
            )
        return (
            _won(BetKind.ANTE, ante, ante, "dealer does not qualify 1:1"),
            _push(BetKind.BET, bet, "dealer does not qualify"),
        )
    mine = evaluate_ids([c.id for c in final])
    theirs = evaluate_ids([c.id for c in hand])
    if mine > theirs:
        win, over = _capped(bet * payout.multiple, config)
        line = f"{payout.line} {payout.multiple}:1" + (" (max payout)" if over else "")
        if config.ante_pays_on_win:
            # docs/rules.md option ante_pays_on_win (Royal Casino Riga)
            paid = _won(BetKind.ANTE, ante, ante, "player wins: Ante 1:1")
        else:
            paid = _push(BetKind.ANTE, ante, "player wins: Ante returned")
        return paid, _won(BetKind.BET, bet, win, line)
    if mine < theirs:
        return _lost(BetKind.ANTE, ante, "dealer wins"), _lost(BetKind.BET, bet, "dealer wins")
    return _push(BetKind.ANTE, ante, "tie"), _push(BetKind.BET, bet, "tie")


def _insurance(
    insurance: int, limits: tuple[int, int] | None, *, qualified: bool, blind: bool
) -> BetOutcome:
    """The insurance (spec "The player's decisions" 3): 1:1 if the dealer's hand as dealt
    does not qualify (a bought game does not change it, Decision)."""
    if limits is None:
        if blind:
            # docs/rules.md option blind_insurance (Corona): not eligible, returned
            return _push(BetKind.INSURANCE, insurance, "below three of a kind: returned")
        raise refused("insurance needs three of a kind or better", "insurance_needs_trips")
    low, high = limits
    if blind:
        if insurance < low:
            raise refused(
                f"insurance {insurance} is below the minimum {low}",
                "bet_out_of_limits",
                spot="insurance",
                amount=insurance,
                min=low,
            )
        insured = min(insurance, high)
    elif not low <= insurance <= high:
        raise refused(
            f"insurance {insurance} is outside {low}..{high} for this hand",
            "bet_out_of_limits",
            spot="insurance",
            amount=insurance,
            min=low,
            max=high,
        )
    else:
        insured = insurance
    above = f" ({insurance - insured} above the limit returned)" if insured < insurance else ""
    if qualified:
        return BetOutcome(
            kind=BetKind.INSURANCE,
            stake=Chips(insurance),
            outcome=Outcome.LOST,
            net=-insured,
            pay_line="dealer qualifies" + above,
        )
    return _won(BetKind.INSURANCE, insurance, insured, "dealer does not qualify 1:1" + above)


def _won(kind: BetKind, stake: int, win: int, line: str, rounding: int = 0) -> BetOutcome:
    return BetOutcome(
        kind=kind,
        stake=Chips(stake),
        outcome=Outcome.WON,
        net=win,
        pay_line=line,
        rounding=rounding,
    )


def _lost(kind: BetKind, stake: int, line: str) -> BetOutcome:
    return BetOutcome(
        kind=kind, stake=Chips(stake), outcome=Outcome.LOST, net=-stake, pay_line=line
    )


def _push(kind: BetKind, stake: int, line: str) -> BetOutcome:
    return BetOutcome(kind=kind, stake=Chips(stake), outcome=Outcome.PUSH, net=0, pay_line=line)


def audit_box(
    *,
    config: RussianConfig,
    ante: int,
    initial: Sequence[Card],
    final: Sequence[Card],
    draw: Draw,
    folded: bool,
    dealer: Sequence[Card],
    bonus: int = 0,
    insurance: int = 0,
    buy: bool = False,
    dealer_draws: Sequence[Card] = (),
    blind_insurance: bool = False,
) -> BoxSettlement:
    """Check a box's whole story (amounts, cards, draw) and settle it with :func:`settle_box`.

    For settlement audits, where the cards come from outside rather than from a shoe.

    Raises:
        InvalidCardsError: a card repeated anywhere, a draw that does not match the hands,
            a dealer hand that is not five cards.
        IllegalActionError: an amount that is not allowed (see :func:`settle_box`).
    """
    for name, amount in (("ante", ante), ("bonus", bonus), ("insurance", insurance)):
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise refused(
                f"{name} {amount!r} is not a whole amount >= 0", "amount_not_whole", spot=name
            )
    if ante <= 0:
        raise refused(
            f"ante {ante} must be positive", "amount_not_positive", spot="ante", amount=ante
        )
    check_draw(initial, final, draw)
    if draw is Draw.EXCHANGE:
        replaced = len({c.id for c in initial} - {c.id for c in final})
        if not config.exchange_min <= replaced <= config.exchange_max:
            raise refused(
                f"an exchange of {replaced} cards is outside the table's "
                f"{config.exchange_min}..{config.exchange_max}",
                "exchange_count",
                count=replaced,
                min=config.exchange_min,
                max=config.exchange_max,
            )
    if blind_insurance and not config.blind_insurance:
        raise refused("this table takes no insurance on blind boxes", "no_blind_insurance")
    if len(dealer) != 5:
        raise InvalidCardsError(f"the dealer has 5 cards, not {len(dealer)}")
    seen = {c.id for c in final}
    everything = [*final, *(c for c in initial if c.id not in seen), *dealer, *dealer_draws]
    check_distinct(everything)
    return settle_box(
        config=config,
        ante=ante,
        initial=initial,
        final=final,
        draw=draw,
        folded=folded,
        dealer=dealer,
        bonus=bonus,
        insurance=insurance,
        buy=buy,
        dealer_draws=dealer_draws,
        blind_insurance=blind_insurance,
    )
