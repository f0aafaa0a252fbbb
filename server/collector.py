"""How a server process runs Python's cycle collector: each object is scanned once, young.

CPython's collector is generational: an object that survives a young (generation 0)
collection moves to the middle generation, scanned again every tenth young collection,
and from there to the oldest. In a server holding hundreds of matches nearly everything
that survives a young collection either lives on (positions, the engine's tables,
sockets) or dies later by reference counting (the coroutines and futures of a socket
waiting for its next message), and under load the young and middle collections freed
nothing at all. They were the long pauses: a young collection came only every several
seconds and scanned some 50,000 objects (15–30 ms of CPU), a middle one hundreds of
thousands, and an action arriving behind one made the latency's tail.

`Collector` changes two things (docs/deploy.md, "Collections"):

- **A young collection every ``interval`` seconds**, from the event loop, instead of when
  the net count of allocations crosses a threshold (which, with as many objects dying as
  being born, it rarely does): each scans only what was allocated in the last ``interval``
  and is still alive, about a millisecond.
- **Its survivors are frozen** (`gc.freeze`): moved to the permanent generation, which no
  automatic collection scans, so no object is scanned twice and a middle collection costs
  what a young one does. A frozen object is still freed by reference counting the moment
  nothing holds it (a match the server unloads: server/matches.py breaks its one cycle,
  with the clock watcher task); what no collection finds any more is frozen *cyclic*
  garbage (a closed socket's protocol objects, an exception and its traceback).

That garbage is bounded as CPython bounds its oldest generation: `check` thaws everything,
collects it all once and freezes the survivors again when the small blocks allocated
(`sys.getallocatedblocks`: live objects and garbage, a cheap count) have grown by
``growth`` since the last such full collection. It is one long pause (a quarter to half a
second at a few million objects), so it runs at most once every ``spacing`` seconds unless
the heap grew by ``growth`` twice over (a process filling up fast, as at start-up).
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
    """Young collections on a timer with their survivors frozen, and a rare full collection.

    `start` takes over the process's collector (one `Collector` per process at a time) and
    `stop` gives it back as it was; `run` is the timer, a task on the event loop.
    """

    def __init__(self, interval: float = 0.1, growth: float = 1.0, spacing: float = 300.0,
                 threshold: int = 50_000, check_every: float = 2.0) -> None:
        settings = {"interval": interval, "growth": growth, "spacing": spacing, "check_every": check_every}
        for name, value in settings.items():
            if not value > 0:
                raise ValueError(f"the collector's {name} must be above 0, not {value}")
        if threshold < 1:
            raise ValueError(f"the collector's threshold must be at least 1 object, not {threshold}")
        self.interval = interval
        self.growth = growth
        self.spacing = spacing
        self.threshold = threshold  # the automatic young collection, for allocations faster than the timer
        self.check_every = check_every
        self.full_collections = 0  # since `start`, for logs and tests
        self.baseline = 0  # small blocks allocated after the last full collection
        self.last_full = 0.0  # when it ran (`time.monotonic`)
        self._saved: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Collect everything once, freeze the survivors, and from now on freeze after every collection."""
        if self._saved is not None:
            raise RuntimeError("this collector is already started")
        self._saved = gc.get_threshold()
        gc.set_threshold(self.threshold, 10, 10)  # the older generations stay empty: their counts do not matter
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

    def check(self, now: float | None = None) -> bool:
        """Collect everything once if the heap grew enough since the last time (see the module); whether it did."""
        if self._saved is None:
            return False
        now = time.monotonic() if now is None else now
        blocks = sys.getallocatedblocks()
        step = 1 + self.growth
        grown = blocks > self.baseline * step
        if not grown or (now - self.last_full < self.spacing and blocks <= self.baseline * step * step):
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
        freed = gc.collect()  # the callback freezes what survives...
        gc.freeze()  # ...once it is installed
        self.baseline = sys.getallocatedblocks()
        self.last_full = time.monotonic()
        self.full_collections += 1
        log.info("full collection: %d objects freed, small blocks allocated %d -> %d, %.0f ms", freed, before,
                 self.baseline, (time.perf_counter() - began) * 1000)

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            gc.freeze()  # what survived this collection is never scanned by an automatic one again
