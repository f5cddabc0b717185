"""Caribbean Stud Poker at a server table: the :class:`GameRound` adapter for ``CaribbeanRound``.

Opening bets (one ``bet`` per seat and round): ``{"ante": A, "progressive": P}``, ``P`` 1 to
add the table's progressive bet (its one amount; a table without one refuses it) or 0. A
seat that has bet may add ``{"progressive": 1}`` as a second request in the same betting
window (Trump Indiana: "After making the 'ante' bet, a player may deposit a $1.00 gaming
chip"). One box a seat, up to the table's ``max_seats`` (6 by default, docs/rules.md).

Every engine option is a table setting (``[tables.rules]``, see
:meth:`croupier.games.caribbean.CaribbeanConfig.from_dict`): ``ante_min``/``ante_max``,
``max_seats``, ``raise_multiple``, ``raise_paytable``, ``max_payout``, ``progressive_bet``,
``progressive_paytable``, ``dealing``; and ``jackpot``, the progressive meter the table's
percentage prizes are paid from (minor units, house money; the server keeps it fixed: it
does not yet grow with the progressive bets).

Decisions: ``raise`` (the Raise, ``raise_multiple`` x Ante, held from the wallet first) or
``fold``; every box decides at once, and a box that does not decide in time folds (the
engine's ``default_action``, docs/rules.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from croupier.analysis.caribbean import advise, load_summary
from croupier.analysis.returns import Box
from croupier.cards import DECK
from croupier.chips import Chips
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError
from croupier.evaluator import HandCategory
from croupier.games.caribbean import (
    AddProgressive,
    CaribbeanAction,
    CaribbeanConfig,
    CaribbeanRound,
    Fold,
    Phase,
    PlaceBets,
    Raise,
    opening_stake,
)
from croupier.games.caribbean.events import BoxSettled, CaribbeanEvent
from croupier.games.protocol import PUBLIC, Action
from croupier.history import caribbean as caribbean_history
from croupier.server.errors import InvalidRequestError
from croupier.server.rounds.theory import BoxStake, MonitorBox, MonitorRound, RoundTheory
from croupier.server.tables.card_query import card_fields
from croupier.server.tables.caribbean_wire import CaribbeanSpots
from croupier.server.tables.config import TableConfig
from croupier.server.tables.games import CountedFromLists, OperatorSettings, to_json
from croupier.server.tables.protocol import ActMessage, refuse_details
from croupier.server.tables.wire import UNSET, Spots, read_spots

__all__ = [
    "SETTINGS",
    "THEORY",
    "CaribbeanFactory",
    "CaribbeanTableRound",
    "CaribbeanTheory",
    "advice",
    "boxes",
    "recall_view",
]

_ACTIONS = ("raise", "fold")
_JACKPOT = "jackpot"


def _split(rules: Mapping[str, Any]) -> tuple[CaribbeanConfig, int]:
    """The engine's settings and the jackpot meter of a table's ``rules``.

    Raises:
        ConfigError: a setting the engine refuses, or a meter that is not an amount.
    """
    jackpot = rules.get(_JACKPOT, 0)
    if isinstance(jackpot, bool) or not isinstance(jackpot, int) or jackpot < 0:
        raise ConfigError(f"jackpot = {jackpot!r} is not an amount of minor units >= 0")
    config = CaribbeanConfig.from_dict({k: v for k, v in rules.items() if k != _JACKPOT})
    return config, jackpot


class CaribbeanFactory:
    """Rounds for one Caribbean Stud table; ``rules`` go to :class:`CaribbeanConfig`."""

    game = "caribbean"
    kind: Literal["banked"] = "banked"
    spots: type[Spots] = CaribbeanSpots

    def __init__(self, table: TableConfig) -> None:
        self.config, self.jackpot = _split(table.rules)
        self._pricing: CaribbeanTableRound | None = None

    def reconfigure(self, rules: Mapping[str, Any]) -> None:
        """New rules for the rounds opened from now on; a round in play takes the new Ante
        limits for the bets placed in its betting window after the change
        (:meth:`CaribbeanTableRound.adopt_limits`). Checked whole first.

        Raises:
            ConfigError: the new rules are not valid, or change the number of seats.
        """
        config, jackpot = _split(rules)
        if config.max_seats != self.config.max_seats:
            raise ConfigError("max_seats cannot change while the table is open")
        self.config, self.jackpot, self._pricing = config, jackpot, None

    def new_round(self, shoe: Shoe, *, salt: str = "") -> CaribbeanTableRound:
        return CaribbeanTableRound(CaribbeanRound(self.config, shoe, jackpot=self.jackpot))

    def describe(self) -> dict[str, Any]:
        return {**self.config.to_dict(), _JACKPOT: self.jackpot}

    def max_seats(self) -> int | None:
        return self.config.max_seats

    def min_stake(self) -> int:
        """The least a seat can bet: the minimum Ante."""
        return int(opening_stake(ante=self.config.ante_min))

    def bet_prices(self) -> dict[str, dict[str, int]]:
        """The engine's price of one unit of each opening amount: an Ante of 1, and the
        progressive bet (``"progressive": 1`` is the table's one amount)."""
        side = int(opening_stake(ante=0, progressive=self.config.progressive_bet or 0))
        return {
            "bet": {"ante": int(opening_stake(ante=1)), "progressive": side},
            "progressive": {"progressive": side},
        }

    def price_bet(self, bets: Mapping[str, int]) -> int:
        """The engine's price of a bet of a seat that has not bet, checked against the
        table's rules: a round on an ordered deck answers (its cards are never dealt)."""
        if self._pricing is None:
            self._pricing = CaribbeanTableRound(CaribbeanRound(self.config, Shoe(DECK)))
        return self._pricing.check_bets(0, read_spots(bets, self.spots))

    def decision_word(self, act: ActMessage) -> str | None:
        return _word(act)

    def details_taken(self, action: str) -> tuple[str, ...]:
        return ()  # its Raise is fixed


def _word(act: ActMessage) -> str | None:
    return act.action if act.action in _ACTIONS else None


def _decision(action: Action) -> Raise | Fold:
    """``action`` as a box's decision (the driver passes back what
    :meth:`CaribbeanTableRound.action` made)."""
    if not isinstance(action, Raise | Fold):
        raise TypeError(f"{action!r} is not a decision of a Caribbean Stud round")
    return action


class CaribbeanTableRound(CountedFromLists):
    """One :class:`CaribbeanRound` driven by a table."""

    game = "caribbean"

    def __init__(self, engine: CaribbeanRound) -> None:
        self.engine = engine

    # -- state ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.engine.phase.value

    @property
    def seats(self) -> tuple[int, ...]:
        return self.engine.seats

    @property
    def pending_seats(self) -> tuple[int, ...]:
        return self.engine.pending_seats

    @property
    def pending_turns(self) -> tuple[int, ...]:
        # Every box decides at once (docs/rules.md): the phase is the turn.
        return ()

    @property
    def finished(self) -> bool:
        return self.engine.finished

    # -- opening bets --------------------------------------------------------------------

    def bet_action(self, seat: int, spots: Spots) -> CaribbeanAction:
        """The engine's action of a bet from ``seat``: its Ante (and progressive), or the
        progressive bet added by a seat that has bet."""
        assert isinstance(spots, CaribbeanSpots)
        if self.engine.has_box(seat):
            if spots.ante is not UNSET or not spots.progressive:
                raise IllegalActionError(
                    f"seat {seat} has already bet in this round: only the progressive bet "
                    "may be added",
                    reason="already_bet",
                )
            return AddProgressive(seat=seat)
        if spots.ante is UNSET:
            raise InvalidRequestError("an ante is required", reason="ante_required")
        return PlaceBets(seat=seat, ante=Chips(spots.ante), progressive=bool(spots.progressive))

    def check_bets(self, seat: int, spots: Spots) -> int:
        action = self.bet_action(seat, spots)
        self.engine.verify(action)
        return int(self.engine.price(action))

    def bets_total(self, spots: Spots) -> int:
        """The money a bet puts on the table (no seat rules checked)."""
        assert isinstance(spots, CaribbeanSpots)
        side = self.engine.config.progressive_bet or 0
        ante = 0 if spots.ante is UNSET else spots.ante
        return int(opening_stake(ante=ante, progressive=side if spots.progressive else 0))

    def place_bets(self, seat: int, spots: Spots) -> None:
        self.engine.apply(self.bet_action(seat, spots))

    def adopt_limits(self, factory: CaribbeanFactory) -> None:
        """The table's limits changed (an operator): bets placed from now on in this round's
        betting window are checked against them; the bets placed stand."""
        if self.engine.phase is Phase.BETTING:
            config = factory.config
            self.engine.change_limits(ante_min=config.ante_min, ante_max=config.ante_max)

    def can_close_betting(self) -> bool:
        return self.engine.can_close_betting()

    def close_betting(self) -> None:
        self.engine.close_betting()

    # -- decisions -----------------------------------------------------------------------

    def action(self, seat: int, act: ActMessage) -> Raise | Fold:
        """The decision ``act`` as the engine's typed action (its Raise is fixed: no detail
        is taken)."""
        refuse_details(act, "Caribbean Stud")
        match act.action:
            case "raise":
                return Raise(seat=seat)
            case "fold":
                return Fold(seat=seat)
            case other:
                raise InvalidRequestError(
                    f"unknown action {other!r}; Caribbean Stud has {_ACTIONS}",
                    reason="unknown_action",
                    params={"action": str(other)},
                )

    def check(self, action: Action) -> int:
        """Refuse ``action`` unless the engine takes it; the Raise it needs (the engine's
        price)."""
        decision = _decision(action)
        self.engine.verify(decision)
        return int(self.engine.price(decision))

    def apply(self, action: Action) -> None:
        self.engine.apply(_decision(action))

    def apply_timeout(self, seat: int) -> None:
        """The seat ran out of time: the engine's default, a fold (it holds nothing)."""
        action = self.engine.default_action(seat)
        if action is None:
            raise IllegalActionError(
                f"seat {seat} has nothing to decide", reason="not_your_turn", params={"seat": seat}
            )
        self.engine.apply(action)

    def legal(self, seat: int) -> list[str]:
        return list(self.engine.legal_words(seat))

    def turn_stakes(self, seat: int) -> dict[str, int]:
        """The Raise ``seat`` may bet now, at the engine's price."""
        if "raise" not in self.engine.legal_words(seat):
            return {}
        return {"raise": int(self.engine.price(Raise(seat=seat)))}

    def decision_word(self, act: ActMessage) -> str | None:
        return _word(act)

    # -- closing -------------------------------------------------------------------------

    def returns(self) -> dict[int, int]:
        if self.engine.phase is not Phase.SETTLED:
            return {}
        return {seat: int(back) for seat, back in self.engine.returns().items()}

    def void(self, reason: str) -> None:
        if self.engine.can_void():
            self.engine.void(reason)

    # -- what each seat sees -------------------------------------------------------------

    def events_since(self, index: int) -> tuple[CaribbeanEvent, ...]:
        return self.engine.events_since(index)

    def visible_to_all(self, event: Any) -> bool:
        return bool(event.audience == PUBLIC)

    def project_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        # A box's five cards its owner alone; the dealer's four down cards nobody until the
        # showdown (the events' audiences, croupier.games.caribbean.events).
        if isinstance(event, BoxSettled):
            return {"kind": event.kind, "result": caribbean_history.result_to_dict(event.result)}
        data: dict[str, Any] = to_json(event.seen_by(seat))
        data["kind"] = event.kind
        return data

    def view(self, seat: int | None) -> dict[str, Any]:
        engine = self.engine
        view = engine.view(seat)
        data: dict[str, Any] = {
            f.name: to_json(getattr(view, f.name))
            for f in dataclasses.fields(view)
            if f.name != "result"
        }
        data["result"] = (
            None if view.result is None else caribbean_history.result_to_dict(view.result)
        )
        data["prices"] = self.turn_stakes(seat) if seat is not None else {}
        data["pending_seats"] = list(engine.pending_seats)
        # a casino table shows every box's bets and decisions (not its cards)
        data["boxes"] = [to_json(engine.box(s)) for s in engine.seats]
        data["raise_multiple"] = engine.config.raise_multiple
        return data

    def record(self, round_id: int) -> dict[str, Any]:
        return caribbean_history.record(self.engine, round_id=round_id)

    def summary(self) -> dict[str, Any]:
        record = caribbean_history.record(self.engine)
        settled = self.engine.phase is Phase.SETTLED
        return {
            "phase": record["phase"],
            "dealer": [str(c) for c in self.engine.dealer_cards] if settled else None,
            "results": record["results"],
            "players_net": record["players_net"],
            "house_net": record["house_net"],
            "jackpot_paid": record["jackpot_paid"],
            "void": record["void"],
        }


def recall_view(round_: Mapping[str, Any], seats: Sequence[int]) -> dict[str, Any]:
    """A closed round as a player recalls it: all of it (a casino table of at most nine
    boxes, every box turned over at the showdown, the deck revealed against the commitment)."""
    return dict(round_)


def advice(query: Mapping[str, str]) -> dict[str, Any]:
    """The advisor's exact EV per unit Ante of raising and of folding the query's ``hand``
    (five cards) against the dealer's ``upcard`` (the rules' pay table), best first: the
    table's Hint.

    Raises:
        InvalidRequestError: a field missing or not cards.
        InvalidCardsError: not five cards and an up card, or a card twice.
    """
    fields = card_fields(query, ("hand", "upcard"), required=("hand", "upcard"))
    found = advise(fields["hand"], fields["upcard"])
    options = sorted(found.options, key=lambda o: o.ev, reverse=True)
    return {
        "best": found.best,
        "options": [
            {"action": o.action, "ev": float(o.ev), "ev_exact": str(o.ev)} for o in options
        ],
    }


def costs(record: Mapping[str, Any], seats: set[int]) -> list[dict[str, Any]] | None:
    """What the decision of each of ``seats`` in a recorded round cost against the best one
    (``GET /api/rounds/{id}/costs``; ``None`` at a table with a payout cap, which the
    advisor does not model)."""
    from croupier.analysis.caribbean.costs import decision_costs

    valued = decision_costs(caribbean_history.replay(dict(record)), seats)
    return None if valued is None else [c.to_json() for c in valued]


# -- the return to player (the operator's figures) ---------------------------------------------

ANALYSED_RULES = ("raise_multiple", "raise_paytable", "max_payout")
"""The rules the exact figure depends on (the rules' values: docs/rules.md)."""

_ANALYSED_DEFAULTS = {k: v for k, v in CaribbeanConfig().to_dict().items() if k in ANALYSED_RULES}

_NET_PER_ANTE = {"dealer_not_qualified": 1, "tie": 0, "fold": -1, "dealer_wins": -3}


@cache
def _exact() -> tuple[Fraction, Fraction, Fraction]:
    """(return per Ante, variance per Ante, element of risk), exact, from the shipped full
    enumeration (``croupier caribbean analyze --exact``, summary.json)."""
    summary = load_summary()
    table = CaribbeanConfig().raise_paytable
    odds = {
        c.name.lower(): Fraction(line.numerator, line.denominator)
        for c in HandCategory
        if (line := table.line_for(c)) is not None
    }
    total, weighted, squared = 0, Fraction(0), Fraction(0)
    for name, count in summary["outcomes"].items():
        net = Fraction(_NET_PER_ANTE.get(name, 0))
        if name.startswith("win_"):  # the Ante 1:1 and the Raise (2 Antes) by the pay table
            net = 1 + 2 * odds[name.removeprefix("win_")]
        total += count
        weighted += count * net
        squared += count * net * net
    mean = weighted / total
    if mean != Fraction(summary["exact"]["ev_per_ante"]):  # pragma: no cover - shipped data
        raise AssertionError("the shipped outcomes do not add up to the shipped return")
    variance = Fraction(squared, total) - mean * mean
    return 1 + mean, variance, Fraction(summary["exact"]["element_of_risk"])


def _analysed(rules: Mapping[str, Any]) -> bool:
    return all(rules.get(k, v) == v for k, v in _ANALYSED_DEFAULTS.items())


def boxes(record: Mapping[str, Any]) -> list[BoxStake]:
    """Every settled box of a Caribbean Stud record; covered by the exact figure when the
    table's rules are those analysed and the box has no progressive bet."""
    analysed = _analysed(record.get("config") or {})
    bets = {int(b["seat"]): b for b in record.get("bets") or []}
    out = []
    for result in record.get("results") or []:
        bet = bets.get(int(result["seat"]), {})
        side = int(bet.get("progressive", 0))
        out.append(
            BoxStake(
                ante=int(bet.get("ante", 0)),
                side=side,
                net=int(result["net"]),
                covered=analysed and not side,
            )
        )
    return out


class CaribbeanTheory:
    """Caribbean Stud's return to player: exact (full enumeration, optimal strategy)."""

    method = (
        "exact analysis (19,933,230,517,200 combinations, optimal strategy) for the rules' "
        "pay table and Raise; boxes with a progressive bet not covered"
    )
    basis = "per unit of Ante"
    shown_rules: tuple[str, ...] = ()

    def round_theory(self, record: Mapping[str, Any], book: object) -> RoundTheory:
        back, variance, _ = _exact()
        stakes = boxes(record)
        shaped = tuple(
            Box(
                base=b.ante,
                net=b.net,
                mean=float((back - 1) * b.ante),
                variance=float(variance * b.ante * b.ante),
            )
            for b in stakes
            if b.covered
        )
        figures = {"return_per_ante": float(back)}
        return RoundTheory(boxes=shaped, figures=figures, uncovered=len(stakes) - len(shaped))

    def prepare_monitor(self) -> None:
        return None  # nothing compiled to load ahead

    def monitor_round(
        self, record: Mapping[str, Any], book: object, *, rules: Mapping[str, Any] | None = None
    ) -> MonitorRound:
        """Each box without a progressive bet against the exact return of optimal play; the
        table's approved ``rules`` (else the record's) must be those analysed. Decisions
        are not valued: the low side allows the server's margin for imperfect play."""
        config = dict(record.get("config") or {}) if rules is None else dict(rules)
        if not _analysed(config):
            differ = [k for k in ANALYSED_RULES if config.get(k) != _ANALYSED_DEFAULTS.get(k)]
            return MonitorRound(
                status="unavailable", reason=f"the exact figure is for the rules' {differ}"
            )
        back, variance, _ = _exact()
        per_ante = 1 + int(config.get("raise_multiple", _ANALYSED_DEFAULTS["raise_multiple"]))
        bets = {int(b["seat"]): b for b in record.get("bets") or []}
        shaped, uncovered = [], 0
        for result in record.get("results") or []:
            bet = bets.get(int(result["seat"]), {})
            ante = int(bet.get("ante", 0))
            if int(bet.get("progressive", 0)) or not ante:
                uncovered += 1
                continue
            shaped.append(
                MonitorBox(
                    seat=int(result["seat"]),
                    base=ante,
                    net=int(result["net"]),
                    mean=float((back - 1) * ante),
                    loss=ante * per_ante,
                    variance=float(variance * ante * ante),
                )
            )
        return MonitorRound(boxes=tuple(shaped), uncovered=uncovered)

    def warm(self, rules: Mapping[str, Any], book: object) -> None:
        return None  # the figure ships computed

    def table_return(self, rules: Mapping[str, Any], book: object) -> dict[str, Any]:
        """The exact return per Ante for a table with the rules' Raise and pay table."""
        base: dict[str, Any] = {"method": "exact", "per": "ante"}
        differ = [k for k in ANALYSED_RULES if rules.get(k) != _ANALYSED_DEFAULTS.get(k)]
        if differ:
            return {
                **base,
                "status": "unavailable",
                "reason": f"the exact figure is for the rules' pay table; this table changes "
                f"{differ}",
            }
        back, variance, risk = _exact()
        return {
            **base,
            "status": "ready",
            "return": float(back),
            "return_exact": f"{back.numerator}/{back.denominator}",
            "house_edge": float(1 - back),
            "element_of_risk": float(risk),
            "sd_per_round": float(variance) ** 0.5,
        }

    def published_return(self, record: Mapping[str, Any] | None, wagered: int) -> float:
        """Wizard of Odds' element of risk, 2.555 % of the total bet (Ante and Raise)."""
        return wagered * (1 - 0.02555)


THEORY = CaribbeanTheory()


# -- what an operator may change -----------------------------------------------------------------


def _check_paytable(name: str, rule: str, lines: Mapping[str, Any]) -> None:
    CaribbeanConfig.from_dict({rule: lines})


SETTINGS = OperatorSettings(
    limits={"min_bet": "ante_min", "max_bet": "ante_max", "max_payout": "max_payout"},
    paytables={"raise": "raise_paytable"},
    paytable_lines=frozenset(c.name.lower() for c in HandCategory),
    check_paytable=_check_paytable,
)
