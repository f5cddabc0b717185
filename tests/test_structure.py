"""Structure: the pure layers import no randomness, clock or I/O; public names are curated."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import croupier

SRC = Path(croupier.__file__).parent
PURE = ["cards.py", "chips.py", "deck.py", "errors.py", "evaluator", "games"]
BANNED = {
    "random",
    "secrets",
    "time",
    "datetime",
    "asyncio",
    "socket",
    "sqlite3",
    "os",
    "subprocess",
}


def _python_files(entry: str) -> list[Path]:
    path = SRC / entry
    return [path] if path.is_file() else sorted(path.rglob("*.py"))


@pytest.mark.parametrize(
    "path", [p for e in PURE for p in _python_files(e)], ids=lambda p: str(p.relative_to(SRC))
)
def test_pure_layers_import_no_randomness_clock_or_io(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            assert name.split(".")[0] not in BANNED, f"{path.name} imports {name}"


def test_top_level_exports_are_unique_and_importable() -> None:
    assert len(set(croupier.__all__)) == len(croupier.__all__)  # ruff RUF022 keeps the order
    for name in croupier.__all__:
        assert hasattr(croupier, name), name


@pytest.mark.parametrize(
    "module",
    [
        "croupier.cards",
        "croupier.deck",
        "croupier.chips",
        "croupier.errors",
        "croupier.evaluator",
        "croupier.games.uth",
    ],
)
def test_module_exports_exist(module: str) -> None:
    mod = importlib.import_module(module)
    for name in mod.__all__:
        assert hasattr(mod, name), f"{module}.{name}"
