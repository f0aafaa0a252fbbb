"""Remembered parts of observations: by value, or by the identity of an immutable input.

An environment encodes one view per step, and most parts of a position are the very
objects of the step before: states are immutable and `reduce` keeps every field it does
not touch. A part that is a pure function of a few such objects is built once and
looked up afterwards.

* `by_value`: keyed by a small hashable value (a few short tuples, flags);
* `by_identity`: keyed by the ids of immutable objects, which the table holds (so an id
  cannot be reused by another object while its entry lives) and checks with ``is``.

Both kinds of table are emptied when full: a game uses few values, several environments
in one process a few times more. An identity table only ever hits on the objects of the
last few positions, so it is kept small: whatever it holds stays alive (and is walked by
the garbage collector) until it is emptied. `clear_memos` empties every table (tests
compare remembered parts with fresh ones).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = ["IDENTITY_LIMIT", "LIMIT", "by_identity", "by_value", "clear_memos", "memo_table"]

LIMIT = 4096
"""Entries a `by_value` table keeps before it is emptied."""
IDENTITY_LIMIT = 256
"""Entries a `by_identity` table keeps: the recent positions of a few environments."""

V = TypeVar("V")
K = TypeVar("K", bound=Hashable)

_TABLES: list[dict[Any, Any]] = []


def memo_table() -> dict[Any, Any]:
    """A new table, emptied by `clear_memos`."""
    table: dict[Any, Any] = {}
    _TABLES.append(table)
    return table


def clear_memos() -> None:
    """Forget every remembered part."""
    for table in _TABLES:
        table.clear()


def by_value(table: dict[K, V], key: K, build: Callable[[], V]) -> V:
    """``table[key]``, built on a miss (``build`` must depend on ``key`` only and never return None)."""
    value = table.get(key)
    if value is None:
        if len(table) >= LIMIT:
            table.clear()
        value = table[key] = build()
    return value


def by_identity(table: dict[Any, tuple[tuple[Any, ...], V]], inputs: tuple[Any, ...], build: Callable[[], V]) -> V:
    """What ``build`` makes of the immutable objects ``inputs`` (it must read nothing else)."""
    key = tuple(map(id, inputs))
    hit = table.get(key)
    if hit is not None:  # the entry holds its inputs alive, so these ids are still theirs: the same objects
        return hit[1]
    value = build()
    if len(table) >= IDENTITY_LIMIT:
        table.clear()
    table[key] = (inputs, value)
    return value
