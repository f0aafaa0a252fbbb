"""The bus between server processes (``taktik serve --bus redis://...``): Redis pub/sub.

A message is a `BusMessage`: either a committed action of a match (``kind="action"``, with
its log row), or a small generic match event (``kind="event"``, a name and a JSON object:
presence rides on it). What a process queued while its previous publish was on the way goes
out as one pub/sub message, a JSON array of them: redis-py's work per received message was
the largest part of the bus's CPU, so under load fewer, fuller messages cost the listeners less.

Events go on one channel that every process listens to (``CHANNEL``). Actions, the bulk,
go on the publishing process's own channel (``CHANNEL:<origin>``), which every *other*
process subscribes to as soon as it hears of that process: Redis sends a message to every
subscriber, the publisher too, and reading back its own actions was a tenth of a worker's
bus work for nothing. A process announces itself (`HELLO`) each time it subscribes, and is
answered by each process that did not know it yet; every process also speaks on the events
channel at each sweep (presence), so one that missed a hello learns of the other within a
sweep. Actions published before a process's subscription to their channel is confirmed are
in the log: each confirmation asks for a catch-up (``on_subscribed``), as a resubscription does.
The bus talks to Redis through redis-py's connections directly (one for publishing, the
subscription's for listening), in RESP2: the client's command wrapper (retries, timeouts
per write as a task, pool bookkeeping, events) and RESP3's push handling cost more CPU per
message than the message itself, and every process pays it once per message per process.
Pub/sub is at-most-once: a message published while a process is disconnected is lost to
it, so a process is told each time it (re)subscribes (``on_subscribed``) and catches up
from the log in PostgreSQL then. The bus never decides anything; PostgreSQL does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import RedisError

from .store import ActionRow

__all__ = ["CHANNEL", "HELLO", "Bus", "BusMessage"]

CHANNEL = "taktik:matches:3"  # :3 since actions go on each process's own channel (an older process hears nothing)
HELLO = "bus.hello"  # the event a process sends when it (re)subscribes; data {"answer": bool}
OUTGOING_LIMIT = 10_000  # messages waiting to be published
RETRY_SECONDS = (0.1, 0.25, 0.5, 1.0)  # between attempts to resubscribe, then every second
COMMAND_TIMEOUT = 5.0  # seconds for one publish (sent and answered), as redis-py's socket timeout was
IDLE_SECONDS = 1.0  # a silent subscription is health-checked (a PING) this often at most

log = logging.getLogger("taktik.bus")


class BusMessage(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One message on the bus. ``origin`` names the process that sent it."""

    kind: str  # action | event
    match_id: str
    origin: str
    row: ActionRow | None = None  # kind == "action": the committed log row
    name: str | None = None  # kind == "event": e.g. "presence"
    data: dict[str, Any] | None = None


_ENCODE = msgspec.json.Encoder()
_DECODE = msgspec.json.Decoder(list[BusMessage])


class Bus:
    """A Redis connection for publishing and a subscription that reconnects by itself."""

    def __init__(self, url: str, origin: str, on_message: Callable[[BusMessage], None],
                 on_subscribed: Callable[[], None]) -> None:
        self.url = url
        self.origin = origin
        self._on_message = on_message
        self._on_subscribed = on_subscribed
        # RESP2: pub/sub messages are plain arrays, without RESP3's push handling per message.
        self._client: aioredis.Redis = aioredis.Redis.from_url(
            url, protocol=2, socket_connect_timeout=2, socket_timeout=COMMAND_TIMEOUT, health_check_interval=5)
        # Publishing has a client of its own, without a socket timeout: `_put` puts one deadline
        # on the whole command (redis-py's write timeout runs `wait_for`, a task per write).
        self._publishing: aioredis.Redis = aioredis.Redis.from_url(url, protocol=2, socket_connect_timeout=2)
        self._publisher: AbstractConnection | None = None  # taken from that client's pool once, kept
        self._listener: asyncio.Task[None] | None = None
        self._outgoing: asyncio.Queue[tuple[bool, bytes]] = asyncio.Queue(maxsize=OUTGOING_LIMIT)  # (action?, JSON)
        self.own_channel = f"{CHANNEL}:{origin}"  # where this process publishes its actions
        self.peers: set[str] = set()  # the other processes heard of: their action channels are listened to
        self._new_peers: list[str] = []  # heard of since the listener last subscribed
        self._sender: asyncio.Task[None] | None = None
        self.subscriptions = 0  # how many times the subscription was (re)made
        self.connected = asyncio.Event()

    async def start(self) -> None:
        """Subscribe (waiting up to a few seconds for the first subscription) and keep listening."""
        self._listener = asyncio.create_task(self._listen())
        self._sender = asyncio.create_task(self._send())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), 5)

    async def close(self) -> None:
        """Send what is queued (for a moment at most), then stop."""
        if self._sender is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._outgoing.join(), 2)
        for task in (self._listener, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._listener = self._sender = None
        if self._publisher is not None:
            await self._publishing.connection_pool.release(self._publisher)
            self._publisher = None
        await self._publishing.aclose()
        await self._client.aclose()

    def publish_action(self, match_id: str, row: ActionRow) -> None:
        """Queue a committed row for every other process."""
        self._publish(BusMessage(kind="action", match_id=match_id, origin=self.origin, row=row), action=True)

    def publish_event(self, match_id: str, name: str, data: dict[str, Any]) -> None:
        """Queue something about a match that is not in its log (e.g. presence) for every other process."""
        self._publish(BusMessage(kind="event", match_id=match_id, origin=self.origin, name=name, data=data))

    def _publish(self, message: BusMessage, *, action: bool = False) -> None:
        try:
            self._outgoing.put_nowait((action, _ENCODE.encode(message)))
        except asyncio.QueueFull:  # Redis is away for long: the others will catch up from PostgreSQL
            log.warning("bus queue full; dropping a message about match %s", message.match_id)

    async def _send(self) -> None:
        # One sender, in order: concurrent publishes could take different connections and
        # overtake each other, and a viewer would see a gap where there is none.
        while True:
            batch = [await self._outgoing.get()]
            while not self._outgoing.empty() and len(batch) < 256:
                batch.append(self._outgoing.get_nowait())
            try:
                # In order within each channel (a match's actions all go on this process's own).
                for action, channel in ((True, self.own_channel), (False, CHANNEL)):
                    part = [data for is_action, data in batch if is_action is action]
                    if part:
                        await self._put(channel, b"[" + b",".join(part) + b"]")
            except (RedisError, OSError, TimeoutError) as err:  # lost: the others catch up from PostgreSQL
                if self._publisher is not None:
                    await self._publisher.disconnect(nowait=True)  # half a command may be on it: start afresh
                log.warning("could not publish %d message(s) on the bus: %s", len(batch), err)
            finally:
                for _ in batch:
                    self._outgoing.task_done()

    async def _put(self, channel: str, payload: bytes) -> None:
        """PUBLISH ``payload`` on ``channel`` and read Redis's answer, on the kept connection.

        The connection reconnects by itself on the next send after a failure.
        """
        if self._publisher is None:
            self._publisher = await self._publishing.connection_pool.get_connection()  # type: ignore[no-untyped-call]
        connection = self._publisher
        async with asyncio.timeout(COMMAND_TIMEOUT):
            await connection.send_packed_command(connection.pack_command("PUBLISH", channel, payload),
                                                 check_health=False)
            await connection.read_response()

    async def _listen(self) -> None:
        failures = 0
        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                self._new_peers.clear()
                await pubsub.subscribe(CHANNEL, *(f"{CHANNEL}:{peer}" for peer in sorted(self.peers)))
                connection = pubsub.connection
                assert connection is not None  # subscribed
                while True:
                    # Read from the subscription's connection itself: a message is an array
                    # [b"message", channel, data]; a subscription's confirmation and the health
                    # check's PONG are arrays too, of other kinds, and are skipped.
                    reply = await connection.read_response(timeout=IDLE_SECONDS)
                    if reply is None:  # nothing for a while: ping, so a dead connection shows
                        await pubsub.check_health()
                    elif isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
                        self._deliver(reply[2])
                        if self._new_peers:  # sent on the same connection; its confirmation is read here
                            await pubsub.subscribe(*(f"{CHANNEL}:{peer}" for peer in self._new_peers))
                            self._new_peers.clear()
                    elif isinstance(reply, list) and reply and reply[0] == b"subscribe":
                        if reply[1] == CHANNEL.encode() and not self.connected.is_set():
                            # Listening now, so whoever answers our hello is heard; every process
                            # that listened before hears it and listens to our actions from now on.
                            self.subscriptions += 1
                            failures = 0
                            self.connected.set()
                            self.publish_event("", HELLO, {"answer": True})
                        # From now on every action of that channel reaches us; the ones published
                        # before are in the log, where the catch-up this asks for finds them.
                        self._on_subscribed()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as err:
                self.connected.clear()
                log.warning("bus connection lost (%s); resubscribing", err)
                await asyncio.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                failures += 1
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _deliver(self, data: bytes) -> None:
        try:
            messages = _DECODE.decode(data)
        except msgspec.DecodeError as err:
            log.warning("ignoring a malformed bus message: %s", err)
            return
        for message in messages:
            if message.origin == self.origin:
                continue  # our own event, back from the events channel
            if message.origin not in self.peers:
                self.peers.add(message.origin)
                self._new_peers.append(message.origin)
            if message.kind == "event" and message.name == HELLO:
                if message.data and message.data.get("answer") and message.origin in self._new_peers:
                    self.publish_event("", HELLO, {"answer": False})  # so that it listens to us at once too
                continue
            self._on_message(message)
