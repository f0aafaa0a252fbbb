"""How a server process runs Python's cycle collector: every object is scanned once, young.

CPython's collector is generational: an object that survives a young (generation 0)
collection moves to the middle generation, which is scanned again every tenth young
collection, and so on. In a server holding hundreds of matches nearly everything that
survives a young collection lives on (positions, reach tables, sockets, the coroutines
of connections waiting for their next message) or dies later by reference counting, and
measured under load the young and middle collections freed nothing at all. The middle
collections were the long pauses (hundreds of thousands of survivors scanned again, up to
hundreds of milliseconds), and an action arriving behind one was the latency's tail.

So `Collector` freezes the survivors of every collection (`gc.freeze`): they move to the
permanent generation, which no automatic collection scans. Every collection then scans
only what was allocated since the previous one and is still alive (the young threshold),
whatever its generation. Frozen objects are still freed by reference counting the moment
nothing holds them; what a frozen object can no longer be is found as *cyclic* garbage.
The server breaks its own long-lived cycles when it lets go of them (a match's watcher
task, server/matches.py), and for whatever else forms them (libraries, exceptions with
tracebacks) the collector keeps memory bounded as CPython's own oldest generation does:
when the small blocks allocated (`sys.getallocatedblocks`, live objects and uncollected
garbage alike, a cheap count) have grown by ``growth`` since the last full collection,
`check` thaws everything, collects it all once, and freezes the survivors again. That is
one long pause, as rare as the heap's growth allows: never in a steady state.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import time
from typing import Any

__all__ = ["Collector"]

log = logging.getLogger("taktik.collector")


class Collector:
    """Young-only collections with their survivors frozen, and a full collection when the heap grew.

    `start` takes over the process's collector (one `Collector` per process at a time),
    `stop` gives it back as it was; `run` checks every ``period`` seconds on the event loop.
    """

    def __init__(self, interval: float = 0.1, growth: float = 0.5, threshold: int = 50_000,
                 check_every: float = 2.0) -> None:
        if interval <= 0 or growth <= 0 or threshold < 1 or check_every <= 0:
            raise ValueError(f"an interval above 0 s, a growth above 0, a threshold of at least 1 object and a "
                             f"check_every above 0 s are needed, not {interval}, {growth}, {threshold} and "
                             f"{check_every}")
        self.interval = interval
        self.growth = growth
        self.threshold = threshold
        self.check_every = check_every
        self.full_collections = 0  # since `start`, for logs and tests
        self.baseline = 0  # allocated blocks after the last full collection
        self._saved: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Collect everything once, freeze the survivors, and from now on freeze after every collection."""
        if self._saved is not None:
            raise RuntimeError("this collector is already started")
        self._saved = gc.get_threshold()
        gc.set_threshold(self.threshold, 10, 10)  # older generations hold nothing: their counts no longer matter
        self._full()
        gc.callbacks.append(self._collected)

    def stop(self) -> None:
        """Stop freezing; the frozen objects go back to the oldest generation, the thresholds as they were."""
        if self._saved is None:
            return
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        gc.unfreeze()
        gc.set_threshold(*self._saved)
        self._saved = None

    def check(self) -> bool:
        """Collect everything once if the heap grew by ``growth`` since the last time; whether it did."""
        if self._saved is None or sys.getallocatedblocks() <= self.baseline * (1 + self.growth):
            return False
        self._full()
        return True

    async def run(self) -> None:
        """A young collection every ``interval`` seconds and `check` every ``check_every``, until cancelled."""
        loop = asyncio.get_running_loop()
        checked = loop.time()
        while True:
            await asyncio.sleep(self.interval)
            gc.collect(0)
            if loop.time() - checked >= self.check_every:
                checked = loop.time()
                self.check()

    def _full(self) -> None:
        began = time.perf_counter()
        before = sys.getallocatedblocks()
        gc.unfreeze()
        freed = gc.collect()  # its own callback freezes what survives
        gc.freeze()  # (and this, when called before the callback is installed)
        self.baseline = sys.getallocatedblocks()
        self.full_collections += 1
        log.info("full collection: %d objects freed, allocated blocks %d -> %d, %.0f ms", freed, before,
                 self.baseline, (time.perf_counter() - began) * 1000)

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            gc.freeze()  # what survived this collection is never scanned by an automatic one again
