"""Keep under the server's rate limits instead of being refused (docs/protocol.md, "Limits per socket").

A server answers an ``act`` over its limit with ``rate_limited`` and drops it, and closes a
socket that keeps flooding. A bot decides far faster than a person, so this client paces
its own actions with the same token-bucket rule the server applies: ``burst`` at once,
then ``rate`` a second. The defaults are the server's documented defaults for actions
(10 at once, then 2 a second); a host who lifted them tells the players, who raise these.

The pacer keeps a margin for the network: it spends one token less than the burst at
once and refills at `MARGIN` of the rate, because two actions sent half a second apart
may arrive closer together (the first delayed, the second not), and the server judges
by arrival.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["DEFAULT_ACTION_BURST", "DEFAULT_ACTION_RATE", "MARGIN", "Pacer"]

DEFAULT_ACTION_BURST = 10
DEFAULT_ACTION_RATE = 2.0
MARGIN = 0.9


@dataclass
class Pacer:
    """A token bucket that waits for a token instead of failing; ``rate=None`` never waits."""

    rate: float | None = DEFAULT_ACTION_RATE  # tokens a second (None: no pacing)
    burst: int = DEFAULT_ACTION_BURST
    clock: Callable[[], float] = time.monotonic
    _tokens: float = field(init=False)
    _at: float = field(init=False)

    def __post_init__(self) -> None:
        if self.rate is not None and self.rate <= 0:
            raise ValueError("a pace needs a positive rate (or None for no pacing)")
        if self.burst < 1:
            raise ValueError("a pace needs a burst of at least 1")
        self._tokens = float(self._room)
        self._at = self.clock()

    @property
    def _room(self) -> int:
        return max(1, self.burst - 1)

    def delay(self) -> float:
        """Seconds until a token is free (0 now)."""
        if self.rate is None:
            return 0.0
        self._refill()
        return 0.0 if self._tokens >= 1 else (1 - self._tokens) / (self.rate * MARGIN)

    def take(self) -> None:
        """Use a token (call when `delay` is 0)."""
        if self.rate is not None:
            self._refill()
            self._tokens -= 1

    async def wait(self) -> None:
        """Wait until a token is free, then use it."""
        while (pause := self.delay()) > 0:
            await asyncio.sleep(pause)
        self.take()

    def slow_down(self) -> float:
        """The server refused a message as too fast: empty the bucket; returns the seconds to wait."""
        self._refill()
        self._tokens = min(self._tokens, 0.0)
        return 1.0 / self.rate if self.rate is not None else 1.0

    def _refill(self) -> None:
        now = self.clock()
        assert self.rate is not None
        self._tokens = min(float(self._room), self._tokens + (now - self._at) * self.rate * MARGIN)
        self._at = now
