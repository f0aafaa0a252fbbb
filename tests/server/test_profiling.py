"""The opt-in measurement window of a server process, toggled by SIGUSR1 (server/profiling.py)."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import pstats
import signal
from pathlib import Path

import pytest

from server.profiling import PROFILE_CPU_ENV, PROFILE_ENV, install_profiler

from .conftest import arun


async def _window(work: int) -> None:
    """Open the window, allocate cycles and collect, close it (each signal handled by the loop)."""
    os.kill(os.getpid(), signal.SIGUSR1)
    await asyncio.sleep(0.05)
    for _ in range(work):
        cycle: list[object] = []
        cycle.append(cycle)
    gc.collect(0)
    os.kill(os.getpid(), signal.SIGUSR1)
    await asyncio.sleep(0.05)


def test_without_the_variable_nothing_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PROFILE_ENV, raising=False)

    async def run() -> bool:
        return install_profiler()

    assert arun(run()) is False


def test_two_signals_record_the_collections_between_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROFILE_ENV, str(tmp_path))
    monkeypatch.setenv(PROFILE_CPU_ENV, "0")

    async def run() -> None:
        assert install_profiler()
        try:
            await _window(1000)
        finally:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGUSR1)

    arun(run())
    found = json.loads((tmp_path / f"gc-{os.getpid()}.json").read_text())
    assert found["seconds"] > 0
    assert sum(freed for _, _, freed in found["pauses"]) >= 900  # the cycles made in the window (bar the last)
    assert all(isinstance(kind, str) and count > 0 for kind, count in found["young"])
    assert not list(tmp_path.glob("cpu-*.prof"))  # no CPU profile unless asked for


def test_a_cpu_profile_is_written_when_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROFILE_ENV, str(tmp_path))
    monkeypatch.setenv(PROFILE_CPU_ENV, "1")

    async def run() -> None:
        assert install_profiler()
        try:
            await _window(10)
        finally:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGUSR1)

    arun(run())
    stats = pstats.Stats(str(tmp_path / f"cpu-{os.getpid()}.prof"))
    assert any(name == "_window" for _, _, name in stats.stats)
