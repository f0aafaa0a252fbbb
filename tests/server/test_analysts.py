"""Analysts (server/analysts.py): costly work in other processes, bounded, charged to the asker."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from server.analysts import NICENESS, Analysts, Busy
from server.costs import CpuBudget, billed

from .conftest import REPO, arun


def test_work_runs_in_a_lower_priority_process_and_its_cpu_is_charged_to_the_asker() -> None:
    analysts = Analysts(1, queue=4, per_address=2)
    budget = CpuBudget(burst=100.0, rate=1.0)

    async def run() -> tuple[int, int, float]:
        with billed(budget, "a") as bill:
            pid = await analysts.run(os.getpid)
            priority = await analysts.run(os.getpriority, os.PRIO_PROCESS, 0)
            await analysts.run(math.factorial, 60_000)
        return pid, priority, bill.seconds

    try:
        pid, priority, spent = arun(run(), timeout=60)
    finally:
        analysts.close()
    assert pid != os.getpid()
    assert priority == min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
    assert spent > 0 and budget.left("a") == pytest.approx(100.0 - spent, abs=0.05)


def test_a_closure_runs_on_a_thread_with_the_same_accounting() -> None:
    analysts = Analysts(1, queue=4, per_address=2)
    budget = CpuBudget(burst=100.0, rate=1.0)
    here = os.getpid()

    async def run() -> tuple[int, int]:
        with billed(budget, "a"):
            return await analysts.run(lambda: (os.getpid(), threading.get_ident()))

    try:
        pid, thread = arun(run(), timeout=30)
    finally:
        analysts.close()
    assert pid == here and thread != threading.get_ident()


def test_the_queue_and_each_addresses_share_of_it_are_bounded_and_a_failure_is_the_askers() -> None:
    analysts = Analysts(0, queue=3, per_address=2)
    budget = CpuBudget(burst=100.0, rate=1.0)

    async def run() -> None:
        with billed(budget, "a"):
            held = [analysts.submit(time.sleep, 0.3) for _ in range(2)]
            with pytest.raises(Busy) as mine:
                analysts.submit(time.sleep, 0.3)
            assert "your address already has 2" in mine.value.reason and mine.value.retry_after >= 0.5
        with billed(budget, "b"):
            held.append(analysts.submit(time.sleep, 0.3))
            with pytest.raises(Busy) as full:
                analysts.submit(time.sleep, 0.3)
            assert "busy with other costly questions" in full.value.reason
        await asyncio.gather(*held)
        assert analysts.pending == 0
        with billed(budget, "a"), pytest.raises(ValueError, match="not defined for negative"):
            await analysts.run(math.factorial, -1)

    try:
        arun(run(), timeout=30)
    finally:
        analysts.close()


def test_a_dead_worker_fails_its_job_and_the_next_job_gets_a_new_one() -> None:
    analysts = Analysts(1, queue=4, per_address=4)

    async def run() -> None:
        pid = await analysts.run(os.getpid)
        with pytest.raises(RuntimeError, match="analysis process failed"):
            await analysts.run(os.kill, pid, signal.SIGKILL)
        assert await analysts.run(os.getpid) != pid

    try:
        arun(run(), timeout=60)
    finally:
        analysts.close()


ORPHAN = """
import asyncio, os, sys
from server.analysts import Analysts
async def main():
    print(await Analysts(1, 4, 4).run(os.getpid), flush=True)
    await asyncio.sleep(60)
asyncio.run(main())
"""


def test_workers_end_when_the_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", ORPHAN], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        server.kill()
        server.wait(10)
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker)
    finally:
        server.kill()
        server.wait(10)
        if server.stdout is not None:
            server.stdout.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (its parent, the killed server, is gone but it was not reaped yet) counts as ended
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
