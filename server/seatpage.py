"""The client's page shell, with every module its page needs named up front.

A browser learns what an ES module imports only when that module has arrived, so a page of some
forty modules (no bundler, no build step) would load in as many round trips as its import chain
is deep. At startup the server reads ``web/static/js``, follows each module's static imports and
writes into ``index.html`` (at its ``<!-- modulepreload -->`` line) one ``<link rel="modulepreload">``
per module the page will run, so every request is made while the page's head is read.

The order is the order of need. First ``main.js`` and what it imports: it opens the match's
sockets while the rest arrives. Then, at low priority so that the page's data and art asked for
by its first script go before them, the page's own modules: the one ``main.js`` imports for the
route and those that one imports at once (``PAGE_MODULES``), and all they import, each after
the modules it imports. Each page's shell is built once, with its gzip body and tag; a change
to the client's imports takes a restart of the server.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Scope

from .static import accepts_gzip

__all__ = ["MARKER", "PAGE_MODULES", "PageShell", "SeatPages", "preload_order"]

MARKER: Final = "<!-- modulepreload -->"
PAGE_MODULES: Final = {
    "": ("lobby.js", "render.js", "anim.js", "state.js"),  # and the lobby's scene, drawn by the board's renderer
    "play": ("game.js",),
    "watch": ("game.js",),
    "replay": ("replay.js",),
}
"""Route (the path's first part) -> the module ``main.js`` imports for it, then what that module
imports at once by ``import()`` (web/static/js/main.js, lobby.js)."""

# `import {a, b} from "./x.js";` (over several lines too), `import "./x.js";`, `export {a} from "./x.js";`
# at the start of a line; JSDoc's `import("./types.js")` types and dynamic imports are not loads.
_STATIC_IMPORT: Final = re.compile(
    r'^(?:import|export)\s*[\w\s{},*$]*?\bfrom\s*"\./([\w.-]+\.js)"|^import\s*"\./([\w.-]+\.js)"', re.M)


def _imports(source: str) -> list[str]:
    return [bound or bare for bound, bare in _STATIC_IMPORT.findall(source)]


def preload_order(modules: dict[str, str], roots: Iterable[str]) -> list[str]:
    """Every module the ``roots`` load, each after the modules it imports, root by root.

    ``modules`` maps a file name to its source. An import of a module that is not there is an
    error naming both (the page could not load).
    """
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str, importer: str) -> None:
        if name in seen:
            return
        if name not in modules:
            raise ValueError(f"web/static/js/{importer} imports ./{name}, which does not exist")
        seen.add(name)
        for dependency in _imports(modules[name]):
            visit(dependency, name)
        order.append(name)

    for root in roots:
        visit(root, "index.html")
    return order


@dataclass(frozen=True, slots=True)
class PageShell:
    """One page's ``index.html`` with its preloads: the body, gzipped once, and its tag."""

    body: bytes
    gzipped: bytes
    etag: str

    @classmethod
    def of(cls, html: str) -> PageShell:
        body = html.encode("utf-8")
        return cls(body, gzip.compress(body, compresslevel=9, mtime=0), f'"{hashlib.sha256(body).hexdigest()[:20]}"')

    def response(self, scope: Scope, headers: dict[str, str]) -> Response:
        """The page for this request: gzipped when it takes gzip, a 304 when it holds this version."""
        zipped = accepts_gzip(scope)
        tag = f"W/{self.etag}" if zipped else self.etag  # the same page, another encoding: a weak tag
        sent = {**headers, "etag": tag, "vary": "Accept-Encoding"}
        held = Headers(scope=scope).get("if-none-match", "")
        if tag in (t.strip() for t in held.split(",")):
            return Response(status_code=304, headers=sent)
        if zipped:
            return Response(self.gzipped, headers={**sent, "content-encoding": "gzip"}, media_type="text/html")
        return Response(self.body, headers=sent, media_type="text/html")


class SeatPages:
    """The shell of each route, from ``index.html`` and the modules beside it (module docstring)."""

    def __init__(self, shells: dict[str, PageShell]) -> None:
        self._shells = shells

    @classmethod
    def load(cls, static: Path) -> SeatPages | None:
        """The shells of the client in ``static`` (``web/static``); None when it has no ``index.html``."""
        index = static / "index.html"
        if not index.is_file():
            return None
        html = index.read_text(encoding="utf-8")
        if MARKER not in html:
            raise ValueError(f"{index} has no {MARKER} line for the module preloads")
        modules = {path.name: path.read_text(encoding="utf-8") for path in (static / "js").glob("*.js")}
        shells: dict[str, PageShell] = {}
        for route, page_modules in PAGE_MODULES.items():
            first = preload_order(modules, ["main.js"])
            rest = [name for name in preload_order(modules, ["main.js", *page_modules]) if name not in first]
            links = [f'<link rel="modulepreload" href="/static/js/{name}">' for name in first]
            links += [f'<link rel="modulepreload" href="/static/js/{name}" fetchpriority="low">' for name in rest]
            shells[route] = PageShell.of(html.replace(MARKER, "\n  ".join(links), 1))
        return cls(shells)

    def shell(self, route: str) -> PageShell:
        """The shell for a path's first part (``play`` for ``/play/{id}``)."""
        return self._shells[route]
