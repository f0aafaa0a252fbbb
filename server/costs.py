"""The cost model: what a costly request costs, which client address pays for it, and when it may ask again.

Work that grows with the board or the record (threat maps, previews, explanations, hints,
replays, evaluations, forks; docs/server.md, "Costly requests") is measured in CPU seconds
on the clock of the thread that did it, and charged to the client address that caused it.
Each address has a `CpuBudget`: a bucket of ``burst`` seconds refilling at ``rate`` seconds
per second, which a charge may overdraw. While an address is in debt its costly requests
are refused (`OverBudget`: ``rate_limited`` on a socket, 429 over HTTP) with the seconds
until it is out of debt. A request answered from a cache computes nothing, costs nothing and
is never refused.

The address travels with the request in a context variable (`billed`), so the code that
does the work (`charge`, `metered`, `server.analysts`) need not be told who asked: work
done outside any `billed` block (loading a match for its own sake, a bot seat) is the
server's own and charged to nobody.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["Bill", "CpuBudget", "OverBudget", "billed", "charge", "current_bill", "metered", "retry_words"]

Clock = Callable[[], float]

_FORGET_ABOVE = 10_000  # addresses remembered before those whose bucket refilled are dropped


def retry_words(seconds: float) -> str:
    """``"retry in 1.3 s"``: the wait rounded up to a tenth, never 0."""
    return f"retry in {max(0.1, math.ceil(seconds * 10) / 10):g} s"


class OverBudget(Exception):
    """A costly request refused for now; ``retry_after`` seconds from now it may be asked again."""

    def __init__(self, reason: str, retry_after: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = max(0.1, math.ceil(retry_after * 10) / 10)


class _Account:
    __slots__ = ("last", "seconds")

    def __init__(self, seconds: float, last: float) -> None:
        self.seconds = seconds  # CPU seconds left; below zero: the debt
        self.last = last


class CpuBudget:
    """CPU seconds per client address: ``burst`` at once, then ``rate`` per second; debts are paid by waiting."""

    def __init__(self, burst: float, rate: float, clock: Clock = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self._clock = clock
        self._accounts: dict[str, _Account] = {}

    def _account(self, address: str) -> _Account:
        now = self._clock()
        account = self._accounts.get(address)
        if account is None:
            if len(self._accounts) > _FORGET_ABOVE:
                self._accounts = {a: k for a, k in self._accounts.items()
                                  if k.seconds + (now - k.last) * self.rate < self.burst}
            account = self._accounts[address] = _Account(self.burst, now)
        else:
            account.seconds = min(self.burst, account.seconds + (now - account.last) * self.rate)
            account.last = now
        return account

    def left(self, address: str) -> float:
        """CPU seconds ``address`` may still use now (negative: its debt)."""
        return self._account(address).seconds

    def wait(self, address: str) -> float:
        """Seconds until ``address`` may start another costly request (0.0: now)."""
        left = self.left(address)
        return 0.0 if left > 0 else (1e-3 - left) / self.rate

    def charge(self, address: str, seconds: float) -> None:
        """Take ``seconds`` of CPU from ``address``'s budget (it may go into debt)."""
        self._account(address).seconds -= seconds

    def refusal(self, address: str) -> OverBudget | None:
        """What ``address`` is told while it is in debt (None: it may ask)."""
        wait = self.wait(address)
        if wait <= 0:
            return None
        return OverBudget(f"your address has used its share of the server's time for costly questions; "
                          f"{retry_words(wait)}", wait)

    def admit(self, address: str) -> None:
        """Raise `OverBudget` while ``address`` is in debt."""
        refused = self.refusal(address)
        if refused is not None:
            raise refused


@dataclass
class Bill:
    """Who pays for the work done in a `billed` block, and how much it came to."""

    budget: CpuBudget
    address: str
    seconds: float = 0.0

    def add(self, seconds: float) -> None:
        """Charge ``seconds`` now (not at the end of the block: shared work may outlive its first asker)."""
        self.seconds += seconds
        self.budget.charge(self.address, seconds)


_BILL: ContextVar[Bill | None] = ContextVar("taktik_bill", default=None)


def current_bill() -> Bill | None:
    """The bill of the request being served here (None: the server's own work)."""
    return _BILL.get()


@contextlib.contextmanager
def billed(budget: CpuBudget, address: str, *, admit: bool = True) -> Iterator[Bill]:
    """Charge the work done inside the block (and in tasks it starts) to ``address``.

    With ``admit`` it first raises `OverBudget` if the address is in debt; without, the block
    decides itself (`Bill.budget.admit`) once it knows that a cache cannot answer.
    """
    if admit:
        budget.admit(address)
    bill = Bill(budget, address)
    token = _BILL.set(bill)
    try:
        yield bill
    finally:
        _BILL.reset(token)


def charge(seconds: float) -> None:
    """Charge ``seconds`` of CPU to the current request's address, if any."""
    bill = _BILL.get()
    if bill is not None:
        bill.add(seconds)


@contextlib.contextmanager
def metered() -> Iterator[None]:
    """Charge the CPU this thread spends inside the block (work done on the event loop itself)."""
    start = time.thread_time()
    try:
        yield
    finally:
        charge(time.thread_time() - start)
