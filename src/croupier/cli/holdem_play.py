"""`croupier holdem play`: a cash game at the terminal against bots, and the table set-up
that `croupier holdem selfplay` shares with it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.cli.session import Leave, Way, replay_line, run_session, session_seed, speak
from croupier.errors import CroupierError, IllegalActionError
from croupier.games.holdem.config import SplitPolicy

if TYPE_CHECKING:
    from rich.console import Console

    from croupier.deck import NumpySource
    from croupier.games.holdem import HoldemTableConfig
    from croupier.games.holdem.betting import Options
    from croupier.games.holdem.state import CashHand
    from croupier.games.holdem.table import CashTable

__all__ = ["make_bot", "play", "stakes_rules", "table_config"]


def table_config(
    config: Path | None, rule: list[str] | None, *, base: dict[str, Any] | None = None
) -> HoldemTableConfig:
    """The table of ``base`` (a command's own options), then ``--config``, then ``--rule``:
    every setting of :class:`~croupier.games.holdem.HoldemTableConfig`, amounts in chips
    (``EXACT_SCALE`` engine units per chip under the ``exact`` split policy)."""
    from croupier.games.holdem import HoldemTableConfig

    data = read_rules(config, rule, game="holdem", base=base)
    return build_config(HoldemTableConfig.from_dict, data)


def stakes_rules(
    *, small_blind: int, big_blind: int, ante: int, structure: str, split: SplitPolicy
) -> dict[str, Any]:
    """The table settings the stakes options give (structure ``nl``, ``pl`` or ``fl``).

    Raises:
        typer.BadParameter: a structure that is not nl, pl or fl, or blinds out of order.
    """
    if structure.lower() not in ("nl", "pl", "fl"):
        raise typer.BadParameter(f"structure {structure!r} is not nl, pl or fl")
    if small_blind > big_blind:
        raise typer.BadParameter(
            f"the small blind {small_blind} is more than the big blind {big_blind}"
        )
    return {
        "small_blind": small_blind,
        "big_blind": big_blind,
        "ante": ante,
        "structure": structure.lower(),
        "split": split.value,
    }


def make_bot(kind: str, source: Any) -> Any:
    """A bot strategy by name: ``random`` (draws from ``source``) or ``tag``."""
    from croupier.games.holdem.bots import RandomBot, TightAggressiveBot

    if kind == "random":
        return RandomBot(source)
    if kind == "tag":
        return TightAggressiveBot()
    raise typer.BadParameter(f"bot {kind!r} is not random or tag")


_YOU = "You"
_SUIT_STYLE = {0: "green", 1: "blue", 2: "red", 3: "white"}
_AMOUNT = re.compile(r"[0-9]{1,12}")


def _cards_markup(cards: Any) -> str:
    if cards is None:
        return "[bold white on dark_blue] ▒▒ [/] [bold white on dark_blue] ▒▒ [/]"
    return " ".join(
        f"[bold {_SUIT_STYLE[card.suit]} on grey93] {card.rank.symbol}{card.suit.glyph} [/]"
        for card in cards
    )


def _does(name: str, verb: str) -> str:
    """``name`` and ``verb`` in agreement: "You fold", "Bot 1 folds", "Bot 2 bets/raises".

    >>> _does("You", "bet/raise"), _does("Bot 2", "bet/raise")
    ('You bet/raise', 'Bot 2 bets/raises')
    """
    if name == _YOU:
        return f"{name} {verb}"
    return f"{name} " + "/".join(word + "s" for word in verb.split("/"))


@dataclass
class _Session:
    """One player's session at the table; the hand in play, if any."""

    console: Console
    table: CashTable
    names: list[str]
    strategies: list[Any]
    source: NumpySource
    stack: int
    seed: int
    number: int = 0
    hand: CashHand | None = None
    me: int = 0
    hand_names: list[str] = field(default_factory=list)
    bots: list[Any] = field(default_factory=list)
    told: int = 0
    """How many of the hand's events have been printed."""
    board_told: int = 0
    """How many board cards those events dealt."""

    @property
    def chips(self) -> int:
        """The player's chips: at the table between hands, behind them during one."""
        return self.table.stacks[0] if self.hand is None else self.hand.stacks[self.me]


def play(
    players: Annotated[int, typer.Option(help="players including you (2-10)", min=2, max=10)] = 6,
    hands: Annotated[
        int, typer.Option(help="stop after this many hands (0: until you quit)", min=0)
    ] = 0,
    seed: Annotated[
        int | None,
        typer.Option(help="seed of the shuffles and bots (default: a new one, shown at the end)"),
    ] = None,
    stack: Annotated[int, typer.Option(help="buy-in in chips", min=1)] = 200,
    small_blind: Annotated[int, typer.Option(min=0)] = 1,
    big_blind: Annotated[int, typer.Option(min=1)] = 2,
    structure: Annotated[str, typer.Option(help="nl, pl or fl")] = "nl",
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """Play a cash game at the terminal against bots (tight-aggressive and random).

    Leave with q, Ctrl-D or Ctrl-C: the hand in play is folded and the session summary
    printed. Enter checks when checking is free and never puts chips in. The table's other
    settings come from --config and --rule (--rule odd_chip=suit --rule rake_percent=5).
    """
    from rich.console import Console

    from croupier.deck import seeded_source
    from croupier.games.holdem.table import CashTable

    base = stakes_rules(
        small_blind=small_blind,
        big_blind=big_blind,
        ante=0,
        structure=structure,
        split=SplitPolicy.LIVE,
    )
    config_for = table_config(config, rule, base=base).hand_config
    seed = session_seed(seed)
    source = seeded_source(seed)
    session = _Session(
        console=Console(highlight=False),
        table=CashTable(config_for, stacks=[stack] * players, button=players - 1),
        names=[_YOU] + [f"Bot {seat}" for seat in range(1, players)],
        strategies=[make_bot("tag" if seat % 2 else "random", source) for seat in range(players)],
        source=source,
        stack=stack,
        seed=seed,
    )
    run_session(lambda: _play_hands(session, hands), lambda way: _leave(session, way))


def _play_hands(s: _Session, hands: int) -> None:
    from rich.table import Table

    from croupier.deck import Shoe, shuffled

    while hands == 0 or s.number < hands:
        if s.table.stacks[0] == 0:
            s.console.print("[bold red]You are out of chips.[/]")
            return
        for seat in range(1, len(s.names)):
            if s.table.stacks[seat] == 0:
                s.table.set_stack(seat, s.stack)
                s.console.print(f"{s.names[seat]} rebuys for {s.stack}")
        s.number += 1
        hand = s.table.start_hand(shoe=Shoe(shuffled(s.source)))
        positions = [s.table.seat_of(p) for p in range(hand.players)]
        s.hand, s.me, s.told, s.board_told = hand, positions.index(0), 0, 0
        s.hand_names = [s.names[seat] for seat in positions]
        s.bots = [s.strategies[seat] for seat in positions]
        s.console.rule(f"Hand {s.number} - button: {s.names[s.table.button]}")
        _play_hand(s, hand)
        s.table.end_hand(hand)
        s.hand = None
        summary = Table(show_header=True)
        for name in s.names:
            summary.add_column(name, justify="right")
        summary.add_row(*(str(chips) for chips in s.table.stacks))
        s.console.print(summary)


def _play_hand(s: _Session, hand: CashHand) -> None:
    """Play ``hand`` to its end: the bots' moves, the player's, the showdown."""
    from croupier.games.holdem.state import Phase

    while True:
        _narrate(s, hand)
        if hand.is_over:
            return
        actor = hand.actor
        if actor is not None and actor != s.me:
            _bot_acts(s, hand, actor)
        elif actor == s.me:
            _show_table(s, hand)
            _human_turn(s, hand)
        elif hand.phase is Phase.SHOWDOWN and len(hand.board) < 5:
            # The betting ended before the river (all-in): every hand is turned face up, then
            # the board is run out (TDA rule "face up for all-ins"); nobody decides to show or
            # muck before the board is complete (spec/holdem.md "Winning": a player may
            # concede only to a hand already shown that beats theirs).
            s.console.print("All in: every hand is turned face up and the board is run out.")
            while not hand.is_over and hand.showdown_seat is not None:
                hand.show(hand.showdown_seat)
        elif hand.phase is Phase.SHOWDOWN and hand.showdown_seat is not None:
            seat = hand.showdown_seat
            if seat == s.me:
                _human_showdown(s, hand)
            else:
                hand.show(seat)
        else:  # pragma: no cover - the engine always has a next step with a shoe
            raise IllegalActionError(f"the hand is stuck in phase {hand.phase}")


def _bot_acts(s: _Session, hand: CashHand, seat: int) -> None:
    from croupier.games.holdem.bots import apply
    from croupier.games.holdem.views import view_for

    options = hand.options()
    assert options is not None
    apply(hand, seat, s.bots[seat].decide(view_for(hand, seat), options))


def _narrate(s: _Session, hand: CashHand) -> None:
    """Print the hand's events not printed yet."""
    from croupier.games.holdem.events import BoardDealt

    events = hand.events
    for event in events[s.told :]:
        if isinstance(event, BoardDealt):
            s.board_told += len(event.cards)
        line = _describe(event, hand, s.hand_names, board_complete=s.board_told >= 5)
        if line:
            s.console.print(line)
    s.told = len(events)


def _value(hand: CashHand, seat: int) -> Any:
    """``seat``'s hand value once the board is complete and the seat's cards are known."""
    from croupier.evaluator import evaluate

    hole = hand.hole_cards(seat)
    if hole is None or len(hand.board) < 5:
        return None
    return evaluate((*hole, *hand.board))


def _describe(event: Any, hand: CashHand, names: list[str], *, board_complete: bool) -> str | None:
    """One event as a line of the hand's story (``None``: nothing to tell)."""
    from croupier.games.holdem import events as ev
    from croupier.games.holdem.state import STREET_NAMES

    match event:
        case ev.BlindPosted(seat=seat, amount=amount):
            return f"{_does(names[seat], 'post')} {amount}"
        case ev.AntePosted(seat=seat, amount=amount):
            return f"{_does(names[seat], 'ante')} {amount}"
        case ev.BoardDealt(street=street, cards=cards):
            return f"[bold]{STREET_NAMES[street]}[/]: {_cards_markup(cards)}"
        case ev.Folded(seat=seat):
            return _does(names[seat], "fold")
        case ev.Checked(seat=seat):
            return _does(names[seat], "check")
        case ev.Called(seat=seat, amount=amount, all_in=all_in):
            return f"{_does(names[seat], 'call')} {amount}" + (" (all-in)" if all_in else "")
        case ev.Raised(seat=seat, to=to, all_in=all_in):
            return f"{_does(names[seat], 'bet/raise')} to {to}" + (" (all-in)" if all_in else "")
        case ev.BetReturned(seat=seat, amount=amount):
            return f"{amount} uncalled returned to {names[seat]}"
        case ev.Shown(seat=seat, cards=cards):
            value = _value(hand, seat) if board_complete else None
            named = f"  {value.full_description}" if value is not None else ""
            return f"{_does(names[seat], 'show')} {_cards_markup(cards)}{named}"
        case ev.Mucked(seat=seat):
            return _does(names[seat], "muck")
        case ev.Raked(amount=amount):
            return f"house rakes {amount}"
        case ev.PotAwarded():
            return _pot_line(event, hand, names)
    return None


def _pot_line(award: Any, hand: CashHand, names: list[str]) -> str:
    """Who takes a pot, with which hand, and what it beat."""
    label = "main pot" if award.pot == 0 else f"side pot {award.pot}"
    winners = ", ".join(f"{names[s]} {a}" for s, a in zip(award.seats, award.amounts, strict=True))
    line = f"[bold green]{label}[/]: {winners}"
    best = _value(hand, award.seats[0]) if hand.shown(award.seats[0]) else None
    if best is None:
        return line  # won without a showdown
    line += f" with {best.full_description}" + (" (split)" if len(award.seats) > 1 else "")
    beaten = [
        (value, seat)
        for seat in range(hand.players)
        if seat not in award.seats and hand.active[seat] and hand.shown(seat)
        for value in [_value(hand, seat)]
        if value is not None and value < best
    ]
    if beaten:
        value, seat = max(beaten)
        whose = "your" if names[seat] == _YOU else f"{names[seat]}'s"
        line += f", beating {whose} {value.full_description}"
        if value.category == best.category:
            from croupier.evaluator import versus

            line += f": {versus(best.value, value.value)}"
    return line


def _show_table(s: _Session, hand: CashHand) -> None:
    from croupier.games.holdem.views import view_for

    view = view_for(hand, s.me)
    s.console.print(
        f"Board: {_cards_markup(view.board) if view.board else '-'}   pot {view.pot}   "
        f"your cards {_cards_markup(view.hole_cards[s.me])}"
    )
    for seat, name in enumerate(s.hand_names):
        state = "" if view.active[seat] else " (out)"
        if view.active[seat] and view.stacks[seat] == 0:
            state = " (all-in)"
        s.console.print(f"  {name}: stack {view.stacks[seat]}, bet {view.bets[seat]}{state}")


def _read(s: _Session, prompt: str) -> str:
    """One answer; ``q`` leaves the table (EOFError at the end of input)."""
    answer = s.console.input(prompt).strip()
    if answer.lower() in ("q", "quit", "exit"):
        raise Leave
    return answer


def _move_prompt(options: Options) -> str:
    moves = ["(f)old"]
    if options.can_check:
        moves.append("(c)heck or Enter")
    else:
        all_in = " all-in" if options.to_call == options.stack else ""
        moves.append(f"(c)all {options.to_call}{all_in}")
    if options.min_raise_to is not None:
        moves.append(f"(r)aise to {options.min_raise_to}..{options.max_raise_to}")
    return "Your move: " + ", ".join(moves) + ", (q)uit? "


def _human_turn(s: _Session, hand: CashHand) -> None:
    """Ask for the player's move until a legal one is made.

    Enter checks when checking is free and otherwise asks again: it never puts chips in,
    facing an all-in or any bet, because calling and folding are both irreversible and a
    stray Enter (a key pressed twice, a line typed ahead) must not decide for the player.
    """
    while True:
        options = hand.options()
        assert options is not None
        words = _read(s, _move_prompt(options)).lower().split()
        if not words:
            if options.can_check:
                hand.check(s.me)
                return
            all_in = " (all-in)" if options.to_call == options.stack else ""
            s.console.print(
                f"[yellow]Enter does not put chips in: type c to call {options.to_call}"
                f"{all_in} or f to fold[/]"
            )
            continue
        word = words[0]
        try:
            if word in ("f", "fold"):
                hand.fold(s.me)
            elif word in ("c", "check", "call", "k"):
                hand.check_or_call(s.me)
            elif word in ("r", "raise", "b", "bet"):
                hand.raise_to(s.me, _raise_target(hand, s.me, words, options))
            else:
                s.console.print(
                    f"[red]unknown move {word!r}: f folds, c checks or calls, "
                    "r 40 raises to 40, r max goes all-in, q leaves[/]"
                )
                continue
            return
        except IllegalActionError as exc:
            s.console.print(f"[red]{speak(str(exc), s.hand_names, you=s.me)}[/]")


def _raise_target(hand: CashHand, me: int, words: list[str], options: Options) -> int:
    """The street total the player asks to raise to (``r`` alone: the minimum).

    Raises:
        IllegalActionError: raising is closed, or the amount is not one the player can bet.
    """
    low, high = options.min_raise_to, options.max_raise_to
    if low is None or high is None:
        hand.verify_raise(me, to=options.stack + options.bet)  # raises with the reason
        raise IllegalActionError("raising is not open to you now")  # pragma: no cover
    if len(words) < 2:
        return low
    amount = words[1]
    if amount in ("max", "all", "allin", "all-in"):
        return high
    if not _AMOUNT.fullmatch(amount):
        raise IllegalActionError(
            f"{amount!r} is not an amount: type r and a whole number of chips from {low} to "
            f"{high}, or r max"
        )
    to = int(amount)
    if to > options.stack + options.bet:
        raise IllegalActionError(
            f"raise to {to} is more than you have: {options.stack + options.bet} in all "
            "(r max goes all-in)"
        )
    return to


def _human_showdown(s: _Session, hand: CashHand) -> None:
    """The board is complete and it is the player's turn to show or muck."""
    if not hand.can_muck(s.me):
        try:
            hand.verify_muck(s.me)
        except IllegalActionError as exc:
            s.console.print(f"You show: {speak(str(exc), s.hand_names, you=s.me)}")
        hand.show(s.me)
        return
    value = _value(hand, s.me)
    if value is not None:
        verdict = "it can still win" if hand.can_win(s.me) else "a hand already shown beats it"
        s.console.print(f"You hold {value.full_description}: {verdict}.")
    while True:
        answer = _read(s, "Show or muck? (s/m) ").lower()
        if answer in ("", "s", "show"):
            hand.show(s.me)
            return
        if answer in ("m", "muck"):
            hand.muck(s.me)
            return
        s.console.print("[yellow]s (or Enter) shows your cards, m mucks them[/]")


def _finish_for_leaving(s: _Session, hand: CashHand) -> None:
    """The player leaves during ``hand``: fold it (or show it at the showdown: cards speak)
    and let the bots play the hand to its end."""
    from croupier.games.holdem.state import Phase

    if not hand.active[s.me]:
        s.console.print("You leave the table: the bots finish the hand.")
    elif hand.phase is Phase.SHOWDOWN:
        s.console.print("You leave the table at the showdown: your cards are shown.")
    else:
        s.console.print("You leave the table during the hand: your hand is folded.")
    try:
        while not hand.is_over:
            actor = hand.actor
            if actor == s.me:
                hand.fold(s.me)
            elif actor is not None:
                _bot_acts(s, hand, actor)
            elif hand.phase is Phase.SHOWDOWN and hand.showdown_seat is not None:
                hand.show(hand.showdown_seat)
            else:  # pragma: no cover
                break
    except CroupierError as exc:  # pragma: no cover - an interrupted engine call
        s.console.print(f"[red]the hand could not be finished: {exc}[/]")
    _narrate(s, hand)
    if hand.is_over:
        s.table.end_hand(hand)
        s.hand = None


def _leave(s: _Session, way: Way) -> None:
    """Finish the hand in play, then print the session summary (every way out)."""
    if way in (Way.INTERRUPTED, Way.END_OF_INPUT):
        s.console.print()  # end the line the prompt left open
    if s.hand is not None:
        _finish_for_leaving(s, s.hand)
    chips = s.chips
    s.console.rule("Session")
    s.console.print(
        f"{s.number} hand{'s' if s.number != 1 else ''} played. "
        f"You finish with {chips} ({chips - s.stack:+d})."
    )
    s.console.print(replay_line("holdem play", s.seed))
    s.console.print("Goodbye.")
