"""Static files as a browser should get them: text compressed, every file revalidated.

The client is some forty small ES modules, a style sheet and a JSON manifest (no build step),
so most of a cold page load is text. ``CompressedStatic`` serves those files gzip-compressed
to any browser that accepts it, compressing each file once per process and keeping the bytes
(keyed by path, size and modification time, so an edited file is compressed again). Images
are already compressed and go out as they are. Every answer says ``Cache-Control: no-cache``:
the browser keeps the file but asks again (an ``ETag`` makes that a 304), so a new release is
never hidden behind a stale module.
"""

from __future__ import annotations

import gzip
import os
from typing import Final

import anyio
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

__all__ = ["CompressedStatic", "accepts_gzip", "compressed_file"]

COMPRESSIBLE: Final = frozenset({".js", ".css", ".json", ".html", ".svg", ".txt", ".md"})
MIN_SIZE: Final = 512  # below this a gzip header costs more than it saves
LEVEL: Final = 9  # once per file per process: the smallest output is worth the few milliseconds
CACHE_CONTROL: Final = "no-cache"

_cache: dict[tuple[str, int, int], bytes] = {}


def accepts_gzip(scope: Scope) -> bool:
    """Whether the request says it takes a gzip body."""
    encodings = Headers(scope=scope).get("accept-encoding", "")
    return any(part.split(";")[0].strip() == "gzip" for part in encodings.split(","))


def _gzipped(path: str, size: int, mtime_ns: int) -> bytes:
    key = (path, size, mtime_ns)
    found = _cache.get(key)
    if found is None:
        with open(path, "rb") as handle:
            found = gzip.compress(handle.read(), compresslevel=LEVEL, mtime=0)
        _cache[key] = found
    return found


async def compressed_file(response: FileResponse, scope: Scope) -> Response:
    """``response`` (a file), gzip-compressed when the client accepts it and it is worth it."""
    response.headers["cache-control"] = CACHE_CONTROL
    path = str(response.path)
    stat = response.stat_result
    if stat is None:
        stat = await anyio.to_thread.run_sync(os.stat, path)
    if response.status_code != 200 or os.path.splitext(path)[1].lower() not in COMPRESSIBLE or stat.st_size < MIN_SIZE:
        return response
    response.headers["vary"] = "Accept-Encoding"
    if not accepts_gzip(scope):
        return response
    body = _cache.get((path, stat.st_size, stat.st_mtime_ns))  # the usual case: no trip to a thread
    if body is None:
        body = await anyio.to_thread.run_sync(_gzipped, path, stat.st_size, stat.st_mtime_ns)
    headers = {k: v for k, v in response.headers.items() if k not in ("content-length", "etag")}
    headers["content-encoding"] = "gzip"
    if "etag" in response.headers:  # the same file, another encoding: a weak tag
        headers["etag"] = f"W/{response.headers['etag'].removeprefix('W/')}"
    return Response(body, status_code=200, headers=headers, media_type=response.media_type)


class CompressedStatic(StaticFiles):
    """Starlette's ``StaticFiles`` with compressed text and revalidating caches (module docstring)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if isinstance(response, FileResponse):
            return await compressed_file(response, scope)
        response.headers.setdefault("cache-control", CACHE_CONTROL)
        return response
