"""Run the real server for the browser tests: ``python tests/web/serve.py PORT DB_URL TABLES``.

The app is :func:`croupier.server.app.create_app` with the browser client from
:func:`croupier.web.static_dir`, served by uvicorn on 127.0.0.1 only. Settings (the operator
account, the secret) come from the ``CROUPIER_*`` environment the fixture sets;
``CROUPIER_TEST_DECKS`` names a file of stacked deals (:func:`stacked_shoes`).
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from pathlib import Path

import uvicorn
from argon2 import PasswordHasher

from croupier.cards import DECK, Card
from croupier.deck import Shoe
from croupier.server.accounts import service
from croupier.server.app import create_app
from croupier.server.rng import live_shoe
from croupier.server.settings import Settings
from croupier.server.tables.protocol import MAX_FRAME_BYTES
from croupier.web import static_dir


def stacked_shoes(path: Path) -> Callable[[], Shoe]:
    """Shoes whose top cards come from ``path`` (one deal a line, top card first, in card
    notation), in order, each completed with the other cards shuffled; then shuffled shoes.
    A test server so stacked deals a chosen hand (an all-in with side pots, a tie)."""
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    rng = random.Random(29)

    def next_shoe() -> Shoe:
        if not lines:
            return live_shoe()
        top = [Card.parse(c) for c in lines.pop(0)]
        rest = [c for c in DECK if c not in set(top)]
        rng.shuffle(rest)
        return Shoe([*top, *rest])

    return next_shoe


def main() -> None:
    # Argon2 at the suite's minimal cost, as the server tests' child servers have it
    # (tests/server/server_testkit.py): the browser tests register and sign in hundreds of
    # players, and what they check is what the page shows, not the cost of a hash (each one at
    # the production cost takes 0.15 CPU-s and 64 MiB; tests/security runs that cost).
    service._HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    port, database_url, tables = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    settings = Settings(database_url=database_url, tables_config=tables)
    # CROUPIER_WEB_STATIC serves another client (an older one, to see a test fail on it).
    static = Path(os.environ.get("CROUPIER_WEB_STATIC") or static_dir())
    # CROUPIER_TEST_DECKS names a file of stacked deals, one a line (stacked_shoes);
    # CROUPIER_TEST_DECK deals every round from that one deck (a test that needs a given deal).
    decks = os.environ.get("CROUPIER_TEST_DECKS")
    deck = os.environ.get("CROUPIER_TEST_DECK")
    shoes: Callable[[], Shoe] | None = None
    if decks:
        shoes = stacked_shoes(Path(decks))
    elif deck is not None:
        shoes = lambda: Shoe.parse(deck)  # noqa: E731
    app = create_app(settings, static_dir=static, shoe_factory=shoes)
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=MAX_FRAME_BYTES,
        proxy_headers=False,
    )


if __name__ == "__main__":
    main()
