"""Server settings: where it listens, where it keeps data, and every limit (docs/server.md).

`Limits` holds the defaults table of the server contract. Each value can be changed with
``taktik serve --limits FILE`` (a JSON object naming only the fields to change), which is
how tests and the benchmark relax the per-socket rates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import msgspec
from msgspec import Meta

from engine.data import Variant

from .bots import BotRoster
from .clocks import Clock, SystemClock

__all__ = ["ClusterTuning", "Limits", "Settings", "load_limits"]

Positive = Annotated[float, Meta(gt=0)]
NonNegative = Annotated[float, Meta(ge=0)]
Count = Annotated[int, Meta(ge=1, le=10_000_000)]


class Limits(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every limit the server enforces; the defaults are the server contract's table."""

    max_message_bytes: Count = 8 * 1024  # inbound WebSocket message (the library closes with 1009)
    inbound_queue: Count = 8  # inbound messages buffered by the WebSocket library
    outbox_size: Count = 8  # outbound messages per socket before it coalesces to a snapshot
    ping_interval: Positive = 20.0
    ping_timeout: Positive = 20.0
    hello_timeout: Positive = 10.0  # seconds for the first message (`hello`)
    message_burst: Count = 20  # per socket: any message
    message_rate: Positive = 5.0  # per second
    action_burst: Count = 10  # per socket: `act` messages
    action_rate: Positive = 2.0
    flood_close_after: Count = 200  # consecutive rate-limited messages before the socket is closed
    sockets_per_seat: Count = 4  # per seat of a match: reserved, spectators never take them
    spectators_per_match: Count = 32
    spectators_per_address: Count = 8  # spectator sockets of one match from one client address
    sockets_per_address: Count = 64  # WebSocket connections from one client address, all matches
    bad_token_burst: Count = 10  # wrong seat tokens from one address within `bad_token_window`...
    bad_token_window: Positive = 60.0
    bad_token_backoff: Positive = 5.0  # ...then its hellos with a token are refused this long (doubling)
    bad_token_backoff_max: Positive = 600.0
    handshake_timeout: Positive = 10.0  # seconds for a connection to send a whole HTTP request head
    create_burst: Count = 20  # per client address: match creations (and forks)
    create_rate: Positive = 0.5  # per second
    max_body_bytes: Count = 1024 * 1024  # HTTP request body (a fork may post a whole record)
    body_timeout: Positive = 15.0  # seconds for a whole HTTP request body to arrive, from the end of its head
    cpu_budget_burst: Positive = 2.0  # CPU seconds of costly requests one client address may use at once...
    cpu_budget_rate: Positive = 0.1  # ...then this many per second (docs/server.md, "Costly requests")
    analyst_processes: Annotated[int, Meta(ge=0, le=64)] = 1  # processes doing costly work (0: threads)
    analyst_queue: Count = 32  # costly jobs waiting or running before more are refused
    analyst_jobs_per_address: Count = 4  # of those, from one client address
    idle_unload_seconds: Positive = 600.0  # a match nobody watches leaves memory after this
    bot_delay: NonNegative = 0.6  # seconds between bot actions, so people can follow
    max_board_cells: Count = 6000  # width x height of a new match's board: a 300x300 one stalls every match
    abandon_after: Positive = 180.0  # seconds a seat to act may be away before the other seat may claim the win
    open_challenges_per_address: Count = 3  # open challenges waiting for a second player, per client address


@dataclass(frozen=True)
class ClusterTuning:
    """How processes sharing PostgreSQL and Redis behave (docs/deploy.md)."""

    pool_size: int = 10  # PostgreSQL connections per process
    command_timeout: float = 5.0  # seconds a statement may take before the action is refused `unavailable`
    lease_seconds: float = 5.0  # a bot seat's lease: how soon another process takes over a dead one's
    sweep_seconds: float = 2.0  # how often loaded matches are compared with the log (a lost bus message)


@dataclass(frozen=True)
class Settings:
    """How one server process runs."""

    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: tuple[str, ...] = ()  # extra WebSocket origins; the server's own is always allowed
    limits: Limits = field(default_factory=Limits)
    bots: BotRoster = field(default_factory=BotRoster)  # the bots this server can seat (given by its host)
    bot_policy: str | None = None  # the bot of new bot matches; None: the roster's first
    clock: Clock = field(default_factory=SystemClock)  # the time match clocks run on (tests move their own)
    database_url: str | None = None  # postgresql://...: the shared log (docs/deploy.md); None: SQLite in data_dir
    bus_url: str | None = None  # redis://...: committed actions and match events between processes
    cluster: ClusterTuning = field(default_factory=lambda: ClusterTuning())
    compress: bool = False  # permessage-deflate on WebSockets: less bandwidth for CPU and memory (docs/server.md)
    rules: Variant | None = None  # taktik serve --rules FILE: the rules a new match plays unless it brings its own

    def __post_init__(self) -> None:
        if self.bus_url is not None and self.database_url is None:
            raise ValueError("--bus needs --database: a SQLite log belongs to one process, which needs no bus")
        if self.bot_policy is not None and self.bot_policy not in self.bots.policies:
            seated = ", ".join(self.bots.policies) or "none"
            raise ValueError(f"unknown bot {self.bot_policy!r}; this server seats: {seated}")

    @property
    def default_bot(self) -> str | None:
        """The bot a new bot match gets when it names none (None when the server seats no bots)."""
        return self.bot_policy or next(iter(self.bots.policies), None)
    log_level: str = "info"


def load_limits(path: Path) -> Limits:
    """Read a JSON object of limit overrides; raises ValueError naming the bad field."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=Limits)
    except OSError as err:
        raise ValueError(f"cannot read limits file {path}: {err}") from None
    except msgspec.DecodeError as err:
        raise ValueError(f"invalid limits file {path}: {err}") from None
