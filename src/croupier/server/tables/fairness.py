"""Deck commitments: SHA-256 of a per-round salt and the deck order (issue 5, Fairness).

Before the deal the server publishes ``commitment``; after the round it reveals ``salt`` and
``deck``, and anyone can check::

    hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest() == commitment

where ``deck`` is the shoe's order, top card first, in card notation separated by single
spaces (``"As Kd 7h ..."``).

>>> from croupier.deck import Shoe
>>> shoe = Shoe.parse("As Kd 7h")
>>> deck_text(shoe)
'As Kd 7h'
>>> verify(salt="00", deck="As Kd 7h", commitment=commit(salt="00", deck="As Kd 7h"))
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from croupier.cards import format_cards
from croupier.deck import Shoe

__all__ = ["commit", "deck_text", "new_salt", "verify"]


def new_salt() -> str:
    """A fresh 128-bit salt, hex-encoded, from the OS CSPRNG."""
    return secrets.token_hex(16)


def deck_text(shoe: Shoe) -> str:
    """The shoe's whole order in card notation, top card first."""
    return format_cards(shoe.order, " ")


def commit(*, salt: str, deck: str) -> str:
    """The SHA-256 commitment (hex) to ``deck`` under ``salt``."""
    return hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest()


def verify(*, salt: str, deck: str, commitment: str) -> bool:
    """Whether a revealed ``salt`` and ``deck`` match ``commitment``."""
    return hmac.compare_digest(commit(salt=salt, deck=deck), commitment)
