"""Round records in general: engine values as JSON, and finding the records in a file.

Each game keeps its own record and replay with the same signatures
(:mod:`croupier.history.uth`, :mod:`croupier.history.russian`,
:mod:`croupier.history.holdem`, :mod:`croupier.history.caribbean`)::

    record(round, *, round_id=None) -> dict      the JSON record of a round, complete or not
    replay(record) -> round                      the round re-run through the engine
    verify(record) -> list[str]                  where the replay differs (empty: reproduces)

This module holds what they share: :func:`to_json` (the one form records are written in
and the server's tables send), :func:`event_json`, and :func:`documents` /
:func:`unwrap`, which find the records in a file as stored or as ``GET /api/rounds/{id}``
returns them.

>>> from croupier.cards import parse_cards
>>> to_json({"cards": parse_cards("As Kd"), "net": 150})
{'cards': ['As', 'Kd'], 'net': 150}
>>> [label for label, _ in documents('{"game": "uth"}\\n{"game": "uth"}', "file.jsonl")]
['file.jsonl[1]', 'file.jsonl[2]']
"""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any

from croupier.cards import Card
from croupier.errors import RecordError

__all__ = [
    "MISSING",
    "Unreadable",
    "documents",
    "event_json",
    "first_difference",
    "show",
    "to_json",
    "unwrap",
]

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def to_json(value: Any) -> Any:
    """Engine values as JSON: cards as notation, enums as values, dataclasses as objects.

    The one form records are written in and the server's tables send (a live table
    serialises thousands of views a round, so each class's fields are read once).
    """
    if value is None:
        return None
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, str | int):  # bool is an int
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    kind = type(value)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            return value
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
    return {name: to_json(getattr(value, name)) for name in names}


def event_json(event: Any) -> dict[str, Any]:
    """An engine event as JSON with its explicit wire name: ``{"kind": ..., **fields}``."""
    return {"kind": event.kind, **to_json(event)}


class Unreadable:
    """A JSON line that does not parse (reported in its turn, the others still read)."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def documents(text: str, label: str) -> list[tuple[str, Any]]:
    """The records in a file's ``text``, each with its label: one JSON document (``label``),
    a JSON list of them (``label[N]``, N from 1) or JSON lines (``label[N]`` for line N; a
    line that is not JSON is an :class:`Unreadable`).

    Raises:
        RecordError: the text is empty, or neither JSON nor JSON lines.
    """
    if not text.strip():
        raise RecordError("the file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if exc.msg != "Extra data" and not any(_an_object(line) for _, line in lines):
            raise RecordError(
                f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
            ) from None
        found: list[tuple[str, Any]] = []
        for number, line in lines:
            try:
                found.append((f"{label}[{number}]", json.loads(line)))
            except json.JSONDecodeError as bad:
                found.append(
                    (f"{label}[{number}]", Unreadable(f"not JSON: {bad.msg} at column {bad.colno}"))
                )
        return found
    if isinstance(data, list):
        return [(f"{label}[{n}]", item) for n, item in enumerate(data, 1)]
    return [(label, data)]


def _an_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def unwrap(data: object) -> dict[str, Any]:
    """The round record in ``data``: a record as stored, or the JSON of
    ``GET /api/rounds/{id}`` (the record under ``"record"``, the deck revealed beside it).

    Raises:
        RecordError: not a record, a round without one, or a record whose deck is not the
            deck revealed with it.
    """
    if isinstance(data, Unreadable):
        raise RecordError(data.message)
    if not isinstance(data, dict):
        raise RecordError(f"a round record is a JSON object, not {json.dumps(data)[:40]}")
    if "record" not in data or "events" in data:
        return data
    record = data["record"]
    if record is None:
        raise RecordError(f"the round is {data.get('status', 'open')} and has no record yet")
    if not isinstance(record, dict):
        raise RecordError(f"the round's record is not a JSON object: {json.dumps(record)[:40]}")
    record = dict(record)
    revealed = data.get("deck")
    if revealed is not None:
        if record.get("deck") is None:
            record["deck"] = revealed  # records written before they held the deck
        elif record["deck"] != revealed:
            raise RecordError("the record's deck is not the deck revealed with the round")
    if record.get("round_id") is None and data.get("id") is not None:
        record["round_id"] = data["id"]
    return record


def first_difference(mine: Any, theirs: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place (a path like ``.hands[0][1][2]``) where two JSON values differ, with
    both values (:data:`MISSING` where one side has no such key)."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            found = first_difference(
                mine.get(key, MISSING), theirs.get(key, MISSING), f"{path}.{key}"
            )
            if found is not None:
                return found
        return None
    if isinstance(mine, list) and isinstance(theirs, list):
        for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found is not None:
                return found
        if len(mine) != len(theirs):
            return f"{path} (length)", len(mine), len(theirs)
        return None
    if type(mine) is type(theirs) and mine == theirs:
        return None
    return path, mine, theirs


MISSING: Any = object()
"""What :func:`first_difference` reports for a key one side does not have."""


def show(value: Any) -> str:
    """A JSON value as a message quotes it (``nothing`` for :data:`MISSING`)."""
    return "nothing" if value is MISSING else json.dumps(value)
