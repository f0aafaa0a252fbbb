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
range and the target's cell, so it is computed once per game for each of them (a
`FieldTable` per step table and range holds them, filled as targets are asked about) and
shared by every position, every simulated world and both sides: a unit's distance to the
nearest enemy is one lookup per enemy, as cheap as the straight-line distance it replaces.
The same fields answer the other question, whether an enemy can walk into range of a
unit: the field of the unit's cell, read at the enemy's.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["UNREACHED", "FieldTable", "Steps", "field_table", "nearest_field"]

Steps = Sequence[Sequence[tuple[int, int]]]
"""The engine's step table (`BoardInfo.steps`): per cell, ``(neighbour, cost in half-points)`` of each step."""

UNREACHED = 255
"""Field value (half-points) of a cell from which no firing cell can be reached, or only at that cost or more."""

_TABLES: dict[tuple[int, int], FieldTable] = {}
_TABLE_LIMIT = 64  # step tables x weapon ranges kept (a few per board); then the cache starts afresh
_NEAREST: dict[tuple[int, tuple[int, ...]], tuple[FieldTable, bytes]] = {}
_NEAREST_LIMIT = 20_000  # combined fields kept (600 bytes each on a 20x30 board)


class FieldTable:
    """The fields of one step table and weapon range, by target cell, computed when first asked for.

    ``fields[target]`` is the field or None (not computed yet): hot loops read it directly
    and call `field` only on a miss.
    """

    def __init__(self, steps: Steps, width: int, weapon: int) -> None:
        self.steps = steps
        self.width = width
        self.weapon = weapon
        self.fields: list[bytes | None] = [None] * len(steps)
        into: list[list[tuple[int, int]]] = [[] for _ in steps]
        for a, out in enumerate(steps):
            for b, cost in out:
                into[b].append((a, cost))
        self._into = tuple(tuple(row) for row in into)  # per cell b: (a, cost) of every step from a into b

    def field(self, target: int) -> bytes:
        """Half-points from every cell to the nearest cell within range (Chebyshev) of cell ``target``.

        One byte per cell index, capped at `UNREACHED`.
        """
        found = self.fields[target]
        if found is not None:
            return found
        into, width, weapon = self._into, self.width, self.weapon
        size = len(into)
        best = [UNREACHED] * size
        tx, ty = target % width, target // width
        start: list[int] = []
        for y in range(max(0, ty - weapon), min(size // width, ty + weapon + 1)):
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
        found = self.fields[target] = bytes(best)  # two threads may both compute it: the same bytes
        return found


def field_table(steps: Steps, width: int, weapon: int) -> FieldTable:
    """The (cached) `FieldTable` of ``steps`` and ``weapon``: kept by the step table's identity.

    The step table belongs to a board that never changes (`BoardInfo.steps` keeps it as long
    as the board lives), and the entry holds it, so its id is not reused while the entry lives.
    """
    key = (id(steps), weapon)
    table = _TABLES.get(key)
    if table is None or table.steps is not steps:
        if len(_TABLES) >= _TABLE_LIMIT:
            _TABLES.clear()  # one atomic step: a server's bot threads may share this
        table = _TABLES[key] = FieldTable(steps, width, weapon)
    return table


def nearest_field(table: FieldTable, targets: tuple[int, ...]) -> bytes:
    """Half-points from every cell to the nearest cell with any of ``targets`` in range: the least of their fields.

    Cached by ``table`` and ``targets``: within a turn the side not to move stands still, so
    one combination serves every position a lookahead of that turn visits.
    """
    key = (id(table), targets)
    entry = _NEAREST.get(key)
    if entry is not None and entry[0] is table:
        return entry[1]
    fields = [table.fields[t] or table.field(t) for t in targets]
    if len(fields) == 1:
        combined = fields[0]
    elif fields:
        combined = bytes(map(min, *fields))
    else:
        combined = bytes([UNREACHED]) * len(table.fields)
    if len(_NEAREST) >= _NEAREST_LIMIT:
        _NEAREST.clear()  # one atomic step: a server's bot threads may share this
    _NEAREST[key] = (table, combined)  # holds the table, so its id is not reused while the entry lives
    return combined
