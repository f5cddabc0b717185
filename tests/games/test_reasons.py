"""Every refusal of the engines carries a reason documented in docs/errors.md, and every
documented engine reason is one the engines raise (no stale rows)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import croupier.games

GAMES = Path(croupier.games.__file__).parent
DOCS = Path(__file__).resolve().parents[2] / "docs" / "errors.md"


def _engine_section() -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("## The engines' reasons")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _documented() -> dict[str, set[str]]:
    """reason -> its documented params."""
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", _engine_section(), re.M)
    return {reason: set(re.findall(r"[a-z_]+", params)) - {"or"} for reason, params in rows}


def _raised() -> dict[str, set[str]]:
    """reason -> params, for every ``refused(message, reason, **params)`` and every
    ``reason=...`` keyword (with a literal ``params``) in the engines, and the reasons
    ``CashHand.turn_reason`` returns."""
    found: dict[str, set[str]] = {}
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                reason, params = _call(node)
            elif isinstance(node, ast.Dict):
                reason, params = _returned(node)
            else:
                continue
            if reason is not None:
                found.setdefault(reason, set()).update(params)
    return found


def _call(node: ast.Call) -> tuple[str | None, set[str]]:
    name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
    if name == "refused" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
        return str(node.args[1].value), {k.arg for k in node.keywords if k.arg}
    reason = next(
        (
            k.value.value
            for k in node.keywords
            if k.arg == "reason" and isinstance(k.value, ast.Constant)
        ),
        None,
    )
    params = next((k.value for k in node.keywords if k.arg == "params"), None)
    keys = (
        {k.value for k in params.keys if isinstance(k, ast.Constant)}
        if isinstance(params, ast.Dict)
        else set()
    )
    return (None if reason is None else str(reason)), {str(k) for k in keys}


def _returned(node: ast.Dict) -> tuple[str | None, set[str]]:
    """``{"reason": "...", "params": {...}}`` (``turn_reason``)."""
    entries = {
        k.value: v
        for k, v in zip(node.keys, node.values, strict=True)
        if isinstance(k, ast.Constant)
    }
    reason = entries.get("reason")
    if not isinstance(reason, ast.Constant):
        return None, set()
    params = entries.get("params")
    keys = (
        {str(k.value) for k in params.keys if isinstance(k, ast.Constant)}
        if isinstance(params, ast.Dict)
        else set()
    )
    return str(reason.value), keys


def test_every_engine_reason_is_documented_with_its_params() -> None:
    raised, documented = _raised(), _documented()
    assert len(raised) > 50  # the scan found the engines' refusals
    missing = sorted(set(raised) - set(documented))
    assert not missing, f"reasons raised but not in docs/errors.md: {missing}"
    for reason, params in raised.items():
        assert params <= documented[reason], (reason, params - documented[reason])


def test_no_documented_engine_reason_is_stale() -> None:
    stale = sorted(set(_documented()) - set(_raised()))
    assert not stale, f"reasons in docs/errors.md the engines never raise: {stale}"


def test_every_illegal_action_error_in_the_engines_has_a_reason() -> None:
    """No ``IllegalActionError(...)`` without ``reason=`` (``refused`` always gives one)."""
    bare = []
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "IllegalActionError"
                and not any(k.arg == "reason" or k.arg is None for k in node.keywords)
            ):
                bare.append(f"{path.relative_to(GAMES)}:{node.lineno}")
    assert not bare, bare
