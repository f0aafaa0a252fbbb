"""Batching on PostgreSQL: what waits in one process goes in one statement.

`AppendBatcher` is group commit: the appends waiting go in one statement and one commit.
`Batched` does the same for lookups (loads of matches, stored versions): a reconnect storm
asks for one per socket.

An append holds a pooled connection for its round trip *and* until the event loop gets back
to the coroutine that sent it. With one statement per action, a process doing a few hundred
actions a second needed every connection of its pool as soon as its loop lagged a little (a
collection, a burst of fan-out), and the appends then queued for a connection: that queue was
the cluster benchmark's act→update tail (docs/deploy.md, "Where the time goes"). Here a few
writers per process (`WRITERS`, each on a connection reserved for appends) send whatever has
queued meanwhile as one ``UPDATE ... FROM unnest(...)`` feeding one ``INSERT``: one round
trip and one commit for the batch, whatever its size, as SQLite's group commit shares one
sync. Under light load each append goes at once in a statement of its own; under heavy load
the batches grow instead of the queue. Two batches in flight never hold the same match (a
match's actions are taken one at a time, under its lock).

Each row of a batch keeps the single append's contract: it commits only if the stored
version is its ply (else `StoreConflict`, that row alone), and the whole batch is one
transaction. When the batch statement fails as a whole (a client ``seq`` used twice, or a
deadlock with another process batching the same two matches in the other order), its rows
are appended one by one, so each gets its own answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

import asyncpg

from .store import ActionRow, Progress, StoreConflict, StoreUnavailable

__all__ = ["BATCH_LIMIT", "WRITERS", "AppendBatcher", "Batched", "Reserved"]

BATCH_LIMIT = 500  # rows per statement: a bound on the statement's size, far above a batch's usual size
WRITERS = 4  # batches in flight at once: an append need not wait for a whole batch ahead of it

log = logging.getLogger("taktik.pgstore")

_PROGRESS_TYPES = {"status": "text", "version": "int", "turn": "int", "phase": "text", "to_act": "text",
                   "winner": "text", "victory_reason": "text"}
_ACTION_TYPES = {"ply": "int", "seat": "text", "client_seq": "int", "action": "text", "state_hash": "text",
                 "elapsed_ms": "int"}
# A new field of either row must be given a column type here (and a migration in pgstore).
assert list(_PROGRESS_TYPES) == [f.name for f in fields(Progress)], "pgbatch: Progress fields changed"
assert list(_ACTION_TYPES) == [f.name for f in fields(ActionRow)], "pgbatch: ActionRow fields changed"

_COLUMNS = {"match_id": "text", **_PROGRESS_TYPES, **_ACTION_TYPES}
_NOW = len(_COLUMNS) + 1  # the parameter holding the batch's timestamp

APPEND_MANY = f"""
WITH input AS (
    SELECT * FROM unnest({", ".join(f"${i}::{kind}[]" for i, kind in enumerate(_COLUMNS.values(), start=1))})
        AS i({", ".join(_COLUMNS)})
), moved AS (
    UPDATE matches m SET {", ".join(f"{name}=i.{name}" for name in _PROGRESS_TYPES)}, updated_at=${_NOW}
    FROM input i
    WHERE m.id = i.match_id AND m.version = i.ply AND m.status = 'live'
    RETURNING m.id
)
INSERT INTO actions (match_id, created_at, {", ".join(_ACTION_TYPES)})
SELECT i.match_id, ${_NOW}, {", ".join(f"i.{name}" for name in _ACTION_TYPES)}
FROM input i JOIN moved ON moved.id = i.match_id
RETURNING match_id
"""

Run = Callable[[Callable[[Any], Awaitable[Any]]], Awaitable[Any]]
Single = Callable[[str, ActionRow, Progress], Awaitable[None]]


@dataclass
class _Waiting:
    match_id: str
    action: ActionRow
    progress: Progress
    done: asyncio.Future[None]


class AppendBatcher:
    """One process's appends, written by up to ``writers`` tasks in batches (one statement each).

    ``run`` runs work on a pooled connection (`PgDatabase._run`: unreachable servers become
    `StoreUnavailable`); ``single`` is the one-row append, used for a batch of one and to
    sort out a batch that failed as a whole.
    """

    def __init__(self, run: Run, single: Single, writers: int = WRITERS) -> None:
        self._run = run
        self._single = single
        self._waiting: list[_Waiting] = []
        self._writers: set[asyncio.Task[None]] = set()
        self._most = writers
        self.batches = 0  # statements sent, and rows they carried (for tests and logs)
        self.rows = 0

    async def append(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        """Append with the next batch; returns once committed, or raises as the single append would."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(match_id, action, progress, done))
        if len(self._writers) < self._most:
            writer = asyncio.create_task(self._write())
            self._writers.add(writer)
            writer.add_done_callback(self._writers.discard)
        await done

    async def _write(self) -> None:
        while self._waiting:
            batch = self._take()
            try:
                await self._commit(batch)
            except Exception as err:  # never leave an append waiting for ever
                log.exception("a batch of %d appends failed", len(batch))
                for waiting in batch:
                    _settle(waiting, err)
            finally:
                for waiting in batch:
                    _settle(waiting, StoreUnavailable("the append was abandoned"))

    def _take(self) -> list[_Waiting]:
        """The next batch: the oldest waiting appends, at most one per match (a match's next ply waits)."""
        batch: list[_Waiting] = []
        seen: set[str] = set()
        rest: list[_Waiting] = []
        for waiting in self._waiting:
            if waiting.match_id in seen or len(batch) >= BATCH_LIMIT:
                rest.append(waiting)
            else:
                seen.add(waiting.match_id)
                batch.append(waiting)
        self._waiting = rest
        return batch

    async def _commit(self, batch: list[_Waiting]) -> None:
        self.batches += 1
        self.rows += len(batch)
        if len(batch) == 1:
            await self._one(batch[0])
            return
        columns = [[w.match_id for w in batch]]
        columns += [[getattr(w.progress, name) for w in batch] for name in _PROGRESS_TYPES]
        columns += [[getattr(w.action, name) for w in batch] for name in _ACTION_TYPES]
        try:
            moved = await self._run(lambda conn: conn.fetch(APPEND_MANY, *columns, time.time()))
        except StoreUnavailable as err:
            for waiting in batch:
                _settle(waiting, StoreUnavailable(str(err)))
            return
        except asyncpg.PostgresError as err:  # a seq used twice, or a deadlock: each row on its own
            log.info("a batch of %d appends failed as a whole (%s); appending them one by one", len(batch),
                     type(err).__name__)
            for waiting in batch:
                await self._one(waiting)
            return
        committed = {r[0] for r in moved}
        for waiting in batch:
            if waiting.match_id in committed:
                _settle(waiting, None)
            else:
                _settle(waiting, StoreConflict(f"match {waiting.match_id} is not live at version "
                                               f"{waiting.action.ply}"))

    async def _one(self, waiting: _Waiting) -> None:
        try:
            await self._single(waiting.match_id, waiting.action, waiting.progress)
        except Exception as err:
            _settle(waiting, err)
        else:
            _settle(waiting, None)


def _settle(waiting: _Waiting, outcome: BaseException | None) -> None:
    """Answer one append (once: the first answer stands)."""
    if waiting.done.done():
        return
    if outcome is None:
        waiting.done.set_result(None)
    else:
        waiting.done.set_exception(outcome)


_REFUSED = (StoreConflict, asyncpg.IntegrityConstraintViolationError, asyncpg.TransactionRollbackError)
"""The failures after which a connection is still in step with its server: PostgreSQL answered the
statement with a refusal (a seq used twice, a deadlock). After anything else (a shutdown, a
timeout, a cut connection) it is closed rather than reused."""


class Reserved:
    """The connections reserved for the appends: one per writer, opened when first needed.

    `AppendBatcher` never runs more than ``WRITERS`` writers, each using one connection at a
    time, so a writer never waits for a connection and none is needed to queue them: an
    asyncpg pool would add, per statement, a proxy object and a task to return the connection
    (``shield``). A connection that failed in any way but a refusal of its statement
    (`_REFUSED`) is closed, not reused; the next append opens a fresh one, so appends resume
    by themselves once PostgreSQL is back.
    """

    def __init__(self, connect: Callable[[], Awaitable[Any]]) -> None:
        self._connect = connect
        self._idle: list[Any] = []
        self._open: set[Any] = set()  # idle or in use, to close them all

    async def acquire(self) -> Any:
        while self._idle:
            conn = self._idle.pop()
            if not conn.is_closed():
                return conn
            self._open.discard(conn)
        conn = await self._connect()
        self._open.add(conn)
        return conn

    async def release(self, conn: Any, failure: BaseException | None = None) -> None:
        """Take ``conn`` back after its work ended, with ``failure`` if the work raised it."""
        if conn.is_closed() or (failure is not None and not isinstance(failure, _REFUSED)):
            self._open.discard(conn)
            conn.terminate()
        else:
            self._idle.append(conn)

    def terminate(self) -> None:
        for conn in self._open:
            conn.terminate()
        self._open.clear()
        self._idle.clear()

    async def close(self) -> None:
        """Close the idle connections, then any still in use (the server is stopping)."""
        idle, self._idle = self._idle, []
        for conn in idle:
            self._open.discard(conn)
            await conn.close()
        self.terminate()


T = TypeVar("T")


class Batched(Generic[T]):
    """Lookups by key: those asked for while one query is in flight are made together by the next.

    ``fetch`` takes at most ``limit`` sorted keys and returns what it found for each (a key
    it leaves out is answered None); if it raises, every lookup of that batch raises the same.
    Every lookup is answered by a query sent after it was asked (a caller re-reading after a
    change must see it): lookups of a key still waiting share one answer, but a key already
    in flight is asked again by the next query.
    """

    def __init__(self, fetch: Callable[[list[str]], Awaitable[dict[str, T]]], limit: int = 200) -> None:
        self._fetch = fetch
        self._limit = limit
        self._waiting: dict[str, asyncio.Future[T | None]] = {}
        self._task: asyncio.Task[None] | None = None

    async def get(self, key: str) -> T | None:
        answer = self._waiting.get(key)
        if answer is None:
            answer = self._waiting[key] = asyncio.get_running_loop().create_future()
            if self._task is None or self._task.done():
                self._task = asyncio.create_task(self._run())
        return await asyncio.shield(answer)

    async def _run(self) -> None:
        while self._waiting:
            keys = sorted(self._waiting)[:self._limit]
            fetching = {key: self._waiting.pop(key) for key in keys}
            try:
                found = await self._fetch(keys)
                for key, answer in fetching.items():
                    answer.set_result(found.get(key))
            except Exception as err:
                for answer in fetching.values():
                    answer.set_exception(err)
                    answer.exception()  # retrieved: a lookup nobody waits for any more must not log it
            finally:
                for answer in fetching.values():
                    if not answer.done():  # cancelled: answer "not found" rather than leave anyone waiting
                        answer.set_result(None)
