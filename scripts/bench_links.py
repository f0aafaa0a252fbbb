"""The benchmark clients' WebSocket connections: the ``websockets`` library, or a lean client of its own.

Both are real WebSocket clients over TCP, speaking RFC 6455 to the real server; they differ
only in what they cost the machine the benchmark shares with the server. A `Link` hands
every message it receives, as bytes, to ``on_frame`` as soon as it is read (no task, queue
or future per message) and sends bytes as a text frame.

- `library_link`: the ``websockets`` library's asyncio client (a reader task calls
  ``on_frame`` for each message, read as bytes so nothing decodes it twice);
- `lean_link`: an `asyncio.Protocol` that does the handshake and parses frames itself, only
  what a client needs: text and binary messages (fragmented or not), pings (answered),
  close. It costs a fraction of the library's CPU per message, and the benchmark's clients
  share the machine with the server they measure.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Protocol
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosedOK

__all__ = ["Link", "lean_link", "library_link"]

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 section 1.3
_TEXT, _BINARY, _CONTINUATION, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


class Link(Protocol):
    """One client connection, as the benchmark's players use it."""

    on_frame: Callable[[bytes], None]
    closed: asyncio.Future[None]  # done once the connection is over (it holds nothing)
    close_code: int | None
    close_reason: str

    async def send(self, data: bytes) -> None: ...


def _ignore(frame: bytes) -> None:
    pass


class _LibraryLink:
    def __init__(self, ws: object) -> None:
        self.ws = ws
        self.on_frame: Callable[[bytes], None] = _ignore
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.close_code: int | None = None
        self.close_reason = ""

    async def send(self, data: bytes) -> None:
        await self.ws.send(data.decode())  # type: ignore[attr-defined]

    async def read(self) -> None:
        ws = self.ws
        try:
            while True:
                try:
                    frame = await ws.recv(decode=False)  # type: ignore[attr-defined]
                except ConnectionClosedOK:
                    return
                self.on_frame(frame)
        finally:
            self.close_code, self.close_reason = ws.close_code, ws.close_reason or ""  # type: ignore[attr-defined]
            if not self.closed.done():
                self.closed.set_result(None)


@asynccontextmanager
async def library_link(url: str) -> AsyncIterator[Link]:
    """A connection through the ``websockets`` library."""
    async with connect(url, max_size=2**24, open_timeout=120, compression=None) as ws:
        link = _LibraryLink(ws)
        reader = asyncio.create_task(link.read())
        try:
            yield link
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


class _LeanLink(asyncio.Protocol):
    """RFC 6455, client side, as little of it as a client reading every message needs."""

    def __init__(self, host: str, path: str) -> None:
        self.key = base64.b64encode(os.urandom(16))
        self.request = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Key: {self.key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.on_frame: Callable[[bytes], None] = _ignore
        self.close_code: int | None = None
        self.close_reason = ""
        self.transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._fragments: list[bytes] = []
        self._mask = random.Random()  # masks protect middleboxes from a browser's page, not secrets

    # -- asyncio.Protocol ----------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self.opened.done():
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self._buffer[:end]).decode("latin-1")
            del self._buffer[:end + 4]
            problem = self._refused(head)
            if problem is not None:
                self.opened.set_exception(ConnectionError(problem))
                self._abort()
                return
            self.opened.set_result(None)
        self._frames()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("the server closed the connection during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    # -- the protocol --------------------------------------------------------------

    def _refused(self, head: str) -> str | None:
        status, *lines = head.split("\r\n")
        if status.split(" ", 2)[1:2] != ["101"]:
            return f"handshake refused: {status}"
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
        expected = base64.b64encode(hashlib.sha1(self.key + _GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != expected:
            return "handshake refused: wrong Sec-WebSocket-Accept"
        return None

    def _frames(self) -> None:
        buffer = self._buffer
        while len(buffer) >= 2:
            first, second = buffer[0], buffer[1]
            length, start = second & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if second & 0x80:  # a server never masks (RFC 6455 section 5.1)
                self._fail(1002, "masked frame from the server")
                return
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start:start + length])
            del buffer[:start + length]
            self._frame(first & 0x80 != 0, first & 0x0F, payload)
            if self.closed.done():
                return

    def _frame(self, final: bool, opcode: int, payload: bytes) -> None:
        if opcode in (_TEXT, _BINARY, _CONTINUATION):
            if final and not self._fragments:
                self.on_frame(payload)
            elif final:
                self.on_frame(b"".join([*self._fragments, payload]))
                self._fragments.clear()
            else:
                self._fragments.append(payload)
        elif opcode == _PING:
            self._write(_PONG, payload)
        elif opcode == _CLOSE:
            self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            self.close_reason = payload[2:].decode("utf-8", "replace")
            self._write(_CLOSE, payload[:2])
            self._abort()

    def _write(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        length = len(payload)
        if length < 126:
            head = bytes((0x80 | opcode, 0x80 | length))
        elif length < 1 << 16:
            head = bytes((0x80 | opcode, 0x80 | 126)) + length.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + length.to_bytes(8, "big")
        mask = self._mask.getrandbits(32).to_bytes(4, "big")
        repeated = (mask * (length // 4 + 1))[:length]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big")
        self.transport.write(head + mask + masked)

    def _fail(self, code: int, reason: str) -> None:
        self.close_code, self.close_reason = code, reason
        self._write(_CLOSE, code.to_bytes(2, "big") + reason.encode())
        self._abort()

    def _abort(self) -> None:
        if self.transport is not None:
            self.transport.close()
        if not self.closed.done():
            self.closed.set_result(None)

    # -- what the players call -----------------------------------------------------

    async def send(self, data: bytes) -> None:
        if self.closed.done():
            raise ConnectionError(f"the connection is closed ({self.close_code} {self.close_reason})")
        self._write(_TEXT, data)


@asynccontextmanager
async def lean_link(url: str, open_timeout: float = 120, local_addr: tuple[str, int] | None = None
                    ) -> AsyncIterator[Link]:
    """A connection through the lean client (``ws://`` only: the benchmark runs on loopback), from ``local_addr``
    when given (a loopback address of 127.0.0.0/8 is another client address to the server)."""
    parts = urlsplit(url)
    if parts.scheme != "ws" or parts.hostname is None:
        raise ValueError(f"the lean client speaks ws:// to a host, not {url!r}")
    port = parts.port or 80
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(open_timeout):
        _, link = await loop.create_connection(lambda: _LeanLink(f"{parts.hostname}:{port}", parts.path or "/"),
                                               parts.hostname, port, local_addr=local_addr)
        await link.opened
    try:
        yield link
    finally:
        if not link.closed.done():
            link._fail(1000, "")
