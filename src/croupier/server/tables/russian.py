"""Russian Poker at a server table: the :class:`GameRound` adapter for ``RussianRound``.

Opening bets (one ``bet`` per seat and round): ``{"ante": A, "bonus": B, "blind_boxes": N,
"blind_bonus": b}``. The seat gets one open box (Ante ``A``, Bonus ``B``) and ``N`` blind
boxes (spec/russian.md "Table": a player may bet on several free boxes, only one of them
open), each with the same Ante, its Bet of 2x Ante placed with it (spec Decision) and Bonus
``b``; boxes are the lowest free ones on the layout. ``blind_boxes`` is a count, not money.
Where the table's options allow (docs/rules.md): ``"open_boxes": 2`` asks for a second open
box (same Ante and Bonus; it decides after the first), ``"blind_insurance": I`` places
insurance ``I`` unseen on every blind box and ``"blind_sixth": 1`` buys every blind box its
sixth card in advance (fee 1x Ante each).

Every engine option is a table setting (``[tables.rules]``, see
:meth:`croupier.games.russian.RussianConfig.from_dict`): limits, ``boxes``,
``max_players``, ``bet_multiple``, the fees, ``insurance_min_multiple``,
``duplicate_rank_straights``, ``failed_buy_ante``, ``bonus_on_fold``, ``bet_paytable`` and
``bonus_paytable`` (tables of odds),
``ante_pays_on_win``, ``open_boxes_per_player``, ``exchange_min``/``exchange_max``,
``blind_insurance``, ``blind_sixth_card``, ``dealer_upcard``, ``rebuy_same_rank``.

Decisions, for the seat's open box when it is that box's turn (boxes decide in layout order):
``exchange`` with ``cards`` (1 to 5 to discard; fee 1x Ante), ``sixth_card`` (fee 1x Ante),
``bet`` (2x Ante; ``amount`` = the insurance, allowed with three of a kind or better),
``fold``; once the dealer has shown and not qualified, ``buy`` (the dealer's game, 1x Ante)
or ``decline``. Fees, the Bet, the insurance and a buy are held from the wallet first.

A box that does not decide in time folds (before the Bet: the spec sets no default and
folding moves no money); when offered to buy the dealer's game it declines (the Ante paid).
Both are the engine's answers (``default_action``), as the decisions a seat is offered
(``legal``, the wire names of the engine's ``legal_actions``) and the insurance its Bet
allows are: this adapter never works them out again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from croupier.analysis.returns import Box
from croupier.analysis.russian import bonus_return, bonus_second_moment
from croupier.analysis.russian.figure import RUSSIAN_ANALYSIS, RUSSIAN_EV_PER_ANTE
from croupier.analysis.russian.variants import exact_figures_for
from croupier.cards import DECK, Card, parse_cards
from croupier.deck import Shoe, keyed_reshuffler
from croupier.errors import CroupierError, IllegalActionError
from croupier.games.protocol import PUBLIC, Action, Legal
from croupier.games.russian import (
    BuyGame,
    DeclineBuy,
    Exchange,
    Fold,
    Phase,
    PlaceBet,
    PlaceBox,
    RussianAction,
    RussianConfig,
    RussianRound,
    SixthCard,
)
from croupier.games.russian.actions import price
from croupier.games.russian.config import LIMITS
from croupier.games.russian.events import DiscardsReshuffled, RussianEvent
from croupier.games.russian.rules import BetKind
from croupier.history import russian as russian_history
from croupier.server.errors import InvalidRequestError
from croupier.server.rounds.theory import BoxStake, MonitorBox, MonitorRound, RoundTheory
from croupier.server.tables.config import TableConfig
from croupier.server.tables.games import CountedFromLists, OperatorSettings, to_json
from croupier.server.tables.protocol import ActMessage, refuse_details
from croupier.server.tables.russian_wire import RussianSpots
from croupier.server.tables.wire import UNSET, Spots, read_spots

__all__ = [
    "ANALYSED_RULES",
    "SETTINGS",
    "THEORY",
    "RussianFactory",
    "RussianTableRound",
    "RussianTheory",
    "boxes",
    "recall_view",
]

_ACTIONS = ("exchange", "sixth_card", "bet", "fold", "buy", "decline")
_TAKEN = {"exchange": ("cards",), "bet": ("amount",)}
"""The details an action takes (:func:`.protocol.refuse_details`; ``amount``: insurance)."""


class RussianFactory:
    """Rounds for one Russian Poker table; ``rules`` go to :class:`RussianConfig`."""

    game = "russian"
    kind: Literal["banked"] = "banked"
    spots: type[Spots] = RussianSpots

    def __init__(self, table: TableConfig) -> None:
        self.name = str(table.rules.get("name", "Russian Poker"))
        self.config = RussianConfig.from_dict({k: v for k, v in table.rules.items() if k != "name"})
        self._pricing: RussianTableRound | None = None

    def reconfigure(self, rules: Mapping[str, Any]) -> None:
        """New rules for the rounds opened from now on; a round in play takes the new limits
        for the boxes placed in its betting window after the change
        (:meth:`RussianTableRound.adopt_limits`). Checked whole first: rules that are refused
        change nothing.

        Raises:
            ConfigError: the new rules are not valid.
        """
        self.config = RussianConfig.from_dict({k: v for k, v in rules.items() if k != "name"})
        self.name = str(rules.get("name", self.name))
        self._pricing = None

    def new_round(self, shoe: Shoe, *, salt: str = "") -> RussianTableRound:
        # docs/rules.md "Reshuffling the discards": keyed by the round's committed salt
        reshuffle = keyed_reshuffler(salt) if salt else None
        engine = RussianRound(self.config, shoe, reshuffle=reshuffle)
        return RussianTableRound(engine, shoe=shoe)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, **self.config.to_dict()}

    def max_seats(self) -> int | None:
        return self.config.max_players

    def min_stake(self) -> int:
        """The least a seat can bet: the minimum Ante on its open box."""
        return int(price(PlaceBox(seat=0, box=0, ante=self.config.ante_min), self.config))

    def bet_prices(self) -> dict[str, dict[str, int]]:
        """The engine's price of one unit of each amount of an open and of a blind box."""
        config = self.config

        def unit(**fields: Any) -> int:
            return int(price(PlaceBox(seat=0, box=0, **fields), config))

        blind = unit(ante=1, blind=True)
        return {
            "box": {"ante": unit(ante=1), "bonus": unit(ante=0, bonus=1)},
            "blind_box": {
                "ante": blind,
                "bonus": unit(ante=0, bonus=1, blind=True),
                "insurance": unit(ante=0, blind=True, insurance=1),
                "sixth_card": unit(ante=1, blind=True, sixth_card=True) - blind,
            },
        }

    def price_bet(self, bets: Mapping[str, int]) -> int:
        """The engine's price of a bet of a seat that has not bet, checked against the
        table's rules (a cluster's gateway holds that much): a round on an ordered deck
        answers, no shuffle (its cards are never dealt)."""
        if self._pricing is None:
            shoe = Shoe(DECK)
            self._pricing = RussianTableRound(RussianRound(self.config, shoe), shoe=shoe)
        return self._pricing.check_bets(0, read_spots(bets, self.spots))

    def decision_word(self, act: ActMessage) -> str | None:
        """The wire name of the decision ``act`` asks for: its action."""
        return act.action

    def details_taken(self, action: str) -> tuple[str, ...]:
        return _TAKEN.get(action, ())


class RussianTableRound(CountedFromLists):
    """One :class:`RussianRound` driven by a table."""

    game = "russian"

    def __init__(self, engine: RussianRound, *, shoe: Shoe) -> None:
        self.engine = engine
        self.shoe = shoe
        self._void: str | None = None

    # -- state ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.engine.phase.value

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(sorted({self.engine.seat_of(b) for b in self.engine.boxes}))

    @property
    def pending_seats(self) -> tuple[int, ...]:
        box = self.engine.to_act
        return () if box is None else (self.engine.seat_of(box),)

    @property
    def pending_turns(self) -> tuple[int, ...]:
        # The box deciding: a seat's second open box is a turn of its own (own timer).
        box = self.engine.to_act
        return () if box is None else (box,)

    @property
    def finished(self) -> bool:
        return self.engine.finished

    def _open_box(self, seat: int) -> int:
        """The seat's open box deciding now (its first open box when none is)."""
        engine = self.engine
        mine = [b for b in engine.boxes if engine.seat_of(b) == seat and not engine.is_blind(b)]
        if not mine:
            raise IllegalActionError(
                f"seat {seat} has no open box in this round", reason="no_open_box"
            )
        return engine.to_act if engine.to_act in mine else mine[0]

    def _blind(self, box: int) -> bool:
        return self.engine.is_blind(box)

    def _ante(self, box: int) -> int:
        return int(self.engine.ante(box))

    # -- opening bets --------------------------------------------------------------------

    def _bets(self, spots: Spots) -> RussianSpots:
        """The bet's spots, checked against the table's layout and options."""
        assert isinstance(spots, RussianSpots)
        if spots.ante is UNSET:
            raise InvalidRequestError("an ante is required on the open box", reason="ante_required")
        config = self.engine.config
        blind, opens = spots.blind_boxes, spots.open_boxes
        if not 1 <= opens <= config.open_boxes_per_player:
            raise IllegalActionError(
                f"open_boxes {opens} is outside 1..{config.open_boxes_per_player} at this table",
                reason="open_boxes_out_of_range",
                params={"count": opens, "max": config.open_boxes_per_player},
            )
        if opens + blind > config.boxes:
            raise IllegalActionError(
                f"{opens + blind} boxes do not fit on the layout",
                reason="blind_boxes_do_not_fit",
                params={"count": opens + blind, "boxes": config.boxes},
            )
        if spots.blind_bonus and not blind:
            # Never drop a stake silently: a Bonus for blind boxes needs blind boxes.
            raise InvalidRequestError(
                f"blind_bonus {spots.blind_bonus} needs blind boxes: blind_boxes is 0 "
                "(put the open box's Bonus in bonus)",
                reason="blind_bonus_without_blind_boxes",
            )
        return spots

    def bets_total(self, spots: Spots) -> int:
        """The engine's price of the boxes the bet places (any free boxes: a box's price
        does not depend on where it is)."""
        spots = self._bets(spots)
        return sum(int(self.engine.price(a)) for a in spots.boxes(0, range(spots.count)))

    def _free_boxes(self, count: int) -> list[int]:
        taken = set(self.engine.boxes)
        free = [b for b in range(self.engine.config.boxes) if b not in taken]
        if len(free) < count:
            raise IllegalActionError(
                f"{count} boxes asked, {len(free)} free on the layout",
                reason="not_enough_boxes",
                params={"count": count, "free": len(free)},
            )
        return free[:count]

    def check_bets(self, seat: int, spots: Spots) -> int:
        spots = self._bets(spots)
        if seat in self.seats:
            raise IllegalActionError(
                f"seat {seat} has already bet in this round", reason="already_bet"
            )
        boxes = self._free_boxes(spots.count)
        if (spots.blind_insurance or spots.blind_sixth) and not spots.blind_boxes:
            raise IllegalActionError(
                "blind_insurance and blind_sixth need blind_boxes",
                reason="blind_options_without_blind_boxes",
            )
        # the open boxes share one Ante and Bonus; _bets checked how many the table allows
        placed = spots.boxes(seat, boxes)
        for action in placed[:1] + placed[spots.open_boxes :]:
            self.engine.verify(action)
        return sum(int(self.engine.price(a)) for a in placed)

    def place_bets(self, seat: int, spots: Spots) -> None:
        assert isinstance(spots, RussianSpots)
        self.check_bets(seat, spots)  # the boxes free now, each verified
        for action in spots.boxes(seat, self._free_boxes(spots.count)):
            self.engine.apply(action)

    def adopt_limits(self, factory: RussianFactory) -> None:
        """The table's limits changed (an operator): boxes placed from now on in this round's
        betting window are checked against them; the boxes placed stand."""
        if self.engine.phase is Phase.BETTING:
            self.engine.change_limits({name: getattr(factory.config, name) for name in LIMITS})

    def can_close_betting(self) -> bool:
        return self.engine.can_deal()

    def close_betting(self) -> None:
        self.engine.deal()

    # -- decisions -----------------------------------------------------------------------

    def _discard(self, act: ActMessage) -> tuple[Card, ...]:
        if not act.cards:
            raise InvalidRequestError(
                "an exchange needs the cards to discard", reason="exchange_needs_cards"
            )
        return tuple(parse_cards(" ".join(act.cards)))

    def action(self, seat: int, act: ActMessage) -> RussianAction:
        """The decision ``act`` for the seat's open box deciding now, as the engine's typed
        action, translated once (``amount`` of a ``bet``: the insurance)."""
        refuse_details(act, "Russian Poker", *_TAKEN.get(act.action, ()))
        box = self._open_box(seat)
        match act.action:
            case "exchange":
                return Exchange(seat=seat, box=box, discard=self._discard(act))
            case "sixth_card":
                return SixthCard(seat=seat, box=box)
            case "bet":
                return PlaceBet(seat=seat, box=box, insurance=act.amount or 0)
            case "fold":
                return Fold(seat=seat, box=box)
            case "buy":
                return BuyGame(seat=seat, box=box)
            case "decline":
                return DeclineBuy(seat=seat, box=box)
            case other:
                raise InvalidRequestError(
                    f"unknown action {other!r}; russian poker has {_ACTIONS}",
                    reason="unknown_action",
                    params={"action": str(other)},
                )

    def check(self, action: Action) -> int:
        """Refuse ``action`` unless the engine takes it; the money it needs held first (a
        fee, the Bet and its insurance, a buy: the engine's price)."""
        decision = _decision(action)
        self.engine.verify(decision)
        return int(self.engine.price(decision))

    def apply(self, action: Action) -> None:
        self.engine.apply(_decision(action))

    def apply_timeout(self, seat: int) -> None:
        """The seat's box deciding now ran out of time: the engine's
        :meth:`~RussianRound.default_action` (fold, or decline to buy the dealer's game),
        which never needs money from the wallet."""
        action = self.engine.default_action(seat)
        if action is None:
            raise IllegalActionError(
                f"seat {seat} has no box deciding now",
                reason="not_your_turn",
                params={"seat": seat, "to_act": self.engine.to_act},
            )
        if self.check(action):  # pragma: no cover - a fold or a decline holds nothing
            raise AssertionError(f"a timeout's {action!r} would need money from the wallet")
        self.engine.apply(action)

    def _decisions(self, seat: int) -> tuple[Legal, ...]:
        """The engine's legal actions of ``seat`` that are decisions of its open box (not
        the boxes it may still place while bets are open): the view's ``legal`` hints are
        their wire names, in the engine's order."""
        return tuple(
            legal
            for legal in self.engine.legal_actions(seat)
            if isinstance(legal.action, _Decision)
        )

    def legal(self, seat: int) -> list[str]:
        return [legal.kind for legal in self._decisions(seat)]

    def turn_stakes(self, seat: int) -> dict[str, int]:
        """The engine's price of each of ``seat``'s decisions now that moves money (the Bet
        without insurance; the insurance the player chooses is added to it)."""
        return {
            legal.kind: price
            for legal in self._decisions(seat)
            if (price := int(self.engine.price(_decision(legal.action))))
        }

    def decision_word(self, act: ActMessage) -> str | None:
        return act.action

    # -- closing -------------------------------------------------------------------------

    def returns(self) -> dict[int, int]:
        back: dict[int, int] = {}
        for box in self.engine.boxes:
            seat = self.engine.seat_of(box)
            settled = self.engine.settlement(box)
            back[seat] = back.get(seat, 0) + sum(o.stake + o.net for o in settled.outcomes)
        return back

    def void(self, reason: str) -> None:
        if self.engine.can_void():
            self.engine.void(reason)
            self._void = reason

    # -- what each seat sees -------------------------------------------------------------

    def events_since(self, index: int) -> tuple[RussianEvent, ...]:
        return self.engine.events[index:]

    def visible_to_all(self, event: Any) -> bool:
        return bool(event.audience == PUBLIC)

    def project_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        # Only the seat's own open box is seen; blind boxes stay face down until the
        # showdown, the dealer's cards until revealed (spec/russian.md "Table", "Bets").
        data: dict[str, Any] = to_json(event.seen_by(seat))
        data["kind"] = event.kind
        data.pop("audiences", None)
        if isinstance(event, DiscardsReshuffled):
            data["count"] = len(event.cards)
        return data

    def view(self, seat: int | None) -> dict[str, Any]:
        mine = seat is not None and seat in self.seats
        # A spectator sees what a seat without boxes sees: cards of no box.
        view = self.engine.view(seat if mine else None)
        data: dict[str, Any] = to_json(view)
        data["to_act_seat"] = self.pending_seats[0] if self.pending_seats else None
        decisions = self._decisions(seat) if mine and seat is not None else ()
        data["legal"] = [legal.kind for legal in decisions]
        # The insurance the seat's Bet may carry now (the engine's bounds), or null (below
        # three of a kind, or no Bet to place).
        insurance = next(
            (
                legal.amount("insurance")
                for legal in decisions
                if isinstance(legal.action, PlaceBet)
            ),
            None,
        )
        data["insurance"] = None if insurance is None else [insurance.low, insurance.high]
        # The price of each decision in ``legal`` (the engine's, 0 for one that moves no
        # money; the Bet's without the insurance the player adds), for whichever of the
        # seat's boxes decides now: what a button says it costs.
        data["prices"] = {
            legal.kind: int(self.engine.price(_decision(legal.action))) for legal in decisions
        }
        return data

    def record(self, round_id: int) -> dict[str, Any]:
        # Rules, deck, events and results, so that `croupier russian replay` can re-run the
        # round; `void` is the RoundVoided reason, which is what self._void holds.
        return russian_history.record(self.engine, round_id=round_id)

    def summary(self) -> dict[str, Any]:
        engine = self.engine
        settled = engine.phase is Phase.SETTLED
        boxes = []
        for box in engine.boxes:
            entry: dict[str, Any] = {"box": box, "seat": engine.seat_of(box)}
            if settled:
                s = engine.settlement(box)
                entry |= {
                    "cards": [str(c) for c in engine.cards(box)],
                    "net": s.net,
                    "dealer_hand": [str(c) for c in s.dealer_hand],
                }
            boxes.append(entry)
        return {
            "phase": engine.phase.value,
            "dealer": [str(c) for c in engine.dealer] if settled else None,
            "boxes": boxes,
            "players_net": sum(b.get("net", 0) for b in boxes),
            "void": self._void,
        }


_Decision = Exchange | SixthCard | PlaceBet | Fold | BuyGame | DeclineBuy


def _decision(action: Action) -> _Decision:
    """``action`` as a box's decision (the driver passes back what
    :meth:`RussianTableRound.action` made)."""
    if not isinstance(action, _Decision):
        raise TypeError(f"{action!r} is not a decision of a Russian Poker round")
    return action


def recall_view(round_: Mapping[str, Any], seats: Sequence[int]) -> dict[str, Any]:
    """A closed Russian Poker round as a player recalls it: all of it, as before (a casino
    table of at most ``max_players`` boxes, every box turned over at the settlement, the deck
    revealed against the commitment); the player rows are already cut to their own."""
    return dict(round_)


# -- the return to player (the operator's figures) ---------------------------------------------

ANALYSED_RULES = (
    "bet_paytable",
    "rebuy_same_rank",
    "duplicate_rank_straights",
    "failed_buy_ante",
    "ante_pays_on_win",
    "bet_multiple",
    "draw_fee_multiple",
    "buy_fee_multiple",
    "exchange_min",
    "exchange_max",
    "dealer_upcard",
)
"""The Russian rules the exact figure (:data:`croupier.analysis.russian.figure.RUSSIAN_ANALYSIS`,
issue 32) depends on, at their spec values: a table that changes one has no figure."""

_ANALYSED_DEFAULTS = {
    key: value for key, value in to_json(RussianConfig()).items() if key in ANALYSED_RULES
}


def boxes(record: Mapping[str, Any]) -> list[BoxStake]:
    """Every settled box of a Russian Poker record; a box is covered by the analysed figure
    when it is open and the table's rules are those analysed."""
    rules = record.get("rules") or {}
    analysed = all(rules.get(k, v) == v for k, v in _ANALYSED_DEFAULTS.items())
    placed = {int(e["box"]): e for e in record.get("events") or [] if e.get("kind") == "box_placed"}
    out = []
    for result in record.get("results") or []:
        event = placed.get(int(result["box"]), {})
        out.append(
            BoxStake(
                ante=int(event.get("ante", 0)),
                side=int(event.get("bonus", 0)),
                net=int(result["net"]),
                covered=analysed and not event.get("blind", False),
            )
        )
    return out


def _box(b: BoxStake, bonus_mean: float, bonus_sd: float) -> Box:
    fig = RUSSIAN_ANALYSIS
    side = b.side * bonus_mean
    sd = b.ante * fig.sd_per_ante + b.side * bonus_sd  # correlation unknown: the largest
    return Box(
        base=b.ante + b.side,
        net=b.net,
        mean=b.ante * fig.ev_per_ante + side,
        variance=sd * sd,
        mean_low=b.ante * fig.ev_low + side,
        mean_high=b.ante * fig.ev_high + side,
    )


def _table_return(rules: Mapping[str, Any]) -> dict[str, Any]:
    config = RussianConfig.from_dict({k: v for k, v in rules.items() if k != "name"})
    spec = RussianConfig().to_dict()
    mine = config.to_dict()
    fig = RUSSIAN_ANALYSIS
    out: dict[str, Any] = {
        "method": "exact",
        "per": "ante",
        "bonus_return": 1 + bonus_return(config),
    }
    differ = [k for k in ANALYSED_RULES if mine.get(k) != spec.get(k)]
    if not differ:
        return {
            **out,
            "status": "ready",
            "return": 1 + fig.ev_per_ante,
            "return_exact": str(1 + RUSSIAN_EV_PER_ANTE),
            "house_edge": -fig.ev_per_ante,
        }
    option = exact_figures_for(config)
    if option is None:
        return {
            **out,
            "status": "unavailable",
            "reason": "the exact figures are for the spec's rules and the options computed "
            f"(croupier russian analyze --exact --rule K=V); this table changes {differ}",
        }
    edge = option.house_edge
    return {
        **out,
        "status": "ready",
        "return": float(1 - edge),
        "return_exact": str(1 - edge),
        "house_edge": float(edge),
        "options": differ,
    }


class RussianTheory:
    """Russian Poker's return to player: the exact figure for open boxes, the Bonus exact."""

    method = (
        "exact return for open boxes (every hand enumerated with card removal, optimal "
        "play; spec rules, no cap; its deviation from 100 M simulated rounds); Bonus exact; "
        "blind boxes not covered"
    )
    basis = "per unit of base stake (Ante + Bonus), open boxes"
    shown_rules: tuple[str, ...] = ()

    def round_theory(self, record: Mapping[str, Any], book: object) -> RoundTheory:
        fig = RUSSIAN_ANALYSIS
        bonus_mean = bonus_return()
        bonus_sd = (bonus_second_moment() - bonus_mean**2) ** 0.5
        stakes = boxes(record)
        shaped = tuple(_box(b, bonus_mean, bonus_sd) for b in stakes if b.covered)
        figures = {
            "return_per_ante": 1 + fig.ev_per_ante,
            "return_per_ante_range": [1 + fig.ev_low, 1 + fig.ev_high],
            "bonus_return": 1 + bonus_mean,
        }
        return RoundTheory(boxes=shaped, figures=figures, uncovered=len(stakes) - len(shaped))

    def warm(self, rules: Mapping[str, Any], book: object) -> None:
        return None  # nothing to compute: the figure is fixed

    def table_return(self, rules: Mapping[str, Any], book: object) -> dict[str, Any]:
        """The exact figure (spec rules, optimal play) for tables whose rules are those
        analysed; the Bonus exactly for any table."""
        return _table_return(rules)

    def published_return(self, record: Mapping[str, Any] | None, wagered: int) -> None:
        return None  # the operator's statistics have no published Russian figure

    def prepare_monitor(self) -> None:
        return None  # nothing compiled to load ahead

    def monitor_round(
        self, record: Mapping[str, Any], book: object, *, rules: Mapping[str, Any] | None = None
    ) -> MonitorRound:
        """Open boxes against the exact figure of optimal play (issue 32) and the Bonus
        exactly; insurance is left out (a 1:1 bet on the dealer's qualification, up to the
        box's potential win: its size would drown the rest). Players' decisions are not
        valued here: the low side allows the server's margin for imperfect play."""
        return _monitor_round(record, rules)


def _insurance_nets(record: Mapping[str, Any]) -> dict[int, int]:
    nets: dict[int, int] = {}
    for event in record.get("events") or []:
        if event.get("kind") != "box_settled":
            continue
        outcomes = (event.get("settlement") or {}).get("outcomes") or []
        nets[int(event["box"])] = sum(
            int(o.get("net", 0)) for o in outcomes if o.get("bet") == BetKind.INSURANCE.value
        )
    return nets


def _monitor_round(record: Mapping[str, Any], rules: Mapping[str, Any] | None) -> MonitorRound:
    try:
        config = RussianConfig.from_dict(
            dict(record.get("rules") or {})
            if rules is None
            else {k: v for k, v in rules.items() if k != "name"}
        )
    except (CroupierError, TypeError, ValueError) as exc:
        return MonitorRound(status="unavailable", reason=f"rules: {exc}")
    spec, mine = RussianConfig().to_dict(), config.to_dict()
    differ = [k for k in ANALYSED_RULES if mine.get(k) != spec.get(k)]
    if differ:
        return MonitorRound(
            status="unavailable", reason=f"the exact figure is for the spec's rules: {differ}"
        )
    fig = RUSSIAN_ANALYSIS
    bonus_mean = bonus_return(config)
    bonus_sd = (bonus_second_moment(config) - bonus_mean**2) ** 0.5
    insurance = _insurance_nets(record)
    per_ante = 1 + config.bet_multiple + config.draw_fee_multiple + config.buy_fee_multiple
    shaped, uncovered = [], 0
    for result in record.get("results") or []:
        stake = next((b for b in boxes({**record, "results": [result]})), None)
        if stake is None or not stake.covered:
            uncovered += 1
            continue
        side = stake.side * bonus_mean
        sd = stake.ante * fig.sd_per_ante + stake.side * bonus_sd
        shaped.append(
            MonitorBox(
                seat=int(result.get("seat", 0)),
                base=stake.ante + stake.side,
                net=stake.net - insurance.get(int(result["box"]), 0),
                mean=stake.ante * fig.ev_per_ante + side,
                mean_high=stake.ante * fig.ev_high + side,
                mean_low=stake.ante * fig.ev_low + side,
                loss=stake.ante * per_ante + stake.side,
                variance=sd * sd,
            )
        )
    return MonitorRound(boxes=tuple(shaped), uncovered=uncovered)


THEORY = RussianTheory()


# -- what an operator may change -----------------------------------------------------------------


def _check_paytable(name: str, rule: str, lines: Mapping[str, Any]) -> None:
    RussianConfig.from_dict({rule: lines})


SETTINGS = OperatorSettings(
    limits={
        "min_bet": "ante_min",
        "max_bet": "ante_max",
        "bonus_min": "bonus_min",
        "bonus_max": "bonus_max",
        "max_payout": "max_payout",
    },
    paytables={"bet": "bet_paytable", "bonus": "bonus_paytable"},
    check_paytable=_check_paytable,
)
