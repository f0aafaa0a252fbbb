"""Where games run: in this process, in a local process pool, or as Ray tasks — one choice, here.

`run_games(items, play, jobs=..., ray_address=...)` calls ``play(item, tick)`` for every
item and yields the results *as they finish* (so the order may differ between backends;
callers name and sort what they write by the item's own index, never by arrival).
``tick`` is called by ``play`` once per decision; the runner adds the ticks of every
worker up and reports the running total to ``on_decisions``, which a progress bar shows.

- ``jobs=1``, no ``ray_address``: one process, in order;
- ``jobs=N``: ``N`` spawned processes (``play`` and the items must pickle);
- ``ray_address``: one Ray task per item. `LOCAL_RAY` starts a local Ray with the
  machine's cores; any other value joins that cluster (``"auto"``, ``"ray://host:10001"``,
  ``"10.0.0.5:6379"``). If Ray is already initialised in this process (a test fixture,
  a notebook), it is used as it is. A task whose worker dies is re-run by Ray (up to
  `RAY_RETRIES` times) and its result is yielded once.

Ray is an optional extra (``pip install 'taktik[cluster]'``); without it, asking for Ray
raises `RuntimeError` naming the extra.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from multiprocessing.sharedctypes import Synchronized
from typing import Any, TypeVar

__all__ = ["LOCAL_RAY", "RAY_RETRIES", "Play", "Tick", "run_games"]

T = TypeVar("T")
R = TypeVar("R")

Tick = Callable[[object], None]
"""Called by ``play`` once per decision played (its argument, e.g. the new state, is ignored)."""

Play = Callable[[T, Tick], R]
"""Plays one item; must be a module-level function (or otherwise picklable) for pools and Ray."""

LOCAL_RAY = "local"
"""The ``ray_address`` that starts a local Ray instead of joining a cluster."""

RAY_RETRIES = 3
"""How many times Ray re-runs a game whose worker process died."""

_POLL = 0.25  # seconds between progress polls while waiting for results
_BATCH = 64  # decisions a Ray worker counts before telling the driver (one message per batch)


def run_games(
    items: Iterable[T],
    play: Callable[[T, Tick], R],
    *,
    jobs: int = 1,
    ray_address: str | None = None,
    on_decisions: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """Play every item (see the module doc); yields each result once, as it finishes."""
    report = on_decisions or _ignore
    if ray_address is not None:
        return _on_ray(list(items), play, ray_address, report)
    if jobs > 1:
        return _in_pool(list(items), play, jobs, report)
    return _in_process(items, play, report)


def _ignore(_: int) -> None:
    pass


def _in_process(items: Iterable[T], play: Callable[[T, Tick], R], report: Callable[[int], None]) -> Iterator[R]:
    decided = 0

    def tick(_: object) -> None:
        nonlocal decided
        decided += 1
        report(decided)

    for item in items:
        yield play(item, tick)


# --- a local process pool -------------------------------------------------------------

_COUNTER: Synchronized[int] | None = None
"""In a pool worker: the decisions counter shared with the parent."""


def _share_counter(counter: Synchronized[int]) -> None:
    global _COUNTER
    _COUNTER = counter


def _pool_tick(_: object) -> None:
    if _COUNTER is not None:
        with _COUNTER.get_lock():
            _COUNTER.value += 1


def _pool_play(play: Callable[[T, Tick], R], item: T) -> R:
    return play(item, _pool_tick)


def _in_pool(items: list[T], play: Callable[[T, Tick], R], jobs: int, report: Callable[[int], None]) -> Iterator[R]:
    # spawn, not fork: the same start on every platform, and no inherited state in workers
    context = multiprocessing.get_context("spawn")
    counter = context.Value("Q", 0)
    with context.Pool(min(jobs, max(1, len(items))), initializer=_share_counter, initargs=(counter,)) as pool:
        results = pool.imap_unordered(partial(_pool_play, play), items)
        while True:
            try:
                yield results.next(timeout=_POLL)
            except multiprocessing.TimeoutError:
                report(counter.value)
            except StopIteration:
                report(counter.value)
                return


# --- Ray ------------------------------------------------------------------------------


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'taktik[cluster]'") from None
    return ray


class _Counter:
    """A Ray actor adding up the decisions every task reports (in batches)."""

    def __init__(self) -> None:
        self.total = 0

    def add(self, count: int) -> None:
        self.total += count

    def value(self) -> int:
        return self.total


def _ray_play(play: Callable[[T, Tick], R], item: T, counter: Any) -> R:
    """The body of one Ray task: play, telling ``counter`` about decisions every `_BATCH`."""
    pending = 0

    def tick(_: object) -> None:
        nonlocal pending
        pending += 1
        if pending >= _BATCH:
            counter.add.remote(pending)
            pending = 0

    result = play(item, tick)
    if pending:
        counter.add.remote(pending)
    return result


def _start_ray(ray: Any, address: str) -> bool:
    """Initialise Ray unless it already is; True if this call started it (and must stop it)."""
    if ray.is_initialized():
        return False
    common: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "WARNING"}
    if address == LOCAL_RAY:
        ray.init(num_cpus=os.cpu_count() or 1, **common)
    else:
        # cluster nodes get this checkout's engine and lab; they need msgspec installed
        import engine
        import lab

        ray.init(address=address, runtime_env={"py_modules": [engine, lab]}, **common)
    return True


def _on_ray(items: list[T], play: Callable[[T, Tick], R], address: str, report: Callable[[int], None]) -> Iterator[R]:
    ray = _import_ray()
    started = _start_ray(ray, address)
    pending: dict[Any, int] = {}
    try:
        counter = ray.remote(num_cpus=0)(_Counter).remote()
        task = ray.remote(max_retries=RAY_RETRIES, retry_exceptions=False)(_ray_play)
        shipped = ray.put(play)  # sent to the object store once, not with every task
        pending = {task.remote(shipped, item, counter): i for i, item in enumerate(items)}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=len(pending), timeout=_POLL, fetch_local=True)
            report(ray.get(counter.value.remote()))
            for ref in done:
                del pending[ref]
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
