"""Base terrain from noise (rules §11 step 5).

* River cells start as WATER. At every river bend or junction, the lowest-elevation
  orthogonal neighbour that is neither river nor road (ties by (y, x)) becomes WATER too:
  pools beside the river, which is why every WATER cell touches a river cell.
* Elsewhere: elevation >= 0.72 is HILL; otherwise moisture >= 0.62 is FOREST; otherwise
  elevation >= 0.52 is ROUGH; the rest is PLAIN.
* Forest then grows, in one pass decided on the map as it was, into PLAIN or ROUGH cells
  with moisture >= 0.54 that touch at least two FOREST cells (8-neighbourhood) and are
  ROUGH or within Chebyshev distance 2 of a river cell.

Road cells get a base terrain like any other cell here; cleanup (step 7) makes every
road and river cell PLAIN.
"""

from __future__ import annotations

from ..types import TerrainType
from .geometry import Grid

__all__ = ["assign_biomes"]

HILL_ELEVATION = 0.72
ROUGH_ELEVATION = 0.52
FOREST_MOISTURE = 0.62
FOREST_GROWTH_MOISTURE = 0.54
FOREST_GROWTH_NEIGHBOURS = 2
RIVER_REACH = 2

PLAIN, ROUGH, FOREST = TerrainType.PLAIN, TerrainType.ROUGH, TerrainType.FOREST
HILL, WATER = TerrainType.HILL, TerrainType.WATER


def assign_biomes(
    grid: Grid, river: bytearray, road: bytearray, elevation: list[float], moisture: list[float]
) -> list[TerrainType]:
    """Row-major base terrain after step 5."""
    terrain: list[TerrainType] = []
    for i in range(grid.size):
        if river[i]:
            terrain.append(WATER)
        elif elevation[i] >= HILL_ELEVATION:
            terrain.append(HILL)
        elif moisture[i] >= FOREST_MOISTURE:
            terrain.append(FOREST)
        elif elevation[i] >= ROUGH_ELEVATION:
            terrain.append(ROUGH)
        else:
            terrain.append(PLAIN)
    _add_pools(grid, river, road, elevation, terrain)
    _grow_forest(grid, river, moisture, terrain)
    return terrain


def _add_pools(
    grid: Grid, river: bytearray, road: bytearray, elevation: list[float], terrain: list[TerrainType]
) -> None:
    w = grid.width
    for i in range(grid.size):
        if not river[i]:
            continue
        wet = [n for n in grid.n4[i] if river[n]]
        straight = len(wet) == 2 and abs(wet[0] - wet[1]) in (2, 2 * w)
        if len(wet) < 2 or straight:
            continue  # neither a bend nor a junction
        dry = [n for n in grid.n4[i] if not river[n] and not road[n]]
        if dry:
            terrain[min(dry, key=lambda n: (elevation[n], n))] = WATER


def _grow_forest(grid: Grid, river: bytearray, moisture: list[float], terrain: list[TerrainType]) -> None:
    before = list(terrain)
    w, h = grid.width, grid.height
    for i in range(grid.size):
        if before[i] not in (PLAIN, ROUGH) or moisture[i] < FOREST_GROWTH_MOISTURE:
            continue
        if sum(1 for n in grid.n8[i] if before[n] is FOREST) < FOREST_GROWTH_NEIGHBOURS:
            continue
        if before[i] is ROUGH or _near_river(river, w, h, i):
            terrain[i] = FOREST


def _near_river(river: bytearray, w: int, h: int, i: int) -> bool:
    x, y = i % w, i // w
    for yy in range(max(0, y - RIVER_REACH), min(h, y + RIVER_REACH + 1)):
        if any(river[yy * w + max(0, x - RIVER_REACH) : yy * w + min(w, x + RIVER_REACH + 1)]):
            return True
    return False
