"""A seat of a live match, kept open across dropped sockets and server restarts.

`Seat` holds the latest `state` the server sent this seat and plays actions with the
protocol's guarantees (docs/protocol.md):

* every ``act`` carries the ``version`` it was decided on and a ``seq`` above the seat's
  ``last_seq``; actions are paced under the server's rate limit (`Pacer`);
* when the socket drops, the seat reconnects with backoff for up to ``reconnect_for``
  seconds (a restarting server closes with 1012 and comes back by replaying its logs) and
  says ``hello`` again with the same token: the fresh ``state`` is the resume point;
* an ``act`` whose answer was lost with the socket is resolved from that state: its
  ``seq`` at or under ``last_seq`` means it was applied; else, if the match is still at
  its ``version``, it is sent again with the same ``seq`` (the server applies it at most
  once); else the match moved on and it is answered as ``stale_version``;
* another client acting with the same token (``last_seq`` passing this client's) ends the
  seat with `SeatUnavailable`: two players on one seat would fight over every decision.

All of it runs on one event loop; `changed` and `act` are the only places that wait.
"""

from __future__ import annotations

import asyncio
import logging
import time

import msgspec

from engine import Action

from .connection import Connection, Lost, Unreachable, open_connection
from .errors import ClientError, SeatUnavailable, ServerGone
from .links import SeatLink
from .messages import Ack, Act, ClockUpdate, PresenceUpdate, Reject, ServerMessage, StateUpdate, Welcome, encode_client
from .pacing import Pacer

__all__ = ["Reply", "Seat"]

log = logging.getLogger("taktik.client")

Reply = Ack | Reject
"""The server's answer to one ``act``."""

_RETRIED = {"internal_error": 5, "unavailable": 8}  # codes after which the same act is resent, and how often
_RATE_LIMITED_AT_MOST = 20  # refusals as too fast in a row before giving up (the server closes at 200)
_FIRST_DELAY, _MAX_DELAY = 0.25, 5.0  # reconnect backoff, seconds


class Seat:
    """One seat of one match, as the server shows it to this client."""

    def __init__(
        self, link: SeatLink, *, reconnect_for: float = 300.0, connect_for: float = 10.0,
        pacer: Pacer | None = None, timeout: float = 10.0,
    ) -> None:
        self.link = link
        self.reconnect_for = reconnect_for  # seconds to keep trying after a lost socket
        self.connect_for = connect_for  # seconds to keep trying to reach the server the first time
        self.timeout = timeout  # seconds for one connect and hello
        self.pacer = pacer if pacer is not None else Pacer()
        self.welcome: Welcome | None = None
        self._state: StateUpdate | None = None
        self.received_at = 0.0  # time.monotonic() when the state or clock last arrived
        self.generation = 0  # bumped by every state, clock or presence update and every reconnect
        self.reconnects = 0
        self._conn: Connection | None = None
        self._lost: Lost | None = None
        self._fatal: ClientError | None = None
        self._news = asyncio.Event()
        self._seq = 0  # the highest seq this client used
        self._floor = 0  # last_seq when this client first joined (earlier runs may have played the seat)
        self._pending: int | None = None  # seq of the act waiting for its answer
        self._answer: Reply | None = None

    @property
    def state(self) -> StateUpdate:
        """The latest state of the match for this seat."""
        if self._state is None:
            raise RuntimeError("the seat is not open yet")
        return self._state

    async def open(self) -> None:
        """Connect and say hello; keeps trying for ``connect_for`` seconds while the server cannot be reached."""
        await self._connect_within(self.connect_for, f"cannot reach the server at {self.link.base}")
        self._floor = self.state.last_seq

    async def close(self) -> None:
        """Leave the match (the seat stays the token's)."""
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def changed(self, since: int) -> int:
        """Wait until something newer than generation ``since`` arrived (reconnecting if the socket is lost)."""
        while True:
            await self._settle()
            if self.generation != since:
                return self.generation
            self._news.clear()
            await self._news.wait()

    async def act(self, action: Action) -> Reply:
        """Play ``action`` on the current state; returns the server's ack or reject (after any resend)."""
        await self._settle()
        message = Act(version=self.state.version, seq=max(self._seq, self.state.last_seq) + 1, action=action)
        self._seq = message.seq
        retries: dict[str, int] = {}
        while True:
            await self.pacer.wait()
            reply = await self._send_and_wait(message)
            if isinstance(reply, Ack):
                return reply
            if reply.code == "rate_limited":
                retries["rate_limited"] = retries.get("rate_limited", 0) + 1
                if retries["rate_limited"] > _RATE_LIMITED_AT_MOST:
                    raise SeatUnavailable(f"the server keeps refusing this seat's actions as too fast: {reply.reason}")
                pause = self.pacer.slow_down()
                log.warning("match %s: the server refused an action as too fast; resending it in %.1f s",
                            self.link.match_id, pause)
                await asyncio.sleep(pause)
            elif reply.code in _RETRIED:
                retries[reply.code] = tries = retries.get(reply.code, 0) + 1
                if tries > _RETRIED[reply.code]:
                    raise ServerGone(f"the server keeps failing on this seat's action ({reply.code}: {reply.reason})")
                await asyncio.sleep(min(_MAX_DELAY, _FIRST_DELAY * 2**tries))
            else:
                return reply

    async def _send_and_wait(self, message: Act) -> Reply:
        self._pending, self._answer = message.seq, None
        try:
            await self._send(message)
            while self._answer is None:
                if self._lost is not None or self._fatal is not None:
                    await self._settle()
                    resolved = self._resolved(message)
                    if resolved is not None:
                        return resolved
                    await self._send(message)  # the same seq: the server applies it at most once
                    continue
                self._news.clear()
                await self._news.wait()
            return self._answer
        finally:
            self._pending = None

    async def _send(self, message: Act) -> None:
        """Send ``message``; if the socket is gone its reader reports the loss, which the caller handles."""
        if self._conn is not None:
            await self._conn.send(encode_client(message))

    def _resolved(self, message: Act) -> Reply | None:
        """What became of ``message`` whose answer was lost with the socket; None: it must be sent again."""
        state = self.state
        if state.last_seq >= message.seq:  # applied before the socket dropped; its ack was lost
            return Ack(seq=message.seq, version=state.version)
        if state.version != message.version:
            return Reject(code="stale_version", reason="the match moved on while the socket was down", seq=message.seq)
        return None

    async def _settle(self) -> None:
        """Raise a final error, or reconnect if the socket is lost."""
        if self._fatal is not None:
            raise self._fatal
        if self._lost is None:
            return
        lost = self._lost
        if lost.final is not None:
            raise lost.final
        log.warning("match %s: %s; reconnecting", self.link.match_id, lost)
        await self._connect_within(self.reconnect_for, f"lost match {self.link.match_id} ({lost})")
        self.reconnects += 1
        log.warning("match %s: reconnected at version %d", self.link.match_id, self.state.version)

    async def _connect_within(self, seconds: float, problem: str) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
        deadline = time.monotonic() + seconds
        delay = _FIRST_DELAY
        while True:
            try:
                conn, welcome, first = await open_connection(self.link, self.timeout)
                break
            except Unreachable as err:
                if time.monotonic() + delay > deadline:
                    raise ServerGone(f"{problem} and could not reconnect within {seconds:g} s ({err})"
                                     if self.welcome is not None else f"{problem} ({err})") from None
                await asyncio.sleep(delay)
                delay = min(_MAX_DELAY, delay * 2)
        if self.welcome is not None and welcome.seat is not self.welcome.seat:
            await conn.close()
            raise SeatUnavailable(f"the link now opens seat {welcome.seat}, not {self.welcome.seat}")
        self.welcome, self._lost = welcome, None
        self._conn = conn
        self._take_state(first)
        conn.start(self._on_message, self._on_lost)

    def _on_message(self, message: ServerMessage) -> None:
        match message:
            case StateUpdate():
                self._take_state(message)
            case Ack() | Reject() if self._pending is not None and message.seq in (self._pending, None):
                self._answer = message
            case ClockUpdate() if self._state is not None:
                self._state = _with(self._state, clock=message.clock)
                self.received_at = time.monotonic()
            case PresenceUpdate() if self._state is not None:
                self._state = _with(self._state, presence=message.presence)
            case _:
                return
        self.generation += 1
        self._news.set()

    def _take_state(self, state: StateUpdate) -> None:
        if self._state is not None and state.version < self._state.version:
            return  # an older snapshot than the one held
        if state.last_seq > max(self._seq, self._floor) and self._fatal is None and self._state is not None:
            self._fatal = SeatUnavailable(f"another client is playing this seat of match {self.link.match_id} "
                                          "(actions this client never sent were accepted)")
        self._state = state
        self.received_at = time.monotonic()
        self.generation += 1
        self._news.set()

    def _on_lost(self, lost: Lost) -> None:
        self._lost = lost
        self.generation += 1
        self._news.set()


def _with(state: StateUpdate, **changes: object) -> StateUpdate:
    return msgspec.structs.replace(state, **changes)
