"""The only home of the OS CSPRNG: live shuffles come from ``secrets.SystemRandom``."""

from __future__ import annotations

import secrets

from croupier.cards import Card
from croupier.deck import PyRandomSource, Shoe, shuffled

__all__ = ["csprng_source", "live_shoe"]


def csprng_source() -> PyRandomSource:
    """A random source backed by the operating system's CSPRNG."""
    return PyRandomSource(secrets.SystemRandom())


def live_shoe() -> Shoe:
    """A freshly shuffled 52-card shoe for live play."""
    order: tuple[Card, ...] = shuffled(csprng_source())
    return Shoe(order)
