"""uvicorn's HTTP/1.1 protocol with a deadline for each request head and each request body.

uvicorn times out an idle keep-alive connection (``timeout_keep_alive``), but nothing else:
a connection that sends half a request head (a WebSocket upgrade included), or a head and
then a body that never ends, is held open for ever, and a few thousand of them use up the
process's file descriptors (300 stalled ``POST /api/replays`` were all still open after
75 s). A trickle of bytes defeats the keep-alive timeout too, since each byte resets it.

`deadline_protocol` gives uvicorn (its ``http`` option) a subclass of its h11 protocol
that closes such a connection:

- **head**: once it has had ``head_timeout`` seconds to send its head, counted from the
  connection for the first request and from the first byte for each further request on a
  kept-alive connection; with a plain 408 if it sent part of a head (a silent preconnect
  is just closed);
- **body**: once it has had ``body_timeout`` seconds from the end of its head to send the
  whole body, however it trickles in; with a 408 (``{"code": "timeout", ...}``) unless an
  answer has already started, and one line in the log, no traceback. The request being
  served sees its client gone (`server.errors.BodyNotReceived`).

Once the head (and any body) is in, the request is uvicorn's as before; an upgraded socket
is the WebSocket endpoint's (its ``hello_timeout`` comes next).
"""

from __future__ import annotations

import asyncio
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["DeadlineProtocol", "deadline_protocol"]

log = logging.getLogger("taktik.http")

LINGER_SECONDS = 2.0
"""How long a connection closed for a missed deadline still has its incoming bytes read and dropped."""

_HEAD_TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


def _body_timed_out_answer(seconds: float) -> bytes:
    body = (b'{"code":"timeout","reason":"the request body did not arrive within %s s"}'
            % f"{seconds:g}".encode())
    return (b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body))


class DeadlineProtocol(H11Protocol):
    """`H11Protocol` closing a connection whose request head or body is not complete in time."""

    head_timeout = 10.0
    body_timeout = 15.0
    _head_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None
    _linger_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head()

    def data_received(self, data: bytes) -> None:
        if self._linger_timer is not None:
            return  # closing: what the client still sends is dropped
        super().data_received(data)
        if self.transport.get_protocol() is not self:  # upgraded: the WebSocket's own deadlines apply
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            self._disarm_body()
            if self._head_timer is None:
                self._arm_head()  # the first bytes of another request on a kept-alive connection
        elif state is h11.SEND_BODY:
            self._disarm_head()
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.body_timeout, self._body_timed_out)
        else:  # the request is in (or the connection is done)
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._linger_timer is not None:
            self._linger_timer.cancel()
            self._linger_timer = None
        super().connection_lost(exc)

    def _arm_head(self) -> None:
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _disarm_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _disarm_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _disarm(self) -> None:
        self._disarm_head()
        self._disarm_body()

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        if self.conn.their_state is h11.IDLE:
            self.logger.debug("closed a connection that did not finish its request head in %g s", self.head_timeout)
            if self.conn.trailing_data[0]:  # half a head: say why (a silent preconnect is just closed)
                self.transport.write(_HEAD_TIMED_OUT)
            self._close_lingering()

    def _body_timed_out(self) -> None:
        self._body_timer = None
        if (self.transport.is_closing() or self.transport.get_protocol() is not self
                or self.conn.their_state is not h11.SEND_BODY):
            return
        cycle = self.cycle
        answering = cycle is not None and cycle.response_started
        host = self.client[0] if self.client else "unknown"
        log.info("%s %s from %s: the request body did not arrive within %g s; closed%s", self.scope.get("method"),
                 self.scope.get("path"), host, self.body_timeout, "" if answering else " with 408")
        if not answering:
            self.transport.write(_body_timed_out_answer(self.body_timeout))
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the request being served reads a disconnect; its answer goes nowhere
            cycle.message_event.set()
        self._close_lingering()

    def _close_lingering(self) -> None:
        """Close after the answer, the way HTTP servers do a "lingering close": a socket closed with bytes
        from the client still unread (a body still trickling in) makes the kernel reset the connection,
        and a reset can reach the client before it has read the 408. So: end our side (the client reads
        the answer, then end of stream), drop whatever it still sends, and close for good when it closes
        or after `LINGER_SECONDS`."""
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._linger_timer = self.loop.call_later(LINGER_SECONDS, self.transport.close)


def deadline_protocol(head_seconds: float, body_seconds: float) -> type[DeadlineProtocol]:
    """The protocol class to give uvicorn's ``http`` option: heads within ``head_seconds``, bodies within
    ``body_seconds`` of their head."""
    return type("DeadlineProtocol", (DeadlineProtocol,), {"head_timeout": head_seconds, "body_timeout": body_seconds})
