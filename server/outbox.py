"""The bounded outbound queue of one socket, which coalesces to a fresh snapshot.

A slow or stuck reader must never block a match nor grow memory: the match only ever
*puts* into an outbox (never waits), and when a socket falls ``capacity`` messages behind,
everything queued for it is dropped and replaced by one fresh state update, built when
the socket is ready to take it. The update carries the seat's ``last_seq``, so a client
that lost an ``ack`` this way still learns which of its actions were accepted.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

__all__ = ["Outbox"]


class Outbox:
    """Messages waiting for one socket; `run` sends them until the socket fails or closes."""

    def __init__(self, capacity: int, snapshot: Callable[[], str]) -> None:
        self._capacity = capacity
        self._snapshot = snapshot
        self._queue: deque[str] = deque()
        self._stale = False  # a fresh snapshot must be sent before anything still queued
        self._ready = asyncio.Event()
        self._closed = False
        self.coalesced = 0  # how many times this socket fell behind (for logs and tests)

    def put_state(self, text: str) -> None:
        """Queue a state update (skipped while a fresher snapshot is already due)."""
        if self._stale or self._closed:
            return
        self._push(text, is_state=True)

    def put_reply(self, text: str) -> None:
        """Queue an answer to this socket's own message."""
        if self._closed:
            return
        self._push(text, is_state=False)

    def close(self) -> None:
        """Stop `run` once the current send (if any) finishes."""
        self._closed = True
        self._ready.set()

    async def run(self, send: Callable[[str], Awaitable[None]]) -> None:
        """Send queued messages in order, forever; returns when closed, raises if ``send`` fails."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            while not self._closed and (self._stale or self._queue):
                if self._stale:
                    self._stale = False
                    text = self._snapshot()
                else:
                    text = self._queue.popleft()
                await send(text)
            if self._closed:
                return

    def _push(self, text: str, *, is_state: bool) -> None:
        if len(self._queue) >= self._capacity:
            self._queue.clear()
            self._stale = True  # the snapshot, built at send time, supersedes every queued update
            self.coalesced += 1
            if is_state:
                self._ready.set()
                return
        self._queue.append(text)
        self._ready.set()
