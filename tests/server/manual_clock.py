"""A real uvicorn server in this process whose match clocks run on a clock the test moves by hand.

The server runs on its own thread and event loop, exactly as ``taktik serve`` would build it
(`server.app.create_app`), except that ``Settings.clock`` is a `ManualClock`: nothing waits
for real seconds, and a test can put the time exactly on a boundary.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
import uvicorn

from cli.cmd_serve import bot_roster
from server.app import create_app
from server.settings import Limits, Settings
from tests.server.conftest import FAST_LIMITS, free_port

START = 1_800_000_000.0  # a time well in the future: nothing here may depend on the real one


class ManualClock:
    """Seconds since the epoch that move only when `advance` says; thread-safe."""

    def __init__(self, start: float = START) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._waiters: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        with self._lock:
            return self._now

    async def sleep_until(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if when <= self._now:
                return
            entry = (when, loop, future)
            self._waiters.append(entry)
        try:
            await future
        finally:
            with self._lock:
                if entry in self._waiters:
                    self._waiters.remove(entry)

    def advance(self, seconds: float) -> None:
        """Move the time on and wake every sleeper whose time has come."""
        with self._lock:
            self._now += seconds
            due = [w for w in self._waiters if w[0] <= self._now]
            for waiter in due:
                self._waiters.remove(waiter)
        for _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class InProcessServer:
    """Duck-types `LiveServer` (``port``, ``base``, ``ws_url``) for the helpers in conftest."""

    def __init__(self, data_dir: Path, clock: ManualClock, **limits: Any) -> None:
        self.port = free_port()
        self.clock = clock
        settings = Settings(data_dir=data_dir, port=self.port, clock=clock, bots=bot_roster(),
                            limits=msgspec.convert({**FAST_LIMITS, **limits}, Limits))
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def start(self) -> InProcessServer:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(30)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}"
