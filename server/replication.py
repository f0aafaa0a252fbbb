"""Many processes, one order: keeping each process's copy of a match in step with PostgreSQL.

The engine is deterministic, so a match is replicated by its action log. PostgreSQL orders
it (an append names the ply it extends, and only one append per ply commits); this module
keeps the copies in memory up to date:

- after a commit, the process that made it publishes the row on the bus (`server.bus`);
- a process holding the match applies a published row whose ply is its next one (checking
  the state hash, in `MatchService.take_logged`) and tells its own viewers; a row further
  ahead means it missed some, and it reads them from the log instead; a process that holds
  the match for nobody (no socket, bot seat or running clock here) forgets it instead of
  replaying it (`MatchService.forget_unwatched`), and reloads it from the log when asked;
- each time the bus (re)subscribes, and every ``sweep_seconds`` anyway, it compares the
  stored version of every live match it holds with its own and catches up the ones behind,
  so a message lost by pub/sub delays a viewer by at most one sweep;
- presence rides on the bus too (`Timekeeper`): each sweep republishes the seats this process
  holds, and the seats of a process silent for three sweeps stop counting as present;
- an append that loses a race (`StoreConflict`) catches up first, then answers
  ``stale_version`` (or, for a resend of an action that did commit, its original ``ack``).

Bot seats are played by one process at a time, the holder of a lease row in PostgreSQL that
it renews before each decision; when it dies the lease expires and the next process that
holds the match takes the seat over. A bot's choice depends only on the log (its seed is
``mix_seed(bot_seed, version)``), so it does not matter which process makes it, and if two
ever do, the log keeps one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from .bus import Bus, BusMessage
from .match import Match
from .pgbatch import Batched
from .pgstore import PgDatabase
from .store import ActionRow, StoreUnavailable

if TYPE_CHECKING:
    from .matches import MatchService

__all__ = ["Replication"]

log = logging.getLogger("taktik.replication")


class Replication:
    """The replication of one process: its bus, its sweep and its bot-seat leases."""

    def __init__(self, service: MatchService, db: PgDatabase, bus_url: str | None, *,
                 lease_seconds: float = 5.0, sweep_seconds: float = 2.0) -> None:
        self.service = service
        self.db = db
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.lease_seconds = lease_seconds
        self.sweep_seconds = sweep_seconds
        self.bus = Bus(bus_url, self.origin, self._heard, self._subscribed) if bus_url else None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._sweep_now = asyncio.Event()
        self._closing = False
        self._leases: set[str] = set()
        self._versions = Batched(lambda ids: self.db.versions(ids), limit=5000)  # stored versions (`refresh`)
        self.applied_remote = 0  # rows taken from the bus or the log (for tests and logs)

    async def start(self) -> None:
        if self.bus is not None:
            await self.bus.start()
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def close(self) -> None:
        """Stop listening, finish deliveries, hand back the bot seats this process holds."""
        self._closing = True  # Python 3.11's wait_for drops a cancel that comes as its wait ends: the loop checks
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        if self.bus is not None:
            await self.bus.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for match_id in sorted(self._leases):
            with contextlib.suppress(Exception):
                await self.db.release_bot_seat(match_id, self.origin)

    # -- match events (presence rides here: see `MatchService.publish_event`) ---------

    def publish_event(self, match_id: str, name: str, data: dict[str, Any]) -> None:
        """Tell the other processes (fire and forget: events are not in the log)."""
        if self.bus is not None:
            self.bus.publish_event(match_id, name, data)

    # -- what the match service calls ------------------------------------------------

    def committed(self, match: Match, row: ActionRow) -> None:
        """``row`` is committed and applied here: tell the other processes."""
        if self.bus is not None:
            self.bus.publish_action(match.id, row)

    async def catch_up(self, match: Match) -> None:
        """Apply what the log holds beyond ``match.version`` (the caller holds ``match.lock``)."""
        if match.status != "live":
            return
        rows = await self.db.actions_from(match.id, match.version)
        if rows:
            self.applied_remote += len(rows)
            self.service.take_logged(match, rows)

    async def refresh(self, match: Match) -> None:
        """Bring a loaded match up to date before a new viewer sees it.

        The stored versions asked for while one query is in flight are read together by the
        next (one query per socket let a thousand reconnecting clients take every pooled
        connection for seconds); only a match found behind is then read from the log.
        """
        try:
            stored = await self._versions.get(match.id)
            if stored is not None and stored > match.version:
                async with match.lock:
                    await self.catch_up(match)
        except StoreUnavailable as err:  # serve what this process has; the sweep catches up later
            log.warning("cannot refresh match %s: %s", match.id, err)

    async def hold_bot_seat(self, match: Match) -> bool:
        """Take or renew this process's lease on the match's bot seat; False: another process plays it."""
        try:
            held = await self.db.hold_bot_seat(match.id, self.origin, self.lease_seconds)
        except StoreUnavailable as err:
            log.warning("cannot renew the bot seat of match %s: %s", match.id, err)
            held = False
        if held:
            self._leases.add(match.id)
        else:
            self._leases.discard(match.id)
        return held

    # -- the bus ---------------------------------------------------------------------

    def _heard(self, message: BusMessage) -> None:
        if message.kind == "event":
            handler = self.service.event_handlers.get(message.name or "")
            if handler is not None:
                handler(message.match_id, message.data or {})
            return
        match = self.service.loaded(message.match_id)
        row = message.row
        if match is None or row is None or self.service.forget_unwatched(match):
            return
        if match.lock.locked() or row.ply > match.version:
            self._spawn(self._receive(match, row))  # wait for the lock, or read the gap from the log
            return
        # The usual case, the next row of a match nobody is changing here: applied now, with
        # nothing awaited in between, so as safely as under the lock (a task and a lock per
        # replicated row were a visible part of a worker's CPU).
        if match.status == "live" and row.ply == match.version:
            self.applied_remote += 1
            try:
                self.service.take_logged(match, [row])
            except Exception:  # never let one match stop the bus
                log.exception("could not apply a replicated action of match %s", match.id)

    async def _receive(self, match: Match, row: ActionRow) -> None:
        async with match.lock:
            if match.status != "live" or row.ply < match.version:
                return  # already applied (our own, or caught up from the log)
            if row.ply == match.version:
                self.applied_remote += 1
                self.service.take_logged(match, [row])
                return
            try:
                await self.catch_up(match)
            except StoreUnavailable as err:
                log.warning("match %s missed actions and cannot catch up yet: %s", match.id, err)

    def _subscribed(self) -> None:
        self._sweep_now.set()  # whatever was published while we were away is in the log

    # -- the sweep -------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._sweep_now.wait(), self.sweep_seconds)
            if self._closing:
                return
            self._sweep_now.clear()
            self.service.time.presence_heartbeat(self.sweep_seconds)  # presence across processes
            try:
                await self.sweep()
            except StoreUnavailable as err:
                log.warning("cannot compare versions with the log: %s", err)
            except Exception:
                log.exception("sweep failed (it is retried)")

    async def sweep(self) -> int:
        """Catch up every loaded live match that the log has moved past; how many were behind."""
        held = {m.id: m for m in self.service.live_matches() if not self.service.forget_unwatched(m)}
        if not held:
            return 0
        stored = await self.db.versions(sorted(held))
        behind = [m for match_id, m in sorted(held.items()) if stored.get(match_id, 0) > m.version]
        for match in behind:
            async with match.lock:
                await self.catch_up(match)
        return len(behind)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
