"""The round's biggest winners, announced at a live table's close (seed 001: "the winners
are announced"): display names and amounts, the few largest, in one shared frame.

Finding them is one pass over the round's results (``heapq.nlargest``), once per round;
every player then receives the same encoded ``round_closed`` frame, so the announcement
costs each player nothing more than the frame they were getting anyway.

>>> results = [{"seat": 0, "net": 500}, {"seat": 1, "net": -200}, {"seat": 2, "net": 900}]
>>> biggest_winners(results, {0: "ana", 1: "bo", 2: "cy"})
[{'name': 'cy', 'net': 900}, {'name': 'ana', 'net': 500}]
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["WINNERS_SHOWN", "biggest_winners"]

WINNERS_SHOWN = 5


def biggest_winners(
    results: Iterable[Mapping[str, Any]], names: Mapping[int, str], *, limit: int = WINNERS_SHOWN
) -> list[dict[str, Any]]:
    """The ``limit`` largest positive nets of ``results`` (``seat``, ``net``), largest first,
    with the seat's display name; seats without a name are skipped."""
    winners = (r for r in results if int(r.get("net", 0)) > 0 and int(r.get("seat", -1)) in names)
    top = heapq.nlargest(limit, winners, key=lambda r: int(r["net"]))
    return [{"name": names[int(r["seat"])], "net": int(r["net"])} for r in top]
