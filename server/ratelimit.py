"""Rate limits: token buckets (per socket, per client address), connection counts, and backoff.

`TokenBucket` allows a burst, then a steady rate. `AddressLimiter` keeps one bucket per
client address (match creation). `ConnectionCounter` caps the sockets one address holds
open at once. `AddressBackoff` locks an address out for a growing delay after too many
failures in a row (wrong seat tokens), so guessing gets slower the longer it goes on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["AddressBackoff", "AddressLimiter", "ConnectionCounter", "TokenBucket"]

Clock = Callable[[], float]

_FORGET_ABOVE = 10_000  # addresses remembered before idle ones are dropped


class TokenBucket:
    """Allow ``burst`` events at once, then ``rate`` per second."""

    __slots__ = ("_clock", "_last", "_tokens", "burst", "rate")

    def __init__(self, burst: int, rate: float, clock: Clock = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        """Spend one token if there is one; False means the event is over the limit."""
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next `take` can succeed (0.0: now), rounded up to a tenth."""
        self._refill()
        return 0.0 if self._tokens >= 1.0 else math.ceil((1.0 - self._tokens) / self.rate * 10) / 10

    def empty(self) -> bool:
        """True when the next `take` would fail."""
        self._refill()
        return self._tokens < 1.0

    def full(self) -> bool:
        """True when the bucket has refilled completely (it can be forgotten)."""
        now = self._clock()
        return self._tokens + (now - self._last) * self.rate >= self.burst

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now


class AddressLimiter:
    """One `TokenBucket` per client address, forgetting addresses whose bucket refilled."""

    def __init__(self, burst: int, rate: float, clock: Clock = time.monotonic) -> None:
        self._burst = burst
        self._rate = rate
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def wait(self, address: str) -> float:
        """Seconds until ``address`` may spend a token (0.0: now); spends nothing."""
        bucket = self._buckets.get(address)
        return 0.0 if bucket is None else bucket.wait()

    def take(self, address: str) -> bool:
        """Spend one token of ``address``'s bucket."""
        if len(self._buckets) > _FORGET_ABOVE:
            self._buckets = {a: b for a, b in self._buckets.items() if not b.full()}
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self._burst, self._rate, self._clock)
        return bucket.take()


class ConnectionCounter:
    """How many connections each address holds open; at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count one more connection from ``address``; False (and nothing counted) when it is at the limit."""
        held = self._open.get(address, 0)
        if held >= self.limit:
            return False
        self._open[address] = held + 1
        return True

    def close(self, address: str) -> None:
        """One connection counted by `open` has ended."""
        held = self._open.get(address, 0) - 1
        if held > 0:
            self._open[address] = held
        else:
            self._open.pop(address, None)

    def held(self, address: str) -> int:
        return self._open.get(address, 0)


@dataclass
class _Record:
    failures: TokenBucket
    strikes: int = 0  # lockouts so far: each one doubles the next delay
    until: float = 0.0  # locked out until this time


class AddressBackoff:
    """Lock an address out after ``burst`` failures within ``window`` seconds, for a growing delay.

    The failures are a `TokenBucket` of ``burst`` refilling over ``window``: the failure that
    empties it starts a lockout of ``delay`` seconds, and each further lockout before the
    bucket has refilled doubles it, up to ``max_delay``. An address is forgotten once its
    bucket is full again and it is not locked out. Successes change nothing: a client with
    one good token must not be able to reset its count by using it between guesses.
    """

    def __init__(self, burst: int, window: float, delay: float, max_delay: float,
                 clock: Clock = time.monotonic) -> None:
        self._burst = burst
        self._rate = burst / window
        self._delay = delay
        self._max_delay = max(delay, max_delay)
        self._clock = clock
        self._records: dict[str, _Record] = {}

    def locked_for(self, address: str) -> float:
        """Seconds until ``address`` may try again (0.0: it may now)."""
        record = self._records.get(address)
        if record is None:
            return 0.0
        return max(0.0, record.until - self._clock())

    def failed(self, address: str) -> float:
        """Count one failure of ``address``; returns the lockout it started (0.0: none)."""
        if len(self._records) > _FORGET_ABOVE:
            now = self._clock()
            self._records = {a: r for a, r in self._records.items() if r.until > now or not r.failures.full()}
        record = self._records.get(address)
        if record is None:
            record = self._records[address] = _Record(TokenBucket(self._burst, self._rate, self._clock))
        elif record.failures.full():
            record.strikes = 0  # quiet for a whole window: start over
        record.failures.take()
        if not record.failures.empty():
            return 0.0
        delay = min(self._max_delay, self._delay * 2.0 ** min(record.strikes, 60))
        record.strikes += 1
        record.until = self._clock() + delay
        return delay
