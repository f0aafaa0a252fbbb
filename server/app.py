"""The Starlette application: routes, static files, and the lifespan that owns the services."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from . import api, catalogue, challenges, replays, ws
from .database import Database
from .errors import EXCEPTION_HANDLERS
from .services import AppState, Services
from .settings import Settings

__all__ = ["ASSETS", "WEB_STATIC", "create_app"]

ROOT = Path(__file__).resolve().parent.parent
WEB_STATIC = ROOT / "web" / "static"
ASSETS = ROOT / "assets"

_HEADERS = {"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}

_NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Taktik</title></head>
<body><h1>Taktik</h1>
<p>The server is running, but the browser client is not built yet (no <code>web/static/index.html</code>).</p>
<p>The HTTP API is under <code>/api/matches</code>; see <code>docs/protocol.md</code>.</p>
</body></html>
"""


async def page(request: Request) -> Response:
    """The client shell for ``/``, ``/play/{id}``, ``/watch/{id}`` and ``/replay/{id}``: it routes itself."""
    index = WEB_STATIC / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html", headers=_HEADERS)
    return HTMLResponse(_NOT_BUILT, headers=_HEADERS)


def create_app(settings: Settings, db: Database | None = None) -> Starlette:
    """The app for ``settings``; it opens the data directory at startup unless ``db`` is given."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[AppState]:
        database = db if db is not None else Database.open(settings.data_dir)
        services = Services.build(settings, database)
        services.matches.start()
        try:
            yield {"services": services}
        finally:
            await services.matches.close()
            database.close()

    routes = [
        Route("/", page),
        Route("/play/{match_id}", page),
        Route("/watch/{match_id}", page),
        Route("/replay/{match_id}", page),
        *api.routes,
        *challenges.ROUTES,
        *catalogue.ROUTES,
        *replays.ROUTES,
        WebSocketRoute("/ws/matches/{match_id}", ws.match_socket),
        Mount("/static", StaticFiles(directory=WEB_STATIC, check_dir=False), name="static"),
        Mount("/assets", StaticFiles(directory=ASSETS, check_dir=False), name="assets"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=EXCEPTION_HANDLERS)
