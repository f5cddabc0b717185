"""docs/errors.md lists every reason the server layer raises, and the browser client words
each one in Italian, English and Slovenian (the keys of src/croupier/web/static/locales)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "croupier" / "server"
LOCALES = ROOT / "src" / "croupier" / "web" / "static" / "locales"
NOT_ERRORS = {"idle"}  # `left` events say why a seat was freed: not a refusal


def _raised() -> set[str]:
    found: set[str] = set()
    for path in SERVER.rglob("*.py"):
        found |= set(re.findall(r'reason="([a-z_]+)"', path.read_text("utf-8")))
    return found - NOT_ERRORS


def _documented() -> set[str]:
    text = (ROOT / "docs" / "errors.md").read_text("utf-8")
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))


def test_every_server_reason_is_documented() -> None:
    raised = _raised()
    assert len(raised) > 50
    assert raised - _documented() == set()


def test_every_documented_reason_is_worded_in_three_languages() -> None:
    for lang in ("it", "en", "sl"):
        text = (LOCALES / f"{lang}.js").read_text("utf-8")
        worded = set(re.findall(r'"reason\.([a-z_]+)":', text))
        assert _documented() - worded == set(), lang
