"""Deck commitments: SHA-256 of a per-round salt and the deck order (issue 5, Fairness).

Before the deal the server publishes ``commitment``; after the round it reveals ``salt`` and
``deck``, and anyone can check::

    hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest() == commitment

where ``deck`` is the shoe's order, top card first, in card notation separated by single
spaces (``"As Kd 7h ..."``).

A game between players (Hold'em) cannot reveal the whole deck after a hand: that would show
everyone the cards of players who folded or mucked. There the commitment is to each card
on its own (:func:`card_commitment`): card ``i`` gets its own salt, derived from the round's
salt (HMAC-SHA256, so one card's salt tells nothing of the others), its leaf is
``sha256("<card salt>:<i>:<card>")`` and the commitment is the SHA-256 of the 52 leaves
joined by spaces. After the hand the leaves are published with the salts and cards of the
positions everyone saw -- the board and the burns actually dealt, and the hands shown at
showdown (:func:`open_cards`) -- and each player gets the openings of their own hole cards.
Nothing else is opened: not the cards left in the stub (52 minus the opened cards minus your
own would be the folded hands), not a folded or mucked hand. :func:`verify_openings` checks
the openings against the commitment, each at its dealing position; an operator who holds the
round's salt and deck can still check the whole deck.

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
from collections.abc import Iterable, Mapping, Sequence

from croupier.cards import format_cards
from croupier.deck import Shoe

__all__ = [
    "card_commitment",
    "card_leaves",
    "card_salt",
    "commit",
    "deck_text",
    "new_salt",
    "open_cards",
    "positions_of",
    "verify",
    "verify_openings",
]


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


def card_salt(salt: str, position: int) -> str:
    """The salt of the card at ``position`` (0 = top), derived from the round's ``salt``."""
    return hmac.new(salt.encode(), str(position).encode(), hashlib.sha256).hexdigest()[:32]


def _leaf(card_salt_: str, position: int, card: str) -> str:
    return hashlib.sha256(f"{card_salt_}:{position}:{card}".encode()).hexdigest()


def card_leaves(*, salt: str, deck: str) -> list[str]:
    """The commitment leaf of every position of ``deck``."""
    return [_leaf(card_salt(salt, i), i, card) for i, card in enumerate(deck.split())]


def card_commitment(*, salt: str, deck: str) -> str:
    """The commitment to ``deck`` card by card: SHA-256 of its leaves joined by spaces.

    >>> leaves = card_leaves(salt="00", deck="As Kd 7h")
    >>> root = card_commitment(salt="00", deck="As Kd 7h")
    >>> verify_openings(commitment=root, leaves=leaves, openings=open_cards(salt="00", deck="As Kd 7h", positions=[2]))
    True
    >>> verify_openings(commitment=root, leaves=leaves, openings={"2": [card_salt("00", 2), "7c"]})
    False
    """
    return hashlib.sha256(" ".join(card_leaves(salt=salt, deck=deck)).encode()).hexdigest()


def open_cards(*, salt: str, deck: str, positions: Iterable[int]) -> dict[str, list[str]]:
    """The openings ``{position: [card salt, card]}`` of ``positions`` of ``deck``."""
    cards = deck.split()
    return {str(i): [card_salt(salt, i), cards[i]] for i in sorted(set(positions))}


def verify_openings(
    *, commitment: str, leaves: Sequence[str], openings: Mapping[str, Sequence[str]]
) -> bool:
    """Whether ``leaves`` hash to ``commitment`` and every opened card matches its leaf."""
    root = hashlib.sha256(" ".join(leaves).encode()).hexdigest()
    if not hmac.compare_digest(root, commitment):
        return False
    for key, (salt_, card) in openings.items():
        position = int(key)
        if not 0 <= position < len(leaves) or _leaf(salt_, position, card) != leaves[position]:
            return False
    return True


def positions_of(deck: str, cards: Iterable[str]) -> set[int]:
    """The positions in ``deck`` of ``cards`` (each card is in a deck once).

    >>> sorted(positions_of("As Kd 7h 2c", ["7h", "As"]))
    [0, 2]
    """
    index = {card: i for i, card in enumerate(deck.split())}
    return {index[card] for card in cards}
