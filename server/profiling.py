"""An opt-in measurement of a running server process: collection pauses and where its CPU goes.

With ``TAKTIK_PROFILE=DIR`` in its environment, a server process (each worker of
``--workers``) measures itself between two ``SIGUSR1`` signals:

- every garbage collection's generation, wall time and CPU time (`gc.callbacks`), and how
  late the event loop woke a task sleeping ``LAG_PERIOD`` each time, written to
  ``DIR/gc-<pid>.json`` as ``{"pauses": [[generation, seconds, collected, cpu_seconds], ...],
  "seconds": window, "lag": [seconds, ...], "young": [[kind, count], ...], "tuple_holders":
  [[kind, count], ...], "tracked": [gen0, gen1, gen2, frozen], "references": count,
  "since_start": [collections, ...], "blocks": [opened, closed]}``: with, at the end, the
  commonest kinds of object in the young generations and what holds a sample of their
  tuples, how many objects each generation and the frozen one hold and how many the
  youngest refers to, and each generation's collections since the process started; and the
  small blocks allocated (`sys.getallocatedblocks`) when the window opened and closed;
- with ``TAKTIK_PROFILE_CPU=1`` too, a `cProfile` profile timed by the process's CPU clock
  (a function that waits, or during which the process is preempted, counts only the CPU it
  used), written to ``DIR/cpu-<pid>.prof`` for `pstats`. It slows the process severalfold,
  so its shares are a guide to where the CPU goes, not a measure of it;
- with ``TAKTIK_PROFILE_CPU=sample`` instead, a sampling profile: every millisecond of CPU
  the process uses (``ITIMER_PROF``, so waiting and preemption never count) records the
  Python stack it is in, written to ``DIR/samples-<pid>.txt`` as collapsed stacks (one
  ``frame;frame;... count`` a line, outermost first, as flame graph tools read them). It
  costs about a percent, and unlike `cProfile` it does not inflate code made of many small
  calls: its shares are the CPU's.

``scripts/bench_server.py --profile DIR`` sends both signals around its measured window.
With ``TAKTIK_GC_THRESHOLDS=a,b,c`` as well, the automatic collection uses those thresholds
instead of ``taktik serve``'s (an experiment: compare pauses; server/collector.py's timer
runs as before). Without ``TAKTIK_PROFILE`` nothing is installed.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import logging
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

__all__ = ["LAG_PERIOD", "PROFILE_CPU_ENV", "PROFILE_ENV", "install_profiler"]

PROFILE_ENV = "TAKTIK_PROFILE"
PROFILE_CPU_ENV = "TAKTIK_PROFILE_CPU"
LAG_PERIOD = 0.01
"""How long the lag probe sleeps: its lateness is how long the loop was busy (or the process
waited for a core) when it was due, what every socket's next message waits too."""

log = logging.getLogger("taktik.profile")


class _Window:
    """One measured window, opened and closed by `flip`."""

    def __init__(self, directory: Path, cpu: str) -> None:
        self.directory = directory
        self.cpu = cpu  # "1": cProfile, "sample": CPU-time sampling, else neither
        self.profile: cProfile.Profile | None = None
        self.sampler: _Sampler | None = None
        self.opened: float | None = None
        self.pauses: list[tuple[int, float, int, float]] = []
        self.blocks = 0  # small blocks allocated when the window opened (`sys.getallocatedblocks`)
        self.lag: list[float] = []
        self._probe: asyncio.Task[None] | None = None
        self._started = 0.0
        self._started_cpu = 0.0

    def flip(self) -> None:
        if self.opened is None:
            self._open()
        else:
            self._close()

    def _open(self) -> None:
        self.pauses = []
        self.opened = time.perf_counter()
        gc.callbacks.append(self._collected)
        self.lag = []
        self.blocks = sys.getallocatedblocks()
        self._probe = asyncio.get_running_loop().create_task(self._lag_probe())
        if self.cpu == "1":
            self.profile = cProfile.Profile(time.process_time)
            self.profile.enable()
        elif self.cpu == "sample":
            self.sampler = _Sampler()

    def _close(self) -> None:
        assert self.opened is not None
        if self.profile is not None:
            self.profile.disable()
            self.profile.dump_stats(self.directory / f"cpu-{os.getpid()}.prof")
            self.profile = None
        if self.sampler is not None:
            self.sampler.stop(self.directory / f"samples-{os.getpid()}.txt")
            self.sampler = None
        gc.callbacks.remove(self._collected)
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
        seconds = time.perf_counter() - self.opened
        self.opened = None
        path = self.directory / f"gc-{os.getpid()}.json"
        partial = path.with_suffix(".partial")  # renamed when whole: a reader waiting for the file never reads half
        tracked = [len(gc.get_objects(generation)) for generation in range(3)] + [gc.get_freeze_count()]
        references = sum(len(gc.get_referents(o)) for o in gc.get_objects(0))  # what a young collection visits
        partial.write_text(json.dumps({"pauses": self.pauses, "seconds": seconds, "young": _young_kinds(),
                                       "tuple_holders": _young_holders(), "tracked": tracked, "references": references,
                                       "since_start": [g["collections"] for g in gc.get_stats()],
                                       "blocks": [self.blocks, sys.getallocatedblocks()],
                                       "lag": self.lag}))
        partial.replace(path)
        log.warning("measurements written to %s", self.directory)

    async def _lag_probe(self) -> None:
        while True:
            due = time.perf_counter() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.lag.append(max(0.0, time.perf_counter() - due))

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # The wall time is the pause the loop saw; the thread's CPU time is the collection's own
        # cost, what it would be on a machine with a core free (a loaded one stretches the first).
        if phase == "start":
            self._started, self._started_cpu = time.perf_counter(), time.thread_time()
        else:
            self.pauses.append((int(info["generation"]), time.perf_counter() - self._started, int(info["collected"]),
                                time.thread_time() - self._started_cpu))


class _Sampler:
    """Records the Python stack at every ``period`` seconds of the process's CPU time."""

    def __init__(self, period: float = 0.001) -> None:
        self.stacks: Counter[str] = Counter()
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, period, period)

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        names = []
        while frame is not None:
            code = frame.f_code
            names.append(f"{code.co_qualname} ({Path(code.co_filename).name}:{frame.f_lineno})")
            frame = frame.f_back
        self.stacks[";".join(reversed(names))] += 1

    def stop(self, path: Path) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
        path.write_text("".join(f"{stack} {count}\n" for stack, count in self.stacks.items()))


def _young_kinds(top: int = 12) -> list[tuple[str, int]]:
    """The most common kinds of object in the two young generations now: what each collection scans."""
    kinds = Counter(type(o).__qualname__ for generation in (0, 1) for o in gc.get_objects(generation))
    return kinds.most_common(top)


def _young_holders(kind: str = "tuple", sample: int = 100, top: int = 8) -> list[tuple[str, int]]:
    """What holds the young objects of ``kind``: for a sample of them, the chain of referrers up
    through plain containers (tuple, list, dict, cell) to the first other object, as
    ``tuple<list<Reach``: the containers that keep them alive, to find where they come from.
    `gc.get_referrers` does not see frozen objects: under server/collector.py, which freezes
    whatever survives a collection, an older holder shows as ``nothing``."""
    young = [o for generation in (0, 1) for o in gc.get_objects(generation) if type(o).__qualname__ == kind]
    step = max(1, len(young) // sample)
    chosen = young[::step][:sample]
    del young
    holders: Counter[str] = Counter()
    plain = (tuple, list, dict)
    for found in chosen:
        chain = [kind]
        current: object = found
        referrers: list[object] = []
        for _ in range(4):
            referrers.clear()  # it held the previous link: not a holder of the next one
            referrers = [r for r in gc.get_referrers(current) if r is not chosen and type(r).__name__ != "frame"]
            if not referrers:
                chain.append("nothing")
                break
            current = referrers[0]
            chain.append(type(current).__qualname__)
            if not isinstance(current, plain):
                break
        holders["<".join(chain)] += 1
    return holders.most_common(top)


def install_profiler() -> bool:
    """Measure between two ``SIGUSR1`` when ``TAKTIK_PROFILE`` names a directory; whether it does."""
    where = os.environ.get(PROFILE_ENV)
    if not where:
        return False
    directory = Path(where)
    directory.mkdir(parents=True, exist_ok=True)
    thresholds = os.environ.get("TAKTIK_GC_THRESHOLDS")  # an experiment's collection thresholds
    if thresholds:
        gc.set_threshold(*(int(t) for t in thresholds.split(",")))
    window = _Window(directory, cpu=os.environ.get(PROFILE_CPU_ENV, ""))
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, window.flip)
    return True
