"""Issue 29, "Serving": the client's files are sent gzip-compressed to a browser that accepts it,
each with an ETag made of its content's hash and Cache-Control, so an unchanged file is a 304
without a body; a page loads the texts of its own language only.

Both failed before issue 29 (main at f5d48cb): no compression, no Cache-Control, and the
three locales loaded on every page.
"""

from __future__ import annotations

import gzip
import hashlib
from typing import Any

from web_testkit import Tab, WebServer

from croupier.web import static_dir


def test_the_client_files_are_compressed_and_revalidated(web_server: WebServer) -> None:
    http = web_server.http
    for name in ("app.js", "style.css", "index.html", "locales/it.js"):
        body = (static_dir() / name).read_bytes()
        path = "/" if name == "index.html" else f"/{name}"
        zipped = http.get(path, headers={"Accept-Encoding": "gzip"})
        assert zipped.status_code == 200
        assert zipped.headers["content-encoding"] == "gzip", name
        assert zipped.content == body  # httpx undoes the gzip: the file as it is
        assert int(zipped.headers["content-length"]) < len(body) * 0.6, name
        assert "Accept-Encoding" in zipped.headers["vary"]
        assert zipped.headers["cache-control"] == "no-cache"
        etag = zipped.headers["etag"]
        assert hashlib.sha256(body).hexdigest()[:32] in etag
        again = http.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        plain = http.get(path, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == body
        assert plain.headers["etag"] != etag  # another representation, another tag
        assert gzip.decompress(gzip.compress(body)) == body


def _locales(requested: list[str]) -> list[str]:
    """The texts a page asked for, by their path under /locales/ ("sl.js", "<game>/sl.js")."""
    return sorted(u.split("/locales/", 1)[1] for u in requested if "/locales/" in u)


def test_a_page_loads_its_own_language_only(screen_tab: Any, web_server: WebServer) -> None:
    tab: Tab = screen_tab("sl-SI", 390, 844)
    requested: list[str] = []
    tab.page.on("request", lambda r: requested.append(r.url))
    tab.page.goto(f"{web_server.url}/#/lobby")
    tab.page.wait_for_selector("[data-testid=lobby]")
    assert tab.page.inner_text("h1") == "Mize"
    # The shared texts (locales/sl.js) and each game's own (locales/<game>/sl.js), no other language.
    locales = _locales(requested)
    assert {p.rsplit("/", 1)[-1] for p in locales} == {"sl.js"} and "sl.js" in locales, locales
    # Choosing another language loads its texts then, and only them.
    tab.page.click("[data-testid=settings] summary")
    tab.page.select_option("[data-testid=language]", "it")
    tab.page.wait_for_selector("h1:text-is('Tavoli')")
    locales = _locales(requested)
    assert {p.rsplit("/", 1)[-1] for p in locales} == {"it.js", "sl.js"} and "it.js" in locales, (
        locales
    )
    assert sorted(p.replace("it.js", "sl.js") for p in locales if p.endswith("it.js")) == sorted(
        p for p in locales if p.endswith("sl.js")
    ), locales
