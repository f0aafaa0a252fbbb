"""One socket of one seat: open it, say ``hello``, read in the background, send.

    connect --HTTP 101--> hello --welcome, state--> OPEN --close or drop--> LOST
       \\--refused, timeout: Unreachable     \\--reject + close 44xx: a `ClientError`

A `Connection` is opened by `open_connection`, which returns once the server's ``welcome``
and first ``state`` arrived. From then on a reader task decodes every frame and hands the
message to the owner (`client.seat.Seat`) and, when the socket ends, says how
(`Lost`). Reconnecting is the owner's business: a connection is never reused.

What a close means (docs/protocol.md, "Close codes"): 4401, 4404 and 4410 say the link
cannot work, 4429 that the server will not seat this client now; 1007, 1008 and 1009 that
this client broke the protocol; everything else (1012 restart, 1011, a dropped
connection, a hello deadline) is worth another try.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from engine import RULES_VERSION

from .errors import ClientError, LinkError, ProtocolError, SeatUnavailable
from .links import SeatLink
from .messages import Hello, Reject, ServerMessage, StateUpdate, Welcome, decode_server, encode_client

__all__ = ["MAX_FRAME_BYTES", "Connection", "Lost", "Unreachable", "open_connection"]

MAX_FRAME_BYTES = 16 * 2**20
"""The largest frame read: a `state` of the biggest board the server allows is well under this."""


class Unreachable(Exception):
    """The socket could not be opened or was refused for now; trying again later may work."""


@dataclass(frozen=True)
class Lost:
    """How a socket ended: a close code and reason, and the error it means if it is final."""

    code: int | None
    reason: str
    final: ClientError | None = None  # None: reconnecting may work

    def __str__(self) -> str:
        said = f": {self.reason}" if self.reason else ""
        return f"closed with {self.code}{said}" if self.code not in (None, 1006) else "the connection dropped"


def closing_error(link: SeatLink, code: int | None, reason: str, rejected: Reject | None) -> ClientError | None:
    """The error a close means, or None when another try may work."""
    why = rejected.reason if rejected is not None else reason
    match code:
        case 4401:
            return LinkError(f"the link's token opens no seat of match {link.match_id} (check the link)")
        case 4404:
            return LinkError(f"there is no match {link.match_id} on {link.base}")
        case 4410:
            return SeatUnavailable(f"match {link.match_id} cannot be played: {why}")
        case 4429:
            return SeatUnavailable(f"the server will not seat this client now: {why}")
        case 1007 | 1008 | 1009:
            return ProtocolError(f"the server closed the socket ({code}: {why or 'protocol error'})")
    return None


class Connection:
    """An open, greeted socket whose frames a reader task hands to ``on_message``, and its end to ``on_lost``."""

    def __init__(self, ws: ClientConnection, link: SeatLink) -> None:
        self._ws = ws
        self._link = link
        self._reader: asyncio.Task[None] | None = None

    def start(self, on_message: Callable[[ServerMessage], None], on_lost: Callable[[Lost], None]) -> None:
        """Read in the background from now on."""
        self._reader = asyncio.create_task(self._read(on_message, on_lost))

    async def send(self, text: str) -> bool:
        """Send one frame; False when the socket is already gone (the reader reports how)."""
        try:
            await self._ws.send(text)
        except ConnectionClosed:
            return False
        return True

    async def close(self) -> None:
        """Close the socket and stop reading (nothing is reported)."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._ws.close(), 5)

    async def _read(self, on_message: Callable[[ServerMessage], None], on_lost: Callable[[Lost], None]) -> None:
        rejected: Reject | None = None
        final: ClientError | None = None
        try:
            async for frame in self._ws:
                try:
                    message = decode_server(frame)
                except msgspec.DecodeError as err:
                    final = _undecodable(err)
                    break
                if isinstance(message, Reject) and message.seq is None:
                    rejected = message
                if message is not None:
                    on_message(message)
        except ConnectionClosed:
            pass
        code, reason = self._ws.close_code, self._ws.close_reason or ""
        if final is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.close(), 5)
        on_lost(Lost(code, reason, final or closing_error(self._link, code, reason, rejected)))


async def open_connection(link: SeatLink, timeout: float) -> tuple[Connection, Welcome, StateUpdate]:
    """Connect, say hello with the link's token and wait for ``welcome`` and the first ``state``.

    Raises `Unreachable` when trying again later may work, a `ClientError` when it cannot.
    """
    try:
        ws = await connect(link.socket_url, open_timeout=timeout, max_size=MAX_FRAME_BYTES, compression=None,
                           user_agent_header="taktik-client")
    except InvalidStatus as err:
        status = err.response.status_code
        if status in (404, 403, 400):
            raise LinkError(f"{link.base} is not a Taktik server that lets this client in (HTTP {status})") from None
        raise Unreachable(f"the server answered HTTP {status}") from None
    except InvalidURI as err:
        raise LinkError(f"not a seat link: {err}") from None
    except (OSError, TimeoutError, InvalidHandshake) as err:
        raise Unreachable(_network_problem(err)) from None
    connection = Connection(ws, link)
    try:
        async with asyncio.timeout(timeout):
            with contextlib.suppress(ConnectionClosed):  # the server may close before it reads hello (no such
                await ws.send(encode_client(Hello(token=link.token)))  # match): `_greeting` reads why
            welcome, first = await _greeting(ws, link)
    except TimeoutError:
        await connection.close()
        raise Unreachable("the server did not answer hello in time") from None
    except BaseException:
        await connection.close()
        raise
    return connection, welcome, first


async def _greeting(ws: ClientConnection, link: SeatLink) -> tuple[Welcome, StateUpdate]:
    welcome: Welcome | None = None
    rejected: Reject | None = None
    try:
        async for frame in ws:
            try:
                message = decode_server(frame)
            except msgspec.DecodeError as err:
                raise _undecodable(err) from None
            if isinstance(message, Welcome):
                welcome = message
            elif isinstance(message, Reject):
                rejected = message
            elif isinstance(message, StateUpdate) and welcome is not None:
                return welcome, message
    except ConnectionClosed:
        pass
    code, reason = ws.close_code, ws.close_reason or ""
    final = closing_error(link, code, reason, rejected)
    if final is not None:
        raise final
    raise Unreachable(str(Lost(code, rejected.reason if rejected else reason)))


def _undecodable(err: msgspec.DecodeError) -> ProtocolError:
    return ProtocolError(f"cannot read the server's message ({err}); this client plays rules {RULES_VERSION}: "
                         "is the server another taktik release?")


def _network_problem(err: BaseException) -> str:
    if isinstance(err, TimeoutError):
        return "no answer in time"
    if isinstance(err, OSError) and err.strerror:
        return err.strerror.lower()
    return str(err) or type(err).__name__
