"""croupier: casino poker that deals, settles to the chip and proves its mathematics."""

from croupier.cards import DECK, Card, Rank, Suit, format_cards, parse_cards
from croupier.chips import Chips, split_evenly
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import (
    ConfigError,
    CroupierError,
    IllegalActionError,
    InsufficientFunds,
    InvalidCardsError,
    NotationError,
    RecordError,
)
from croupier.evaluator import HandCategory, HandValue, evaluate, evaluate_batch

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Card",
    "Chips",
    "ConfigError",
    "CroupierError",
    "HandCategory",
    "HandValue",
    "IllegalActionError",
    "InsufficientFunds",
    "InvalidCardsError",
    "NotationError",
    "Rank",
    "RecordError",
    "Shoe",
    "Suit",
    "__version__",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "parse_cards",
    "seeded_source",
    "shuffled",
    "split_evenly",
]
