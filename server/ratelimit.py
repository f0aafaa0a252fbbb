"""Token buckets: a burst, then a steady rate (per socket, and per client address for HTTP)."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["AddressLimiter", "TokenBucket"]


class TokenBucket:
    """Allow ``burst`` events at once, then ``rate`` per second."""

    __slots__ = ("_clock", "_last", "_tokens", "burst", "rate")

    def __init__(self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        """Spend one token if there is one; False means the event is over the limit."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def full(self) -> bool:
        """True when the bucket has refilled completely (it can be forgotten)."""
        now = self._clock()
        return self._tokens + (now - self._last) * self.rate >= self.burst


class AddressLimiter:
    """One `TokenBucket` per client address, forgetting addresses whose bucket refilled."""

    def __init__(self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._burst = burst
        self._rate = rate
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        """Spend one token of ``address``'s bucket."""
        if len(self._buckets) > 10_000:
            self._buckets = {a: b for a, b in self._buckets.items() if not b.full()}
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self._burst, self._rate, self._clock)
        return bucket.take()
