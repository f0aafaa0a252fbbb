"""The cap on open challenges per client address (docs/server.md), kept in memory."""

from __future__ import annotations

from starlette.requests import Request

from .database import Storage
from .errors import ApiError

__all__ = ["ChallengeBook", "client_address"]


def client_address(request: Request) -> str:
    """The address a request came from (behind a proxy: see ``forwarded_allow_ips``)."""
    return request.client.host if request.client else "unknown"


class ChallengeBook:
    """Which open challenges each client address created (in memory: the cap is a brake, not a ledger)."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._by_address: dict[str, list[str]] = {}

    async def admit(self, request: Request, db: Storage) -> None:
        """Refuse (429) a new open challenge from an address that has ``per_address`` waiting."""
        address = client_address(request)
        waiting = []
        for match_id in self._by_address.get(address, []):
            row = await db.match_row(match_id)
            if row is not None and row.open_seat is not None and row.progress.status == "live":
                waiting.append(match_id)
        self._by_address[address] = waiting
        if len(waiting) >= self.per_address:
            raise ApiError(429, "rate_limited", f"your address already has {len(waiting)} open challenges waiting; "
                                                "wait for someone to join one")

    def opened(self, request: Request, match_id: str) -> None:
        """Count a new open challenge against its creator's address."""
        self._by_address.setdefault(client_address(request), []).append(match_id)
