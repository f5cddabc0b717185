"""The browser client: static HTML, CSS and JavaScript served by the server at ``/``.

The files live in ``static/`` inside the package (hatchling ships everything under
``src/croupier``), so an installed wheel serves the same client as a checkout. The server
never imports this package: the CLI passes :func:`static_dir` to
:func:`croupier.server.app.create_app` (``static_dir=...``).

>>> (static_dir() / "index.html").is_file()
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["static_dir"]


def static_dir() -> Path:
    """The directory holding ``index.html``, ``app.js``, ``style.css`` and the other modules."""
    return Path(str(resources.files("croupier.web").joinpath("static")))
