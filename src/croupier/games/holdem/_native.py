"""Which build of the engine's hot modules runs: compiled (mypyc) or pure Python.

``scripts/build_native.py`` (run by ``scripts/install.sh``) compiles the :data:`MODULES` of
the engine's hot path with mypyc when the machine has a C compiler and Python's headers, and
writes :data:`MANIFEST`: the SHA-256 of each module's source it compiled. A compiled module is used
only while its source is unchanged; otherwise -- no compiler at install, or a source edited
since -- the pure-Python modules are loaded in their place (``scripts/build_native.py --clean``
removes the build). Both builds are the same code: ``tests/holdem/test_native.py`` plays them
side by side. The only files read are the package's own sources and the manifest, once, at
import (as the import system itself does): the engine still does no I/O.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

__all__ = ["MANIFEST", "MODULES", "compiled", "select"]

MODULES = (
    "_build",
    "betting",
    "_rules",
    "dealing",
    "pots",
    "showdown",
    "engine",
    "showing",
    "state",
)
"""The compiled modules, each after the ones it imports (the pure fallback loads them so)."""

MANIFEST = "native.sha256"
"""The build's record, next to the modules: ``<sha256 of the source>  <module>.py`` lines."""

_HERE = Path(__file__).resolve().parent
_PACKAGE = __name__.rpartition(".")[0]


def _source_digests() -> dict[str, str]:
    return {
        f"{name}.py": hashlib.sha256((_HERE / f"{name}.py").read_bytes()).hexdigest()
        for name in MODULES
    }


def _built_digests() -> dict[str, str]:
    try:
        text = (_HERE / MANIFEST).read_text(encoding="utf-8")
    except OSError:
        return {}
    pairs = (line.split() for line in text.splitlines() if line.strip())
    return {name: digest for digest, name in pairs}


def _current() -> bool:
    """Whether every compiled module is there and was built from today's source."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    for name in MODULES:
        if not any((_HERE / f"{name}{suffix}").exists() for suffix in suffixes):
            return False
    return _built_digests() == _source_digests()


def _load_source(name: str) -> None:
    fullname = f"{_PACKAGE}.{name}"
    loader = importlib.machinery.SourceFileLoader(fullname, str(_HERE / f"{name}.py"))
    spec = importlib.util.spec_from_loader(fullname, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[fullname] = module
    loader.exec_module(module)


def select() -> None:
    """Load the pure-Python modules unless the compiled ones may run (see the docstring).

    Run when this module is first imported (the package imports it before anything else of
    its own); a no-op once the modules are loaded.
    """
    if any(f"{_PACKAGE}.{name}" in sys.modules for name in MODULES):
        return
    if not _current():
        for name in MODULES:
            _load_source(name)


def compiled() -> bool:
    """Whether the engine runs compiled (its modules were loaded from a mypyc build)."""
    module = sys.modules.get(f"{_PACKAGE}.state")
    origin = getattr(module, "__file__", "") or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


select()  # on import: the package imports this module before any other of its own
