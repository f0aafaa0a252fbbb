"""The store seen from the event loop: one thread owns SQLite and commits appends in groups.

A commit waits for the disk (``synchronous=FULL``), so SQLite never runs on the event
loop. One writer thread owns the connection and serialises everything. Appends that queue
up while a commit is in flight are written together in the next transaction, so a busy
server pays one disk sync per batch rather than per action (group commit); each append's
awaiter resumes only after the commit that holds it. A second thread checkpoints the WAL
into the database file every second, so no commit waits for that copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .store import ActionRow, Checkpointer, MatchRow, Progress, RematchChange, Store

__all__ = ["Database", "Storage"]

T = TypeVar("T")

MAX_BATCH = 256
CHECKPOINT_SECONDS = 1.0

log = logging.getLogger("taktik.database")


class Storage(Protocol):
    """What the server needs of its match database, whichever holds it.

    `Database` (SQLite under ``--data``) and `server.pgstore.PgDatabase` (PostgreSQL under
    ``--database``) both keep this contract: `append` is durable when it returns, and raises
    `StoreConflict` (writing nothing) unless the match's stored version is the action's ply.
    """

    async def create_match(self, row: MatchRow, seats: Mapping[str, bytes], prefix: Sequence[ActionRow],
                           rematch: RematchChange | None = None) -> None: ...

    async def set_rematch(self, change: RematchChange) -> None: ...

    async def append(self, match_id: str, action: ActionRow, progress: Progress) -> None: ...

    async def mark_broken(self, match_id: str, reason: str) -> None: ...

    async def match_row(self, match_id: str) -> MatchRow | None: ...

    async def load(self, match_id: str) -> tuple[MatchRow, dict[str, bytes], list[ActionRow]] | None: ...

    async def action_at(self, match_id: str, ply: int) -> ActionRow | None: ...

    async def recent(self, limit: int) -> list[MatchRow]: ...

    async def match_ids(self) -> list[str]: ...

    async def open_challenges(self, limit: int) -> list[MatchRow]: ...

    async def timed_live(self) -> list[str]: ...

    async def join_seat(self, match_id: str, seat: str, digest: bytes) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class _Job:
    run: Callable[[], Any] | None  # None: an append, described by ``entry``
    entry: tuple[str, ActionRow, Progress] | None
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


class Database:
    """Async facade over a `Store`, running it on its own thread."""

    def __init__(self, store: Store, checkpointer: Checkpointer | None = None) -> None:
        self._store = store
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="taktik-db", daemon=True)
        self._thread.start()
        self._checkpointer = checkpointer
        self._stop = threading.Event()
        self._checkpoints = threading.Thread(target=self._checkpoint, name="taktik-db-checkpoint", daemon=True)
        if checkpointer is not None:
            self._checkpoints.start()

    @classmethod
    def open(cls, data_dir: Path) -> Database:
        """Open the store of ``data_dir`` (see `Store.open`), checkpointing on a second thread."""
        store = Store.open(data_dir, background_checkpoints=True)
        return cls(store, store.checkpointer())

    async def _submit(self, run: Callable[[], T] | None, entry: tuple[str, ActionRow, Progress] | None = None) -> T:
        if self._closed:
            raise RuntimeError("the database is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Job(run=run, entry=entry, future=future, loop=loop))
        return await future

    async def create_match(self, row: MatchRow, seats: Mapping[str, bytes], prefix: Sequence[ActionRow],
                           rematch: RematchChange | None = None) -> None:
        await self._submit(partial(self._store.create_match, row, seats, prefix, rematch))

    async def set_rematch(self, change: RematchChange) -> None:
        await self._submit(partial(self._store.set_rematch, change))

    async def append(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        """Append one action; returns once it is committed (possibly with others)."""
        await self._submit(None, (match_id, action, progress))

    async def mark_broken(self, match_id: str, reason: str) -> None:
        await self._submit(partial(self._store.mark_broken, match_id, reason))

    async def match_row(self, match_id: str) -> MatchRow | None:
        return await self._submit(partial(self._store.match_row, match_id))

    async def load(self, match_id: str) -> tuple[MatchRow, dict[str, bytes], list[ActionRow]] | None:
        return await self._submit(partial(self._store.load, match_id))

    async def action_at(self, match_id: str, ply: int) -> ActionRow | None:
        return await self._submit(partial(self._store.action_at, match_id, ply))

    async def recent(self, limit: int) -> list[MatchRow]:
        return await self._submit(partial(self._store.recent, limit))

    async def open_challenges(self, limit: int) -> list[MatchRow]:
        return await self._submit(partial(self._store.open_challenges, limit))

    async def timed_live(self) -> list[str]:
        return await self._submit(self._store.timed_live)

    async def join_seat(self, match_id: str, seat: str, digest: bytes) -> None:
        await self._submit(partial(self._store.join_seat, match_id, seat, digest))

    async def match_ids(self) -> list[str]:
        return await self._submit(self._store.match_ids)

    def close(self) -> None:
        """Finish queued work, then close the store; later calls raise RuntimeError."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join()
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpoints.join()
            self._checkpointer.close()
        self._store.close()

    def _checkpoint(self) -> None:
        assert self._checkpointer is not None
        while not self._stop.wait(CHECKPOINT_SECONDS):
            try:
                self._checkpointer.run()
            except Exception:
                log.exception("WAL checkpoint failed (it is retried)")

    # -- the writer thread ---------------------------------------------------------

    def _work(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self._run(batch)
                    return
                batch.append(job)
            self._run(batch)

    def _run(self, batch: list[_Job]) -> None:
        appends = [job for job in batch if job.run is None]
        if appends:
            try:
                errors = self._store.append_many([job.entry for job in appends if job.entry is not None])
            except Exception as err:
                for job in appends:
                    _settle(job, error=err)
            else:
                for job, error in zip(appends, errors, strict=True):
                    _settle(job, error=error)
        for job in batch:
            if job.run is not None:
                try:
                    value = job.run()
                except Exception as err:
                    _settle(job, error=err)
                else:
                    _settle(job, value=value)


def _settle(job: _Job, *, value: Any = None, error: BaseException | None = None) -> None:
    def resolve() -> None:
        if job.future.done():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(value)

    with contextlib.suppress(RuntimeError):  # that event loop is closed: nobody waits any more
        job.loop.call_soon_threadsafe(resolve)
