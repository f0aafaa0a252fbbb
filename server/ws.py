"""``WS /ws/matches/{match_id}``: one socket as an explicit state machine.

    HANDSHAKE --origin ok, address under its cap--> AWAITING_HELLO --hello ok--> BOUND --> CLOSED
        \\--bad origin: HTTP 403             \\--bad token / timeout / no room: close 44xx

The endpoint only authenticates, reads, decodes and hands actions to the match service;
everything it sends goes through the socket's bounded `Outbox`. Every failure is a
`Reject` to this socket only or a close with a named code (`Close`); no exception
escapes, and nothing here can stall another socket or match. Seat tokens are never
logged. Every close reason is cut to the protocol's 123 bytes (`close_reason`).

Connections are limited per client address (``sockets_per_address``, counted from the
handshake to the end), and an address that keeps sending wrong seat tokens has its token
hellos refused for a growing delay (`AddressBackoff`), before its token is even compared.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import math
import re
from urllib.parse import urlsplit

import msgspec
from msgspec import UNSET, UnsetType
from starlette import status
from starlette.datastructures import Headers
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine import Side

from .costs import OverBudget, retry_words
from .creation import CreationError
from .match import Match
from .matches import MatchUnavailable
from .outbox import Outbox
from .protocol import (
    Act,
    ErrorCode,
    Explain,
    Hello,
    Hint,
    PreviewAttack,
    PreviewMove,
    Reject,
    RematchChoice,
    Sync,
    Threats,
    decode_client,
    encode,
)
from .questions import Question
from .ratelimit import TokenBucket
from .rematch import RematchError
from .services import Services, address_of, services_of
from .store import StoreUnavailable

__all__ = ["MAX_CLOSE_REASON_BYTES", "Close", "SocketState", "close_reason", "match_socket", "origin_allowed"]

log = logging.getLogger("taktik.ws")

MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_CLOSE_REASON_BYTES = 123  # RFC 6455 section 5.5: a control frame carries 125 bytes, two of them the code


class Close(enum.IntEnum):
    """Close codes this endpoint uses (4xxx: application codes, see docs/protocol.md)."""

    POLICY_VIOLATION = status.WS_1008_POLICY_VIOLATION  # also: Origin refused (before accept: HTTP 403)
    INTERNAL_ERROR = status.WS_1011_INTERNAL_ERROR
    UNAUTHENTICATED = 4401  # wrong seat token: do not reconnect with it
    NO_SUCH_MATCH = 4404
    HELLO_TIMEOUT = 4408  # no `hello` in time
    UNAVAILABLE = 4410  # the match is broken beyond showing
    RATE_LIMITED = 4429  # too many connections, wrong tokens in a row, or a socket that keeps flooding


class SocketState(enum.Enum):
    AWAITING_HELLO = "awaiting_hello"
    BOUND = "bound"
    CLOSED = "closed"


class _Closed(Exception):
    """The peer went away (or we closed): leave the loop."""


class _Flooding(_Closed):
    """Too many rate-limited messages in a row."""


def origin_allowed(headers: Headers, allowed: tuple[str, ...]) -> bool:
    """Browsers send ``Origin``; accept our own origin (same host) and the configured ones."""
    origin = headers.get("origin")
    if origin is None:
        return True  # not a browser: Origin protects browser users, anyone else can forge it
    if origin in allowed or "*" in allowed:
        return True
    parts = urlsplit(origin)
    host = headers.get("host", "")
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


def close_reason(text: str) -> str:
    """``text`` cut to fit a close frame: at most 123 bytes of UTF-8, never half a character.

    A longer reason makes the WebSocket library fail the close itself, and the peer sees the
    connection drop without a close frame.
    """
    raw = text.encode("utf-8", "replace")
    if len(raw) <= MAX_CLOSE_REASON_BYTES:
        return text
    ellipsis = "\N{HORIZONTAL ELLIPSIS}"
    room = MAX_CLOSE_REASON_BYTES - len(ellipsis.encode("utf-8"))
    return raw[:room].decode("utf-8", "ignore") + ellipsis  # "ignore" drops only the cut character


async def match_socket(websocket: WebSocket) -> None:
    """The endpoint: run one `Session`; nothing raises out of here."""
    services = services_of(websocket)
    if not origin_allowed(websocket.headers, services.settings.allowed_origins):
        await websocket.close(code=Close.POLICY_VIOLATION)  # before accept: the handshake gets HTTP 403
        return
    address = address_of(websocket)
    if not services.connections.open(address):
        await websocket.accept()
        held = services.connections.held(address)
        await Session(websocket, services, address).refuse(
            Close.RATE_LIMITED, "rate_limited", f"your address already has {held} connections to this server")
        return
    try:
        await websocket.accept()
        await _run(websocket, services, address)
    finally:
        services.connections.close(address)


async def _run(websocket: WebSocket, services: Services, address: str) -> None:
    session = Session(websocket, services, address)
    try:
        await session.run(websocket.path_params.get("match_id", ""))
    except _Flooding:
        await session.close(Close.RATE_LIMITED, "too many messages")
    except (_Closed, WebSocketDisconnect):
        pass
    except Exception:
        log.exception("socket handler failed")
        await session.close(Close.INTERNAL_ERROR, "internal error")
    finally:
        await session.finish()


class Session:
    """One socket's conversation with one match."""

    def __init__(self, websocket: WebSocket, services: Services, address: str) -> None:
        limits = services.settings.limits
        self._ws = websocket
        self.address = address
        self._services = services
        self._limits = limits
        self.state = SocketState.AWAITING_HELLO
        self.seat: Side | None = None
        self.match: Match | None = None
        self.outbox = Outbox(limits.outbox_size, self._snapshot)
        self._messages = TokenBucket(limits.message_burst, limits.message_rate)
        self._actions = TokenBucket(limits.action_burst, limits.action_rate)
        self._limited_in_a_row = 0
        self._sender: asyncio.Task[None] | None = None

    async def run(self, match_id: str) -> None:
        match = await self._find(match_id)
        if match is None:
            return
        self.match = match
        if not await self._await_hello(match):
            return
        self.state = SocketState.BOUND
        self._sender = asyncio.create_task(self._send_loop())
        while self.state is SocketState.BOUND:
            data = await self._receive()
            if self._over_limit(self._messages):
                continue
            try:
                await self._handle(match, data)
            except _Closed:
                raise
            except Exception:
                log.exception("failed to handle a message in match %s", match.id)
                self._reply("internal_error", "the server failed on this message; nothing changed")

    async def _find(self, match_id: str) -> Match | None:
        match: Match | None = None
        reason = f"no match {match_id!r}"
        code = Close.NO_SUCH_MATCH
        if MATCH_ID.fullmatch(match_id):
            try:
                match = await self._services.matches.get(match_id)
            except MatchUnavailable as err:
                reason, code = str(err), Close.UNAVAILABLE
            except StoreUnavailable:  # PostgreSQL is away (docs/deploy.md): 1011, reconnect later
                await self.refuse(Close.INTERNAL_ERROR, "unavailable", "the match database cannot be reached now")
                return None
        if match is None:
            await self.refuse(code, "forbidden", reason)
        return match

    async def _await_hello(self, match: Match) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._limits.hello_timeout
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    data = await self._receive()
            except TimeoutError:
                await self.close(Close.HELLO_TIMEOUT, "no hello in time")
                return False
            if self._over_limit(self._messages, direct=True):
                continue
            try:
                message = decode_client(data)
            except msgspec.DecodeError as err:
                await self._send_now(Reject(code="bad_message", reason=str(err)))
                continue
            if not isinstance(message, Hello):
                await self._send_now(Reject(code="unauthenticated", reason="send hello first",
                                            seq=message.seq if isinstance(message, Act) else None))
                continue
            if message.token is not None and not await self._authenticate(match, message.token):
                return False
            refused = self._services.matches.join(match, self, self.address)
            if refused is not None:
                await self.refuse(Close.RATE_LIMITED, refused.code, refused.reason)
                return False
            return True

    async def _authenticate(self, match: Match, token: str) -> bool:
        """Bind the seat ``token`` opens; unless this address is backing off after wrong tokens."""
        backoff = self._services.token_backoff
        wait = backoff.locked_for(self.address)
        if wait > 0:  # refused before the token is compared: a locked-out guess learns nothing
            await self.refuse(Close.RATE_LIMITED, "rate_limited",
                              f"too many wrong tokens from your address; retry in {math.ceil(wait * 10) / 10:g} s")
            return False
        self.seat = match.seat_of(token)
        if self.seat is None and await self._services.matches.seat_joined_elsewhere(match):
            self.seat = match.seat_of(token)
        if self.seat is None:
            lockout = backoff.failed(self.address)
            if lockout:
                log.warning("%s sent too many wrong seat tokens: its token hellos are refused for %g s",
                            self.address, lockout)
            await self._send_now(Reject(code="unauthenticated", reason="this token opens no seat here"))
            await self.close(Close.UNAUTHENTICATED, "wrong token")
            return False
        return True

    async def _handle(self, match: Match, data: str | bytes) -> None:
        try:
            message = decode_client(data)
        except msgspec.DecodeError as err:
            self._reply("bad_message", str(err))
            return
        match message:
            case Act():
                if self.seat is None:
                    self._reply("forbidden", "spectators cannot act", message.seq)
                elif not self._over_limit(self._actions, seq=message.seq):
                    outcome = await self._services.matches.submit(match, self.seat, message)
                    self.outbox.put_reply(encode(outcome))
            case Sync():
                self.outbox.put_state(match.state_text(self.seat))
            case Explain() | PreviewMove() | PreviewAttack() | Threats() | Hint():
                await self._ask(match, message)
            case RematchChoice():
                await self._rematch(match, message)
            case Hello():
                self._reply("bad_message", "this socket already said hello")

    async def _ask(self, match: Match, question: Question) -> None:
        """Answer a question about the position (server/questions.py); refused while this address is in debt."""
        try:
            answer = await self._services.questions.answer(match, self.seat, question, self.address)
        except OverBudget as err:
            self.outbox.put_reply(encode(Reject(code="rate_limited", reason=err.reason, id=question.id,
                                                retry_after=err.retry_after)))
            return
        except Exception:
            log.exception("failed to answer a %s in match %s", type(question).__name__, match.id)
            self.outbox.put_reply(encode(Reject(code="internal_error", reason="the server failed on this question; "
                                                "ask again", id=question.id)))
            return
        self.outbox.put_reply(answer)

    async def _rematch(self, match: Match, message: RematchChoice) -> None:
        """Offer, accept or decline a rematch (server/rematches.py); every socket hears what changed."""
        try:
            await self._services.rematches.answer(match, self.seat, message.choice)
        except RematchError as err:
            self._reply(err.code, err.reason)
        except CreationError as err:
            log.error("match %s: the rematch could not be created: %s", match.id, err)
            self._reply("internal_error", "the rematch could not be created; nothing changed")
        except StoreUnavailable:
            self._reply("unavailable", "the match database cannot be reached now; nothing changed, send it again")

    def _over_limit(self, bucket: TokenBucket, *, seq: int | None = None, direct: bool = False) -> bool:
        if bucket.take():
            self._limited_in_a_row = 0
            return False
        self._limited_in_a_row += 1
        if self._limited_in_a_row > self._limits.flood_close_after:
            raise _Flooding
        if not direct:
            wait = bucket.wait()
            self._reply("rate_limited", f"too many messages; slow down: {retry_words(wait)}", seq, retry_after=wait)
        return True

    def _reply(self, code: ErrorCode, reason: str, seq: int | None = None, *,
               retry_after: float | UnsetType = UNSET) -> None:
        self.outbox.put_reply(encode(Reject(code=code, reason=reason, seq=seq, retry_after=retry_after)))

    def _snapshot(self) -> str:
        assert self.match is not None
        return self.match.state_text(self.seat)

    async def _receive(self) -> str | bytes:
        message = await self._ws.receive()
        if message["type"] == "websocket.disconnect":
            self.state = SocketState.CLOSED
            raise _Closed
        text = message.get("text")
        if text is not None:
            return str(text)
        return bytes(message.get("bytes") or b"")

    async def _send_now(self, reject: Reject) -> None:
        with contextlib.suppress(Exception):
            await self._ws.send_text(encode(reject))

    async def _send_loop(self) -> None:
        with contextlib.suppress(Exception):  # the peer is gone; the receive side notices and cleans up
            await self.outbox.run(self._ws.send_text)

    async def refuse(self, code: Close, error: ErrorCode, reason: str) -> None:
        """Tell the peer why in a `Reject`, then close with ``code`` and the same reason."""
        await self._send_now(Reject(code=error, reason=reason))
        await self.close(code, reason)

    async def close(self, code: Close, reason: str = "") -> None:
        """Close the socket with ``code`` (ignored if it is already gone); the reason is cut to fit.

        The WebSocket library ends a close only once it has read the peer's answering close
        frame, which waits behind every message the peer sent and nobody read: a flooder's
        socket took up to 40 s to close. So what the peer still sends is read and dropped
        meanwhile (for at most ``ping_timeout``). Only the socket's own task calls this.
        """
        if self.state is SocketState.CLOSED:
            return
        self.state = SocketState.CLOSED
        closing = asyncio.ensure_future(self._ws.close(code=code, reason=close_reason(reason)))
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self._limits.ping_timeout):
                while not closing.done():
                    if (await self._ws.receive())["type"] == "websocket.disconnect":
                        break
        with contextlib.suppress(Exception):
            await closing

    async def finish(self) -> None:
        """Leave the match and stop sending (always runs)."""
        self.state = SocketState.CLOSED
        if self.match is not None:
            self._services.matches.leave(self.match, self)
        self.outbox.close()
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
