"""The client paces its actions under the server's rate limit, with a margin for the network."""

from __future__ import annotations

import asyncio

import pytest

from client import Pacer
from client.pacing import MARGIN


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_goes_at_once_then_the_rate_with_a_margin() -> None:
    clock = Clock()
    pacer = Pacer(rate=2.0, burst=10, clock=clock)
    for _ in range(9):  # one token less than the server's burst
        assert pacer.delay() == 0.0
        pacer.take()
    assert pacer.delay() == pytest.approx(1 / (2.0 * MARGIN))
    clock.now += 1 / (2.0 * MARGIN)
    assert pacer.delay() == 0.0
    pacer.take()
    assert pacer.delay() > 0
    clock.now += 3600  # a long pause refills only the margin's burst
    for _ in range(9):
        pacer.take()
    assert pacer.delay() > 0


def test_a_refusal_as_too_fast_empties_the_bucket() -> None:
    clock = Clock()
    pacer = Pacer(rate=4.0, burst=10, clock=clock)
    assert pacer.slow_down() == 0.25 and pacer.delay() > 0


def test_no_pacing_never_waits_and_bad_paces_are_refused() -> None:
    pacer = Pacer(rate=None)
    for _ in range(1000):
        assert pacer.delay() == 0.0
        pacer.take()
    asyncio.run(asyncio.wait_for(pacer.wait(), 1))
    with pytest.raises(ValueError, match="positive rate"):
        Pacer(rate=0.0)
    with pytest.raises(ValueError, match="burst"):
        Pacer(burst=0)


def test_wait_sleeps_until_a_token_is_free() -> None:
    async def run() -> float:
        loop = asyncio.get_running_loop()
        pacer = Pacer(rate=20.0, burst=2, clock=loop.time)
        start = loop.time()
        for _ in range(3):  # one at once, then two at 18 a second
            await pacer.wait()
        return loop.time() - start

    assert asyncio.run(asyncio.wait_for(run(), 5)) >= 2 / (20.0 * MARGIN) - 0.01
