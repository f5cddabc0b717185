"""The code's shape, checked over all of ``src/croupier`` (issue 14, "Done means"):

- no import cycle between any two modules (type-checking imports and lazy imports in function
  bodies included: grimp, which import-linter is built on, sees them all);
- no module over 800 lines;
- no function over 80 lines, except numba kernels (a compiled loop is read whole) and Alembic
  migrations (generated, and run once).
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

import croupier

SRC = Path(croupier.__file__).parent
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80
MIGRATIONS = SRC / "server" / "migrations" / "versions"


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _is_numba_kernel(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated ``@njit``, ``@nb.njit(...)``, ``@numba.jit(...)``..."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit", "vectorize", "guvectorize"):
            return True
    return False


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int]]:
    """``(name, lines)`` of every function in ``source`` longer than ``limit`` lines, from its
    ``def`` to its last line (decorators not counted), numba kernels left out."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > limit and not _is_numba_kernel(node):
                found.append((node.name, lines))
    return found


def import_cycles(package: str) -> list[list[str]]:
    """The strongly connected components of more than one module in ``package``'s import
    graph (Tarjan's algorithm, iterative): each holds at least one cycle."""
    graph = grimp.build_graph(package)
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            children = edges[node]
            if i < len(children):
                work.append((node, i + 1))
                child = children[i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return components


def test_no_import_cycle_in_croupier() -> None:
    assert import_cycles("croupier") == []


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "cyclic"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from cyclic import b\n")
    (package / "b.py").write_text("def f():\n    from cyclic import c\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cyclic import a\n"
    )
    (package / "d.py").write_text("from cyclic import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("cyclic") == [["cyclic.a", "cyclic.b", "cyclic.c"]]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_over_800_lines(path: Path) -> None:
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(SRC)} has {lines} lines"


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if MIGRATIONS not in p.parents],
    ids=lambda p: str(p.relative_to(SRC)),
)
def test_no_function_over_80_lines(path: Path) -> None:
    assert long_functions(path.read_text()) == []


def test_the_function_measure_counts_def_to_last_line_and_spares_kernels() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(80))
    source = f"def long():\n{body}\n@nb.njit(cache=True)\ndef kernel():\n{body}\n"
    source += "def short():\n" + "".join(f"    y{i} = {i}\n" for i in range(79))
    assert long_functions(source) == [("long", 81)]
