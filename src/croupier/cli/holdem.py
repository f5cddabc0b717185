"""`croupier holdem ...`: replay PHH hand histories, self-play bots, play against bots."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier.errors import CroupierError
from croupier.games.holdem.config import SplitPolicy
from croupier.history import phh

__all__ = ["app"]

app = typer.Typer(help="Texas Hold'em cash games.", no_args_is_help=True)


def _hands(path: Path) -> list[tuple[str, phh.HandHistory]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".phhs":
        return [(f"{path}[{i}]", hand) for i, hand in enumerate(phh.loads_all(text), 1)]
    return [(str(path), phh.loads(text))]


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help=".phh or .phhs files", exists=True)],
    split: Annotated[
        SplitPolicy | None,
        typer.Option(
            help="split policy: live (odd chip left of the button) or exact"
            " (default: the file's _split, else live)"
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="compare with the files' finishing_stacks")
    ] = False,
) -> None:
    """Replay hands through the engine; print each hand's finishing stacks."""
    out = sys.stdout
    differences = errors = 0
    lines: list[str] = []
    for path in files:
        try:
            hands = _hands(path)
        except (CroupierError, OSError, UnicodeDecodeError) as exc:
            print(f"{path}\terror: {exc}", file=sys.stderr)
            errors += 1
            continue
        for name, hand in hands:
            expected = hand.finishing_stacks
            try:
                result = phh.replay(hand, split=split, strict=False)
            except CroupierError as exc:
                lines.append(f"{name}\terror: {exc}")
                errors += 1
                continue
            if result.unsettled is not None:
                # cards unknown at a contested showdown: nothing to print unless it was checked
                lines.append(f"{name}\tunsettled: {result.unsettled}")
                if check and expected is not None:
                    print(f"{name}\tcannot be checked: {result.unsettled}", file=sys.stderr)
                    differences += 1
                continue
            stacks = result.finishing_stacks
            lines.append(f"{name}\t{','.join(phh.format_amount(s) for s in stacks)}")
            if check and expected is not None and stacks != tuple(map(Fraction, expected)):
                want = ",".join(phh.format_amount(s) for s in expected)
                print(f"{name}\tdiffers from finishing_stacks {want}", file=sys.stderr)
                differences += 1
            if len(lines) >= 512:
                out.write("\n".join(lines) + "\n")
                lines.clear()
    if lines:
        out.write("\n".join(lines) + "\n")
    if differences or errors:
        print(f"{differences} hands differ, {errors} errors", file=sys.stderr)
        raise typer.Exit(1)


def _stakes(
    players: int,
    *,
    small_blind: int,
    big_blind: int,
    ante: int,
    structure: str,
    split: SplitPolicy = SplitPolicy.LIVE,
) -> Any:
    """``config_for(players)`` for a table; amounts in whole chips, scaled to engine units
    (``EXACT_SCALE`` per chip under the exact split policy)."""
    from croupier.games.holdem import BettingStructure, HoldemConfig

    kind = {"nl": BettingStructure.NO_LIMIT, "pl": BettingStructure.POT_LIMIT}.get(
        structure.lower(), BettingStructure.FIXED_LIMIT
    )
    if structure.lower() not in ("nl", "pl", "fl"):
        raise typer.BadParameter(f"structure {structure!r} is not nl, pl or fl")
    unit = split.unit

    def config_for(count: int) -> HoldemConfig:
        return HoldemConfig.cash(
            players=count,
            small_blind=small_blind * unit,
            big_blind=big_blind * unit,
            ante=ante * unit,
            structure=kind,
            split=split,
        )

    config_for(players)  # validate now
    return config_for


def _chips(amount: int, unit: int) -> str:
    """An engine amount in chips, exactly (``2.5``, ``1/3``)."""
    return phh.format_amount(Fraction(amount, unit))


def _bot(kind: str, source: Any) -> Any:
    from croupier.games.holdem.bots import RandomBot, TightAggressiveBot

    if kind == "random":
        return RandomBot(source)
    if kind == "tag":
        return TightAggressiveBot()
    raise typer.BadParameter(f"bot {kind!r} is not random or tag")


@app.command()
def selfplay(
    hands: Annotated[int, typer.Option(help="number of hands", min=1)] = 100,
    players: Annotated[int, typer.Option(help="players at the table (2-10)", min=2, max=10)] = 6,
    seed: Annotated[int, typer.Option(help="seed of the shuffles and bots")] = 0,
    out: Annotated[Path | None, typer.Option(help="write the hands to this .phhs file")] = None,
    bots: Annotated[str, typer.Option(help="random, tag, or mix (tag and random)")] = "random",
    stack: Annotated[int, typer.Option(help="buy-in in chips (busted seats rebuy)", min=1)] = 200,
    small_blind: Annotated[int, typer.Option(min=0)] = 1,
    big_blind: Annotated[int, typer.Option(min=1)] = 2,
    ante: Annotated[int, typer.Option(min=0)] = 0,
    structure: Annotated[str, typer.Option(help="nl, pl or fl")] = "nl",
    split: Annotated[
        SplitPolicy,
        typer.Option(
            help="split policy: live (odd chip left of the button) or exact (every hand starts"
            " from the buy-in; amounts counted, and written, in 1/2520 of a chip;"
            " the file says _split = 'exact')"
        ),
    ] = SplitPolicy.LIVE,
) -> None:
    """Bots play a cash game against each other; optionally write every hand as PHH."""
    import time

    from rich.console import Console
    from rich.table import Table

    from croupier.deck import Shoe, seeded_source, shuffled
    from croupier.games.holdem.bots import play_hand
    from croupier.games.holdem.table import CashTable

    config_for = _stakes(
        players,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        structure=structure,
        split=split,
    )
    unit = split.unit
    buy_in = stack * unit
    source = seeded_source(seed)
    kinds = [
        ("tag" if seat % 2 == 0 else "random") if bots == "mix" else bots for seat in range(players)
    ]
    strategies = [_bot(kind, source) for kind in kinds]
    table = CashTable(config_for, stacks=[buy_in] * players)
    buy_ins = [buy_in] * players
    histories: list[phh.HandHistory] = []
    started = time.perf_counter()
    for number in range(1, hands + 1):
        for seat, chips in enumerate(table.stacks):
            if chips == 0 or (split is SplitPolicy.EXACT and chips != buy_in):
                # an exact split leaves fractions of a chip that a later pot could not divide
                # exactly (spec/holdem.md, Winning): every hand starts from the buy-in, as in
                # the Pluribus hands; the difference is settled into the seat's net
                table.set_stack(seat, buy_in)
                buy_ins[seat] += buy_in - chips
        hand = table.start_hand(shoe=Shoe(shuffled(source)), auto_showdown=True)
        positions = [table.seat_of(p) for p in range(hand.players)]
        play_hand(hand, [strategies[seat] for seat in positions])
        if out is not None:
            histories.append(
                phh.from_hand(
                    hand,
                    hand=number,
                    seats=[seat + 1 for seat in positions],
                    seat_count=players,
                    players=[f"{kinds[seat]}-{seat + 1}" for seat in positions],
                )
            )
        table.end_hand(hand)
    elapsed = time.perf_counter() - started
    if out is not None:
        out.write_text(phh.dumps_all(histories), encoding="utf-8")
    console = Console()
    summary = Table(title=f"{hands} hands, {players} players, {hands / elapsed:,.0f} hands/s")
    summary.add_column("seat")
    summary.add_column("bot")
    summary.add_column("stack", justify="right")
    summary.add_column("net", justify="right")
    for seat in range(players):
        net = table.stacks[seat] - buy_ins[seat]
        sign = "+" if net >= 0 else "-"
        summary.add_row(
            str(seat + 1),
            kinds[seat],
            _chips(table.stacks[seat], unit),
            sign + _chips(abs(net), unit),
        )
    console.print(summary)
    if out is not None:
        console.print(f"wrote {len(histories)} hands to {out}")


_YOU = "You"
_SUIT_STYLE = {0: "green", 1: "blue", 2: "red", 3: "white"}


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


def _describe(event: Any, names: list[str]) -> str | None:
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
            return f"{_does(names[seat], 'show')} {_cards_markup(cards)}"
        case ev.Mucked(seat=seat):
            return _does(names[seat], "muck")
        case ev.Raked(amount=amount):
            return f"house rakes {amount}"
        case ev.PotAwarded(pot=pot, seats=seats, amounts=amounts, value=value):
            from croupier.evaluator import describe

            label = "main pot" if pot == 0 else f"side pot {pot}"
            winners = ", ".join(f"{names[s]} {a}" for s, a in zip(seats, amounts, strict=True))
            hand = f" with {describe(value)}" if value else ""
            return f"[bold green]{label}[/]: {winners}{hand}"
    return None


@app.command()
def play(
    players: Annotated[int, typer.Option(help="players including you (2-10)", min=2, max=10)] = 6,
    hands: Annotated[int, typer.Option(help="stop after this many hands (0: until you quit)")] = 0,
    seed: Annotated[int | None, typer.Option(help="seed for a reproducible game")] = None,
    stack: Annotated[int, typer.Option(help="buy-in in chips", min=1)] = 200,
    small_blind: Annotated[int, typer.Option(min=0)] = 1,
    big_blind: Annotated[int, typer.Option(min=1)] = 2,
    structure: Annotated[str, typer.Option(help="nl, pl or fl")] = "nl",
) -> None:
    """Play a cash game at the terminal against bots (tight-aggressive and random)."""
    from rich.console import Console
    from rich.table import Table

    from croupier.deck import Shoe, seeded_source, shuffled
    from croupier.games.holdem.bots import apply, play_hand
    from croupier.games.holdem.state import Phase
    from croupier.games.holdem.table import CashTable
    from croupier.games.holdem.views import view_for
    from croupier.server.rng import live_shoe

    console = Console(highlight=False)
    config_for = _stakes(
        players, small_blind=small_blind, big_blind=big_blind, ante=0, structure=structure
    )
    source = seeded_source(seed if seed is not None else 0)
    names = [_YOU] + [f"Bot {seat}" for seat in range(1, players)]
    strategies = [_bot("tag" if seat % 2 else "random", source) for seat in range(players)]
    table = CashTable(config_for, stacks=[stack] * players, button=players - 1)
    number = 0
    while hands == 0 or number < hands:
        if table.stacks[0] == 0:
            console.print("[bold red]You are out of chips.[/]")
            break
        for seat in range(1, players):
            if table.stacks[seat] == 0:
                table.set_stack(seat, stack)
                console.print(f"{names[seat]} rebuys for {stack}")
        number += 1
        shoe = Shoe(shuffled(source)) if seed is not None else live_shoe()
        hand = table.start_hand(shoe=shoe)
        positions = [table.seat_of(p) for p in range(hand.players)]
        me = positions.index(0)
        hand_names = [names[seat] for seat in positions]
        bots = [strategies[seat] for seat in positions]
        console.rule(f"Hand {number} - button: {names[table.button]}")
        shown = 0
        while True:
            events = hand.events
            for event in events[shown:]:
                line = _describe(event, hand_names)
                if line:
                    console.print(line)
            shown = len(events)
            if hand.is_over:
                break
            if hand.actor is not None and hand.actor != me:
                seat = hand.actor
                options = hand.options()
                assert options is not None
                apply(hand, seat, bots[seat].decide(view_for(hand, seat), options))
                continue
            if hand.actor == me:
                _show_table(console, hand, me, hand_names)
                if not _human_turn(console, hand, me):
                    return
                continue
            if hand.phase is Phase.SHOWDOWN:
                next_seat = hand.showdown_seat
                if next_seat is None:
                    break
                seat = next_seat
                if seat == me:
                    answer = _ask(console, "Show or muck? (s/m)", "s").lower()
                    if answer.startswith("m") and hand.can_muck(seat):
                        hand.muck(seat)
                    else:
                        hand.show(seat)
                else:
                    hand.show(seat)
                continue
            play_hand(hand, bots)
        table.end_hand(hand)
        summary = Table(show_header=True)
        for name in names:
            summary.add_column(name, justify="right")
        summary.add_row(*(str(s) for s in table.stacks))
        console.print(summary)
    console.print(f"You finish with {table.stacks[0]} ({table.stacks[0] - stack:+d}).")


def _ask(console: Any, prompt: str, default: str) -> str:
    console.print(f"{prompt} ", end="")
    line = sys.stdin.readline()
    if not line:
        return "q"
    return line.strip() or default


def _show_table(console: Any, hand: Any, me: int, names: list[str]) -> None:
    from croupier.games.holdem.views import view_for

    view = view_for(hand, me)
    console.print(
        f"Board: {_cards_markup(view.board) if view.board else '-'}   pot {view.pot}   "
        f"your cards {_cards_markup(view.hole_cards[me])}"
    )
    for seat, name in enumerate(names):
        state = "" if view.active[seat] else " (out)"
        console.print(f"  {name}: stack {view.stacks[seat]}, bet {view.bets[seat]}{state}")


def _human_turn(console: Any, hand: Any, me: int) -> bool:
    """Ask for the human's action until a legal one is given; False when they quit."""
    while True:
        options = hand.options()
        moves = ["(f)old", "(c)heck" if options.can_check else f"(c)all {options.to_call}"]
        if options.min_raise_to is not None:
            moves.append(f"(r)aise to {options.min_raise_to}..{options.max_raise_to}")
        answer = _ask(console, "Your move: " + ", ".join(moves) + ", (q)uit?", "c").split()
        if not answer or answer[0].lower().startswith("q"):
            console.print("Goodbye.")
            return False
        word = answer[0].lower()
        try:
            if word.startswith("f"):
                hand.fold(me)
            elif word.startswith("c"):
                hand.check_or_call(me)
            elif word.startswith(("r", "b")):
                if len(answer) < 2:
                    to = options.min_raise_to
                elif answer[1].lower() in ("max", "allin", "all-in"):
                    to = options.max_raise_to
                else:
                    to = int(answer[1])
                hand.raise_to(me, to)
            else:
                console.print(f"[red]unknown move {word!r}[/]")
                continue
            return True
        except (CroupierError, ValueError, TypeError) as exc:
            console.print(f"[red]{exc}[/]")
