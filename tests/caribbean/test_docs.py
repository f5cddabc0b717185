"""docs/rules.md's Caribbean Stud section lists every setting of the config, and no other,
and each documented reason the engine raises is in docs/errors.md (tests/games checks the
rest)."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from croupier.games.caribbean import CaribbeanConfig

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_options_table_names_every_setting() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    start = text.index("### Options (`croupier.games.caribbean.CaribbeanConfig`)")
    table = text[start : text.index("\n### ", start + 1)]
    documented = {
        name for row in re.findall(r"^\| (`[^|]+`) \|", table, re.M)
        for name in re.findall(r"`([a-z_]+)`", row)
    }  # fmt: skip
    assert documented == {f.name for f in fields(CaribbeanConfig)}
