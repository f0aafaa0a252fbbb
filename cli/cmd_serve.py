"""`taktik serve`: the game server (HTTP, WebSocket, static client) on uvicorn.

One process on SQLite under ``--data`` by default; with ``--database postgresql://...`` and
``--bus redis://...`` any number of processes share the matches (docs/deploy.md), and
``--workers N`` starts N of them on one port (cli/serve_workers.py)."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import signal
import socket
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import msgspec

from engine import GameConfig
from engine.data import apply_variant
from lab.bots import ABOUT, Bot, get_bot, hint, win_chance
from server.bots import BotRoster
from server.collector import Collector
from server.database import Database
from server.settings import ClusterTuning, Limits, Settings, load_limits
from server.store import DataDirLocked, StoreUnavailable

from .errors import CommandError
from .game_options import add_rules_option, nonnegative_number, rules_from_args, start, whole_number
from .serve_workers import listening_socket, run_workers

SEATED_BOTS = ("greedy", "strong", "random")
"""The lab bots a server seats, the default first: greedy answers in milliseconds, strong (the
top-rated bot, docs/bots.md) searches once per turn (about a second), random is the fallback when a bot fails."""

BOT_THINK = 1.5
"""Seconds (wall clock) a seated bot that searches (strong) may think about one decision: its search
stops there and plays the best plan found so far, so a player never waits long on a slow or busy
server. The lab's own runs have no such limit: they stay reproducible (docs/bots.md, "Speed")."""


def bot_roster(think: float = BOT_THINK, clock: Callable[[], float] = time.monotonic) -> BotRoster:
    """The server's bot seats, built from the lab's bots with their default options (a bot that can think
    within a time gets ``think`` seconds of ``clock`` per decision), and its hints and estimates."""
    return BotRoster(policies={name: _seated(get_bot(name), think, clock).choose for name in SEATED_BOTS},
                     about={name: ABOUT[name] for name in SEATED_BOTS}, fallback="random",
                     hint=hint, estimate=win_chance)


def _seated(bot: Bot, think: float, clock: Callable[[], float]) -> Bot:
    """``bot`` as a seat plays it: within ``think`` seconds a decision, if it can think within a time."""
    within = getattr(bot, "within", None)
    return within(think, clock) if callable(within) else bot


GC_INTERVAL = 0.1
"""Seconds between two young collections. Each freezes its survivors (server/collector.py),
so it scans only what was allocated since the previous one and is still alive: about a
millisecond every tenth of a second, where collections by the allocation count came every
several seconds and took tens of milliseconds (docs/deploy.md, "Collections")."""

GC_GROWTH = 1.0
GC_SPACING = 300.0
"""A full collection (the only one that frees cyclic garbage among frozen objects, and a long
pause) runs once the heap doubled since the last one, at most every five minutes unless it
quadrupled: memory stays bounded, and a steady server almost never pauses for it."""

WS_IMPLEMENTATION = "websockets"
"""uvicorn's protocol built on the ``websockets`` library: pings and a bounded inbound queue.
uvicorn marks it deprecated; its warnings are silenced below. Its ``websockets-sansio``
protocol was measured against it (docs/deploy.md, "CPU per action, a third round"): some
10-15 µs less per message, about 1% of the CPU per action, while it parses each read of up
to 256 KiB into its queue at once (so a client's pipelined messages are not bounded by
``inbound_queue``) and logs a traceback for every text frame that is not UTF-8."""


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "taktik"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("serve", help="run the game server and print the URL to open")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=8000,
                        help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--data", type=Path, default=None, metavar="DIR",
                        help=f"data directory for the match database (default {default_data_dir()})")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="also accept WebSocket handshakes from this origin, e.g. https://example.org")
    parser.add_argument("--limits", type=Path, default=None, metavar="FILE",
                        help="JSON object overriding server limits (see docs/server.md)")
    parser.add_argument("--bot", choices=SEATED_BOTS, default=SEATED_BOTS[0],
                        help="policy of bot seats in new matches")
    parser.add_argument("--bot-think", type=nonnegative_number, default=BOT_THINK, metavar="SECONDS",
                        help=f"the most a searching bot (strong) thinks about one decision, wall clock "
                             f"(default {BOT_THINK}); it then plays the best plan found so far")
    parser.add_argument("--abandon-after", type=whole_number(1, 30 * 86_400), default=None, metavar="SECONDS",
                        help="seconds a player to act may be away before the other may claim the win "
                             "(default 180; overrides the limits file)")
    parser.add_argument("--database", default=None, metavar="URL",
                        help="postgresql://USER@HOST:PORT/DB: keep matches in PostgreSQL, shared by every process "
                             "given the same URL (default: SQLite under --data; see docs/deploy.md)")
    parser.add_argument("--bus", default=None, metavar="URL",
                        help="redis://HOST:PORT/N: carry committed actions between processes (needs --database)")
    parser.add_argument("--workers", type=whole_number(1, 64), default=1, metavar="N",
                        help="start N server processes on one port (needs --database and --bus when N > 1)")
    parser.add_argument("--pool-size", type=whole_number(1, 1000), default=ClusterTuning.pool_size, metavar="N",
                        help=f"PostgreSQL connections per process (default {ClusterTuning.pool_size})")
    parser.add_argument("--compress", action="store_true",
                        help="compress WebSocket messages (permessage-deflate): a game's updates shrink to a few "
                             "per cent, for CPU and about 300 KB of memory per socket (docs/server.md)")
    add_rules_option(parser)
    parser.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)  # a worker of --workers
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        limits = load_limits(args.limits) if args.limits is not None else Limits()
    except ValueError as err:
        raise CommandError(str(err)) from None
    if args.abandon_after is not None:
        limits = msgspec.structs.replace(limits, abandon_after=float(args.abandon_after))
    data_dir = (args.data or default_data_dir()).resolve()
    if data_dir.exists() and not data_dir.is_dir():
        raise CommandError(f"--data {data_dir} is a file, not a folder", hint="give a folder for the match database")
    check_storage(args)
    rules = rules_from_args(args)
    if rules is not None:
        start(apply_variant(GameConfig(), rules))  # a file the engine refuses is said now, not at the first match
    if not args.reuse_port:
        check_port(args.host, args.port)
    settings = Settings(data_dir=data_dir, host=args.host, port=args.port, allowed_origins=tuple(args.allow_origin),
                        limits=limits, bots=bot_roster(args.bot_think), bot_policy=args.bot,
                        log_level=args.log_level, database_url=args.database, bus_url=args.bus,
                        cluster=ClusterTuning(pool_size=args.pool_size), compress=args.compress, rules=rules)
    if args.database is not None:
        prepare_postgres(args.database)  # reachable, schema migrated: once, before any worker starts
        if args.workers > 1:
            return run_workers(args)
        _log_to_stderr(args.log_level)
        return asyncio.run(_serve(settings, None))
    _log_to_stderr(args.log_level)
    try:
        db = Database.open(data_dir)
    except DataDirLocked as err:
        raise CommandError(str(err), hint="stop the other server, or give another --data folder", code=1) from None
    except (OSError, RuntimeError) as err:
        raise CommandError(f"cannot open the match database in {data_dir}: {err}", code=1) from None
    return asyncio.run(_serve(settings, db))


def check_storage(args: argparse.Namespace) -> None:
    """Refuse combinations of --database, --bus and --workers that cannot work, saying why."""
    if args.bus is not None and args.database is None:
        raise CommandError("--bus needs --database: the SQLite log under --data belongs to one process",
                           hint="give --database postgresql://... too, or drop --bus")
    if args.workers > 1 and args.database is None:
        raise CommandError("--workers needs --database and --bus: the SQLite log under --data belongs to one process",
                           hint="see docs/deploy.md for PostgreSQL and Redis")
    if args.workers > 1 and args.bus is None:
        raise CommandError("--workers needs --bus: processes sharing PostgreSQL tell each other of new actions "
                           "over Redis", hint="give --bus redis://HOST:PORT/0 (docs/deploy.md)")
    for option, url, schemes in (("--database", args.database, ("postgresql://", "postgres://")),
                                 ("--bus", args.bus, ("redis://", "rediss://", "unix://"))):
        if url is not None and not url.startswith(schemes):
            raise CommandError(f"{option} {url!r} is not a {schemes[0]}... URL")
    if args.database is not None or args.bus is not None:
        try:
            import asyncpg  # noqa: F401
            import redis  # noqa: F401
        except ImportError as err:
            raise CommandError(f"--database and --bus need the cluster drivers ({err.name} is missing)",
                               hint="pip install 'taktik[cluster]'") from None


def prepare_postgres(url: str) -> None:
    """Connect once and bring the schema up to date; a clear error if PostgreSQL cannot be used."""
    from server.pgstore import PgDatabase

    async def connect() -> None:
        db = await PgDatabase.connect(url)
        await db.aclose()

    try:
        asyncio.run(connect())
    except (StoreUnavailable, RuntimeError) as err:
        raise CommandError(str(err), hint="is PostgreSQL running, and does the database exist? (docs/deploy.md)",
                           code=1) from None


def check_port(host: str, port: int) -> None:
    """Bind ``host:port`` once before starting, so a busy or privileged port gets a plain answer."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror:
        raise CommandError(f"--host {host} is not an address of this machine",
                           hint="use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)") from None
    try:
        with socket.create_server((host, port), family=family):
            pass
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            raise CommandError(f"port {port} on {host} is already in use",
                               hint="stop what uses it, or choose another --port (0 picks a free one)") from None
        if err.errno == errno.EACCES:
            raise CommandError(f"port {port} needs privileges this user does not have",
                               hint="choose --port 1024 or above (the default is 8000)") from None
        raise CommandError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None


def _log_to_stderr(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-9s %(name)s: %(message)s"))
    logger = logging.getLogger("taktik")
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False


async def _serve(settings: Settings, db: Database | None) -> int:
    import uvicorn

    from server.app import create_app
    from server.handshake import deadline_protocol

    warnings.filterwarnings("ignore", message="websockets.legacy is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="The `websockets` implementation is deprecated")
    limits = settings.limits
    config = uvicorn.Config(
        create_app(settings, db),
        host=settings.host,
        port=settings.port,
        http=deadline_protocol(limits.handshake_timeout, limits.body_timeout),  # h11: unfinished heads and bodies
        ws=WS_IMPLEMENTATION,
        ws_max_size=limits.max_message_bytes,
        ws_max_queue=limits.inbound_queue,
        ws_ping_interval=limits.ping_interval,
        ws_ping_timeout=limits.ping_timeout,
        ws_per_message_deflate=settings.compress,
        lifespan="on",
        log_level=settings.log_level,
        timeout_graceful_shutdown=5,
        server_header=False,
    )
    server = uvicorn.Server(config)
    sockets = [listening_socket(settings.host, settings.port)] if settings.database_url is not None else None
    collector = Collector(interval=GC_INTERVAL, growth=GC_GROWTH, spacing=GC_SPACING)
    collector.start()  # what exists now (modules, engine tables) is frozen, and so is what survives each collection
    checking = asyncio.create_task(collector.run())

    def stop(sig: int, frame: FrameType | None) -> None:
        server.should_exit = True  # also absorbs the signal uvicorn re-raises after a clean shutdown

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)
    task = asyncio.create_task(server.serve(sockets=sockets))
    while not server.started and not task.done():
        await asyncio.sleep(0.05)
    if server.started:
        port = server.servers[0].sockets[0].getsockname()[1]
        host = f"[{settings.host}]" if ":" in settings.host else settings.host
        where = "database: PostgreSQL" if settings.database_url else f"data: {settings.data_dir}"
        print(f"Taktik is running: open http://{host}:{port}/  ({where}; Ctrl-C stops)", flush=True)
    await task
    checking.cancel()
    if not server.started:
        if db is not None:
            db.close()
        return 1
    print("Taktik server stopped.", flush=True)
    return 0
