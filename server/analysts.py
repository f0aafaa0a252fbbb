"""Analysts: worker processes that do costly engine work off the event loop, behind a bounded queue.

A threat map, a hint, a replay of a posted record, an evaluation graph or a fork's prefix
takes milliseconds to seconds of pure engine computation. On the event loop it stops every
other match meanwhile; on a worker *thread* it still holds the interpreter lock, and the
loop waits up to a switch interval (5 ms) each time it wants the lock back: a sync round
trip went from 0.4 ms to 10 ms (p50) and 44 ms (p99) beside one busy thread, against 0.4 ms
and 8 ms beside one busy process (docs/server.md, "Costly requests"). So the work goes to a
few processes of its own (`spawn`ed, so no lock or thread of the server is copied), at a
lower priority than the server (``nice`` 19: on a full machine the event loop comes first;
beside other programs that keep every core busy at normal priority the analysts crawl, and
a record asked for then can take longer than a client waits).

The queue is bounded twice: at most ``queue`` jobs waiting or running, and at most
``per_address`` of them for one client address; past either the request is refused at once
with `Busy` (an `OverBudget`: ``rate_limited`` naming when to retry). Each job's CPU time,
measured in the worker, is charged to the address whose request it serves (server/costs.py).

A function that cannot be sent to another process (a closure, say: a test's policy) runs on
a worker thread instead, with the same bounds and accounting; so does everything when
``processes`` is 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from .costs import OverBudget, current_bill, retry_words

__all__ = ["NICENESS", "Analysts", "Busy"]

log = logging.getLogger("taktik.analysts")

T = TypeVar("T")

NICENESS = 19  # added to a worker process's nice value (capped at 19): the event loop wins a contended core


class Busy(OverBudget):
    """The analysts' queue (or this address's share of it) is full; ``retry_after`` seconds is an estimate."""


def _start_worker(parent: int) -> None:
    """In each worker process: lower priority, ignore Ctrl-C (the server stops it), end with the server."""
    with contextlib.suppress(OSError):  # not allowed here: run at the server's priority
        os.nice(NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:  # a server killed with -9 leaves no one to stop this process
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _timed(work: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any, float]:
    """Run ``work(*args)`` in a worker: (succeeded, result or exception, CPU seconds it took)."""
    start = time.thread_time()
    try:
        result: Any = work(*args)
        ok = True
    except Exception as err:
        result, ok = err, False
    return ok, result, time.thread_time() - start


class Analysts:
    """``processes`` worker processes (0: threads) taking at most ``queue`` jobs, ``per_address`` per address."""

    def __init__(self, processes: int, queue: int, per_address: int) -> None:
        self.processes = processes
        self.queue = queue
        self.per_address = per_address
        self._pool: ProcessPoolExecutor | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._pending = 0
        self._by_address: Counter[str] = Counter()
        self._sendable: dict[Callable[..., Any], bool] = {}
        self._average = 0.05  # seconds a job takes, smoothed: the basis of a `Busy` retry estimate

    @property
    def pending(self) -> int:
        """Jobs waiting or running now."""
        return self._pending

    def submit(self, work: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Queue ``work(*args)``; raises `Busy` at once when the queue or the asking address's share is full."""
        bill = current_bill()
        address = bill.address if bill is not None else None
        refused = self.refusal(address)
        if refused is not None:
            raise refused
        loop = asyncio.get_running_loop()
        executor = self._executor(work, args)
        running = loop.run_in_executor(executor, _timed, work, args)
        self._pending += 1
        if address is not None:
            self._by_address[address] += 1
        answer: asyncio.Future[T] = loop.create_future()

        def settle(done: asyncio.Future[tuple[bool, Any, float]]) -> None:
            self._pending -= 1
            if address is not None:
                self._by_address[address] -= 1
                if self._by_address[address] <= 0:
                    del self._by_address[address]
            if answer.cancelled():
                return
            if done.cancelled():
                answer.cancel()
                return
            failure = done.exception()
            if failure is not None:
                if isinstance(failure, BrokenProcessPool):
                    log.error("an analysis process died; starting new ones (%s)", failure)
                    self._pool = None
                    failure = RuntimeError("the analysis process failed")
                answer.set_exception(failure)
                return
            ok, result, seconds = done.result()
            self._average = 0.8 * self._average + 0.2 * seconds
            if bill is not None:
                bill.add(seconds)
            if ok:
                answer.set_result(result)
            else:
                answer.set_exception(result)

        running.add_done_callback(settle)
        return answer

    def refusal(self, address: str | None) -> Busy | None:
        """What a job for ``address`` would be told now: the queue or the address's share is full (None: neither)."""
        if self._pending >= self.queue:
            wait = max(0.5, self._pending * self._average / max(1, self.processes))
            return Busy(f"the server is busy with other costly questions; {retry_words(wait)}", wait)
        if address is not None and self._by_address[address] >= self.per_address:
            wait = max(0.5, self._average)
            return Busy(f"your address already has {self.per_address} costly requests being worked on; "
                        f"{retry_words(wait)}", wait)
        return None

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """`submit` and wait for the answer."""
        return await self.submit(work, *args)

    def _executor(self, work: Callable[..., Any], args: tuple[Any, ...]) -> Executor:
        if self.processes > 0 and all(self._can_send(f) for f in (work, *args) if callable(f)):
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_start_worker, initargs=(os.getpid(),))
            return self._pool
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max(1, self.processes), thread_name_prefix="analyst")
        return self._threads

    def _can_send(self, work: Callable[..., Any]) -> bool:
        """Whether ``work`` can be named to another process (a module-level function can; a closure cannot)."""
        known = self._sendable.get(work)
        if known is None:
            try:
                pickle.dumps(work)
                known = True
            except (pickle.PicklingError, AttributeError, TypeError):
                known = False
            self._sendable[work] = known
        return known

    def close(self) -> None:
        """Stop taking work; the processes end once their current job is done."""
        for executor in (self._pool, self._threads):
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self._pool = self._threads = None
