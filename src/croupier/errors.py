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
catch it. Messages are lower-case fragments that quote the value and the rule, for developers
and logs. What a person reads is worded by the client from ``reason`` (a stable name for why,
such as ``"bet_out_of_limits"``) and ``params`` (the values it needs, money in minor units):

>>> exc = IllegalActionError(
...     "ante 50 is outside the table limits 100..10000",
...     reason="bet_out_of_limits",
...     params={"spot": "ante", "amount": 50, "min": 100, "max": 10000},
... )
>>> exc.reason, exc.params["min"], str(exc)
('bet_out_of_limits', 100, 'ante 50 is outside the table limits 100..10000')
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "ConfigError",
    "CroupierError",
    "IllegalActionError",
    "InsufficientFunds",
    "InvalidCardsError",
    "NotationError",
    "Param",
    "RecordError",
]


Param = str | int | bool | None | list[str] | list[int]
"""A value a client words an error with: text, an amount in minor units, a count, a list."""


class CroupierError(Exception):
    """Base class of every error croupier raises on purpose.

    Args:
        message: the developer's fragment (``str(exc)``).
        reason: a stable, machine-readable name for why; ``None`` when only the class says.
        params: what a client needs to word the reason (money in minor units, never text
            built from amounts).
    """

    def __init__(
        self,
        message: str = "",
        *,
        reason: str | None = None,
        params: Mapping[str, Param] | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, Param] = dict(params) if params else {}


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
