"""The protocol's JSON Schema and the tables of ``docs/protocol.md``, generated from
:mod:`croupier.server.tables.wire` (``croupier protocol`` writes both; a test checks that the
checked-in files are what the code generates).

The tables in ``docs/protocol.md`` sit between ``<!-- wire:NAME -->`` and
``<!-- /wire:NAME -->`` markers; everything else in the page is prose kept by hand.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from croupier.server.tables import wire
from croupier.server.tables.registry import bet_spots

__all__ = ["SECTIONS", "render_doc", "render_schema", "schema", "tables"]

_GAME_EVENT: dict[str, Any] = {
    "title": "GameEvent",
    "description": "A game event as the game's adapter projects it for the receiving seat: "
    "`kind` (the event's name in snake case) and its fields (docs/protocol.md, Events).",
    "type": "object",
    "properties": {"kind": {"type": "string"}},
    "required": ["kind"],
}


def _union(members: Sequence[type], *, tag: str) -> dict[str, Any]:
    names = [m.__name__ for m in members]
    return {
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in names],
        "discriminator": {
            "propertyName": tag,
            "mapping": {
                str(m.__struct_config__.tag): f"#/$defs/{m.__name__}"  # type: ignore[attr-defined]
                for m in members
            },
        },
    }


class Ack(msgspec.Struct, tag_field="type", tag="ack"):
    """The schema's stand-in for :class:`wire.Ack`, whose ``result`` is a union of untagged
    structs (one per request kind) that msgspec encodes but cannot describe: the union is
    written into the schema by :func:`schema`."""

    ref: wire.Ref
    result: Any


Ack.__doc__ = wire.Ack.__doc__
_FRAMES: tuple[type, ...] = tuple(
    Ack if frame is wire.Ack else frame for frame in wire.SERVER_FRAMES
)


def schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of every client message and server frame."""
    events = (*wire.TABLE_EVENTS, *wire.CASH_EVENTS)
    spots = _spots()
    _, defs = msgspec.json.schema_components(
        [*wire.CLIENT_MESSAGES, *_FRAMES, *events, *spots, *wire.RESULTS],
        ref_template="#/$defs/{name}",
    )
    defs["Ack"]["properties"]["result"] = {
        "description": "what the request did: the type of its kind",
        "anyOf": [{"$ref": f"#/$defs/{t.__name__}"} for t in wire.RESULTS],
    }
    bets = defs["BetMessage"]["properties"]["bets"]
    bets["anyOf"] = [{"$ref": f"#/$defs/{t.__name__}"} for t in spots]
    bets["description"] = "the spots of the table's game, one of " + ", ".join(
        f"`{t.__name__}`" for t in spots
    )
    defs["ClientMessage"] = _union(wire.CLIENT_MESSAGES, tag="type")
    defs["ServerFrame"] = _union(_FRAMES, tag="type")
    defs["TableEvent"] = _union(events, tag="kind")
    defs["GameEvent"] = _GAME_EVENT
    payload = {
        "description": "a table event, or a game event",
        "anyOf": [{"$ref": "#/$defs/TableEvent"}, {"$ref": "#/$defs/GameEvent"}],
    }
    for frame in ("EventFrame", "SeatEventFrame"):
        defs[frame]["properties"]["event"] = payload
    _clean_descriptions(defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://croupier.invalid/protocol/v1",
        "title": f"croupier table protocol, version {wire.PROTOCOL_VERSION}",
        "description": "Frames over the table WebSocket: docs/protocol.md.",
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerFrame"}],
        "$defs": dict(sorted(defs.items())),
    }


def _clean_descriptions(node: object) -> None:
    """Every ``description`` as :func:`inspect.cleandoc` reads its docstring: msgspec 0.22
    kept a docstring's margin when its first line sat on the quotes, 0.23 removes it; the
    checked-in schema must not depend on which one is installed."""
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            node["description"] = inspect.cleandoc(node["description"])
        for value in node.values():
            _clean_descriptions(value)
    elif isinstance(node, list):
        for value in node:
            _clean_descriptions(value)


def _spots() -> list[type[wire.Spots]]:
    """Every registered game's ``bet`` spots (each game's own struct), by game name."""
    return [spots for _, spots in sorted(bet_spots().items())]


def render_schema() -> str:
    """The schema as the checked-in file holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def _kind(prop: Mapping[str, Any]) -> str:
    """A property's type in a few words."""
    if "$ref" in prop:
        return str(prop["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in prop:
        return " or ".join(_kind(p) for p in prop["anyOf"])
    if "enum" in prop:
        return " / ".join(json.dumps(v) for v in prop["enum"])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"list of {_kind(prop.get('items', {}))}"
    if kind == "object" and "additionalProperties" in prop:
        return f"object of {_kind(prop['additionalProperties'])}"
    limits = [
        f"{word} {prop[key]}"
        for key, word in (
            ("minimum", "≥"),
            ("exclusiveMinimum", ">"),
            ("maximum", "≤"),
            ("minLength", "length ≥"),
            ("maxLength", "length ≤"),
            ("maxProperties", "at most"),
        )
        if key in prop
    ]
    text = {"integer": "int", "string": "string", "boolean": "bool", "null": "null"}.get(
        str(kind), str(kind)
    )
    return f"{text} ({', '.join(limits)})" if limits else text


def _fields(definition: Mapping[str, Any], *, skip: tuple[str, ...]) -> str:
    required = set(definition.get("required", ()))
    parts = []
    for name, prop in definition.get("properties", {}).items():
        if name in skip:
            continue
        mark = "" if name in required else "?"
        parts.append(f"`{name}{mark}` ({_kind(prop)})")
    return ", ".join(parts) or "—"


def _text(value: str) -> str:
    return re.sub(r"\s+", " ", value).replace("``", "`").replace("|", "\\|").strip()


def _table(
    defs: Mapping[str, Any], members: Sequence[type], *, tag: str, skip: tuple[str, ...]
) -> str:
    head = f"| {tag} | fields | what it is |\n|---|---|---|"
    rows = []
    for member in members:
        definition = defs[member.__name__]
        name = member.__struct_config__.tag  # type: ignore[attr-defined]
        rows.append(
            f"| `{name}` | {_fields(definition, skip=(tag, *skip))} "
            f"| {_text(definition.get('description', ''))} |"
        )
    return "\n".join([head, *rows])


SECTIONS = ("client-messages", "server-frames", "table-events", "cash-events", "types")
_TYPES: tuple[type, ...] = (
    wire.LobbyEntry,
    wire.Timers,
    wire.UserRef,
    wire.TableState,
    wire.SeatEntry,
    wire.BuyInLimits,
    *wire.RESULTS,
    wire.Reveal,
)


def _types(defs: Mapping[str, Any]) -> str:
    head = "| type | fields | what it is |\n|---|---|---|"
    types: list[type] = [*_TYPES, *_spots()]
    rows = [
        f"| `{t.__name__}` | {_fields(defs[t.__name__], skip=())} "
        f"| {_text(defs[t.__name__].get('description', ''))} |"
        for t in types
    ]
    return "\n".join([head, *rows])


def tables() -> dict[str, str]:
    """Each generated table of ``docs/protocol.md`` by section name (``?``: optional)."""
    defs = schema()["$defs"]
    return {
        "client-messages": _table(defs, wire.CLIENT_MESSAGES, tag="type", skip=("v", "id")),
        "server-frames": _table(defs, _FRAMES, tag="type", skip=()),
        "table-events": _table(defs, wire.TABLE_EVENTS, tag="kind", skip=()),
        "cash-events": _table(defs, wire.CASH_EVENTS, tag="kind", skip=()),
        "types": _types(defs),
    }


def _between(table: str) -> Callable[[re.Match[str]], str]:
    def replace(found: re.Match[str]) -> str:
        return found.group(1) + table + found.group(2)

    return replace


def render_doc(text: str) -> str:
    """``text`` (docs/protocol.md) with every generated table replaced by the code's.

    Raises:
        ValueError: a section's markers are missing.
    """
    for name, table in tables().items():
        pattern = re.compile(
            rf"(<!-- wire:{name} -->\n).*?(\n<!-- /wire:{name} -->)", flags=re.DOTALL
        )
        if not pattern.search(text):
            raise ValueError(f"docs/protocol.md has no <!-- wire:{name} --> section")
        text = pattern.sub(_between(table), text)
    return text
