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

The browser's texts and styles are read too: a key of ``web/static/locales/<lang>.js`` (the
texts every page shares) that names a game (``"uth.dealer"``, ``"game.uth"``,
``"op.theory.uth"``) is listed, as is a name in a stylesheet one of whose words is a game's
(``.game-holdem``, ``.uth-felt``): a game's texts live in ``web/static/locales/<game>/`` and its
rules in ``web/static/<game>.css``, its own files. Configuration that names the games a
deployment runs (``server/default_tables.toml``, ``tables.toml``) is not code and is not read.

``python tests/test_game_names.py`` lists every such place. The places the design has not
yet reached are :data:`REMAINING` (each ``path: what``): the check fails on any other place,
and on a listed one that is gone (so the list only shrinks).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
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


_LOCALE_KEY = re.compile(r"""^\s*(?:"([^"\\]+)"|'([^'\\]+)'|([A-Za-z_$][\w$]*))\s*:""")
"""An entry of a locale's dictionary: a key at the start of a line, quoted or not, then ``:``."""


def _locale(path: Path, names: list[str]) -> Iterator[tuple[str, str]]:
    """The keys of a locale file (``web/static/locales/**/<lang>.js``) that name a game."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = _LOCALE_KEY.match(line)
        key = m and next(k for k in m.groups() if k is not None)
        for game in names:
            if key and _named(key, game):
                yield game, f"line {number}: the key {key!r}"


_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_CSS_NAME = re.compile(r"-{0,2}[A-Za-z_][\w-]*")


def _css(path: Path, names: list[str]) -> Iterator[tuple[str, str]]:
    """The names in a stylesheet (classes, ids, custom properties, animations) one of whose
    words is a game's (``.game-holdem``, ``.uth-felt``); comments are prose."""
    text = _CSS_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), path.read_text("utf-8"))
    for number, line in enumerate(text.splitlines(), 1):
        for name in dict.fromkeys(_CSS_NAME.findall(line)):
            words = set(re.split(r"[-_]+", name.lower()))
            for game in sorted(words & set(names)):
                yield game, f"line {number}: the name {name}"


def _scanner(path: Path) -> Callable[[Path, list[str]], Iterator[tuple[str, str]]]:
    if path.suffix == ".py":
        return _python
    if path.suffix == ".css":
        return _css
    return _locale if "locales" in path.relative_to(SRC).parts else _javascript


def places() -> list[str]:
    """Every place outside a game's own files and the registries that names a game."""
    names = games()
    found: list[str] = []
    static = SRC / "web" / "static"
    files = [*SRC.rglob("*.py"), *static.glob("*.js"), *static.rglob("*.css")]
    files += (static / "locales").rglob("*.js")
    for path in sorted(files):
        rel = path.relative_to(SRC).as_posix()
        if rel in REGISTRIES or "__pycache__" in rel:
            continue
        mine = owner(rel, names)
        for game, what in _scanner(path)(path, names):
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


def test_the_check_reads_the_locales_keys_and_the_stylesheets(tmp_path: Path) -> None:
    locale = tmp_path / "en.js"
    locale.write_text(
        '// uth.dealer: prose\nconst plural = (n) => n;\nexport default {\n  loading: "Loading…",\n'
        '  "table.dealer": "Dealer",\n  "uth.dealer": "the uth dealer",\n'
        '  "game.holdem": "Texas Hold\'em",\n  "op.field.min_bet.russian": "Minimum",\n'
        '  "title.caribbean-high": "a table a deployment names",\n  "op.name_rule": "e.g. uth-high",\n'
        '  "x": ({ n }) => {\n    switch (n) {\n      case "caribbean":\n        return "";\n'
        '      default:\n        return "";\n    }\n  },\n};\n'
    )
    keys = [(g, what.split("the key ")[-1]) for g, what in _locale(locale, games())]
    assert keys == [
        ("uth", "'uth.dealer'"),
        ("holdem", "'game.holdem'"),
        ("russian", "'op.field.min_bet.russian'"),
    ]
    style = tmp_path / "style.css"
    style.write_text(
        "/* the uth felt */\n.game-holdem .mini-felt { color: #1b4f8a; }\n"
        ".uth-felt > .paytables { right: 0; }\n@keyframes russian_deal { to { opacity: 1; } }\n"
        ".truth, .cs-felt, #caribbean { --caribbean-x: 1px; }\n"
    )
    named = [(g, what) for g, what in _css(style, games())]
    assert named == [
        ("holdem", "line 2: the name game-holdem"),
        ("uth", "line 3: the name uth-felt"),
        ("russian", "line 4: the name russian_deal"),
        ("caribbean", "line 5: the name caribbean"),
        ("caribbean", "line 5: the name --caribbean-x"),
    ]
    assert owner("web/static/locales/uth/en.js", games()) == "uth"
    assert owner("web/static/holdem.css", games()) == "holdem"
    assert owner("web/static/locales/en.js", games()) is None


if __name__ == "__main__":
    for place in places():
        print(place)
