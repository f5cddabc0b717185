"""`croupier russian play`: Russian Poker at the terminal against the dealer.

Money is whole chips. A round starts only when the chips cover the most it can cost before
insurance (every box's Ante and Bet, the Bonus, a draw fee and the fee to buy the dealer's
game), and insurance is bounded by the chips left free as well as by the rules, so the
bankroll never goes below zero.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from croupier.cards import Card, parse_cards
from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.cli.russian_hint import bet_hint, buy_hint, first_hint
from croupier.cli.session import Leave, Way, replay_line, run_session, session_seed
from croupier.errors import CroupierError, NotationError
from croupier.games.russian import BetKind, BuyGame, PlaceBet, PlaceBox, RussianConfig, SixthCard
from croupier.games.russian.actions import price

if TYPE_CHECKING:
    from rich.console import Console

    from croupier.deck import NumpySource
    from croupier.games.russian.rules import BoxSettlement
    from croupier.games.russian.state import RussianRound

__all__ = ["play", "round_cost"]

_BET_NAMES = {
    BetKind.ANTE: "Ante",
    BetKind.BET: "Bet",
    BetKind.FEE: "Draw fee",
    BetKind.INSURANCE: "Insurance",
    BetKind.BONUS: "Bonus",
    BetKind.BUY: "Buy fee",
}
_POSITIONS = re.compile(r"[0-9]+")
_BET_OR_FOLD = {"b": "bet", "f": "fold", "h": "hint"}


@dataclass
class _Session:
    console: Console
    config: RussianConfig
    source: NumpySource
    seed: int
    boxes: int
    ante: int
    bonus: int
    bankroll: int
    chips: int
    rounds: int = 0
    game: RussianRound | None = None
    """The round in play, until its result is added to ``chips``."""
    seen: tuple[Card, ...] = ()
    """The open box's discards in this round (the hint counts them as seen)."""


def round_cost(config: RussianConfig, *, boxes: int, ante: int, bonus: int) -> int:
    """The most one round can cost before insurance: the Ante and Bet of every box (blind
    boxes place both before the deal), the Bonus, one draw fee and the fee to buy the
    dealer's game (spec/russian.md "The player's decisions", "Dealer and settlement").

    >>> round_cost(RussianConfig(), boxes=2, ante=10, bonus=5)
    85
    """
    # every box as a blind one: its Ante and its Bet; the Bonus once; the fees at the Ante
    per_box = price(PlaceBox(seat=0, box=0, ante=ante, blind=True), config)
    fees = sum(
        price(a, config, ante=ante) for a in (SixthCard(seat=0, box=0), BuyGame(seat=0, box=0))
    )
    return boxes * per_box + bonus + fees


def play(
    boxes: Annotated[
        int, typer.Option(min=1, max=4, help="Boxes you play: one open, the rest blind.")
    ] = 1,
    ante: Annotated[int, typer.Option(min=1, help="Ante per box, in chips.")] = 10,
    bonus: Annotated[int, typer.Option(min=0, help="Bonus bet on the open box (0: none).")] = 0,
    bankroll: Annotated[int, typer.Option(min=1, help="Chips you sit down with.")] = 1_000,
    seed: Annotated[
        int | None,
        typer.Option(help="Shuffle seed (default: a new one from the OS, shown at the end)."),
    ] = None,
    dealer_upcard: Annotated[bool, typer.Option(help="Show the dealer's last card.")] = False,
    config_file: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """Play Russian Poker at the terminal against the dealer.

    Leave with n at "Another round?", q, Ctrl-D or Ctrl-C: a round in play is folded (or
    the dealer's game not bought) and the session summary printed. The table's options come
    from --config and --rule (--rule ante_pays_on_win=true); its limits fit --ante and
    --bonus unless they set them.
    """
    from rich.console import Console

    from croupier.deck import seeded_source

    base = {
        "ante_min": 1,
        "ante_max": ante,
        "bonus_min": 1,
        "bonus_max": max(bonus, 1),
        "max_payout": "none",
        "dealer_upcard": dealer_upcard,
    }
    config = build_config(
        RussianConfig.from_dict, read_rules(config_file, rule, game="russian", base=base)
    )
    if not config.ante_min <= ante <= config.ante_max:
        raise typer.BadParameter(
            f"--ante {ante} is outside the table's {config.ante_min}..{config.ante_max}"
        )
    if bonus and not config.bonus_min <= bonus <= config.bonus_max:
        raise typer.BadParameter(
            f"--bonus {bonus} is outside the table's {config.bonus_min}..{config.bonus_max}"
        )
    seed = session_seed(seed)
    s = _Session(
        console=Console(highlight=False),
        config=config,
        source=seeded_source(seed),
        seed=seed,
        boxes=boxes,
        ante=ante,
        bonus=bonus,
        bankroll=bankroll,
        chips=bankroll,
    )
    blind = f" ({boxes - 1} blind)" if boxes > 1 else ""
    s.console.print(
        f"[bold]Russian Poker[/bold]: {boxes} box(es){blind}, Ante {ante}, Bonus {bonus}, "
        f"chips {bankroll}; a round needs up to "
        f"{round_cost(config, boxes=boxes, ante=ante, bonus=bonus)} before insurance"
    )
    run_session(lambda: _play_rounds(s), lambda way: _leave(s, way))


def _play_rounds(s: _Session) -> None:
    """Play rounds until the player stops or the chips run short."""
    from croupier.deck import Shoe, shuffled
    from croupier.games.russian.state import RussianRound

    while True:
        needed = round_cost(s.config, boxes=s.boxes, ante=s.ante, bonus=s.bonus)
        if s.chips < needed:
            s.console.print(
                f"[red]{s.chips} chips are not enough for another round: {needed} needed "
                f"(Ante and Bet on {s.boxes} box(es), the Bonus, a draw fee and the fee to "
                "buy the dealer's game)[/red]"
            )
            return
        s.rounds += 1
        game = RussianRound(s.config, Shoe(shuffled(s.source)))
        game.place_box(0, box=0, ante=s.ante, bonus=s.bonus)
        for box in range(1, s.boxes):
            game.place_box(0, box=box, ante=s.ante, blind=True)
        game.deal()
        s.game = game
        s.console.rule(f"Round {s.rounds} · chips {s.chips}")
        _decide(s, game)
        _offer_buy(s, game)
        _settle(s, game)
        again = _ask(s, "Another round? (Y/n) ", {"y": "yes", "n": "no"}, "y")
        if again == "n":
            return


def _show_cards(cards: Iterable[Card]) -> str:
    parts = []
    for card in cards:
        colour = "red" if card.suit in (1, 2) else "bold"
        parts.append(f"[{colour}]{card.rank.symbol}{card.suit.glyph}[/{colour}]")
    return " ".join(parts)


def _read(s: _Session, prompt: str) -> str:
    answer: str = s.console.input(prompt).strip()
    if answer.lower() in ("q", "quit", "exit"):
        raise Leave
    return answer


def _ask(s: _Session, prompt: str, choices: dict[str, str], default: str | None = None) -> str:
    """Ask until the answer is one of ``choices`` (by key or by the word)."""
    while True:
        answer = _read(s, prompt).lower()
        if not answer and default is not None:
            return default
        for key, word in choices.items():
            if answer in (key, word):
                return key
        listed = ", ".join(f"{k} ({w})" for k, w in choices.items())
        s.console.print(f"[yellow]answer one of: {listed}, or q to leave[/yellow]")


def _hand_line(s: _Session, cards: tuple[Card, ...]) -> str:
    """The hand's full name and what its combinations pay on the Bet."""
    from croupier.evaluator import evaluate
    from croupier.games.russian.rules import two_combination_pay

    payout = two_combination_pay(
        cards,
        paytable=s.config.bet_paytable,
        duplicate_rank_straights=s.config.duplicate_rank_straights,
    )
    pays = f"Bet pays {payout.line} {payout.multiple}:1" if payout.multiple else "no combination"
    return f"{_show_cards(cards)}  ({evaluate(cards).full_description}; {pays})"


def _ask_discards(s: _Session, hand: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """The cards to exchange, by position or by name; ``None`` (Enter) goes back."""
    while True:
        text = _read(
            s,
            "Cards to exchange (positions 1-5 or cards, e.g. '1 4' or '7c 2h'; Enter: back): ",
        )
        if not text:
            return None
        tokens = text.replace(",", " ").split()
        if all(_POSITIONS.fullmatch(t) for t in tokens):
            outside = [t for t in tokens if not 1 <= int(t) <= len(hand)]
            if outside:
                s.console.print(f"[yellow]{outside[0]} is not a position: use 1 to 5[/yellow]")
                continue
            picked = tuple(hand[int(t) - 1] for t in tokens)
        else:
            try:
                picked = parse_cards(" ".join(tokens))
            except NotationError as exc:
                s.console.print(f"[yellow]{exc}: name cards like 7c or Qh[/yellow]")
                continue
            missing = [str(c) for c in picked if c not in hand]
            if missing:
                s.console.print(f"[yellow]{missing[0]} is not one of your cards[/yellow]")
                continue
        if len(set(picked)) != len(picked):
            s.console.print("[yellow]a card is named twice[/yellow]")
            continue
        low, high = s.config.exchange_min, s.config.exchange_max
        if not low <= len(picked) <= high:
            s.console.print(f"[yellow]exchange from {low} to {high} cards at this table[/yellow]")
            continue
        return picked


def _decide(s: _Session, game: RussianRound) -> None:
    """The open box's decisions: draw or not, then bet (with insurance) or fold."""
    view = game.view(0)
    if s.config.dealer_upcard and view.dealer:
        s.console.print(f"Dealer shows {_show_cards(c for c in view.dealer if c is not None)}")
    s.console.print(f"Your hand: {_hand_line(s, game.cards(0))}")
    fee = game.price(SixthCard(seat=0, box=0))
    bet = game.price(PlaceBet(seat=0, box=0))
    low, high = s.config.exchange_min, s.config.exchange_max
    s.console.print(
        f"The Bet is {bet}; an exchange ({low} to {high} cards) or a sixth card costs {fee}."
    )
    discard: tuple[Card, ...] | None = ()
    while True:
        choice = _ask(
            s,
            "(b)et, (f)old, (e)xchange or (s)ixth card? (h: hint) ",
            {"b": "bet", "f": "fold", "e": "exchange", "s": "sixth", "h": "hint"},
        )
        if choice == "h":
            s.console.print(f"[cyan]{first_hint(game.cards(0), s.config, s.ante)}[/cyan]")
            continue
        if choice != "e":
            break
        discard = _ask_discards(s, game.cards(0))
        if discard is not None:
            game.exchange(0, box=0, discard=discard)
            break
    if choice == "s":
        game.sixth_card(0, box=0)
    s.seen = discard or ()
    if choice in ("e", "s"):
        s.console.print(f"Now: {_hand_line(s, game.cards(0))}  fee {fee}")
        while (choice := _ask(s, "(b)et or (f)old? (h: hint) ", _BET_OR_FOLD)) == "h":
            hint = bet_hint(game.cards(0), s.seen, s.config, s.ante)
            s.console.print(f"[cyan]{hint}[/cyan]")
    if choice == "f":
        game.fold(0, box=0)
    else:
        game.bet(0, box=0, insurance=_ask_insurance(s, game))


def _committed(game: RussianRound) -> int:
    """Every chip the player has on the table in this round so far."""
    return sum(b.ante + b.bonus + b.bet + b.fee + b.insurance for b in game.view(0).boxes)


def _ask_insurance(s: _Session, game: RussianRound) -> int:
    """Insurance for the open box, within the rules and the chips left free after the Bet
    (spec/russian.md "The player's decisions" 3); 0 for none."""
    limits = game.insurance_limits(0)
    if limits is None:
        return 0
    low, rules_high = limits
    free = s.chips - _committed(game) - game.price(PlaceBet(seat=0, box=0))
    high = min(rules_high, free)
    if high < low:
        s.console.print(
            f"Insurance needs at least {low}; you have {max(free, 0)} chips free after the "
            "Bet: no insurance."
        )
        return 0
    s.console.print(
        "Insurance against a dealer who does not qualify pays 1:1: from "
        f"{low} to {rules_high} by the rules"
        + (f", at most {high} with the {free} chips you have free" if high < rules_high else "")
        + "."
    )
    while True:
        text = _read(s, f"Insurance {low}..{high} (Enter for none): ")
        if not text or text == "0":
            return 0
        if _POSITIONS.fullmatch(text) and low <= int(text) <= high:
            return int(text)
        s.console.print(f"[yellow]enter a whole amount from {low} to {high}, or 0[/yellow]")


def _dealer_line(cards: tuple[Card, ...]) -> str:
    from croupier.evaluator import evaluate
    from croupier.games.russian.rules import dealer_qualifies

    status = "qualifies" if dealer_qualifies(cards) else "does not qualify: it needs Ace-King"
    return f"{_show_cards(cards)}  ({evaluate(cards).full_description}; {status})"


def _offer_buy(s: _Session, game: RussianRound) -> None:
    """Show the dealer; when the dealer does not qualify, offer to buy the dealer's game."""
    from croupier.games.russian.state import Phase

    if game.phase is Phase.SETTLED and not game.dealer:  # pragma: no cover - always dealt
        return
    s.console.print(f"Dealer: {_dealer_line(game.dealer)}")
    if game.phase is not Phase.BUYING or game.to_act != 0:
        return
    s.console.print("The dealer does not qualify: your Ante is paid 1:1.")
    fee = game.price(BuyGame(seat=0, box=0))
    buy = "n"
    while game.can_buy_game(0, box=0):
        buy = _ask(
            s,
            f"Buy the dealer's game for {fee} (the dealer's highest card is replaced)? "
            "(y/N, h: hint) ",
            {"y": "yes", "n": "no", "h": "hint"},
            "n",
        )
        if buy != "h":
            break
        hint = buy_hint(game.cards(0), game.dealer, s.seen, s.config, s.ante)
        s.console.print(f"[cyan]{hint}[/cyan]")
    if buy == "y":
        bought = game.buy_game(0, box=0)
        s.console.print(f"Dealer now: {_dealer_line(bought.hand)}")
    else:
        game.decline_buy(0, box=0)


def _verdict(s: _Session, cards: tuple[Card, ...], settled: BoxSettlement) -> str:
    """Why the box's Ante and Bet ended as they did."""
    from croupier.evaluator import evaluate, versus
    from croupier.games.russian.rules import dealer_qualifies

    if not dealer_qualifies(settled.dealer_hand):
        return "the dealer does not qualify"
    mine, theirs = evaluate(cards), evaluate(settled.dealer_hand)
    if mine == theirs:
        return f"tie: {mine.full_description} each"
    if mine > theirs:
        return f"you win: {versus(mine.value, theirs.value)}"
    return f"the dealer wins: {versus(theirs.value, mine.value)}"


def _settle(s: _Session, game: RussianRound) -> None:
    """Print every box's hand, its bets with their pay lines, and add the result."""
    from rich.table import Table

    table = Table(title="Settlement")
    for column in ("box", "bet", "stake", "result", "pay line"):
        table.add_column(column, justify="right" if column in ("stake", "result") else "left")
    total = 0
    for box in game.boxes:
        settled = game.settlement(box)
        cards = game.cards(box)
        label = f"{box + 1} {'open' if box == 0 else 'blind'}"
        line = f"Box {label}: {_hand_line(s, cards)}"
        folded = settled.payout is None
        s.console.print(line + ("  folded" if folded else f"  {_verdict(s, cards, settled)}"))
        for index, outcome in enumerate(settled.outcomes):
            table.add_row(
                label if index == 0 else "",
                _BET_NAMES[outcome.kind],
                str(outcome.stake),
                _signed(outcome.net),
                outcome.pay_line,
            )
        table.add_row("", "[bold]net[/bold]", "", _signed(settled.net), "", end_section=True)
        total += settled.net
    s.chips += total
    s.game = None
    s.console.print(table)
    s.console.print(f"Round {_signed(total)} · Chips: {s.chips}")


def _signed(amount: int) -> str:
    colour = "green" if amount > 0 else "red" if amount < 0 else "white"
    return f"[{colour}]{amount:+d}[/{colour}]"


def _leave(s: _Session, way: Way) -> None:
    """Finish the round in play as a timed-out seat would (fold, or do not buy the dealer's
    game, as the live table does), then print the session summary."""
    from croupier.games.russian.state import Phase

    if way in (Way.INTERRUPTED, Way.END_OF_INPUT):
        s.console.print()  # end the line the prompt left open
    game = s.game
    if game is not None:
        try:
            if game.phase is Phase.DECIDING and game.to_act == 0:
                s.console.print("You leave during the round: your open box is folded.")
                game.fold(0, box=0)
            if game.phase is Phase.BUYING and game.to_act == 0:
                s.console.print("You leave during the round: the dealer's game is not bought.")
                game.decline_buy(0, box=0)
            if game.phase is Phase.SETTLED:
                _settle(s, game)
        except CroupierError as exc:  # pragma: no cover - an interrupted engine call
            s.console.print(f"[red]the round could not be finished: {exc}[/red]")
    s.console.rule("Session")
    s.console.print(
        f"{s.rounds} round{'s' if s.rounds != 1 else ''} played. "
        f"You leave with {s.chips} chips ({s.chips - s.bankroll:+d})."
    )
    s.console.print(replay_line("russian play", s.seed))
