"""The croupier exception tree, drawn once.

::

    CroupierError
    ├── NotationError        (also ValueError)  a card, hand or amount that cannot be parsed
    ├── InvalidCardsError    (also ValueError)  duplicate cards, wrong count, id outside 0..51
    ├── ConfigError          (also ValueError)  a table setting or pay table that is not valid
    ├── IllegalActionError   (also ValueError)  an action the rules refuse in this state
    ├── InsufficientFunds    (also ValueError)  a bet larger than the money available
    └── RecordError          (also ValueError)  a round record or hand history that does not replay

Every input error is a ``ValueError`` so callers that only know the standard library still
catch it. Messages are lower-case fragments that quote the value and the rule.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "CroupierError",
    "IllegalActionError",
    "InsufficientFunds",
    "InvalidCardsError",
    "NotationError",
    "RecordError",
]


class CroupierError(Exception):
    """Base class of every error croupier raises on purpose."""


class NotationError(CroupierError, ValueError):
    """Text that does not parse: an unknown rank or suit, a malformed amount."""


class InvalidCardsError(CroupierError, ValueError):
    """Cards that parse but cannot be used together: duplicates, wrong count, bad id."""


class ConfigError(CroupierError, ValueError):
    """A table configuration or pay table that is not valid."""


class IllegalActionError(CroupierError, ValueError):
    """An action the rules refuse in the current state; the state is unchanged."""


class InsufficientFunds(CroupierError, ValueError):
    """A bet or debit larger than the money available; nothing is moved."""


class RecordError(CroupierError, ValueError):
    """A round record or hand history that is malformed or does not replay."""
