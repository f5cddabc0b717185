"""Every install runs with ``constraints.txt`` (scripts/install.sh): each distribution the
project asks for is pinned to one version, and this environment is the pinned one. Unpinned,
msgspec 0.23 came out between two CI runs and changed the generated protocol schema (CI failed
at cd2fb62 with no change of ours)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)$")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for number, line in enumerate((ROOT / "constraints.txt").read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _PIN.match(line.strip())
        assert match, f"constraints.txt line {number} is not `name==version`: {line!r}"
        name = _normal(match[1])
        assert name not in pins, f"constraints.txt pins {name} twice"
        pins[name] = match[2]
    return pins


def _requested() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = [
        *project["project"]["dependencies"],
        *(r for extra in project["project"]["optional-dependencies"].values() for r in extra),
        *(r for group in project["dependency-groups"].values() for r in group),
    ]
    return {_normal(re.split(r"[\[<>=!~;\s]", r, maxsplit=1)[0]) for r in wanted}


def test_every_requested_distribution_is_pinned() -> None:
    missing = _requested() - set(_pins())
    assert not missing, f"pyproject.toml asks for {sorted(missing)}, not in constraints.txt"


def test_the_installed_versions_are_the_pinned_ones() -> None:
    pins = _pins()
    installed = {_normal(d.metadata["Name"]): d.version for d in metadata.distributions()}
    wrong = {
        name: (version, installed[name])
        for name, version in pins.items()
        if name in installed and installed[name] != version
    }
    assert not wrong, f"pinned vs installed (run `make test`, which reinstalls): {wrong}"
    absent = sorted(name for name in _requested() if name not in installed)
    assert not absent, f"requested but not installed: {absent}"
