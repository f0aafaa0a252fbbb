"""uvicorn's HTTP/1.1 protocol with a deadline for each request head.

uvicorn times out an idle keep-alive connection (``timeout_keep_alive``), but nothing else
before a request is parsed: a connection that sends half a request head (a WebSocket
upgrade included) and then nothing is held open for ever, and a few thousand of them use
up the process's file descriptors. `head_deadline_protocol` gives uvicorn (its ``http``
option) a subclass of its h11 protocol that closes such a connection (with a plain 408 if
it sent part of a head) once it has had ``seconds`` to send its head: counted from the connection for the first
request, from the first byte for each further request on a kept-alive connection.
Once the head is in, the request is uvicorn's as before; an upgraded socket is the
WebSocket endpoint's (its ``hello_timeout`` comes next).
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HeadDeadlineProtocol", "head_deadline_protocol"]

_TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


class HeadDeadlineProtocol(H11Protocol):
    """`H11Protocol` closing a connection whose request head is not complete in ``head_timeout`` seconds."""

    head_timeout = 10.0
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.conn.their_state is not h11.IDLE:
            self._disarm()  # upgraded, or the head is in: the request is under way
        elif self._head_timer is None:
            self._arm()  # the first bytes of another request on a kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        if self.conn.their_state is h11.IDLE:
            self.logger.debug("closed a connection that did not finish its request head in %g s", self.head_timeout)
            if self.conn.trailing_data[0]:  # half a head: say why (a silent preconnect is just closed)
                self.transport.write(_TIMED_OUT)
            self.transport.close()


def head_deadline_protocol(seconds: float) -> type[HeadDeadlineProtocol]:
    """The protocol class to give uvicorn's ``http`` option for a head deadline of ``seconds``."""
    return type("HeadDeadlineProtocol", (HeadDeadlineProtocol,), {"head_timeout": seconds})
