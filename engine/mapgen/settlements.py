"""Towns and works (rules §11 step 6): URBAN and INDUSTRIAL clusters near the roads.

Seeds are drawn one at a time with probability proportional to a weight: 1, plus 1.5
on a road, plus 1 for an off-road cell next to a road, plus 3 at a road junction, plus
2 on a bridge. WATER and non-bridge river cells are never drawn, and a cell within
Chebyshev distance 3 of an earlier seed is no longer eligible, so seeds are at least 4
apart. ``clamp(round(A / 220), 2, 4)`` URBAN seeds come first, then
``clamp(round(A / 300), 1, 3)`` INDUSTRIAL ones (A = W * H); fewer when no cell is left.

Each seed then grows a cluster breadth-first within Chebyshev radius r of the seed,
converting cells ring by ring, road-side cells first within a ring, then (y, x):

* URBAN: ``r = int(2, 4)``, size ``int(2r + 2, r * r + 2r)``;
* INDUSTRIAL: ``r = int(2, 3)``, size ``int(2r + 1, r * r + r + 2)``.

The growth passes over roads and bridges but never converts them, and never crosses or
converts river, WATER, or an existing cluster cell. A cluster smaller than its drawn
size (no room) is simply smaller.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate

from ..types import TerrainType
from .geometry import Grid, round_half_up
from .stream import Draws

__all__ = ["place_settlements", "settlement_counts"]

SEED_SPACING = 4
URBAN, INDUSTRIAL, WATER = TerrainType.URBAN, TerrainType.INDUSTRIAL, TerrainType.WATER


def settlement_counts(width: int, height: int) -> tuple[int, int]:
    """``(urban seeds, industrial seeds)`` for a board size."""
    area = width * height
    return (
        min(4, max(2, round_half_up(area / 220))),
        min(3, max(1, round_half_up(area / 300))),
    )


def place_settlements(
    grid: Grid,
    terrain: list[TerrainType],
    river: bytearray,
    road: bytearray,
    bridge: bytearray,
    draws: Draws,
) -> None:
    """Draw the seeds and grow their clusters into ``terrain``."""
    urban, industrial = settlement_counts(grid.width, grid.height)
    weights = _weights(grid, terrain, river, road, bridge)
    seeds: list[int] = []
    for _ in range(urban + industrial):
        cumulative = list(accumulate(weights))
        if not cumulative or cumulative[-1] <= 0.0:
            break
        # the first cell whose running total exceeds the draw: always one of positive weight
        seed = bisect_right(cumulative, draws.fraction() * cumulative[-1])
        seeds.append(seed)
        x, y = grid.xy(seed)
        for yy in range(max(0, y - SEED_SPACING + 1), min(grid.height, y + SEED_SPACING)):
            for xx in range(max(0, x - SEED_SPACING + 1), min(grid.width, x + SEED_SPACING)):
                weights[yy * grid.width + xx] = 0.0
    for n, seed in enumerate(seeds):
        if n < urban:
            radius = draws.integer(2, 4)
            size = draws.integer(2 * radius + 2, radius * radius + 2 * radius)
            _grow(grid, terrain, river, road, bridge, seed, URBAN, radius, size)
        else:
            radius = draws.integer(2, 3)
            size = draws.integer(2 * radius + 1, radius * radius + radius + 2)
            _grow(grid, terrain, river, road, bridge, seed, INDUSTRIAL, radius, size)


def _weights(
    grid: Grid, terrain: list[TerrainType], river: bytearray, road: bytearray, bridge: bytearray
) -> list[float]:
    weights = [0.0] * grid.size
    for i in range(grid.size):
        if (river[i] and not bridge[i]) or (terrain[i] is WATER and not river[i]):
            continue
        weight = 1.0
        if road[i]:
            weight += 1.5
            if sum(1 for n in grid.n4[i] if road[n]) >= 3:
                weight += 3.0
        elif any(road[n] for n in grid.n4[i]):
            weight += 1.0
        if bridge[i]:
            weight += 2.0
        weights[i] = weight
    return weights


def _grow(
    grid: Grid,
    terrain: list[TerrainType],
    river: bytearray,
    road: bytearray,
    bridge: bytearray,
    seed: int,
    kind: TerrainType,
    radius: int,
    size: int,
) -> None:
    def passable(i: int) -> bool:
        if river[i]:
            return bool(bridge[i])
        return terrain[i] is not WATER

    def convertible(i: int) -> bool:
        return not river[i] and not road[i] and terrain[i] not in (WATER, URBAN, INDUSTRIAL)

    ring = [seed]
    seen = {seed}
    grown = 0
    while ring and grown < size:
        ring.sort(key=lambda i: (not any(road[n] for n in grid.n4[i]), i))
        for i in ring:
            if grown < size and convertible(i):
                terrain[i] = kind
                grown += 1
        following: list[int] = []
        for i in ring:
            for n in grid.n4[i]:
                if n not in seen and grid.chebyshev(n, seed) <= radius and passable(n):
                    seen.add(n)
                    following.append(n)
        ring = following
