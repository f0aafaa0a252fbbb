"""The store seen from the event loop: every SQLite call runs on one dedicated thread.

SQLite calls are short, but a commit waits for the disk (``synchronous=FULL``), so they
never run on the event loop. One thread owns the connection, which also serialises all
writes. Awaiting a write means it is committed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from .store import ActionRow, MatchRow, Progress, Store

__all__ = ["Database"]

T = TypeVar("T")


class Database:
    """Async facade over a `Store`, running it on its own thread."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="taktik-db")

    @classmethod
    def open(cls, data_dir: Path) -> Database:
        """Open the store of ``data_dir`` (see `Store.open`)."""
        return cls(Store.open(data_dir))

    async def _call(self, fn: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    async def create_match(self, row: MatchRow, seats: Mapping[str, bytes], prefix: Sequence[ActionRow]) -> None:
        await self._call(self._store.create_match, row, seats, prefix)

    async def append(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        await self._call(self._store.append, match_id, action, progress)

    async def mark_broken(self, match_id: str, reason: str) -> None:
        await self._call(self._store.mark_broken, match_id, reason)

    async def match_row(self, match_id: str) -> MatchRow | None:
        return await self._call(self._store.match_row, match_id)

    async def load(self, match_id: str) -> tuple[MatchRow, dict[str, bytes], list[ActionRow]] | None:
        return await self._call(self._store.load, match_id)

    async def action_at(self, match_id: str, ply: int) -> ActionRow | None:
        return await self._call(self._store.action_at, match_id, ply)

    async def recent(self, limit: int) -> list[MatchRow]:
        return await self._call(self._store.recent, limit)

    def close(self) -> None:
        """Finish queued calls, then close the store (call once nothing awaits it any more)."""
        self._thread.shutdown(wait=True)
        self._store.close()
