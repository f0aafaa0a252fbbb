"""Token buckets: a burst, then a steady rate."""

from __future__ import annotations

from server.ratelimit import AddressLimiter, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(20, 5.0, clock)
    assert [bucket.take() for _ in range(21)] == [True] * 20 + [False]
    clock.now += 0.2  # one token at 5/s
    assert bucket.take() and not bucket.take()
    clock.now += 100
    assert sum(bucket.take() for _ in range(30)) == 20  # never more than the burst


def test_addresses_have_separate_buckets_and_full_ones_are_forgotten() -> None:
    clock = Clock()
    limiter = AddressLimiter(2, 1.0, clock)
    assert limiter.take("a") and limiter.take("a") and not limiter.take("a")
    assert limiter.take("b")
    for i in range(10_001):
        limiter.take(f"host{i}")
    clock.now += 10
    limiter.take("again")
    assert len(limiter._buckets) < 100
