"""What the lifespan shares with every endpoint: settings, database, matches, limiters."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict, cast

from starlette.requests import HTTPConnection

from .analysts import Analysts
from .challenge_book import ChallengeBook
from .costs import CpuBudget
from .creation import Creator
from .database import Storage
from .matches import MatchService
from .questions import Questions
from .ratelimit import AddressBackoff, AddressLimiter, ConnectionCounter
from .rematches import Rematches
from .results import Results
from .settings import Settings

__all__ = ["AppState", "Services", "address_of", "services_of"]


@dataclass
class Services:
    """Resources living as long as the server."""

    settings: Settings
    db: Storage
    matches: MatchService
    creator: Creator
    rematches: Rematches
    create_limiter: AddressLimiter
    connections: ConnectionCounter  # WebSocket connections per client address
    token_backoff: AddressBackoff  # wrong seat tokens per client address
    challenges: ChallengeBook  # open challenges waiting, per client address
    budget: CpuBudget  # CPU seconds of costly requests per client address (server/costs.py)
    analysts: Analysts  # the processes doing costly work off the event loop
    questions: Questions  # the sockets' questions about a position, answered once per version
    results: Results = field(default_factory=Results)  # stored matches' records, histories, steps per version

    @classmethod
    def build(cls, settings: Settings, db: Storage) -> Services:
        """Everything for one server process around an open database."""
        limits = settings.limits
        matches = MatchService(db, limits, settings.bots, settings.clock)
        budget = CpuBudget(limits.cpu_budget_burst, limits.cpu_budget_rate)
        analysts = Analysts(limits.analyst_processes, limits.analyst_queue, limits.analyst_jobs_per_address)
        creator = Creator(matches, analysts=analysts)
        return cls(
            settings=settings,
            db=db,
            matches=matches,
            creator=creator,
            rematches=Rematches(matches, creator),
            create_limiter=AddressLimiter(settings.limits.create_burst, settings.limits.create_rate),
            connections=ConnectionCounter(settings.limits.sockets_per_address),
            token_backoff=AddressBackoff(settings.limits.bad_token_burst, settings.limits.bad_token_window,
                                         settings.limits.bad_token_backoff, settings.limits.bad_token_backoff_max),
            challenges=ChallengeBook(settings.limits.open_challenges_per_address),
            budget=budget,
            analysts=analysts,
            questions=Questions(budget, analysts, settings.bots),
        )


class AppState(TypedDict):
    """The state the lifespan yields (Starlette copies it into every request's scope)."""

    services: Services


def services_of(connection: HTTPConnection) -> Services:
    """The `Services` of the app serving ``connection``."""
    return cast(Services, connection.state.services)


def address_of(connection: HTTPConnection) -> str:
    """The client address of ``connection`` as uvicorn reports it (behind a proxy: see ``forwarded_allow_ips``)."""
    return connection.client.host if connection.client is not None else "unknown"
