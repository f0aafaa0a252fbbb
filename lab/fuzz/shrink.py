"""Shrinking a failing game to a minimal one, and writing it as a ready-to-run pytest file.

`shrink` first cuts the game right after the failing step, then runs delta debugging
(ddmin) over the action list: it keeps any subsequence that still replays legally and
still fails the *same* check, until removing any single chunk (down to single actions)
loses the failure or the test budget runs out. Only the failing check runs while
shrinking, which keeps each test cheap.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import Action, GameConfig, GameRecord, encode_record

from .invariants import STATE_CHECKS, STEP_CHECKS, Failure
from .runner import INVALID, FuzzOptions, check_sequence

__all__ = ["Shrunk", "ddmin", "pytest_source", "shrink"]


@dataclass(frozen=True)
class Shrunk:
    """A minimal failing game: its record, the failure it still shows, and the tests run."""

    record: GameRecord
    failure: Failure
    tests: int


def ddmin(items: Sequence[Action], fails: Callable[[list[Action]], bool], budget: int) -> tuple[list[Action], int]:
    """Zeller's delta debugging: a smaller list that still ``fails``; also the tests used.

    ``fails(items)`` must hold on entry. Complements (the list minus one chunk) are tried
    first, then single chunks; granularity doubles when nothing smaller fails.
    """
    current = list(items)
    tests = 0
    granularity = 2
    while len(current) >= 2 and tests < budget:
        size = -(-len(current) // granularity)
        chunks = [current[i : i + size] for i in range(0, len(current), size)]
        reduced = False
        for i in range(len(chunks)):
            if tests >= budget:
                break
            complement = [a for j, chunk in enumerate(chunks) if j != i for a in chunk]
            tests += 1
            if complement and fails(complement):
                current, granularity, reduced = complement, max(granularity - 1, 2), True
                break
        if not reduced and granularity > 2:
            for chunk in chunks:
                if tests >= budget:
                    break
                tests += 1
                if fails(chunk):
                    current, granularity, reduced = chunk, 2, True
                    break
        if not reduced:
            if granularity >= len(current):
                break
            granularity = min(len(current), granularity * 2)
    return current, tests


def _only(check: str) -> frozenset[str] | None:
    if check in STATE_CHECKS or check in STEP_CHECKS:
        return frozenset({check})
    return None  # crashes, replay and termination failures need the whole run


def shrink(config: GameConfig, actions: Sequence[Action], failure: Failure, budget: int = 400) -> Shrunk:
    """The smallest failing game ddmin finds within ``budget`` replays."""
    options = FuzzOptions(only=_only(failure.check))
    cut = list(actions[: failure.step + 1]) if failure.step >= 0 else []
    if check_sequence(config, cut, options) is None:  # e.g. a replay failure needs the whole game
        cut = list(actions)

    def fails(candidate: list[Action]) -> bool:
        found = check_sequence(config, candidate, options)
        return found is not None and found is not INVALID and found.check == failure.check

    tests = 1
    if fails([]):
        smallest: list[Action] = []
    else:
        smallest, used = ddmin(cut, fails, budget)
        tests += used
    final = check_sequence(config, smallest, options) or failure
    return Shrunk(record=GameRecord(config=config, actions=tuple(smallest)), failure=final, tests=tests)


def pytest_source(shrunk: Shrunk, origin: str) -> str:
    """A self-contained pytest module that replays the shrunk game and fails while the bug lasts."""
    data = encode_record(shrunk.record).decode()
    digest = hashlib.sha256(data.encode()).hexdigest()[:10]
    name = f"test_fuzz_{shrunk.failure.check}_{digest}"
    detail = shrunk.failure.describe().replace('"""', "'''")
    return f'''"""Regression test written by `taktik fuzz` ({origin}).

Minimal failing game ({len(shrunk.record.actions)} actions): {detail}
It fails while the bug is present and passes once it is fixed.
"""

from __future__ import annotations

from engine import decode_record
from lab.fuzz import check_record

RECORD = r"""
{data}"""


def {name}() -> None:
    failure = check_record(decode_record(RECORD))
    assert failure is None, failure.describe()
'''
