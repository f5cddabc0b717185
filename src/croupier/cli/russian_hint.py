"""The `h` hint of `croupier russian play`: the exact value of each legal option
(:mod:`croupier.analysis.russian.advisor`), in Antes and in chips."""

from __future__ import annotations

from collections.abc import Callable

from croupier.cards import Card
from croupier.games.russian import RussianConfig

__all__ = ["bet_hint", "buy_hint", "first_hint"]


def _text(advise: Callable[[], object], ante: int) -> str:
    try:
        advice = advise()
        options = advice.options  # type: ignore[attr-defined]
    except Exception as exc:  # the hint must never break the table
        return f"no hint: {exc}"
    best = options[0]
    lines = [f"Best: {best.label}  (exact EV with the best play after, per Ante and in chips)"]
    for o in options[:8]:
        cost = best.ev - o.ev
        lines.append(
            f"  {o.label:<28} {float(o.ev):+.4f} Ante  {float(o.ev) * ante:+.2f}"
            + (f"   costs {float(cost) * ante:.2f}" if cost else "")
        )
    if len(options) > 8:
        lines.append(f"  ... {len(options) - 8} more options, each worth less")
    return "\n".join(lines)


def first_hint(hand: tuple[Card, ...], config: RussianConfig, ante: int) -> str:
    """Fold, bet, the sixth card and every exchange for the first five cards."""
    from croupier.analysis.russian.advisor import advise_first

    return _text(lambda: advise_first(hand, config), ante)


def bet_hint(
    final: tuple[Card, ...], seen: tuple[Card, ...], config: RussianConfig, ante: int
) -> str:
    """Fold or bet (with or without insurance) with the final cards, the discards seen."""
    from croupier.analysis.russian.advisor import advise_bet

    return _text(lambda: advise_bet(final, seen, config), ante)


def buy_hint(
    final: tuple[Card, ...],
    dealer: tuple[Card, ...],
    seen: tuple[Card, ...],
    config: RussianConfig,
    ante: int,
) -> str:
    """Buy the dealer's game or take the Ante's payment."""
    from croupier.analysis.russian.advisor import advise_buy

    return _text(lambda: advise_buy(final, dealer, seen, config), ante)
