"""Fixtures for the server tests: real `taktik serve` processes, HTTP and WebSocket clients."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from websockets.asyncio.client import ClientConnection, connect

from .cluster import Postgres, Redis, require_cluster

REPO = Path(__file__).resolve().parents[2]
T = TypeVar("T")

FAST_LIMITS: dict[str, Any] = {
    "message_burst": 1_000_000, "message_rate": 1_000_000.0, "action_burst": 1_000_000, "action_rate": 1_000_000.0,
    "create_burst": 1_000_000, "create_rate": 1_000_000.0, "bot_delay": 0.0,
    "sockets_per_address": 1_000_000, "bad_token_burst": 1_000_000,
}
"""Rates lifted so scripted clients can play whole games at full speed (every client is 127.0.0.1)."""

STRICT_LIMITS: dict[str, Any] = {"create_burst": 1_000_000, "create_rate": 1_000_000.0, "hello_timeout": 1.0}
"""The defaults table as shipped, except match creation and a short hello deadline."""

QUICK_GAME: dict[str, Any] = {"victory": {"round_limit": {"max_rounds": 2}}}
"""A default board and forces, but over after two rounds (about 40-50 actions)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """``python -m server.cli serve`` in a subprocess on a free loopback port."""

    def __init__(self, data_dir: Path, limits: dict[str, Any] | None = None, *args: str) -> None:
        self.data_dir = data_dir
        self.limits = limits
        self.args = args
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self._reader: threading.Thread | None = None

    def start(self) -> LiveServer:
        """Start on a free port, or on the port this server had before (a restart at the same address)."""
        self.port = self.port or free_port()
        command = [sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--data", str(self.data_dir),
                   "--log-level", "info", *self.args]
        if self.limits is not None:
            limits_file = self.data_dir.with_name(self.data_dir.name + "-limits.json")
            limits_file.write_text(json.dumps(self.limits))
            command += ["--limits", str(limits_file)]
        self.output = []
        self.proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        ready = threading.Event()

        def read(stream: Any, lines: list[str]) -> None:
            for line in stream:
                lines.append(line)
                if "Taktik is running" in line:
                    ready.set()
            ready.set()

        self._reader = threading.Thread(target=read, args=(self.proc.stdout, self.output), daemon=True)
        self._reader.start()
        if not ready.wait(30) or self.proc.poll() is not None:
            self.kill()
            raise RuntimeError("server did not start:\n" + "".join(self.output))
        return self

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}"

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Ask the server to stop; returns its exit code."""
        assert self.proc is not None
        self.proc.send_signal(sig)
        code = self.proc.wait(30)
        self._finish()
        return code

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait(30)
            self._finish()

    def _finish(self) -> None:
        if self._reader is not None:
            self._reader.join(10)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()

    def log_text(self) -> str:
        return "".join(self.output)


def http_json(server: LiveServer, method: str, path: str, body: Any = None,
              headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """One HTTP request; the decoded JSON answer (or raw bytes when it is not JSON)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        sent = {"content-type": "application/json"} if method == "POST" else {}
        sent.update(headers or {})
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        if response.getheader("content-type", "").startswith("application/json"):
            return response.status, json.loads(raw)
        return response.status, raw
    finally:
        conn.close()


def create_match(server: LiveServer, seed: int | None = 1234, **body: Any) -> dict[str, Any]:
    """Create a match (a `QUICK_GAME` with ``seed`` unless ``config`` is given; seed None: the server draws)."""
    body.setdefault("config", QUICK_GAME if seed is None else {**QUICK_GAME, "seed": seed})
    status, created = http_json(server, "POST", "/api/matches", body)
    assert status == 201, created
    return dict(created)


def tokens_of(created: dict[str, Any]) -> dict[str, str]:
    return {seat["seat"]: seat["token"] for seat in created["seats"]}


class Peer:
    """A WebSocket client that keeps every frame it received (for secret scans)."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.frames: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.seq = 0
        self.version = 0
        self.state: dict[str, Any] | None = None

    @classmethod
    async def open(cls, server: LiveServer, match_id: str, **options: Any) -> Peer:
        options.setdefault("max_size", 2**22)
        peer = cls(await connect(server.ws_url(match_id), open_timeout=10, **options))
        _OPEN.append(peer)
        return peer

    @classmethod
    async def seated(cls, server: LiveServer, match_id: str, token: str | None) -> Peer:
        """Connect and say hello; returns once the welcome and first state arrived."""
        peer = await cls.open(server, match_id)
        await peer.send({"type": "hello", "token": token})
        await peer.expect("welcome")
        await peer.expect("state")
        return peer

    async def send(self, message: Any) -> None:
        await self.conn.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.conn.recv(), timeout)
        text = frame if isinstance(frame, str) else frame.decode()
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        self.messages.append(message)
        if message["type"] == "state" and message["version"] >= self.version:
            self.version = message["version"]
            self.state = message
        return message

    async def expect(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of type ``kind`` (earlier ones of other types are kept but skipped)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def until_version(self, version: int, timeout: float = 10) -> dict[str, Any]:
        while self.state is None or self.version < version:
            await self.recv(timeout)
        assert self.state is not None
        return self.state

    async def act(self, action: dict[str, Any], *, version: int | None = None, seq: int | None = None) -> int:
        if seq is None:  # as a client should: above anything this seat had accepted, from any tab
            self.seq = max(self.seq, self.state["last_seq"] if self.state else 0) + 1
            seq = self.seq
        await self.send({"type": "act", "version": self.version if version is None else version, "seq": seq,
                         "action": action})
        return seq

    async def reply(self, seq: int | None = None, timeout: float = 10) -> dict[str, Any]:
        """The next ack or reject (for ``seq``, when given)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] in ("ack", "reject") and (seq is None or message.get("seq") == seq):
                return message

    async def quiet(self, timeout: float = 0.3) -> list[dict[str, Any]]:
        """Everything that arrives within ``timeout`` (used to show nothing else was sent)."""
        got: list[dict[str, Any]] = []
        try:
            while True:
                got.append(await self.recv(timeout))
        except TimeoutError:
            return got

    async def close(self) -> None:
        await self.conn.close()


_OPEN: list[Peer] = []


def arun(work: Awaitable[T], timeout: float = 120) -> T:
    """Run a coroutine to completion in a fresh event loop, then close every socket it opened."""

    async def bounded() -> T:
        try:
            return await asyncio.wait_for(work, timeout)
        finally:
            while _OPEN:
                peer = _OPEN.pop()
                if not peer.conn.transport.is_reading():
                    peer.conn.transport.resume_reading()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(peer.conn.close(), 5)
                peer.conn.transport.abort()

    return asyncio.run(bounded())


def wait_until(predicate: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.02)


BACKENDS = ("sqlite", "postgresql")
"""The storage a server can run on: SQLite under --data (the default), or PostgreSQL + Redis."""


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One real PostgreSQL for the session (each user takes a fresh database with `new_database`)."""
    require_cluster()
    pg = Postgres()
    pg.start()
    yield pg
    pg.destroy()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    """One real Redis for the session."""
    require_cluster()
    bus = Redis()
    bus.start()
    yield bus
    bus.stop()


def storage_args(request: pytest.FixtureRequest, backend: str) -> tuple[str, ...]:
    """The `taktik serve` options of ``backend`` (a fresh PostgreSQL database each time)."""
    if backend == "sqlite":
        return ()
    pg: Postgres = request.getfixturevalue("postgres")
    bus: Redis = request.getfixturevalue("redis_server")
    return ("--database", pg.new_database(), "--bus", bus.url)


@pytest.fixture(scope="session", params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A shared server with lifted rates, for whole games; once on each storage backend."""
    args = storage_args(request, request.param)
    live = LiveServer(tmp_path_factory.mktemp("fast") / "data", FAST_LIMITS, *args).start()
    yield live
    assert live.stop() == 0, live.log_text()
    assert "Traceback" not in live.log_text(), live.log_text()


@pytest.fixture(scope="session")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A shared server with the default per-socket limits."""
    live = LiveServer(tmp_path_factory.mktemp("strict") / "data", STRICT_LIMITS).start()
    yield live
    assert live.stop() == 0, live.log_text()
    assert "Traceback" not in live.log_text(), live.log_text()
