"""Rematches: a seat's offer, acceptance or refusal made durable and told on every process.

After the game one seat offers, the other accepts or declines (`server.rematch.answered`
decides). The rematch is stored with its match, and changed only from where it stood (a
`RematchChange`, compare-and-set): of two answers at once — two sockets of a seat, or two
processes — one counts, and the other reads the stored rematch and decides again. An accepted
offer is stored in the same transaction that creates the new match, so one offer never makes
two matches. The process that made a change tells its own sockets and publishes a ``rematch``
event; every other process holding the match reads the stored rematch and tells its sockets
(docs/deploy.md). A lost event is made good by the next answer there, which reads the store
when its copy is stale.

The new match has the same config and clock with a fresh seed (and commitment) and the seats
swapped: each player's existing token opens the *other* side there, so no new secret is made
or sent. A bot accepts at once (and plays the other side), and so does a hotseat match, whose
one client holds both seats.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from engine import Side

from .creation import Creator, NewMatch, new_match_id
from .match import Match
from .matches import MatchService
from .protocol import RematchUpdate, encode
from .rematch import Choice, Rematch, RematchError, answered
from .store import RematchChange, StoreConflict, StoreUnavailable

__all__ = ["EVENT", "Rematches"]

EVENT = "rematch"  # published after a change: the other processes read the stored rematch again
ATTEMPTS = 5  # answers retried after losing a race to another before giving up

log = logging.getLogger("taktik.matches")


_PEOPLE: dict[str, Literal["human", "hotseat", "outside_bot"]] = {
    "human": "human", "hotseat": "hotseat", "outside_bot": "outside_bot"}
"""The mode a rematch between people keeps, by the stored mode (a bot match's rematch is a bot match)."""


class Rematches:
    """The rematches of the matches of one `MatchService`."""

    def __init__(self, service: MatchService, creator: Creator) -> None:
        self._service = service
        self._creator = creator
        self._reads: set[asyncio.Task[None]] = set()
        service.event_handlers[EVENT] = self._heard

    async def answer(self, match: Match, seat: Side | None, choice: Choice) -> None:
        """Apply ``seat``'s ``choice`` to ``match``'s rematch and tell everyone what changed.

        Raises `RematchError` when the choice is not possible now, `CreationError` when the new
        match cannot be built and `StoreUnavailable` when the database cannot be reached: each
        changes nothing.
        """
        async with match.lock:  # one answer at a time here; the store settles races with other processes
            for _ in range(ATTEMPTS):
                decided = answered(match.rematch, seat, choice, over=match.status == "over",
                                   answers_itself=match.bot_side is not None or match.row.mode == "hotseat")
                if decided is None:
                    return
                after, accepted = decided
                try:
                    if accepted:
                        after = await self._create(match, after)
                    else:
                        await self._service.db.set_rematch(_change(match, after))
                except StoreConflict:  # another answer came first: decide again from where it stands now
                    await self._read(match)
                    continue
                self._changed(match, after)
                self._service.publish_event(match.id, EVENT, {})
                return
        raise RematchError("bad_message", "the rematch keeps changing under this answer; send it again")

    async def _create(self, match: Match, accepted: Rematch) -> Rematch:
        """Create the new match together with the stored acceptance; the rematch as it stands then."""
        bot_side = match.bot_side
        after = replace(accepted, match_id=new_match_id())
        await self._creator.create(NewMatch(
            config=replace(match.config, seed=None),
            mode="bot" if bot_side is not None else _PEOPLE.get(match.row.mode, "human"),
            bot_side=bot_side.other if bot_side is not None else None,
            bot_policy=match.row.bot_policy,
            clock=match.clock.spec if match.clock is not None else None,
            token_hashes={side.other: digest for side, digest in match.token_hashes.items()},
            match_id=after.match_id,
            rematch=_change(match, after),
        ))
        return after

    async def _read(self, match: Match) -> None:
        """Take the stored rematch of ``match`` as this process's copy (telling the sockets when it changed)."""
        row = await self._service.db.match_row(match.id)
        if row is not None:
            self._changed(match, Rematch.from_stored(row.rematch))

    def _changed(self, match: Match, rematch: Rematch) -> None:
        if rematch == match.rematch:
            return
        match.rematch = rematch
        match.refresh()  # every state from now on carries it
        for viewer in list(match.viewers):
            viewer.outbox.put_reply(encode(RematchUpdate(rematch=rematch.view(viewer.seat))))

    def _heard(self, match_id: str, _data: dict[str, Any]) -> None:
        """Another process changed the rematch of ``match_id``: read it, if this process holds the match."""
        match = self._service.loaded(match_id)
        if match is not None and not self._service.closing:
            task = asyncio.ensure_future(self._read_heard(match))
            self._reads.add(task)
            task.add_done_callback(self._reads.discard)

    async def _read_heard(self, match: Match) -> None:
        try:
            async with match.lock:  # after any answer under way here, so its news is never overtaken by older
                await self._read(match)
        except StoreUnavailable as err:  # the next answer here reads it again
            log.warning("cannot read the rematch of match %s: %s", match.id, err)


def _change(match: Match, after: Rematch) -> RematchChange:
    """The stored change of ``match``'s rematch from where this process last saw it to ``after``."""
    return RematchChange(match.id, match.rematch.stored(), msgspec.json.encode(after).decode())
