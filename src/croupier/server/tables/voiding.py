"""A void the database did not take, tried again until it is done.

A round that cannot be settled is voided: every stake goes back from escrow to its player
(docs/protocol.md "Faults"). When the database is down, the void fails too. Before, the
round then waited for the server's next start to be voided, its stakes held in escrow (and
counted as at risk against the player's limits) while the player had been told the round
was voided (found by red-teaming: an SQLite write lock held past its timeout at a
settlement). Now the void is tried again in the background, after 1, 2, 5, 10 and 30
seconds and then every minute, until the database takes it -- or until the round is found
closed already (a start's recovery, or the table's next owner in a cluster, voided it). The
table goes on meanwhile; stopping it stops the tries (its next start voids the round).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable

from croupier.server.errors import ConflictError
from croupier.server.tables.core import TableCore

__all__ = ["DELAYS", "EVERY", "SETTLEMENT_FAILED", "void_or_retry"]

log = logging.getLogger(__name__)

DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds before each try after the first failed; then every :data:`EVERY`."""
EVERY = 60.0

SETTLEMENT_FAILED = "settlement failed: the database did not record it"
"""The void's reason a player reads when the settlement's transaction failed (the error
itself is for the log: it names statements and the database's internals)."""


async def void_or_retry(core: TableCore, what: str, void: Callable[[], Awaitable[object]]) -> None:
    """``void()`` now; if the database refuses it, again in the background until done."""
    try:
        await void()
    except Exception:
        log.exception("void of %s failed: tried again until the database takes it", what)
        task = asyncio.create_task(_retry(what, void), name=f"void {what} of {core.name}")
        core.retries.add(task)
        task.add_done_callback(core.retries.discard)


async def _retry(what: str, void: Callable[[], Awaitable[object]]) -> None:
    for attempt in itertools.count(2):
        await asyncio.sleep(DELAYS[attempt - 2] if attempt - 2 < len(DELAYS) else EVERY)
        try:
            await void()
        except ConflictError as exc:  # closed already: voided by a start or another owner
            log.warning("void of %s not needed at try %d: %s", what, attempt, exc)
            return
        except Exception as exc:
            log.warning("void of %s failed again at try %d: %s", what, attempt, exc)
        else:
            log.warning("void of %s done at try %d: its stakes are back", what, attempt)
            return
