"""Token buckets, connection counts per address, and the backoff after repeated failures."""

from __future__ import annotations

from server.ratelimit import AddressBackoff, AddressLimiter, ConnectionCounter, TokenBucket


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


def test_connections_are_counted_per_address_up_to_the_limit() -> None:
    counter = ConnectionCounter(2)
    assert counter.open("a") and counter.open("a") and not counter.open("a")
    assert counter.open("b")
    counter.close("a")
    assert counter.held("a") == 1 and counter.open("a")
    counter.close("b")
    assert counter.held("b") == 0 and "b" not in counter._open


def test_failures_lock_an_address_out_for_a_growing_delay() -> None:
    clock = Clock()
    backoff = AddressBackoff(3, 60.0, 2.0, 5.0, clock)
    assert [backoff.failed("a") for _ in range(3)] == [0.0, 0.0, 2.0]  # the third failure starts a lockout
    assert backoff.locked_for("a") == 2.0 and backoff.locked_for("b") == 0.0
    clock.now += 2.0
    assert backoff.locked_for("a") == 0.0
    assert backoff.failed("a") == 4.0  # still within the window: the next lockout is twice as long
    clock.now += 4.0
    assert backoff.failed("a") == 5.0  # capped
    clock.now += 60.0  # a whole quiet window: start over
    assert [backoff.failed("a") for _ in range(3)] == [0.0, 0.0, 2.0]


def test_idle_addresses_are_forgotten() -> None:
    clock = Clock()
    backoff = AddressBackoff(2, 1.0, 1.0, 1.0, clock)
    for i in range(10_001):
        backoff.failed(f"host{i}")
    clock.now += 10
    backoff.failed("again")
    assert len(backoff._records) < 100
