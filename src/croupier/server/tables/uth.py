"""Ultimate Texas Hold'em at a server table: the :class:`GameRound` adapter for ``UthRound``.

Opening bets are ``{"ante": A, "trips": T}`` (the Blind equals the Ante and is placed with
it, spec/uth.md "Betting"; a ``"blind"`` spot may be sent but must equal the Ante). A seat
that has bet may add ``{"trips": T}`` as a second request in the same betting window (seed
001: the Trips spot opens once the Ante is accepted), checked against the limits in force
(an operator's change applies to every bet placed after it). Decisions are ``check``, ``fold`` and ``play`` with ``multiple`` (or ``"4x"``...
as the action; the table's ``play_multiples``); a Play bet holds ``multiple x Ante`` more.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, Protocol

from croupier.analysis.returns import Box
from croupier.analysis.uth.moments import BlindKey, UthMoments, blind_key, moments
from croupier.analysis.uth.paytables import PayTable, check_paytable, from_engine
from croupier.cards import DECK, Card
from croupier.chips import Chips
from croupier.deck import Shoe
from croupier.errors import ConfigError, CroupierError, IllegalActionError
from croupier.evaluator import HandCategory
from croupier.games.paytables import PayTable as EnginePayTable
from croupier.games.protocol import Action
from croupier.games.uth import (
    AddTrips,
    BoxView,
    Check,
    Fold,
    Phase,
    PlaceBets,
    Play,
    SeatView,
    UthAction,
    UthConfig,
    UthRound,
)
from croupier.games.uth.actions import price
from croupier.games.uth.config import PlayMultiples
from croupier.games.uth.events import (
    PUBLIC,
    BetsPlaced,
    Checked,
    Folded,
    PlayBet,
    SeatSettled,
    TripsPlaced,
    UthEvent,
)
from croupier.history import uth as uth_history
from croupier.history.uth import result_to_dict
from croupier.server.errors import InvalidRequestError
from croupier.server.rounds.theory import BoxStake, MonitorRound, RoundTheory, TheoryLookup
from croupier.server.tables import uth_monitor
from croupier.server.tables.config import TableConfig
from croupier.server.tables.games import OperatorSettings, to_json
from croupier.server.tables.protocol import ActMessage, refuse_details
from croupier.server.tables.uth_theory import blind_lookup
from croupier.server.tables.uth_wire import UthSpots
from croupier.server.tables.wire import UNSET, Spots, read_spots

__all__ = [
    "SETTINGS",
    "THEORY",
    "UthFactory",
    "UthTableRound",
    "UthTheory",
    "boxes",
    "paytables",
    "recall_view",
]


class UthFactory:
    """Rounds for one UTH table; ``rules`` in the table config go to :class:`UthConfig`."""

    game = "uth"
    kind: Literal["banked"] = "banked"
    spots: type[Spots] = UthSpots

    def __init__(self, table: TableConfig) -> None:
        self.config = _config(table.rules)
        self._pricing: UthTableRound | None = None

    def reconfigure(self, rules: Mapping[str, Any]) -> None:
        """New rules for the rounds opened from now on (seed 003: management may change a
        table's limits during play; the round in play takes the new limits for the bets
        placed in its betting window after the change, :meth:`UthTableRound.adopt_limits`).
        Checked whole first: rules that are refused change nothing.

        Raises:
            ConfigError: the new rules are not valid, or change the number of seats.
        """
        config = _config(rules)
        if config.max_seats != self.config.max_seats:
            raise ConfigError("max_seats cannot change while the table is open")
        self.config, self._pricing = config, None

    def new_round(self, shoe: Shoe, *, salt: str = "") -> UthTableRound:
        return UthTableRound(UthRound(self.config, shoe))

    def describe(self) -> dict[str, Any]:
        return self.config.to_dict()

    def min_stake(self) -> int:
        """The least a seat can bet: the minimum Ante and the Blind equal to it."""
        return int(price(PlaceBets(seat=0, ante=Chips(self.config.ante_min))))

    def bet_prices(self) -> dict[str, dict[str, int]]:
        """The engine's price of one unit of each opening amount (the Blind is the Ante's)."""
        one = Chips(1)
        return {
            "bet": {
                "ante": int(price(PlaceBets(seat=0, ante=one))),
                "trips": int(price(PlaceBets(seat=0, ante=Chips(0), trips=one))),
            },
            "trips": {"trips": int(price(AddTrips(seat=0, trips=one)))},
        }

    def price_bet(self, bets: Mapping[str, int]) -> int:
        """The engine's price of a bet of a seat that has not bet, checked against the
        table's rules (a cluster's gateway holds that much): a round on an ordered deck
        answers, no shuffle (its cards are never dealt)."""
        if self._pricing is None:
            self._pricing = UthTableRound(UthRound(self.config, Shoe(DECK)))
        return self._pricing.check_bets(0, read_spots(bets, self.spots))

    def decision_word(self, act: ActMessage) -> str | None:
        """The wire name of the decision ``act`` asks for (:meth:`UthTableRound.decision_word`)."""
        return _word(act)

    def details_taken(self, action: str) -> tuple[str, ...]:
        return _TAKEN.get(action, ())

    def max_seats(self) -> int | None:
        return self.config.max_seats


_MULTIPLE = re.compile(r"^(10|[1-9])x$")


def _config(rules: Mapping[str, Any]) -> UthConfig:
    return UthConfig.from_dict(rules)


def _decision(action: Action) -> Check | Play | Fold:
    """``action`` as a seat's decision of a UTH round (the driver passes back what
    :meth:`UthTableRound.action` made)."""
    if not isinstance(action, Check | Play | Fold):
        raise TypeError(f"{action!r} is not a decision of a UTH round")
    return action


def _multiple(act: ActMessage) -> int | None:
    if act.action == "play":
        if act.multiple is None:
            raise InvalidRequestError(
                "a play needs a multiple (4, 3, 2 or 1)", reason="play_multiple_required"
            )
        return act.multiple
    match = _MULTIPLE.match(act.action)
    return int(match.group(1)) if match else None


_TAKEN = {"play": ("multiple",)}
"""The details an action takes (:func:`.protocol.refuse_details`)."""


def _word(act: ActMessage) -> str | None:
    """The wire name (as ``legal`` gives it) of the decision ``act`` asks for, or ``None``."""
    try:
        multiple = _multiple(act)
    except CroupierError:
        return None  # a play with no multiple
    if multiple is not None:
        return f"{multiple}x"
    return act.action if act.action in ("check", "fold") else None


_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(SeatView))
_BOX_FIELDS = tuple(f.name for f in dataclasses.fields(BoxView))


def _box_json(box: BoxView) -> dict[str, Any]:
    # Every field of a box is an int or a bool: JSON as it is.
    return {name: getattr(box, name) for name in _BOX_FIELDS}


_PLAIN_EVENTS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls))
    for cls in (BetsPlaced, TripsPlaced, PlayBet, Checked, Folded)
}
"""Events whose wire form is their fields as they are (ints and booleans, no card)."""


class UthTableRound:
    """One :class:`UthRound` driven by a table."""

    game = "uth"

    def __init__(self, engine: UthRound) -> None:
        self.engine = engine
        self._cards: dict[tuple[Card, ...], list[str]] = {}
        """Card tuples already written as notation: a live table's thousand views of one
        phase share the board, the dealer's cards and (a shared hand) the hole cards, so each
        is written once a round (issue 18: the same work for every seat done once)."""
        self._written: dict[int, dict[str, Any]] = {}
        """Each seat's result as sent (``seat_settled``), written once: the record reuses it."""
        self._recorded: tuple[int, dict[str, Any]] | None = None
        """The last record made and how many events it saw: the summary of a thousand-box
        round reads it instead of walking the round again."""

    def _card_list(self, cards: tuple[Card, ...]) -> list[str]:
        written = self._cards.get(cards)
        if written is None:
            written = self._cards[cards] = [str(c) for c in cards]
        return written

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
    def seat_count(self) -> int:
        return self.engine.box_count

    @property
    def pending_count(self) -> int:
        return self.engine.pending_count

    @property
    def pending_turns(self) -> tuple[int, ...]:
        # Every seat decides at once in a phase (spec/uth.md "Dealing and decisions"): the phase is the turn,
        # and no seat's turn opens within one (nor is a thousand seats sorted each request).
        return ()

    @property
    def finished(self) -> bool:
        return self.engine.finished

    @staticmethod
    def _bets(spots: UthSpots) -> tuple[int, int]:
        if spots.ante is UNSET:
            raise InvalidRequestError(
                "an ante is required (the blind is placed with it)", reason="ante_required"
            )
        ante, trips = spots.ante, spots.trips or 0
        if spots.blind is not UNSET and spots.blind != ante:
            raise IllegalActionError(
                f"blind {spots.blind} must equal the ante {ante} (spec/uth.md Betting)",
                reason="blind_must_equal_ante",
                params={"blind": spots.blind, "ante": ante},
            )
        return ante, trips

    def bet_action(self, seat: int, spots: Spots) -> PlaceBets | AddTrips:
        """The engine's action of a bet from ``seat``: its opening bets, or Trips added by a
        seat that has bet (seed 001: the Trips spot opens once the Ante is accepted)."""
        assert isinstance(spots, UthSpots)
        if self.engine.has_box(seat):
            if not spots.trips_only:
                raise IllegalActionError(
                    f"seat {seat} has already bet in this round: only Trips may be added",
                    reason="already_bet",
                )
            return AddTrips(seat=seat, trips=Chips(spots.trips or 0))
        ante, trips = self._bets(spots)
        return PlaceBets(seat=seat, ante=Chips(ante), trips=Chips(trips))

    def check_bets(self, seat: int, spots: Spots) -> int:
        action = self.bet_action(seat, spots)
        self.engine.verify(action)
        return int(self.engine.price(action))

    def bets_total(self, spots: Spots) -> int:
        assert isinstance(spots, UthSpots)
        if spots.trips_only:
            return int(self.engine.price(AddTrips(seat=0, trips=Chips(spots.trips or 0))))
        ante, trips = self._bets(spots)
        return int(self.engine.price(PlaceBets(seat=0, ante=Chips(ante), trips=Chips(trips))))

    def place_bets(self, seat: int, spots: Spots) -> None:
        self.engine.apply(self.bet_action(seat, spots))

    def adopt_limits(self, factory: UthFactory) -> None:
        """The table's limits changed (an operator): bets placed from now on in this round's
        betting window are checked against them; the bets placed stand (seed 003: "tudi med
        igro"). After the deal nothing changes: the rest of the rules wait for the next round."""
        if self.engine.phase is Phase.BETTING:
            self.engine.change_limits(factory.config.limits())

    def can_close_betting(self) -> bool:
        return self.engine.can_close_betting()

    def close_betting(self) -> None:
        self.engine.close_betting()

    def action(self, seat: int, act: ActMessage) -> UthAction:
        """The decision ``act`` as the engine's typed action, translated once: ``check``,
        ``fold``, ``play`` with a ``multiple`` or ``"4x"``... (the table's ``play_multiples``
        are the engine's to check)."""
        refuse_details(act, "UTH", *_TAKEN.get(act.action, ()))
        multiple = _multiple(act)
        if multiple is not None:
            return Play(seat=seat, multiple=multiple)
        if act.action == "check":
            return Check(seat=seat)
        if act.action == "fold":
            return Fold(seat=seat)
        raise InvalidRequestError(
            f"unknown action {act.action!r}; UTH has check, play (4x 3x 2x 1x...) and fold",
            reason="unknown_action",
            params={"action": act.action},
        )

    def check(self, action: Action) -> int:
        """Refuse ``action`` unless the engine takes it; the Play bet it needs (the
        engine's price)."""
        decision = _decision(action)
        self.engine.verify(decision)
        return int(self.engine.price(decision))

    def apply(self, action: Action) -> None:
        self.engine.apply(_decision(action))

    def apply_timeout(self, seat: int) -> None:
        self.engine.apply_timeout(seat)

    def returns(self) -> dict[int, int]:
        return {seat: result.returned for seat, result in self.engine.results.items()}

    def legal(self, seat: int) -> list[str]:
        return list(self.engine.legal_words(seat))

    def turn_stakes(self, seat: int) -> dict[str, int]:
        """Each Play bet ``seat`` may make now at the engine's price: ``"4x"`` -> 4 x its
        Ante (spec/uth.md)."""
        found = ((word, _MULTIPLE.match(word)) for word in self.engine.legal_words(seat))
        price = self.engine.price
        return {
            word: int(price(Play(seat=seat, multiple=int(match.group(1)))))
            for word, match in found
            if match
        }

    def decision_word(self, act: ActMessage) -> str | None:
        return _word(act)

    def void(self, reason: str) -> None:
        if self.engine.can_void():
            self.engine.void(reason)

    def events_since(self, index: int) -> tuple[UthEvent, ...]:
        return self.engine.events_since(index)

    def visible_to_all(self, event: Any) -> bool:
        return bool(event.audience == PUBLIC)

    def project_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        # The dealer's cards and burns stay hidden until showdown (DealerRevealed is public);
        # another seat's hole cards are never shown (issue 5: a client sees only its seat).
        if isinstance(event, SeatSettled):
            # Written once, straight to its wire form (the generic walk of the result, then
            # its replacement, cost a live table twice a thousand walks a round).
            result = self._written.get(event.result.seat)
            if result is None:
                result = self._written[event.result.seat] = result_to_dict(event.result)
            return {"result": result, "kind": event.kind}
        plain = _PLAIN_EVENTS.get(type(event))
        if plain is not None:
            # A seat's bets and decisions: numbers only, nothing hidden from anyone; a live
            # table writes a thousand of them a phase, straight from their fields.
            fields = {name: getattr(event, name) for name in plain}
            fields["kind"] = event.kind
            return fields
        data: dict[str, Any] = to_json(event.seen_by(seat))
        data["kind"] = event.kind
        if self.engine.config.max_seats is None:
            # A live table's hundreds of seats are counted, not listed, in what everyone gets.
            if data["kind"] == "betting_closed":
                data["boxes"] = len(data.pop("seats"))
            elif data["kind"] == "round_voided":
                data["refunds"] = [r for r in data["refunds"] if r[0] == seat]
            elif data["kind"] == "antes_returned":
                # seed 003: every Ante still in play goes back first; each seat knows its own
                data["boxes"] = len(data["antes"])
                data["antes"] = [a for a in data["antes"] if a[0] == seat]
        return data

    def view(self, seat: int | None) -> dict[str, Any]:
        # A spectator sees what a seat without a box sees: the board, and nothing private.
        data = self._view_json(self.engine.view(seat))
        # The price of each decision now (the engine's): what a button says it costs.
        data["prices"] = self.turn_stakes(seat) if seat is not None else {}
        if self.engine.config.max_seats is not None:
            # A casino table shows every box; a live table's hundreds of boxes are not sent
            # with every view (each seat sees its own in ``box``).
            data["pending_seats"] = list(self.engine.pending_seats)
            data["boxes"] = [to_json(self.engine.box(s)) for s in self.engine.seats]
        else:
            data["pending"] = self.engine.pending_count
            data["boxes_in_play"] = self.engine.box_count
        return data

    def _view_json(self, view: SeatView) -> dict[str, Any]:
        """``view`` as JSON, the same as :func:`to_json` gives with the result as
        :func:`result_to_dict` writes it, with the card tuples every seat shares written once."""
        data: dict[str, Any] = {}
        for name in _VIEW_FIELDS:
            value = getattr(view, name)
            if value is None:
                data[name] = None
            elif name == "result":
                data[name] = result_to_dict(value)
            elif isinstance(value, BoxView):
                data[name] = _box_json(value)
            elif isinstance(value, tuple) and all(isinstance(c, Card) for c in value):
                data[name] = self._card_list(value) if value else []
            else:
                data[name] = to_json(value)
        return data

    def record(self, round_id: int) -> dict[str, Any]:
        data = uth_history.record(self.engine, round_id=str(round_id), written=self._written)
        self._recorded = (len(self.engine.events), data)
        return data

    def summary(self) -> dict[str, Any]:
        recorded = self._recorded
        if recorded is not None and not self.engine.events_since(recorded[0]):
            record = recorded[1]  # nothing happened since: the same record
        else:
            record = uth_history.record(self.engine)
        return {
            "phase": record["phase"],
            "board": [str(c) for c in self.engine.board],
            "dealer": [str(c) for c in self.engine.dealer_cards]
            if self.engine.phase is Phase.SETTLED
            else None,
            "results": record["results"],
            "players_net": record["players_net"],
            "house_net": record["house_net"],
            "void": record["void"],
        }


def recall_view(round_: Mapping[str, Any], seats: Collection[int]) -> dict[str, Any]:
    """A finished live round as a player with ``seats`` recalls it: the record and the
    summary's results cut to their own boxes (a thousand-box round is otherwise over a
    megabyte a recall); the cut record still replays (``croupier uth replay``). A casino
    round, and an operator's recall, keep every box."""
    data = dict(round_)
    record = data.get("record")
    if not record or not (record.get("config") or {}).get("shared_hand"):
        return data
    data["record"] = uth_history.record_for_seats(record, seats)
    summary = dict(data.get("summary") or {})
    if "results" in summary:
        summary["results"] = [r for r in summary["results"] if r.get("seat") in set(seats)]
        data["summary"] = summary
    return data


# -- the return to player (the operator's figures) ---------------------------------------------

_PUBLISHED = {"main": 0.9947, "trips": 0.9650}
"""spec/uth.md "Published return to player (001)": the main bets (Ante, Blind, Play) under
optimal strategy, and Trips."""


class _Book(Protocol):
    """The server's theory cache (:class:`croupier.server.reports.theory.TheoryBook`)."""

    def __hash__(self) -> int: ...

    def lookup(self, key: Any, compute: Any) -> TheoryLookup: ...


def paytables(record: Mapping[str, Any]) -> tuple[PayTable, PayTable] | None:
    """The (Blind, Trips) pay tables of a UTH record, or None if it has none readable."""
    config = record.get("config") or {}
    try:
        blind = EnginePayTable.from_mapping("blind", config["blind_paytable"])
        trips = EnginePayTable.from_mapping("trips", config["trips_paytable"])
    except (KeyError, TypeError, CroupierError):
        return None
    return from_engine(blind), from_engine(trips)


def boxes(record: Mapping[str, Any]) -> list[BoxStake]:
    """Every settled box of a UTH record."""
    out = []
    for result in record.get("results") or []:
        stakes = {b.get("bet"): int(b.get("stake", 0)) for b in result.get("bets", [])}
        out.append(
            BoxStake(
                ante=stakes.get("ante", 0), side=stakes.get("trips", 0), net=int(result["net"])
            )
        )
    return out


@lru_cache(maxsize=256)
def _uth_moments(
    book: _Book, blind: BlindKey, trips: tuple[tuple[int, int, int], ...]
) -> UthMoments:
    lookup = blind_lookup(book, {HandCategory(c): (n, d) for c, n, d in blind})
    assert lookup.outcomes is not None
    return moments(lookup.outcomes, {HandCategory(c): (n, d) for c, n, d in trips})


def _key(table: Mapping[Any, tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted((int(c), n, d) for c, (n, d) in table.items()))


def _table_return(rules: Mapping[str, Any], book: _Book) -> dict[str, Any]:
    config = UthConfig.from_dict({k: v for k, v in rules.items() if k != "max_seats"})
    base: dict[str, Any] = {"method": "exact", "per": "ante"}
    if config.play_multiples != PlayMultiples() or config.trips_needs_win:
        return {
            **base,
            "status": "unavailable",
            "reason": "the exact analysis here plays the spec's Play multiples (4x/3x, 2x, 1x) "
            "with Trips paid whatever the dealer holds; this table changes that",
        }
    blind, trips = from_engine(config.blind_paytable), from_engine(config.trips_paytable)
    lookup = blind_lookup(book, blind)
    if lookup.outcomes is None:
        return {**base, "status": lookup.status, "reason": lookup.reason}
    m = _uth_moments(book, _key(blind), _key(trips))
    figures = {
        **base,
        "status": "ready",
        "return": float(m.return_per_ante),
        "return_exact": _fraction(m.return_per_ante),
        "house_edge": float(-m.ev_main),
        "sd_per_round": float(m.var_main) ** 0.5,
        "trips_return": float(m.trips_return),
        "trips_return_exact": _fraction(m.trips_return),
    }
    mean_bet = lookup.outcomes.average_total_bet
    if mean_bet:
        # seed 001's "puntata principale totale": per unit of everything the main game
        # stakes (Ante + Blind + Play), 1 - the element of risk.
        per_total = 1 + m.ev_main / mean_bet
        figures |= {
            "return_per_total_bet": float(per_total),
            "return_per_total_bet_exact": _fraction(per_total),
        }
    return figures


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


class UthTheory:
    """UTH's return to player: exact, for the table's own pay tables (optimal play)."""

    method = (
        "exact analysis for the table's pay tables (optimal play); 95 % interval from the "
        "exact variance, a round's boxes taken as fully correlated"
    )
    basis = "per unit of base stake (Ante + Trips)"
    shown_rules: tuple[str, ...] = ()

    def round_theory(self, record: Mapping[str, Any], book: _Book) -> RoundTheory:
        tables = paytables(record)
        stakes = boxes(record)
        unknown = tuple(Box(base=b.ante + b.side, net=b.net, mean=0, variance=0) for b in stakes)
        if tables is None:
            return RoundTheory(
                boxes=unknown, status="unavailable", reason="a round's record has no pay tables"
            )
        lookup = blind_lookup(book, tables[0])
        if lookup.outcomes is None:
            status = "computing" if lookup.status == "computing" else "unavailable"
            return RoundTheory(boxes=unknown, status=status, reason=lookup.reason)
        m = moments(lookup.outcomes, tables[1])
        shaped = []
        for b in stakes:
            mean, variance = m.box(b.ante, b.side)
            shaped.append(Box(base=b.ante + b.side, net=b.net, mean=mean, variance=variance))
        figures = {
            "return_per_ante": float(m.return_per_ante),
            "trips_return": float(m.trips_return),
        }
        return RoundTheory(boxes=tuple(shaped), figures=figures)

    def warm(self, rules: Mapping[str, Any], book: _Book) -> None:
        """The table's Blind pay table, computing in the book from now on."""
        try:
            blind = UthConfig.from_dict(rules).blind_paytable
        except (CroupierError, TypeError):
            return  # the table manager reports a bad table itself
        blind_lookup(book, from_engine(blind))

    def table_return(self, rules: Mapping[str, Any], book: _Book) -> dict[str, Any]:
        """Exact, from the project's exact analysis for the table's own pay tables (the
        theory cache: the spec's Blind table ships computed, any other takes one exact run in
        a worker process and is ``computing`` until then; a Trips change needs no run). The
        analysis plays the spec's Play multiples (4x/3x, 2x, 1x) with Trips paid whatever the
        dealer holds; a table with other options has no exact figure here."""
        return _table_return(rules, book)

    def published_return(self, record: Mapping[str, Any] | None, wagered: int) -> float:
        staked = sum(int(bet.get("trips", 0)) for bet in (record or {}).get("bets", []))
        trips = min(staked, wagered)
        return (wagered - trips) * _PUBLISHED["main"] + trips * _PUBLISHED["trips"]

    def prepare_monitor(self) -> None:
        uth_monitor.prepare()

    def monitor_round(
        self, record: Mapping[str, Any], book: _Book, *, rules: Mapping[str, Any] | None = None
    ) -> MonitorRound:
        """Each box against the compensator of its own decisions (:mod:`.uth_monitor`)."""
        return uth_monitor.monitor_round(record, book, rules=rules)


THEORY = UthTheory()


# -- what an operator may change -----------------------------------------------------------------


def _check_paytable(name: str, rule: str, lines: Mapping[str, Any]) -> None:
    EnginePayTable.from_mapping(name, lines)


def _check_analysable(factory: Any) -> None:
    """The exact analysis' own check of a table's pay tables (it must count them)."""
    config = getattr(factory, "config", None)
    if not isinstance(config, UthConfig):
        return
    try:
        blind_key(from_engine(config.blind_paytable))
        check_paytable(from_engine(config.trips_paytable), name="trips")
    except ConfigError as exc:
        raise ConfigError(
            f"paytables.blind: {exc}",
            reason="paytable_not_analysable",
            params={"paytable": "blind"},
        ) from None


SETTINGS = OperatorSettings(
    limits={
        "min_bet": "ante_min",
        "max_bet": "ante_max",
        "trips_min": "trips_min",
        "trips_max": "trips_max",
        "max_payout": "max_payout",
    },
    paytables={"blind": "blind_paytable", "trips": "trips_paytable"},
    paytable_lines=frozenset(c.name.lower() for c in HandCategory),
    lines_removable=True,
    whole_odds=False,
    check_paytable=_check_paytable,
    check_factory=_check_analysable,
)
