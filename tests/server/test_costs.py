"""The cost model (server/costs.py): CPU seconds per client address, charged where the work ran."""

from __future__ import annotations

import asyncio
import time

import pytest

from server.costs import CpuBudget, OverBudget, billed, charge, current_bill, metered


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_address_spends_its_burst_then_waits_out_its_debt_at_the_rate() -> None:
    clock = Clock()
    budget = CpuBudget(burst=1.0, rate=0.5, clock=clock)
    budget.charge("a", 0.4)
    assert budget.left("a") == pytest.approx(0.6) and budget.wait("a") == 0.0
    budget.charge("a", 1.0)  # one request may overdraw: its cost is known only once it ran
    assert budget.left("a") == pytest.approx(-0.4)
    assert budget.wait("a") == pytest.approx(0.802)
    with pytest.raises(OverBudget) as refused:
        budget.admit("a")
    assert refused.value.retry_after == pytest.approx(0.9) and "retry in 0.9 s" in refused.value.reason
    budget.admit("b")  # other addresses have their own
    clock.now += 0.81
    budget.admit("a")
    clock.now += 100
    assert budget.left("a") == 1.0  # refilled to the burst, no further


def test_work_in_a_billed_block_and_its_tasks_is_charged_to_its_address_and_nothing_outside() -> None:
    budget = CpuBudget(burst=10.0, rate=1.0)

    async def run() -> None:
        charge(5.0)  # nobody's request: the server's own work
        with billed(budget, "a") as bill:
            charge(0.5)
            await asyncio.create_task(_charge_later(0.25))  # a task started in the block pays too
            assert current_bill() is bill
        assert current_bill() is None
        assert bill.seconds == pytest.approx(0.75)

    asyncio.run(run())
    assert budget.left("a") == pytest.approx(9.25, abs=0.01) and budget.left("b") == 10.0


async def _charge_later(seconds: float) -> None:
    await asyncio.sleep(0)
    charge(seconds)


def test_metered_charges_the_cpu_the_loop_thread_spent() -> None:
    budget = CpuBudget(burst=10.0, rate=1.0)
    with billed(budget, "a") as bill, metered():
        deadline = time.thread_time() + 0.03
        while time.thread_time() < deadline:
            pass
    assert 0.03 <= bill.seconds < 1.0


def test_an_address_in_debt_is_refused_before_the_work_unless_the_block_decides_itself() -> None:
    budget = CpuBudget(burst=1.0, rate=1.0)
    budget.charge("a", 3.0)
    with pytest.raises(OverBudget), billed(budget, "a"):
        raise AssertionError("the block must not run")
    with billed(budget, "a", admit=False) as bill:  # e.g. a question a kept answer may still cover
        assert bill.address == "a"
