"""Bridges (rules §11 step 3): where roads may cross the river.

A bridge is always a straight, degree-2 river cell off the board edge, so it has land on
exactly two opposite sides and a road can only cross it straight. No two bridges are
within Chebyshev distance 2 of each other, so bridges never touch.

1. *Primary* bridges, up to ``max_bridges``: candidates are visited in a shuffled order,
   and a candidate becomes a bridge when its two land sides lie in land components
   (4-connected, river as wall) that no bridge joins yet. This links the land like a
   spanning tree. When no candidate separates anything, the first candidate is used.
2. *Extra* bridges, ``floor(|river| / extra_bridge_every)`` more, on further candidates
   in the same shuffled order that are at least ``extra_bridge_min_spacing`` (Chebyshev)
   from every bridge.

The first bridge is the *primary* one that the first arterial road is forced across.
"""

from __future__ import annotations

from .geometry import Grid, label_regions
from .params import TerrainParams
from .stream import Draws

__all__ = ["bridge_sides", "place_bridges"]

MIN_BRIDGE_GAP = 3  # Chebyshev distance between any two bridges


def bridge_sides(grid: Grid, river: bytearray, cell: int) -> tuple[int, int] | None:
    """The two land cells on either side of a straight, non-edge river cell, else None."""
    if not river[cell] or grid.is_edge(cell):
        return None
    w = grid.width
    north, south, west, east = cell - w, cell + w, cell - 1, cell + 1
    if river[north] and river[south] and not river[west] and not river[east]:
        return west, east
    if river[west] and river[east] and not river[north] and not river[south]:
        return north, south
    return None


def place_bridges(grid: Grid, river: bytearray, params: TerrainParams, draws: Draws) -> list[int]:
    """Choose the bridge cells; the first one is the primary bridge. Consumes one shuffle."""
    candidates = [i for i in range(grid.size) if bridge_sides(grid, river, i) is not None]
    order = draws.shuffled(candidates)
    land = label_regions(grid, [-1 if wet else 0 for wet in river])
    parent = list(range(max(land) + 1))

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    near = bytearray(grid.size)  # within MIN_BRIDGE_GAP - 1 of a bridge
    spacing = max(MIN_BRIDGE_GAP, params.extra_bridge_min_spacing)
    crowded = bytearray(grid.size)  # within spacing - 1 of a bridge
    bridges: list[int] = []

    def add(cell: int) -> None:
        bridges.append(cell)
        _stamp(grid, near, cell, MIN_BRIDGE_GAP - 1)
        _stamp(grid, crowded, cell, spacing - 1)

    for cell in order:
        if len(bridges) >= params.max_bridges:
            break
        sides = bridge_sides(grid, river, cell)
        assert sides is not None
        a, b = root(land[sides[0]]), root(land[sides[1]])
        if a != b and not near[cell]:
            parent[a] = b
            add(cell)
    if not bridges and order and params.max_bridges > 0:
        add(order[0])
    extra = sum(river) // params.extra_bridge_every
    for cell in order:
        if extra <= 0:
            break
        if not crowded[cell]:
            add(cell)
            extra -= 1
    return bridges


def _stamp(grid: Grid, mask: bytearray, cell: int, radius: int) -> None:
    """Mark every cell within Chebyshev ``radius`` of ``cell``."""
    x, y = grid.xy(cell)
    w = grid.width
    x0, x1 = max(0, x - radius), min(w - 1, x + radius)
    for yy in range(max(0, y - radius), min(grid.height - 1, y + radius) + 1):
        mask[yy * w + x0 : yy * w + x1 + 1] = b"\x01" * (x1 - x0 + 1)
