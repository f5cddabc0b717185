"""Texas Hold'em cash games at a server table: the factory and the adapter of one ``CashHand``.

The table's cash-game driver (:class:`croupier.server.tables.cash.CashDriver`) owns stacks and the
button; each hand it builds a :class:`HoldemHand` over the seats dealt in. The engine counts
players by position (0 = small blind ... last = button, spec/phh.md section 2); everything
this adapter sends out names physical seats instead.

Table rules (``[tables.rules]``, amounts in minor units): ``small_blind`` (default 100),
``big_blind`` (200), ``ante`` (0), ``structure`` (``no-limit``, ``pot-limit``,
``fixed-limit``), ``max_seats`` (6, at most 10), ``min_buy_in`` (40 big blinds),
``max_buy_in`` (100 big blinds), ``rake_percent`` (0; a number of per cent, such as 5 or
"2.5"), ``rake_cap`` (none), ``no_flop_no_drop`` (true), ``showdown`` (``"seed"``, seed
002's rule, or ``"any-muck"``), ``first_to_show`` (``"hand"``, seed 002's, or ``"river"``)
and ``odd_chip`` (``"position"`` or ``"suit"``), see docs/rules.md. ``split`` may only be
``"live"`` here: an ``"exact"`` split is refused when the table is configured.

Decisions are ``fold``, ``check``, ``call``, ``bet``/``raise`` with ``amount`` = the street
total to bet or raise to, and ``all_in`` (the whole stack, when a legal action puts it in).
What a seat is offered (``options.actions``) and what a seat that does not act in time does
(check when it can, else fold) are the engine's answers (``legal_actions``,
``default_action``), never worked out here again. At showdown the table shows or mucks for
each player in turn (spec/holdem.md "Winning"): a hand that cannot win any pot against the
hands already shown is mucked, and a mucked hand is never shown to anyone (see
:meth:`HoldemHand.showdown`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from croupier.chips import Chips
from croupier.errors import ConfigError, IllegalActionError
from croupier.evaluator import evaluate_ids
from croupier.games.holdem import (
    Call,
    CashHand,
    Check,
    Fold,
    HoldemAction,
    HoldemTableConfig,
    Raise,
    SplitPolicy,
    all_in,
)
from croupier.games.holdem.events import CardBurned, HoldemEvent, PotAwarded
from croupier.games.holdem.phase import STREET_NAMES, Phase
from croupier.games.holdem.pots import build_pots
from croupier.games.protocol import PUBLIC, Action
from croupier.history import holdem as holdem_history
from croupier.server.errors import InvalidRequestError
from croupier.server.tables import fairness
from croupier.server.tables.config import TableConfig
from croupier.server.tables.games import CountedFromLists, OperatorSettings, to_json
from croupier.server.tables.protocol import ActMessage, refuse_details

if TYPE_CHECKING:
    from croupier.deck import Shoe

__all__ = ["ACTIONS", "SETTINGS", "THEORY", "HoldemFactory", "HoldemHand", "HoldemTheory"]

ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")


def _rules(rules: Mapping[str, Any]) -> HoldemTableConfig:
    """A table's rules, read and checked (:meth:`HoldemTableConfig.from_dict`), and only rules
    this server can deal.

    Raises:
        ConfigError: rules that are not valid, or ``split = "exact"``: an exact split divides
            a pot into fractions of a cent, which stacks kept in the wallet's minor units
            cannot hold (the engine plays it in PHH replays and the terminal table).
    """
    config = HoldemTableConfig.from_dict(rules)
    if config.split is not SplitPolicy.LIVE:
        raise ConfigError(
            f"split = {config.split.value!r} cannot be dealt at a server table: it divides "
            f"pots into fractions of a cent; use split = {SplitPolicy.LIVE.value!r} (whole "
            f"cents, the odd cent by odd_chip)"
        )
    return config


class HoldemFactory:
    """Hands for one Hold'em cash table; the table itself is a cash-game table."""

    game = "holdem"
    kind: Literal["cash"] = "cash"

    def __init__(self, table: TableConfig) -> None:
        self.rules = _rules(table.rules)
        self.table_name = table.name

    def reconfigure(self, rules: Mapping[str, Any]) -> None:
        """New rules from the next hand on; the hand in play keeps its own. Checked whole
        first: rules that are refused change nothing.

        Raises:
            ConfigError: the new rules are not valid, or change the number of seats.
        """
        new = _rules(rules)
        if new.max_seats != self.rules.max_seats:
            raise ConfigError("max_seats cannot change while the table is open")
        self.rules = new

    @property
    def min_buy_in(self) -> int:
        return self.rules.min_buy_in

    @property
    def max_buy_in(self) -> int:
        return self.rules.max_buy_in

    @property
    def forced_bets(self) -> int:
        return self.rules.big_blind + self.rules.ante

    def new_hand(
        self,
        shoe: Shoe,
        *,
        seats: Sequence[int],
        stacks: Sequence[int],
        names: Sequence[str],
        button: int,
    ) -> HoldemHand:
        """A hand over ``seats`` in position order (left of the button first, button last)."""
        engine = CashHand(self.rules.hand_config(len(seats)), shoe, stacks=stacks)
        hand = HoldemHand(engine, seats=seats, names=names, button=button, table=self.table_name)
        hand.showdown()
        return hand

    def describe(self) -> dict[str, Any]:
        return self.rules.to_dict()

    def bet_prices(self) -> dict[str, dict[str, int]]:
        """None: a hand's chips are at the table (bought in), no bet is priced."""
        return {}

    def max_seats(self) -> int | None:
        return self.rules.max_seats


class HoldemHand(CountedFromLists):
    """One :class:`CashHand` as a table drives it; seats are physical seat numbers."""

    game = "holdem"

    def __init__(
        self,
        engine: CashHand,
        *,
        seats: Sequence[int],
        names: Sequence[str],
        button: int,
        table: str,
    ) -> None:
        self.engine = engine
        self._seats = tuple(seats)
        self._names = tuple(names)
        self._position = {seat: pos for pos, seat in enumerate(self._seats)}
        self.button = button
        self._table = table
        self._void: str | None = None
        self.wager_left: dict[int, int] = {}
        """Seat -> what its player's wager limit still allows in (issue 27; set by the
        table): :meth:`options` offers only what fits."""

    # -- state ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.engine.phase.value

    @property
    def street(self) -> str:
        return STREET_NAMES[self.engine.street]

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats dealt in, in position order."""
        return self._seats

    @property
    def actor(self) -> int | None:
        pos = self.engine.actor
        return None if pos is None or self._void else self._seats[pos]

    @property
    def pending_seats(self) -> tuple[int, ...]:
        actor = self.actor
        return () if actor is None else (actor,)

    @property
    def finished(self) -> bool:
        return self._void is not None or self.engine.is_over

    @property
    def voided(self) -> bool:
        return self._void is not None

    def starting_stacks(self) -> dict[int, int]:
        return dict(zip(self._seats, self.engine.starting_stacks, strict=True))

    def hole_cards(self) -> dict[int, list[str]]:
        """Every seat's hole cards (the dealer's view)."""
        holes = {}
        for pos, seat in enumerate(self._seats):
            cards = self.engine.hole_cards(pos)
            if cards is not None:
                holes[seat] = [str(c) for c in cards]
        return holes

    def shown_seats(self) -> list[int]:
        """Seats that tabled their cards at showdown (nobody's, in a voided hand)."""
        if self._void is not None:
            return []
        return [seat for pos, seat in enumerate(self._seats) if self.engine.shown(pos)]

    def public_cards(self) -> list[str]:
        """The cards everyone saw, which the hand's reveal opens: the board and the burns
        actually dealt, and the hands shown at showdown. Never the stub, never a folded or
        mucked hand (issue 13)."""
        cards = [str(c) for c in self.burned_cards()] + [str(c) for c in self.engine.board]
        holes = self.hole_cards()
        for seat in self.shown_seats():
            cards += holes.get(seat, [])
        return cards

    def burned_cards(self) -> list[str]:
        """The cards burnt before the streets dealt so far."""
        return [str(e.card) for e in self.engine.events if isinstance(e, CardBurned)]

    def final_stacks(self) -> dict[int, int]:
        """Each seat's chips after the hand (its starting stack if the hand was voided)."""
        if self._void is not None:
            return self.starting_stacks()
        return dict(zip(self._seats, self.engine.stacks, strict=True))

    def committed(self, seat: int) -> int:
        """The chips ``seat`` has put into the pots so far (blinds and antes included)."""
        pos = self._pos(seat)
        return int(self.engine.starting_stacks[pos] - self.engine.stacks[pos])

    def chips_in(self, seat: int, action: Action) -> int:
        """The chips ``action`` (``seat``'s, checked as legal) puts into the pots: a call
        what is owed (capped at the stack), a bet or raise its total less what the seat has
        in on this street; nothing for a check or a fold."""
        pos = self._pos(seat)
        match action:
            case Call():
                options = self.engine.options()
                return 0 if options is None else int(options.to_call)
            case Raise(to=to):
                return int(to) - int(self.engine.bets[pos])
            case _:
                return 0

    def winnings(self) -> dict[int, int]:
        """Chips each seat took from the pots (0 for a seat that won nothing)."""
        won = dict.fromkeys(self._seats, 0)
        for event in self.engine.events:
            if isinstance(event, PotAwarded):
                for pos, amount in zip(event.seats, event.amounts, strict=True):
                    won[self._seats[pos]] += amount
        return won

    @property
    def rake(self) -> int:
        return 0 if self._void is not None else self.engine.house_net

    def pots(self) -> list[dict[str, Any]]:
        """The main pot and the side pots of the chips gathered from the streets before this
        one (the bets of this street are still in front of the players), each with the seats
        that can win it (spec/holdem.md "A hand": side pots), as the client draws them."""
        engine = self.engine
        if engine.finished or self._void is not None:
            return []  # paid: the result says who won what
        n = len(self._seats)
        gathered = [engine.starting_stacks[p] - engine.stacks[p] - engine.bets[p] for p in range(n)]
        antes = [min(engine.config.effective_ante(p), gathered[p]) for p in range(n)]
        pots = build_pots(gathered, antes, engine.active, ante_trimming=engine.config.ante_trimming)
        return [
            {"amount": pot.amount, "seats": [self._seats[p] for p in pot.seats]} for pot in pots
        ]

    def awarded(self) -> list[dict[str, Any]]:
        """The main pot and each side pot of a finished hand as it stood at the showdown (0 =
        the main pot), each with its amount before the rake and the seats that won it, for
        the players' result lines. The engine pays two pots with the same winners as one (its
        ``pot_awarded``); the pots are told apart here, from what each player put in and the
        hands shown (spec/holdem.md "A hand": side pots)."""
        engine = self.engine
        if not engine.finished or self._void is not None:
            return []
        n = len(self._seats)
        won = [0] * n
        for event in engine.events:
            if isinstance(event, PotAwarded):
                for pos, amount in zip(event.seats, event.amounts, strict=True):
                    won[pos] += amount
        put_in = [engine.starting_stacks[p] - engine.stacks[p] + won[p] for p in range(n)]
        antes = [min(engine.config.effective_ante(p), put_in[p]) for p in range(n)]
        shown = [engine.shown(p) for p in range(n)]
        live = shown if any(shown) else list(engine.active)
        board = [c.id for c in engine.board]
        value = {
            p: evaluate_ids([c.id for c in cards] + board)
            for p in range(n)
            if shown[p] and (cards := engine.hole_cards(p)) is not None and len(board) >= 3
        }
        lines = []
        pots = build_pots(put_in, antes, live, ante_trimming=engine.config.ante_trimming)
        for index, pot in enumerate(pots):
            contenders = [p for p in pot.seats if live[p]] or list(pot.seats)
            if len(contenders) > 1 and all(p in value for p in contenders):
                best = max(value[p] for p in contenders)
                contenders = [p for p in contenders if value[p] == best]
            lines.append(
                {
                    "pot": index,
                    "amount": pot.amount,
                    "seats": [self._seats[p] for p in contenders],
                }
            )
        return lines

    # -- decisions -----------------------------------------------------------------------

    def _pos(self, seat: int) -> int:
        if seat not in self._position:
            raise IllegalActionError(f"seat {seat} is not in this hand", reason="not_dealt_in")
        return self._position[seat]

    def _turn(self, seat: int) -> int:
        pos = self._pos(seat)
        actor = self.actor
        if actor != seat:
            raise IllegalActionError(
                "no one is to act now" if actor is None else f"it is seat {actor}'s turn",
                reason="not_your_turn",
            )
        return pos

    def action(self, seat: int, act: ActMessage) -> HoldemAction:
        """The decision ``act`` of the seat to act, as the engine's typed action (players
        counted by position), translated once: ``bet`` and ``raise`` are a :class:`Raise` to
        ``amount``, ``all_in`` the raise, call or check that puts the whole stack in."""
        refuse_details(act, "Hold'em", *(("amount",) if act.action in ("bet", "raise") else ()))
        pos = self._turn(seat)
        match act.action:
            case "fold":
                return Fold(seat=pos)
            case "check":
                return Check(seat=pos)
            case "call":
                return Call(seat=pos)
            case "bet" | "raise":
                if act.amount is None:
                    raise InvalidRequestError(
                        f"a {act.action} needs an amount (the total to)",
                        reason="amount_required",
                        params={"action": act.action},
                    )
                return Raise(seat=pos, to=Chips(act.amount))
            case "all_in":
                shove = all_in(self.engine, pos)
                if shove is None:
                    raise IllegalActionError(
                        f"seat {seat} cannot put the whole stack in now: no legal bet, raise "
                        "or call reaches it",
                        reason="all_in_not_allowed",
                        params={"seat": seat},
                    )
                return shove
            case other:
                raise InvalidRequestError(
                    f"unknown action {other!r}; hold'em has {ACTIONS}",
                    reason="unknown_action",
                    params={"action": str(other)},
                )

    def check(self, action: Action) -> int:
        """Validate a decision without changing anything (no extra money is held)."""
        self.engine.verify(_decision(action))
        return 0

    def apply(self, action: Action) -> None:
        self.engine.apply(_decision(action))
        self.showdown()

    def showdown(self) -> None:
        """Once the betting is over, show or muck for every player in turn, as the dealer
        does: the last aggressor first, then clockwise (spec/holdem.md "Winning"). With the
        board complete a hand that cannot win any pot against those already shown is mucked
        (unseen, also after the hand); otherwise, and always while the board is still to
        come (an all-in), the hand is tabled."""
        engine = self.engine
        while engine.phase is Phase.SHOWDOWN:
            pos = engine.showdown_seat
            if pos is None:
                return
            if len(engine.board) == 5 and engine.can_muck(pos) and not engine.can_win(pos):
                engine.muck(pos)
            else:
                engine.show(pos)

    def apply_timeout(self, seat: int) -> None:
        """The actor ran out of time: the engine's :meth:`~CashHand.default_action` (check
        if possible, else fold), then the showdown if the betting is over."""
        action = self.engine.default_action(self._turn(seat))
        if action is None:  # pragma: no cover - _turn refused a seat not to act
            raise IllegalActionError(f"seat {seat} has nothing to decide", reason="not_your_turn")
        self.apply(action)

    def void(self, reason: str) -> None:
        if self._void is None:
            self._void = reason
            if self.engine.can_void():
                self.engine.void(reason)

    # -- what each seat sees -------------------------------------------------------------

    def events_since(self, index: int) -> tuple[HoldemEvent, ...]:
        return self.engine.events[index:]

    def visible_to_all(self, event: Any) -> bool:
        return bool(event.audience == PUBLIC)

    def project_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        # issue 5: never another player's hole cards before they are shown, never a burn
        pos = self._position.get(seat) if seat is not None else None
        data: dict[str, Any] = to_json(event.seen_by(pos))
        data["kind"] = event.kind
        if "seat" in data:
            data["seat"] = self._seats[data["seat"]]
        if isinstance(event, PotAwarded):
            data["seats"] = [self._seats[p] for p in event.seats]
        return data

    def _cards(self, pos: int, seat: int | None) -> list[str] | None:
        cards = self.engine.hole_cards(pos)
        if cards is None or not (self._seats[pos] == seat or self.engine.shown(pos)):
            return None
        return [str(c) for c in cards]

    def options(self, seat: int) -> dict[str, Any] | None:
        """What ``seat`` may do if it is to act (the client's hints): the words of the
        engine's :meth:`~CashHand.legal_actions` (its :class:`Raise` is ``bet`` on a street
        nobody has bet yet, else ``raise``, with its bounds), and ``all_in`` when a legal
        action puts the whole stack in (:func:`all_in`)."""
        pos = self._position.get(seat)
        if pos is None or self.actor != seat or self.finished:
            return None
        engine = self.engine
        options = engine.options()
        assert options is not None
        actions: list[str] = []
        low = high = None
        for legal in engine.legal_actions(pos):
            if isinstance(legal.action, Raise):
                bounds = legal.amount("to")
                assert bounds is not None
                low, high = bounds.low, bounds.high
                actions.append("bet" if max(engine.bets) == 0 else "raise")
            else:
                actions.append(legal.kind)
        shove = all_in(engine, pos)
        if shove is not None:
            actions.append("all_in")
        found: dict[str, Any] = {
            "actions": actions,
            "to_call": options.to_call,
            "min_raise_to": low,
            "max_raise_to": high,
            "stack": options.stack,
            "bet": options.bet,
            "pot": options.pot,
        }
        left = self.wager_left.get(seat)
        if left is not None:
            found.update(
                _within_wager(found, left, shove=self.chips_in(seat, shove) if shove else 0)
            )
        return found

    def view(self, seat: int | None) -> dict[str, Any]:
        engine = self.engine
        players = [
            {
                "seat": s,
                "name": self._names[pos],
                "stack": engine.stacks[pos],
                "bet": engine.bets[pos],
                "in_hand": engine.active[pos],
                "cards": self._cards(pos, seat),
            }
            for pos, s in enumerate(self._seats)
        ]
        return {
            "game": "holdem",
            "seat": seat if seat in self._position else None,
            "phase": "void" if self._void else self.phase,
            "street": self.street,
            "button": self.button,
            "board": [str(c) for c in engine.board],
            "pot": engine.pot_total,
            "pots": self.pots(),
            "actor": self.actor,
            "players": players,
            "options": None if seat is None else self.options(seat),
        }

    # -- records -------------------------------------------------------------------------

    def record(self, round_id: int) -> dict[str, Any]:
        data = holdem_history.record(
            self.engine,
            round_id=round_id,
            table=self._table,
            seats=self._seats,
            names=self._names,
            button=self.button,
        )
        if self._void is not None:  # voided after it was settled: nothing moves
            data |= {"void": self._void, "rake": 0, "shown": []}
        return data

    def phh_text(self, round_id: int) -> str:
        """The hand in PHH (``croupier.history.holdem_phh``), seats and names included."""
        return str(self.record(round_id)["phh"])

    def summary(self) -> dict[str, Any]:
        won = self.winnings()
        start, final = self.starting_stacks(), self.final_stacks()
        shown = {
            str(s): self._cards(pos, None)
            for pos, s in enumerate(self._seats)
            if self.engine.shown(pos)
        }
        return {
            "board": [str(c) for c in self.engine.board],
            "shown": shown,
            "won": {str(s): won[s] for s in self._seats if won[s]},
            "net": {str(s): final[s] - start[s] for s in self._seats},
            "stacks": {str(s): final[s] for s in self._seats},
            "rake": self.rake,
            "void": self._void,
            "pots": self.awarded(),
        }


def _within_wager(options: Mapping[str, Any], left: int, *, shove: int) -> dict[str, Any]:
    """The options of a seat whose wager limit allows ``left`` more into the pots (issue 27):
    a call only if it fits, a bet or raise up to what fits (none if its least does not),
    all-in only if the whole stack (``shove`` chips) fits; ``wager_left`` says how much."""
    actions = list(options["actions"])
    high = options["max_raise_to"]
    if high is not None:
        high = min(high, options["bet"] + max(0, left))
    if "call" in actions and options["to_call"] > left:
        actions.remove("call")
    for word in ("bet", "raise"):
        if word in actions and (high is None or high < options["min_raise_to"]):
            actions.remove(word)
    if "all_in" in actions and shove > left:
        actions.remove("all_in")
    raising = any(word in actions for word in ("bet", "raise"))
    return {
        "actions": actions,
        "max_raise_to": high if raising else options["max_raise_to"],
        "min_raise_to": options["min_raise_to"],
        "wager_left": max(0, left),
    }


def _decision(action: Action) -> Fold | Check | Call | Raise:
    """``action`` as a player's decision (the driver passes back what
    :meth:`HoldemHand.action` made)."""
    if not isinstance(action, Fold | Check | Call | Raise):
        raise TypeError(f"{action!r} is not a decision of a hand of hold'em")
    return action


def recall_view(round_: Mapping[str, Any], seats: Sequence[int]) -> dict[str, Any]:
    """A finished hand as a player dealt in ``seats`` (one seat, or none) may recall it: no salt and no deck (they would
    show the cards of those who folded); instead the card commitment's leaves with the
    openings of the cards everyone saw (the board and burns dealt, the hands shown) and of
    the player's own hole cards -- never the stub, whose cards would give away the folded
    hands -- and the PHH with the others' hidden hole cards written ``????``. An operator's
    recall keeps everything."""
    seat = seats[0] if seats else None
    data = dict(round_)
    record = dict(data.get("record") or {})
    salt, deck = data.get("salt"), data.get("deck")
    if not salt or not deck:
        return data
    holes: dict[str, list[str]] = record.get("hole_cards") or {}
    shown = {str(s) for s in record.get("shown") or []}
    # Records written before the board and burns were kept: the board from the summary.
    board = record.get("board", (data.get("summary") or {}).get("board") or [])
    visible = set(board) | set(record.get("burns") or [])
    for owner, cards in holes.items():
        if owner in shown or (seat is not None and owner == str(seat)):
            visible.update(cards)
    data["leaves"] = fairness.card_leaves(salt=salt, deck=deck)
    data["openings"] = fairness.open_cards(
        salt=salt, deck=deck, positions=fairness.positions_of(deck, visible)
    )
    data["salt"] = data["deck"] = None
    secret = set(deck.split()) - visible
    if "phh" in record:
        record["phh"] = _redact_phh(record["phh"], secret)
    record["hole_cards"] = {
        owner: cards for owner, cards in holes.items() if not secret.intersection(cards)
    }
    data["record"] = record
    return data


_DEALT_HOLE = re.compile(r"(d dh p\d+ )((?:[2-9TJQKA?][cdhs?])+)")


def _redact_phh(text: str, secret: set[str]) -> str:
    """``text`` with every hole card in ``secret`` written ``??`` in the PHH dealing actions
    (``"d dh p2 ????"``, as PHH writes cards nobody saw)."""

    def hide(match: re.Match[str]) -> str:
        cards = match.group(2)
        pairs = [cards[i : i + 2] for i in range(0, len(cards), 2)]
        return match.group(1) + "".join("??" if c in secret else c for c in pairs)

    return _DEALT_HOLE.sub(hide, text) if secret else text


class HoldemTheory:
    """Hold'em's return: none to estimate, the house takes rake only (its GGR)."""

    method = "the house takes rake only: GGR is the rake"
    basis = None
    shown_rules = ("rake_percent", "rake_cap", "no_flop_no_drop")

    def round_theory(self, record: Mapping[str, Any], book: object) -> None:
        return None

    def warm(self, rules: Mapping[str, Any], book: object) -> None:
        return None  # nothing to compute: the figure is fixed

    def table_return(self, rules: Mapping[str, Any], book: object) -> dict[str, Any]:
        """The rake, the house's only take."""
        return {
            "method": "rake",
            "status": "none",
            "rake": {
                "percent": rules.get("rake_percent"),
                "cap": rules.get("rake_cap"),
                "no_flop_no_drop": rules.get("no_flop_no_drop"),
            },
        }

    def published_return(self, record: Mapping[str, Any] | None, wagered: int) -> None:
        return None

    def prepare_monitor(self) -> None:
        return None  # no round is valued

    def monitor_round(
        self, record: Mapping[str, Any], book: object, *, rules: Mapping[str, Any] | None = None
    ) -> None:
        """Nothing to monitor: the players play each other, the house takes the rake, which
        the engine computes from the pot by the table's rule (checked by every PHH replay)."""
        return None


THEORY = HoldemTheory()

SETTINGS = OperatorSettings(limits={"min_bet": "min_buy_in", "max_bet": "max_buy_in"})
"""A cash game's bets are the players' own: its limits are the buy-in's."""
