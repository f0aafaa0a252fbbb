"""The opt-in measurement window of a server process, toggled by SIGUSR1 (server/profiling.py)."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import pstats
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from server.profiling import LAG_PERIOD, PROFILE_CPU_ENV, PROFILE_ENV, install_profiler

from .conftest import arun


def _cycles(count: int) -> None:
    """Allocate ``count`` reference cycles and collect them."""
    for _ in range(count):
        cycle: list[object] = []
        cycle.append(cycle)
    gc.collect(0)


async def _until(done: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the profiler did not answer its signal"
        await asyncio.sleep(0.01)


def _profile(directory: Path, monkeypatch: pytest.MonkeyPatch, cpu: str, work: Callable[[], object]) -> None:
    """Install the profiler (``TAKTIK_PROFILE_CPU=cpu``), open its window, do ``work``, close it."""
    monkeypatch.setenv(PROFILE_ENV, str(directory))
    monkeypatch.setenv(PROFILE_CPU_ENV, cpu)

    async def run() -> None:
        assert install_profiler()
        written = directory / f"gc-{os.getpid()}.json"
        try:  # each signal is handled by the loop, when it gets to it: wait for what each one does
            os.kill(os.getpid(), signal.SIGUSR1)
            await _until(lambda: any(type(getattr(c, "__self__", None)).__name__ == "_Window" for c in gc.callbacks))
            await asyncio.sleep(0.02)  # the window's lag probe has started
            work()
            # Let the lag probe wake before the window closes: a closing signal handled first would cancel the
            # probe before it records how late it woke (under load both are due in the same loop iteration).
            await asyncio.sleep(0.05)
            os.kill(os.getpid(), signal.SIGUSR1)
            await _until(written.exists)
        finally:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGUSR1)

    arun(run())


def test_without_the_variable_nothing_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PROFILE_ENV, raising=False)

    async def run() -> bool:
        return install_profiler()

    assert arun(run()) is False


def test_two_signals_record_the_collections_between_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(tmp_path, monkeypatch, "0", lambda: _cycles(1000))
    found = json.loads((tmp_path / f"gc-{os.getpid()}.json").read_text())
    assert found["seconds"] > 0
    assert sum(freed for _, _, freed, _ in found["pauses"]) >= 900  # the cycles made in the window (bar the last)
    assert all(cpu >= 0 for _, _, _, cpu in found["pauses"])
    assert len(found["tracked"]) == 4 and all(count >= 0 for count in found["tracked"])  # three generations, frozen
    assert found["references"] >= 0 and len(found["since_start"]) == 3
    assert all(isinstance(kind, str) and count > 0 for kind, count in found["young"])
    assert not list(tmp_path.glob("cpu-*.prof"))  # no CPU profile unless asked for


def test_a_cpu_profile_is_written_when_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(tmp_path, monkeypatch, "1", lambda: _cycles(10))
    stats = pstats.Stats(str(tmp_path / f"cpu-{os.getpid()}.prof"))
    assert any(name == "_cycles" for _, _, name in stats.stats)


def _busy(seconds: float) -> int:
    """Use ``seconds`` of this process's CPU in a function of its own (for the sampler to find)."""
    end = time.process_time() + seconds
    spins = 0
    while time.process_time() < end:
        spins += 1
    return spins


def test_a_sampling_profile_records_where_the_cpu_went(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _profile(tmp_path, monkeypatch, "sample", lambda: _busy(0.3))
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)  # the timer stops with the window
    lines = (tmp_path / f"samples-{os.getpid()}.txt").read_text().splitlines()
    counts: dict[str, int] = {}
    for line in lines:  # collapsed stacks: "outer;...;inner count"
        stack, count = line.rsplit(" ", 1)
        counts[stack] = int(count)
    busy = sum(n for stack, n in counts.items() if stack.split(";")[-1].startswith("_busy (test_profiling.py:"))
    assert busy >= 10  # 0.3 s of CPU at a sample per tick of at most 10 ms
    assert busy > sum(counts.values()) / 2  # most of the window's CPU went there
    assert not list(tmp_path.glob("cpu-*.prof"))  # a sampling profile, not cProfile


def test_the_lag_probe_sees_how_long_the_loop_was_blocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def blocked() -> None:
        time.sleep(0.2)  # the loop runs nothing else meanwhile, as during a long collection

    _profile(tmp_path, monkeypatch, "0", blocked)
    lag = json.loads((tmp_path / f"gc-{os.getpid()}.json").read_text())["lag"]
    assert max(lag) >= 0.15
    assert min(lag) < LAG_PERIOD  # once unblocked it wakes on time again
