"""The browser client as shipped: package data, no build step, nothing fetched from outside."""

from __future__ import annotations

import re

from web_testkit import WebServer

from croupier.web import static_dir

FILES = (
    "index.html",
    "app.js",
    "games.js",
    "caribbean.js",
    "caribbean_history.js",
    "uth_history.js",
    "holdem_history.js",
    "russian_history.js",
    "api.js",
    "cards.js",
    "uth.js",
    "holdem.js",
    "russian.js",
    "table.js",
    "history.js",
    "operator.js",
    "style.css",
    "ui.js",
    "i18n.js",
    "store.js",
    "errors.js",
    "notify.js",
    "sound.js",
    "tablecore.js",
    "tableinfo.js",
    "common.js",
    "cashier.js",
    "op-tables.js",
    "op-cage.js",
    "op-reports.js",
    "op-audit.js",
    "op-monitor.js",
    "op-events.js",
    "plot.js",
    "responsible.js",
    "locales/it.js",
    "locales/en.js",
    "locales/sl.js",
    "uth.css",
    "holdem.css",
    "russian.css",
    "caribbean.css",
    "locales/uth/it.js",
    "locales/uth/en.js",
    "locales/uth/sl.js",
    "locales/holdem/it.js",
    "locales/holdem/en.js",
    "locales/holdem/sl.js",
    "locales/russian/it.js",
    "locales/russian/en.js",
    "locales/russian/sl.js",
    "locales/caribbean/it.js",
    "locales/caribbean/en.js",
    "locales/caribbean/sl.js",
    "vendor/preact.module.js",
    "vendor/hooks.module.js",
    "vendor/htm.module.js",
    "vendor/LICENSE-preact",
    "vendor/LICENSE-htm",
)
# XML namespaces (SVG, MathML, XHTML) are names, not requests.
_EXTERNAL = re.compile(
    r"(?:https?:)?//(?!www\.w3\.org/(?:2000/svg|1998/Math/MathML|1999/xhtml))"
    r"[a-z0-9.-]+\.[a-z]{2,}",
    re.I,
)


def test_static_dir_holds_the_client() -> None:
    root = static_dir()
    assert root.is_dir()
    for name in FILES:
        assert (root / name).is_file(), name


def test_modules_import_only_each_other_and_nothing_external() -> None:
    root = static_dir()
    for name in FILES:
        if "LICENSE" in name:
            continue  # licence texts cite their authors' sites; nothing loads them
        text = (root / name).read_text("utf-8")
        assert not _EXTERNAL.search(text), f"{name} refers to {_EXTERNAL.search(text)}"
        for target in re.findall(r"from ?\"\./([a-z/.]+\.js)\"", text):
            assert (root / name).parent.joinpath(target).is_file(), f"{name} imports {target}"


def test_the_server_serves_the_client_at_the_root(web_server: WebServer) -> None:
    index = web_server.http.get("/")
    assert index.status_code == 200 and '<script type="module" src="app.js">' in index.text
    script = web_server.http.get("/app.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]
    assert web_server.http.get("/api/health").json() == {"status": "ok"}
