"""Games as plug-ins (issue 31, deliverable 1): no module outside a game's own files and the
three registries (``server/tables/registry.py``, ``web/static/games.js``, ``cli/app.py``)
names a game by a string or imports a game's own module.

A game is a package of ``croupier.games``; its own files are every module under a directory
of its name (``games/uth/``, ``analysis/uth/``) and every file whose name is the game's or
starts with it and ``_`` (``history/uth.py``, ``server/tables/uth.py``, ``cli/uth_play.py``,
``web/static/uth.js``). A place names a game when it imports one of another game's modules,
or holds a string that is the game's name or a path of its files (``"uth"``,
``"/api/uth/advice"``, ``"./uth.js"``) or a key of its texts in the locales (``"uth.dealer"``),
or (Python) defines or uses a name one of whose words
is the game's (``RUSSIAN_ANALYSIS``, ``UthRound``, ``russian_ev``); docstrings and comments are
prose, not names.

``python tests/test_game_names.py`` lists every such place. The places the design has not
yet reached are :data:`REMAINING` (each ``path: what``): the check fails on any other place,
and on a listed one that is gone (so the list only shrinks).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "croupier"
REGISTRIES = frozenset({"server/tables/registry.py", "web/static/games.js", "cli/app.py"})


def games() -> list[str]:
    """Every game: a package of ``croupier.games``."""
    return sorted(
        p.name for p in (SRC / "games").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    )


def owner(path: str, names: list[str]) -> str | None:
    """The game whose own file ``path`` (relative to ``src/croupier``) is, or ``None``."""
    parts = path.split("/")
    stem = parts[-1].split(".")[0]
    for game in names:
        if game in parts[:-1] or stem == game or stem.startswith(game + "_"):
            return game
    return None


def _named(text: str, game: str) -> bool:
    """Whether a string names ``game``: is its name, a path of its files or routes, or a key of
    its texts (the locales' keys are the game's name, a dot and more: ``uth.dealer``)."""
    return (
        text == game
        or bool(re.search(rf"(^|[/.])({game})(_[a-z]+)?(\.js|/|$)", text))
        or bool(re.match(rf"{game}\.[a-z]", text))
    )


def _module_game(module: str, names: list[str]) -> str | None:
    parts = module.split(".")
    for game in names:
        if any(p == game or p.startswith(game + "_") for p in parts[1:]):
            return game
    return None


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _words(identifier: str) -> set[str]:
    """The words of a Python name, lower case (``RUSSIAN_EV`` -> russian, ev; ``UthRound`` ->
    uth, round)."""
    return {w.lower() for w in _WORD.findall(identifier)}


def _identifier(node: ast.AST) -> str | None:
    """The name ``node`` defines or uses, if it is one."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, (ast.arg, ast.keyword)):
        return node.arg
    if isinstance(node, ast.alias):
        return node.asname or node.name.split(".")[-1]
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def _python(path: Path, names: list[str]) -> Iterator[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = _docstrings(tree)
    seen: set[tuple[str, int]] = set()  # (game, line) of an import already reported
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for module in modules:
                game = _module_game(module, names)
                if game:
                    seen.add((game, node.lineno))
                    yield game, f"line {node.lineno}: imports {module}"
                    break
        elif isinstance(node, ast.Import):
            for alias in node.names:
                game = _module_game(alias.name, names)
                if game:
                    seen.add((game, node.lineno))
                    yield game, f"line {node.lineno}: imports {alias.name}"
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
        ):
            for game in names:
                if _named(node.value, game):
                    yield game, f"line {node.lineno}: the string {node.value!r}"
        name = _identifier(node)
        if name:
            line = getattr(node, "lineno", 0)
            for game in sorted(_words(name) & set(names)):
                if (game, line) not in seen:
                    yield game, f"line {line}: the name {name}"


_JS_STRINGS = tuple(re.compile(rf"(?<!\\){q}((?:[^{q}\\\n]|\\.)*){q}") for q in "'\"`")
"""Strings of each kind of quote, looked for apart: a string inside a template literal's
``${...}`` (``html`<p>${t("uth.dealer")}</p>` ``) is found by its own quotes."""
_JS_COMMENT = re.compile(r"^\s*(//|\*|/\*)")


def _javascript(path: Path, names: list[str]) -> Iterator[tuple[str, str]]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if _JS_COMMENT.match(line):
            continue
        code = line.split(" // ")[0]
        strings = {m.group(0): m.group(1) for r in _JS_STRINGS for m in r.finditer(code)}
        for quoted, text in strings.items():
            for game in names:
                if _named(text, game):
                    yield game, f"line {number}: the string {quoted}"


def places() -> list[str]:
    """Every place outside a game's own files and the registries that names a game."""
    names = games()
    found: list[str] = []
    files = [*SRC.rglob("*.py"), *(SRC / "web" / "static").glob("*.js")]
    for path in sorted(files):
        rel = path.relative_to(SRC).as_posix()
        if rel in REGISTRIES or "__pycache__" in rel:
            continue
        mine = owner(rel, names)
        scan = _python if path.suffix == ".py" else _javascript
        for game, what in scan(path, names):
            if game != mine:
                found.append(f"{rel}: {game}: {what}")
    return found


def _key(place: str) -> str:
    """A place without its line number (lines move as code is edited)."""
    return re.sub(r"line \d+: ", "", place)


REMAINING: frozenset[str] = frozenset()
"""The places the plug-in design has not reached yet: none (each game's descriptor,
``server/tables/<game>_descriptor.py``, is what the server core, the reports, the console and
the client ask). The check fails on any place that names a game."""


def test_no_module_outside_a_games_own_files_names_a_game() -> None:
    found = {_key(p) for p in places()}
    new = sorted(found - REMAINING)
    gone = sorted(REMAINING - found)
    assert not new, "modules that name a game outside its files and the registries:\n" + "\n".join(
        new
    )
    assert not gone, "no longer there (take them off REMAINING):\n" + "\n".join(gone)


def test_the_check_sees_a_game_named_by_a_string_and_by_an_import(tmp_path: Path) -> None:
    source = tmp_path / "core.py"
    source.write_text(
        '"""About uth tables."""\nfrom croupier.server.tables import uth\n'
        'GAME = "russian"\nURL = "/api/holdem/advice"\nPROSE = "a UTH table"\n'
    )
    got = list(_python(source, games()))
    assert [g for g, _ in got] == ["uth", "russian", "holdem"]
    names = tmp_path / "returns.py"
    names.write_text(
        "class RussianFigure:\n    pass\nRUSSIAN_EV_PER_ANTE = 1\n"
        "def book(uth_table, *, caribbean_meter=0):\n    return figures.HoldemRake\n"
        "WORDS = 'a UTH figure'\nTRUTH = truthy = 1\n"
    )
    named = {what.split("the name ")[-1]: g for g, what in _python(names, games())}
    assert named == {
        "RussianFigure": "russian",
        "RUSSIAN_EV_PER_ANTE": "russian",
        "uth_table": "uth",
        "caribbean_meter": "caribbean",
        "HoldemRake": "holdem",
    }
    script = tmp_path / "lobby.js"
    script.write_text(
        "// uth.js\nimport { x } from './uth.js';\nif (game === 'caribbean') {}\n"
        'const d = t("uth.dealer"), a = t(`holdem.amount`), n = t("table.none");\n'
        'const p = html`<p>${t("russian.dealer")}</p>`;\n'
    )
    found = sorted(g for g, _ in _javascript(script, games()))
    assert found == ["caribbean", "holdem", "russian", "uth", "uth"]
    assert owner("cli/russian_play.py", games()) == "russian"
    assert owner("analysis/caribbean/exact.py", games()) == "caribbean"
    assert owner("server/tables/games.py", games()) is None


if __name__ == "__main__":
    for place in places():
        print(place)
