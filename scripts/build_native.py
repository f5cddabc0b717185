"""Compile the Hold'em engine's hot modules with mypyc, when this machine can.

Run by ``scripts/install.sh`` after the package is installed (and by ``make`` when a source
changed). Compiles the modules of ``croupier.games.holdem`` on the engine's hot path (MODULES,
the list ``croupier/games/holdem/_native.py`` holds too) in place (extension modules next to
their sources, the mypyc runtime as ``croupier_holdem_native__mypyc*`` in
``src/``) and writes ``src/croupier/games/holdem/native.sha256`` with the SHA-256 of each
source compiled: the package uses a compiled module only while its source is unchanged
(``croupier/games/holdem/_native.py``).

Without a C compiler, Python's headers, mypyc (the ``dev`` group's mypy) or setuptools, or if
the build fails, it removes any partial build, says why, and exits 0: the pure-Python engine
runs, the same code, slower. ``--clean`` only removes the build.

    .venv/bin/python scripts/build_native.py [--clean]
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "croupier" / "games" / "holdem"
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
GROUP = "croupier_holdem_native"
MANIFEST = PACKAGE / "native.sha256"


def clean() -> None:
    MANIFEST.unlink(missing_ok=True)
    for name in MODULES:
        for path in PACKAGE.glob(f"{name}.*.so"):
            path.unlink()
    for path in SRC.glob(f"{GROUP}__mypyc*"):
        path.unlink()


def missing() -> str | None:
    """Why this machine cannot build the extension, or ``None``."""
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").exists():
        return f"no Python headers ({include}/Python.h; on Debian: apt install python3-dev)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}; on Debian: apt install gcc)"
    for module in ("mypyc", "setuptools"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed"
    return None


_BUILD = """
import sys
from setuptools import setup
from mypyc.build import mypycify
modules = sys.argv[1:]
sys.argv[1:] = ["build_ext", "--inplace", "--build-temp", {temp!r}, "--build-lib", {lib!r}]
setup(
    name="croupier-native",
    ext_modules=mypycify(modules, opt_level="3", group_name={group!r}, target_dir={temp!r}),
)
"""


def build() -> str | None:
    """Compile; ``None`` on success, else what went wrong."""
    sources = [f"croupier/games/holdem/{name}.py" for name in MODULES]
    digests = {name: hashlib.sha256((SRC / name).read_bytes()).hexdigest() for name in sources}
    with tempfile.TemporaryDirectory(prefix="croupier-native-") as temp:
        script = _BUILD.format(temp=temp, lib=os.path.join(temp, "lib"), group=GROUP)
        env = {**os.environ, "MYPY_CACHE_DIR": os.path.join(temp, "mypy-cache")}
        done = subprocess.run(
            [sys.executable, "-c", script, *sources],
            cwd=SRC,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode:
        return (done.stderr or done.stdout).strip().splitlines()[-1]
    # the digests of the sources read before the build: an edit during it is not trusted
    MANIFEST.write_text(
        "".join(f"{digest}  {Path(name).name}\n" for name, digest in digests.items()),
        encoding="utf-8",
    )
    return None


def main() -> int:
    clean()
    if "--clean" in sys.argv[1:]:
        return 0
    reason = missing() or build()
    if reason is not None:
        clean()
        sys.stdout.write(
            f"croupier: the compiled Hold'em engine was not built ({reason});"
            " the pure-Python engine runs instead\n"
        )
        return 0
    sys.stdout.write("croupier: compiled the Hold'em engine (mypyc): " + ", ".join(MODULES) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
