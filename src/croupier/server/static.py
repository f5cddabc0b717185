"""The browser client's files, served compressed and cached (issue 29, "Serving").

Each file is read once per version (its modification time and size) and kept in memory with
its SHA-256 and, for text, its gzip form. Every answer carries an ``ETag`` made of the
content's hash (``"<hash>"``, or ``"<hash>-gz"`` for the compressed form, a representation
of its own) and ``Cache-Control``: ``no-cache`` by default, so a browser asks again each time
and an unchanged file costs a ``304 Not Modified`` without a body; ``Vary: Accept-Encoding``
tells caches the two forms apart. A client that does not accept gzip gets the file as it is.
The client's modules are loaded by name (no build step renames them), which is why they are
revalidated rather than cached for a fixed time.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

__all__ = ["ClientFiles"]

_TEXT = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}
_SMALLEST = 256
"""Files below this many bytes are sent as they are (gzip would not pay for its header)."""


@dataclass(frozen=True, slots=True)
class _Cached:
    version: tuple[int, int]
    body: bytes
    gzipped: bytes | None
    digest: str
    media_type: str


class ClientFiles(StaticFiles):
    """:class:`StaticFiles` whose text files are sent gzip-compressed (when the browser accepts
    it) with a content-hash ``ETag`` and ``Cache-Control``."""

    def __init__(self, *, max_age: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cache_control = f"public, max-age={max_age}" if max_age else "no-cache"
        self._files: dict[str, _Cached] = {}
        self._lock = threading.Lock()

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        path = Path(full_path)
        media_type = _TEXT.get(path.suffix.lower())
        if media_type is None or status_code != 200:
            response = super().file_response(full_path, stat_result, scope, status_code)
            response.headers["Cache-Control"] = self.cache_control
            return response
        cached = self._load(path, stat_result, media_type)
        request = Headers(scope=scope)
        gzip_ok = cached.gzipped is not None and _accepts_gzip(request.get("accept-encoding", ""))
        etag = f'"{cached.digest}-gz"' if gzip_ok else f'"{cached.digest}"'
        headers = {"ETag": etag, "Cache-Control": self.cache_control, "Vary": "Accept-Encoding"}
        if _matches(request.get("if-none-match", ""), etag):
            return Response(status_code=304, headers=headers)
        if gzip_ok:
            assert cached.gzipped is not None
            headers["Content-Encoding"] = "gzip"
            return Response(cached.gzipped, media_type=media_type, headers=headers)
        return Response(cached.body, media_type=media_type, headers=headers)

    def _load(self, path: Path, stat_result: os.stat_result, media_type: str) -> _Cached:
        key = str(path)
        version = (stat_result.st_mtime_ns, stat_result.st_size)
        with self._lock:
            cached = self._files.get(key)
        if cached is not None and cached.version == version:
            return cached
        body = path.read_bytes()
        gzipped = gzip.compress(body, compresslevel=9, mtime=0) if len(body) >= _SMALLEST else None
        digest = hashlib.sha256(body).hexdigest()[:32]
        cached = _Cached(version, body, gzipped, digest, media_type)
        with self._lock:
            self._files[key] = cached
        return cached


def _accepts_gzip(accept: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (``gzip;q=0`` refuses it)."""
    for part in accept.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip()
            if not q.startswith("q="):
                return True
            try:
                return float(q[2:]) > 0
            except ValueError:
                return False
    return False


def _matches(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (or ``*``); weak comparison, as for GET."""
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags
