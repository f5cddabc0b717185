"""The protocol's JSON Schema and the tables of docs/protocol.md are what the code's schemas
generate (``croupier protocol`` rewrites them): this fails when either was left behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.server.tables import wire
from croupier.server.tables.wire_docs import SECTIONS, render_doc, render_schema, schema

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_checked_in_schema_is_the_one_the_code_generates() -> None:
    assert (DOCS / "protocol.schema.json").read_text(encoding="utf-8") == render_schema(), (
        "docs/protocol.schema.json is out of date: run `croupier protocol`"
    )


def _descriptions(node: object) -> list[str]:
    if isinstance(node, dict):
        own = [node["description"]] if isinstance(node.get("description"), str) else []
        return own + [d for value in node.values() for d in _descriptions(value)]
    if isinstance(node, list):
        return [d for value in node for d in _descriptions(value)]
    return []


def test_descriptions_carry_no_docstring_indentation() -> None:
    """msgspec 0.23 stopped dedenting a docstring whose first line sits on the quotes (CI
    failed at cd2fb62 on its four-space margins): the schema cleans them itself, whatever
    msgspec does."""
    descriptions = _descriptions(schema())
    assert len(descriptions) > 50
    indented = [d for d in descriptions if any(line[:1].isspace() for line in d.split("\n"))]
    assert not indented, indented[:3]


def test_the_protocol_page_tables_are_the_ones_the_code_generates() -> None:
    page = (DOCS / "protocol.md").read_text(encoding="utf-8")
    for name in SECTIONS:
        assert f"<!-- wire:{name} -->" in page
    assert render_doc(page) == page, "docs/protocol.md is out of date: run `croupier protocol`"


def test_a_changed_table_is_noticed() -> None:
    page = (DOCS / "protocol.md").read_text(encoding="utf-8")
    tampered = page.replace("| `ping` | — |", "| `ping` | `pad` (string) |")
    assert tampered != page and render_doc(tampered) == page


def test_the_schema_names_every_message_and_frame_by_its_tag() -> None:
    defs = schema()["$defs"]
    clients = defs["ClientMessage"]["discriminator"]["mapping"]
    assert set(clients) == {
        "auth",
        "join",
        "leave",
        "bet",
        "act",
        "buy_in",
        "sit_out",
        "sit_in",
    } | {
        "resync",
        "ping",
    }
    frames = defs["ServerFrame"]["discriminator"]["mapping"]
    assert set(frames) == {
        "welcome",
        "state",
        "event",
        "seat_event",
        "ack",
        "error",
        "balance",
        "pong",
        "closing",
    }
    # Amounts are integers, never numbers: a float is not an amount.
    assert defs["BetMessage"]["properties"]["bets"]["additionalProperties"]["type"] == "integer"
    assert defs["BetMessage"]["additionalProperties"] is False


@pytest.mark.parametrize(
    "raw",
    [
        '{"type": "bet", "key": "k", "bets": {"ante": 1.0}}',
        '{"type": "bet", "key": "k", "bets": {"ante": "100"}}',
        '{"type": "bet", "key": "k", "bets": {"ante": false}}',
        '{"type": "buy_in", "key": "k", "amount": 100.5}',
        '{"type": "act", "action": "bet", "amount": true}',
    ],
)
def test_amounts_are_integers_only(raw: str) -> None:
    with pytest.raises(wire.InvalidRequestError, match="valid integer"):
        wire.parse_client_message(raw)


def test_a_shared_frame_is_encoded_once_and_reads_as_sent() -> None:
    event = wire.Tally(seats_taken=3, boxes_in_play=2, pending=1)
    shared = wire.Shared(wire.EventFrame(seq=7, table="live", event=event))
    assert shared.text is shared.text  # the same string: encoded once
    assert json.loads(shared.text) == {
        "type": "event",
        "seq": 7,
        "table": "live",
        "event": {"kind": "tally", "seats_taken": 3, "boxes_in_play": 2, "pending": 1},
    }


def test_round_closed_has_one_shape_for_every_table() -> None:
    reveal = wire.Reveal(commitment="c", salt="s", deck="As Kd")
    results = [{"seat": 2, "net": 5}, {"seat": 3, "net": -10}]
    casino = wire.round_closed(
        round_id=1, status="settled", summary={"results": results}, reveal=reveal, returns={2: 5}
    )
    live = wire.round_closed(
        round_id=1,
        status="settled",
        summary={"results": results, "boxes": 9},
        reveal=reveal,
        returns={2: 5},
        crowd=True,
        names={2: "ann", 3: "bob"},
    )
    assert wire.as_json(casino)["returns"] == {"2": 5}
    assert "returns" not in wire.as_json(live) and wire.as_json(live)["summary"] == {"boxes": 9}
    assert wire.as_json(live)["winners"] == [{"name": "ann", "net": 5}]
    assert "winners" not in wire.as_json(casino)
    assert type(casino) is type(live) is wire.RoundClosed
