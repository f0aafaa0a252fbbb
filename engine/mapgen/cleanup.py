"""Cleanup (rules §11 step 7): smoothing, small-region dissolving, plain edges and overlays.

In this order:

1. ``smoothing_passes`` passes, each decided on the map as it was before the pass: an
   unprotected cell takes the unprotected type held by at least 5 of its 8 neighbours.
   Protected types (WATER, URBAN, INDUSTRIAL) never change and are never adopted; river
   cells are still WATER here, so they take part as protected cells.
2. Every road and river cell becomes PLAIN.
3. FOREST regions under 10 cells, ROUGH under 8 and HILL under 6 (4-connected, road and
   river cells excluded), visited in (y, x) order of their first cell, dissolve into the
   most common unprotected type among the cells bordering them (road and river excluded,
   ties in PLAIN, ROUGH, FOREST, HILL order), or PLAIN when they border none.
4. Unprotected edge cells become PLAIN.
"""

from __future__ import annotations

from ..types import TerrainType
from .geometry import Grid, label_regions

__all__ = ["PROTECTED", "clean_up"]

PLAIN, ROUGH, FOREST, HILL = TerrainType.PLAIN, TerrainType.ROUGH, TerrainType.FOREST, TerrainType.HILL
PROTECTED = frozenset({TerrainType.WATER, TerrainType.URBAN, TerrainType.INDUSTRIAL})
SMOOTHING_MAJORITY = 5
MIN_REGION = ((FOREST, 10), (ROUGH, 8), (HILL, 6))
UNPROTECTED_ORDER = (PLAIN, ROUGH, FOREST, HILL)  # tie order when dissolving


def clean_up(grid: Grid, terrain: list[TerrainType], overlay: bytearray, passes: int) -> None:
    """Apply step 7 to ``terrain`` in place; ``overlay`` marks road and river cells."""
    for _ in range(passes):
        _smooth(grid, terrain)
    for i in range(grid.size):
        if overlay[i]:
            terrain[i] = PLAIN
    _dissolve_small_regions(grid, terrain, overlay)
    for i in grid.edge_cells():
        if terrain[i] not in PROTECTED:
            terrain[i] = PLAIN


def _smooth(grid: Grid, terrain: list[TerrainType]) -> None:
    before = list(terrain)
    fixed = bytearray(1 if t in PROTECTED else 0 for t in before)
    n8 = grid.n8
    for i in range(grid.size):
        if fixed[i]:
            continue
        own = before[i]
        around = n8[i]
        # a type held by >= 5 of m neighbours appears among any m - 4 of them
        probes = len(around) - SMOOTHING_MAJORITY + 1
        if probes <= 0:
            continue
        for n in around[:probes]:
            kind = before[n]
            if kind is own or fixed[n]:
                continue
            if sum(1 for a in around if before[a] is kind) >= SMOOTHING_MAJORITY:
                terrain[i] = kind
                break


def _dissolve_small_regions(grid: Grid, terrain: list[TerrainType], overlay: bytearray) -> None:
    limits = dict(MIN_REGION)
    kinds = [kind for kind, _ in MIN_REGION]
    codes = [-1 if overlay[i] or terrain[i] not in limits else kinds.index(terrain[i]) for i in range(grid.size)]
    labels = label_regions(grid, codes)
    members: list[list[int]] = [[] for _ in range(max(labels, default=-1) + 1)]
    for i, region in enumerate(labels):
        if region >= 0:
            members[region].append(i)
    for cells in members:
        kind = terrain[cells[0]]
        if len(cells) >= limits[kind] or any(terrain[i] is not kind for i in cells):
            continue  # big enough, or already changed by an earlier dissolve
        inside = set(cells)
        counts = dict.fromkeys(UNPROTECTED_ORDER, 0)
        for i in cells:
            for n in grid.n4[i]:
                if n not in inside and not overlay[n] and terrain[n] in counts and terrain[n] is not kind:
                    counts[terrain[n]] += 1
        best = max(UNPROTECTED_ORDER, key=lambda t: (counts[t], -UNPROTECTED_ORDER.index(t)))
        replacement = best if counts[best] > 0 else PLAIN
        for i in cells:
            terrain[i] = replacement
