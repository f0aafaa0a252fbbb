"""What the lifespan shares with every endpoint: settings, database, matches, limiters."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TypedDict, cast

from starlette.requests import HTTPConnection

from .challenge_book import ChallengeBook
from .creation import Creator
from .database import Storage
from .matches import MatchService
from .ratelimit import AddressBackoff, AddressLimiter, ConnectionCounter
from .rematches import Rematches
from .settings import Settings

__all__ = ["AppState", "Services", "services_of"]


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
    replay_slots: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(2))

    @classmethod
    def build(cls, settings: Settings, db: Storage) -> Services:
        """Everything for one server process around an open database."""
        matches = MatchService(db, settings.limits, settings.bots, settings.clock)
        creator = Creator(matches)
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
        )


class AppState(TypedDict):
    """The state the lifespan yields (Starlette copies it into every request's scope)."""

    services: Services


def services_of(connection: HTTPConnection) -> Services:
    """The `Services` of the app serving ``connection``."""
    return cast(Services, connection.state.services)
