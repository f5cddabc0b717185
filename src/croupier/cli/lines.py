"""The audit loops every game's CLI shares: settle JSON lines, replay record files.

``croupier <game> settle`` reads one JSON object a line and writes one answer a line (the
game's ``settle_line``: the nets, or ``{"error": ...}``); ``croupier <game> replay`` reads
record files (one record, a JSON list of them or JSON lines; as stored or as ``GET
/api/rounds/{id}`` returns them, :mod:`croupier.history.records`) and says, for each, whether
it reproduces. The games differ only in the functions they pass in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from rich.console import Console
from rich.markup import escape

from croupier.errors import CroupierError, RecordError
from croupier.history.records import documents, unwrap

__all__ = ["Replayer", "replay_files", "settle_lines"]

_R = TypeVar("_R")


def settle_lines(lines: Iterable[str], settle: Callable[[Any], Mapping[str, int]]) -> Iterator[str]:
    """``settle`` each non-blank JSON line; one JSON answer a line, errors included."""
    for line in lines:
        if not line.strip():
            continue
        try:
            result: dict[str, Any] = dict(settle(json.loads(line)))
        except json.JSONDecodeError as exc:
            result = {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
        except CroupierError as exc:
            result = {"error": str(exc)}
        yield json.dumps(result)


@dataclass(frozen=True, slots=True)
class Replayer(Generic[_R]):
    """What a game gives the replay loop: its ``replay`` and ``differences``
    (:mod:`croupier.history`), and the lines confirming a replayed round."""

    replay: Callable[[Mapping[str, Any]], _R]
    differences: Callable[[_R, Mapping[str, Any]], list[str]]
    confirmations: Callable[[_R], list[str]]
    """The lines saying what was confirmed (nets), the last one the summary."""


def _name(label: str, data: object) -> str:
    if isinstance(data, dict):
        round_id = data.get("round_id", data.get("id") if "record" in data else None)
        if round_id is not None:
            return f"{label}: round {round_id}"
    return label


def _replay_one(console: Console, game: Replayer[_R], label: str, data: object) -> bool:
    """Replay one record and print the outcome; whether it reproduced."""
    name = _name(label, data)
    try:
        record = unwrap(data)
        if record.get("round_id") is not None:
            name = f"{label}: round {record['round_id']}"
        replayed = game.replay(record)
        differences = game.differences(replayed, record)
    except CroupierError as exc:
        console.print(f"[red]{escape(name)}: {escape(str(exc))}[/red]")
        return False
    if differences:
        more = len(differences) - 1
        tail = f" (and {more} more difference{'s' if more > 1 else ''})" if more else ""
        console.print(f"[red]{escape(name)}: {escape(differences[0])}{tail}[/red]")
        return False
    *body, last = game.confirmations(replayed)
    for line in body:
        console.print(f"{escape(name)}: {escape(line)}")
    head, sep, rest = last.partition(" (")
    if head == "settlement confirmed":
        console.print(f"[green]{escape(name)}: {head}[/green]{sep}{escape(rest)}")
    else:
        console.print(f"{escape(name)}: {escape(last)}")
    return True


def replay_files(files: Iterable[Path], game: Replayer[_R]) -> bool:
    """Replay every record of ``files``, one line of outcome each; whether all reproduced."""
    console = Console(soft_wrap=True)  # one line per message, whatever the width
    reproduced = True
    for path in files:
        try:
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(f"not a UTF-8 text file (byte {exc.start})") from None
            found = documents(text, str(path))
        except (OSError, RecordError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            console.print(f"[red]{escape(str(path))}: {escape(reason)}[/red]")
            reproduced = False
            continue
        if not found:
            console.print(f"[red]{escape(str(path))}: no round record in the file[/red]")
            reproduced = False
        for label, data in found:
            reproduced = _replay_one(console, game, label, data) and reproduced
    return reproduced
