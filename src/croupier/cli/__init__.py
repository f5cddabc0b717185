"""The ``croupier`` command: one sub-command group per game and per job.

Each group lives in its own module (``cli/uth.py``, ``cli/holdem.py``...) and exposes a Typer
``app``. The CLI needs the ``cli`` extra; without it the command says which extra to install.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """Entry point of the ``croupier`` console script."""
    try:
        from croupier.cli.app import build_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        print(
            f"croupier's command line needs the 'cli' extra ({exc.name} is missing): "
            "pip install 'croupier[cli]'",
            file=sys.stderr,
        )
        raise SystemExit(2) from exc
    build_app()()
