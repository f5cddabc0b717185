"""Run the real server for the browser tests: ``python tests/web/serve.py PORT DB_URL TABLES``.

The app is :func:`croupier.server.app.create_app` with the browser client from
:func:`croupier.web.static_dir`, served by uvicorn on 127.0.0.1 only. Settings (the operator
account, the secret) come from the ``CROUPIER_*`` environment the fixture sets.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import uvicorn

from croupier.deck import Shoe
from croupier.server.app import create_app
from croupier.server.settings import Settings
from croupier.server.tables.protocol import MAX_FRAME_BYTES
from croupier.web import static_dir


def main() -> None:
    port, database_url, tables = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    settings = Settings(database_url=database_url, tables_config=tables)
    # CROUPIER_WEB_STATIC serves another client (an older one, to see a test fail on it).
    static = Path(os.environ.get("CROUPIER_WEB_STATIC") or static_dir())
    # CROUPIER_TEST_DECK deals every round from that deck (a test that needs a given deal).
    deck = os.environ.get("CROUPIER_TEST_DECK")
    shoes = None if deck is None else (lambda: Shoe.parse(deck))
    app = create_app(settings, static_dir=static, shoe_factory=shoes)
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=MAX_FRAME_BYTES,
        proxy_headers=False,
    )


if __name__ == "__main__":
    main()
