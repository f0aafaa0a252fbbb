"""The Starlette application: routes, static files, and the lifespan that owns the services."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute

from . import api, catalogue, challenges, replays, rulespage, ws
from .database import Database, Storage
from .errors import EXCEPTION_HANDLERS
from .gate import CostGate
from .profiling import install_profiler
from .seatpage import SeatPages
from .services import AppState, Services
from .settings import Settings
from .static import CompressedStatic

if TYPE_CHECKING:
    from .replication import Replication

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


def _page(pages: SeatPages | None) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        """The client shell for ``/``, ``/play/{id}``, ``/watch/{id}`` and ``/replay/{id}``: it routes
        itself; the server names the modules of its page up front (server/seatpage.py)."""
        if pages is None:
            return HTMLResponse(_NOT_BUILT, headers=_HEADERS)
        shell = pages.shell(request.url.path.split("/")[1])
        return shell.response(request.scope, _HEADERS)

    return page


def create_app(settings: Settings, db: Storage | None = None) -> Starlette:
    """The app for ``settings``; at startup it opens its database (``settings.database_url``, else
    the data directory) unless ``db`` is given. With PostgreSQL, matches are replicated between
    the processes sharing it (server/replication.py)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[AppState]:
        database = db if db is not None else await _open(settings)
        services = Services.build(settings, database)
        replication = await _replicate(settings, services)
        services.matches.start()
        install_profiler()  # only with TAKTIK_PROFILE set (server/profiling.py)
        try:
            yield {"services": services}
        finally:
            await services.matches.close()
            services.analysts.close()
            if replication is not None:
                await replication.close()
            database.close()

    page = _page(SeatPages.load(WEB_STATIC))
    routes = [
        Route("/", page),
        Route("/play/{match_id}", page),
        Route("/watch/{match_id}", page),
        Route("/replay/{match_id}", page),
        *api.routes,
        *challenges.ROUTES,
        *catalogue.ROUTES,
        *replays.ROUTES,
        *rulespage.ROUTES,  # /rules: docs/rules.md as a page (the in-game help links there)
        WebSocketRoute("/ws/matches/{match_id}", ws.match_socket),
        Mount("/static", CompressedStatic(directory=WEB_STATIC, check_dir=False), name="static"),
        Mount("/assets", CompressedStatic(directory=ASSETS, check_dir=False), name="assets"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=EXCEPTION_HANDLERS,
                     middleware=[Middleware(CostGate)])  # costly requests refused at the door (server/gate.py)


async def _open(settings: Settings) -> Storage:
    if settings.database_url is None:
        return Database.open(settings.data_dir)
    from .pgstore import PgDatabase, PgSettings  # the [cluster] extra: imported only when asked for

    tuning = settings.cluster
    return await PgDatabase.connect(settings.database_url, PgSettings(max_size=tuning.pool_size,
                                                                      command_timeout=tuning.command_timeout))


async def _replicate(settings: Settings, services: Services) -> Replication | None:
    """Keep this process's matches in step with the shared log, when there is one."""
    if settings.database_url is None:
        return None
    from .pgstore import PgDatabase
    from .replication import Replication

    if not isinstance(services.db, PgDatabase):
        return None

    replication = Replication(services.matches, services.db, settings.bus_url,
                              lease_seconds=settings.cluster.lease_seconds,
                              sweep_seconds=settings.cluster.sweep_seconds)
    services.matches.replication = replication
    await replication.start()
    return replication
