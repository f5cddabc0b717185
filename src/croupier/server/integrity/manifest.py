"""The manifest: a SHA-256 digest of every file of the installed package (its modules, the
compiled Hold'em engine, the shipped tables, strategies and pay-table data, the browser
client), and of the pay tables of each shipped table, written at install
(``croupier verify --write``, run by ``scripts/install.sh`` and the Makefile).

:func:`check_files` compares the package as it is now with it: a file changed, missing or
added is named. In a development checkout (an editable install) the package *is* the source
tree: the Makefile writes the manifest again whenever a source file changes, so that ``make
run`` and ``make test`` start from a manifest of what they run; an edit after that is a
mismatch, as it would be on a casino's server.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import croupier

__all__ = [
    "MANIFEST_NAME",
    "FileDifferences",
    "Manifest",
    "build",
    "check_files",
    "default_path",
    "digest_files",
    "load",
    "package_root",
    "write",
]

MANIFEST_NAME = "manifest.json"
VERSION = 1
_SKIP_DIRS = frozenset({"__pycache__"})
_SKIP_SUFFIXES = (".pyc", ".pyo", ".nbi", ".nbc")


def package_root() -> Path:
    """The directory of the installed ``croupier`` package."""
    return Path(croupier.__file__).resolve().parent


def default_path() -> Path:
    """Where the manifest lives: in the package's own directory."""
    return package_root() / MANIFEST_NAME


def _files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.name == MANIFEST_NAME:
            continue
        relative = path.relative_to(root)
        if any(part in _SKIP_DIRS for part in relative.parts[:-1]):
            continue
        if path.name.endswith(_SKIP_SUFFIXES):
            continue
        yield path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def digest_files(root: Path) -> dict[str, str]:
    """Every file under ``root`` (but caches and the manifest) -> its SHA-256, by POSIX path
    relative to ``root``; and the package's companion modules beside it (``croupier_*``: the
    compiled Hold'em engine's runtime library), as ``../<name>``."""
    found = {path.relative_to(root).as_posix(): _sha256(path) for path in _files(root)}
    for path in sorted(root.parent.glob(f"{root.name}_*")):
        if path.is_file() and path.suffix in (".so", ".pyd", ".py"):
            found[f"../{path.name}"] = _sha256(path)
    return found


def _category(name: str) -> str:
    if name.endswith((".py", ".so", ".pyd")):
        return "module"
    if name.endswith(".toml"):
        return "tables"
    if "/data/" in f"/{name}" or name.endswith((".npz", ".json")):
        return "data"
    return "other"


@dataclass(frozen=True, slots=True, kw_only=True)
class Manifest:
    """What was installed."""

    version: str
    created: str
    editable: bool
    files: dict[str, str]
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each shipped table (``default_tables.toml``): its game and its pay tables' digest."""

    def to_json(self) -> dict[str, Any]:
        categories: dict[str, int] = {}
        for name in self.files:
            categories[_category(name)] = categories.get(_category(name), 0) + 1
        return {
            "format": VERSION,
            "package": "croupier",
            "version": self.version,
            "created": self.created,
            "editable": self.editable,
            "counts": categories,
            "files": dict(sorted(self.files.items())),
            "tables": self.tables,
        }

    def digest(self) -> str:
        """The SHA-256 of the manifest's files and tables (what a start records)."""
        body = json.dumps(
            {"files": self.files, "tables": self.tables}, sort_keys=True, separators=(",", ":")
        )
        return hashlib.sha256(body.encode()).hexdigest()


def _editable(root: Path) -> bool:
    """Whether the package is a source checkout's (``src/croupier`` next to pyproject)."""
    return root.parent.name == "src" and (root.parent.parent / "pyproject.toml").is_file()


def build(
    root: Path | None = None, *, tables: Mapping[str, dict[str, Any]] | None = None
) -> Manifest:
    """The manifest of the package at ``root`` as it is now."""
    root = root or package_root()
    return Manifest(
        version=croupier.__version__,
        created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        editable=_editable(root),
        files=digest_files(root),
        tables=dict(tables or {}),
    )


def load(path: Path) -> Manifest:
    """A manifest written by :meth:`Manifest.to_json`.

    Raises:
        OSError: it cannot be read.
        ValueError: it is not a manifest.
    """
    data = json.loads(path.read_text("utf-8"))
    if not isinstance(data, dict) or data.get("format") != VERSION:
        raise ValueError(f"{path} is not a croupier manifest (format {VERSION})")
    files = data.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise ValueError(f"{path} has no file digests")
    return Manifest(
        version=str(data.get("version", "")),
        created=str(data.get("created", "")),
        editable=bool(data.get("editable", False)),
        files=dict(files),
        tables=dict(data.get("tables") or {}),
    )


def write(manifest: Manifest, path: Path) -> Path:
    """Write ``manifest`` to ``path`` atomically (a temporary file renamed over it)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(manifest.to_json(), indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)
    return path


@dataclass(frozen=True, slots=True, kw_only=True)
class FileDifferences:
    changed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.changed or self.missing or self.added)

    def to_json(self) -> dict[str, list[str]]:
        return {"changed": self.changed, "missing": self.missing, "added": self.added}

    def __str__(self) -> str:
        parts = [
            f"{what}: {', '.join(names[:10])}{' ...' if len(names) > 10 else ''}"
            for what, names in self.to_json().items()
            if names
        ]
        return "; ".join(parts) or "every file as installed"


def check_files(manifest: Manifest, root: Path | None = None) -> FileDifferences:
    """The package's files now against ``manifest``."""
    now = digest_files(root or package_root())
    return FileDifferences(
        changed=sorted(n for n, d in now.items() if n in manifest.files and manifest.files[n] != d),
        missing=sorted(n for n in manifest.files if n not in now),
        added=sorted(n for n in now if n not in manifest.files),
    )
