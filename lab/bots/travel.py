"""Travel distance: how far a unit must walk before it can fire at an enemy, over the real step costs.

The approach pull of the evaluation counts how far a unit stands from a fight. Counted in
a straight line (Chebyshev), a unit on the far bank of an uncrossable stretch of river
looks close and is never led round to a bridge or a ford. Counted here, it is the least
movement (in MP) over the board's own step costs (`BoardInfo.steps`, rules §5.3: terrain,
roads, rivers, barriers and a variant's movement rules, exactly what the engine's
reachability search reads) from the unit's cell to the nearest cell from which it has an
enemy within its weapon range (rules §6.1: range is Chebyshev, there is no line of sight).
Occupancy is left out: units move, the board does not.

A *field* holds that cost from every cell of the board to one target: a backwards
least-cost search (Dial's buckets, as costs are small whole half-points) from all the
cells within ``weapon`` of the target cell. It depends only on the step table, the weapon
range and the target's cell, so it is computed once per game for each of them and shared
by every position, every simulated world and both sides: a unit's distance to the nearest
enemy is one lookup per enemy, as cheap as the straight-line distance it replaces.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["UNREACHED", "Steps", "firing_field", "travel_cost"]

Steps = Sequence[Sequence[tuple[int, int]]]
"""The engine's step table (`BoardInfo.steps`): per cell, ``(neighbour, cost in half-points)`` of each step."""

UNREACHED = 255
"""Field value (half-points) of a cell from which no firing cell can be reached, or only at that cost or more."""

_Key = tuple[int, int, int]  # step table (by identity), weapon range, target cell
_FIELDS: dict[_Key, tuple[Steps, bytes]] = {}
_REVERSED: dict[int, tuple[Steps, tuple[tuple[tuple[int, int], ...], ...]]] = {}
_FIELD_LIMIT = 20_000  # fields kept (600 bytes each on a 20x30 board); then the cache starts afresh


def _reversed(steps: Steps) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell ``b``: ``(a, cost)`` for every step from ``a`` into ``b`` (the backwards search walks these)."""
    entry = _REVERSED.get(id(steps))
    if entry is not None and entry[0] is steps:
        return entry[1]
    into: list[list[tuple[int, int]]] = [[] for _ in steps]
    for a, out in enumerate(steps):
        for b, cost in out:
            into[b].append((a, cost))
    found = tuple(tuple(row) for row in into)
    if len(_REVERSED) >= 16:
        _REVERSED.clear()  # one atomic step: a server's bot threads may share this
    _REVERSED[id(steps)] = (steps, found)  # holds the table, so its id is not reused while the entry lives
    return found


def firing_field(steps: Steps, width: int, weapon: int, target: int) -> bytes:
    """Half-points from every cell to the nearest cell within ``weapon`` (Chebyshev) of cell ``target``.

    One byte per cell index, capped at `UNREACHED`. Cached by the step table's identity,
    ``weapon`` and ``target``: the table belongs to a board that never changes.
    """
    key = (id(steps), weapon, target)
    entry = _FIELDS.get(key)
    if entry is not None and entry[0] is steps:
        return entry[1]
    into = _reversed(steps)
    size = len(steps)
    height = size // width
    best = [UNREACHED] * size
    tx, ty = target % width, target // width
    start: list[int] = []
    for y in range(max(0, ty - weapon), min(height, ty + weapon + 1)):
        for x in range(max(0, tx - weapon), min(width, tx + weapon + 1)):
            cell = y * width + x
            best[cell] = 0
            start.append(cell)
    buckets: list[list[int]] = [start]
    spent = 0
    while spent < len(buckets):
        for cell in buckets[spent]:
            if best[cell] != spent:
                continue  # reached more cheaply since it was queued
            for before, cost in into[cell]:
                total = spent + cost
                if total < best[before]:  # never at UNREACHED or beyond: every value fits a byte
                    best[before] = total
                    while len(buckets) <= total:
                        buckets.append([])
                    buckets[total].append(before)
        spent += 1
    field = bytes(best)
    if len(_FIELDS) >= _FIELD_LIMIT:
        _FIELDS.clear()
    _FIELDS[key] = (steps, field)
    return field


def travel_cost(fields: Sequence[bytes], cell: int) -> int:
    """Half-points from ``cell`` to the nearest firing cell of any of ``fields`` (`UNREACHED` if none)."""
    best = UNREACHED
    for field in fields:
        cost = field[cell]
        if cost < best:
            best = cost
    return best
