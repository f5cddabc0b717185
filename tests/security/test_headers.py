"""Issue 13, item 13: every response carries the security headers, and the interactive API
docs exist only when a setting enables them (``croupier serve --api-docs``)."""

from __future__ import annotations

import pytest
from sec_testkit import SecServer, ServerFactory

pytestmark = pytest.mark.timeout(90)


def test_security_headers_on_every_response(shared: SecServer) -> None:
    for path in ("/api/health", "/api/tables", "/api/wallet", "/", "/app.js", "/nowhere"):
        response = shared.http.get(path)
        headers = response.headers
        csp = headers.get("content-security-policy", "")
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";") if d.strip())
        assert directives.get("script-src") == "'self'", (path, csp)
        assert directives.get("style-src") == "'self'", (path, csp)
        assert directives.get("default-src") == "'self'"
        assert directives.get("frame-ancestors") == "'none'"
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert headers.get("x-frame-options") == "DENY"
        assert headers.get("x-content-type-options") == "nosniff"
        assert headers.get("referrer-policy") == "no-referrer"
        assert "server" not in headers  # uvicorn does not name itself


def test_the_api_docs_are_off_by_default(shared: SecServer) -> None:
    for path in ("/docs", "/redoc", "/openapi.json"):
        response = shared.http.get(path)
        assert response.status_code == 404, path
        assert "swagger" not in response.text.lower() and '"openapi"' not in response.text


def test_the_api_docs_when_enabled(make_server: ServerFactory) -> None:
    server = make_server(env={"CROUPIER_API_DOCS": "true"})
    spec = server.http.get("/openapi.json")
    assert spec.status_code == 200 and "/api/auth/login" in spec.json()["paths"]
    page = server.http.get("/docs")
    assert page.status_code == 200 and "swagger" in page.text.lower()
    assert "content-security-policy" not in page.headers  # its scripts come from a CDN
    assert page.headers["x-frame-options"] == "DENY"
