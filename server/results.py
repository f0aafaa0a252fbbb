"""Costly reads of stored matches (a record, a history, a position) worked out once per match version.

A match's record, its history and each of its positions are the same for every asker until
the match moves on, yet each is a replay of its log (an analyst's work, server/analysts.py).
`stored_answer` reads the match's version and status (from memory when the match is loaded,
else from its summary row), and loads and replays the log only when no kept answer has the
same match, version and status (and no one is working it out already): the replay viewers
of one finished match, or the spectators' dice panels of one live match, share one replay
per version. At most `MAX_BYTES` of answers are kept, the least recently used leaving first.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable

from .analysts import Analysts
from .database import Storage
from .match import Match, shown_status
from .store import MatchRow

__all__ = ["MAX_BYTES", "Results", "stored_answer"]

MAX_BYTES = 32 * 1024 * 1024


class Results:
    """Encoded answers by key, at most ``max_bytes`` of them."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self.working: dict[Hashable, asyncio.Future[bytes | None]] = {}  # answers being worked out

    def get(self, key: Hashable) -> bytes | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def keep(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.max_bytes // 4:
            return  # one answer may not push out most of the others
        old = self._kept.pop(key, None)
        self.size += len(data) - (len(old) if old is not None else 0)
        self._kept[key] = data
        while self.size > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self.size -= len(dropped)


async def stored_answer(db: Storage, results: Results, analysts: Analysts, loaded: Match | None, what: str,
                        match_id: str, work: Callable[..., bytes], *args: Hashable) -> bytes | None:
    """``work(row, rows, *args)`` for a stored match, run by ``analysts`` unless kept (None: no such match).

    A match ``loaded`` in memory says its version and status itself; any other is asked the store for its row.
    Whatever ``work`` raises (the log does not replay, the analysts refuse) is the caller's, and not kept.
    """
    if loaded is not None:
        key: Hashable = (what, match_id, loaded.version, loaded.status, args)
    else:
        row = await db.match_row(match_id)
        if row is None:
            return None
        key = _key(what, row, args)
    found = results.get(key)
    if found is not None:
        return found
    working = results.working.get(key)
    if working is None:  # the first asker works it out; those who ask meanwhile wait for its answer
        working = results.working[key] = asyncio.ensure_future(_work_out(db, results, analysts, what, match_id,
                                                                         work, args))
        working.add_done_callback(lambda _: results.working.pop(key, None))
    return await asyncio.shield(working)


async def _work_out(db: Storage, results: Results, analysts: Analysts, what: str, match_id: str,
                    work: Callable[..., bytes], args: tuple[Hashable, ...]) -> bytes | None:
    stored = await db.load(match_id)
    if stored is None:
        return None
    full, _, rows = stored
    found = await analysts.run(work, full, rows, *args)
    results.keep(_key(what, full, args, len(rows)), found)
    return found


def _key(what: str, row: MatchRow, args: tuple[Hashable, ...], version: int | None = None) -> Hashable:
    """Which answer: what, of which match, at which version (the log's length) and status, with what details."""
    return what, row.id, row.progress.version if version is None else version, shown_status(row), args
