"""Statistics of a generated map, measured on the finished `Board`."""

from __future__ import annotations

import msgspec

from ..board.grid import label
from ..board.terrain_map import TERRAIN_CHARS, Board
from ..types import TerrainType

__all__ = ["TerrainCount", "TerrainStats", "measure"]


class TerrainCount(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How much of one base terrain type a map has."""

    terrain: TerrainType
    cells: int  # cells with this base terrain (road and river cells are PLAIN)
    regions: int  # 4-connected regions of this base terrain
    largest_region: int  # cells in the largest such region (0 when there is none)


class TerrainStats(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Facts about a generated map; plain data, JSON-serialisable, in a fixed order."""

    width: int
    height: int
    terrain: tuple[TerrainCount, ...]  # one entry per `TerrainType`, in declaration order
    road_cells: int  # bridges included
    road_regions: int  # 4-connected road networks
    river_cells: int  # bridges included
    river_regions: int  # 4-connected river systems
    bridges: tuple[str, ...]  # labels of the road-and-river cells, in (y, x) order
    road_target: int  # round(W * H * clamped road density)
    river_target: int  # round(W * H * clamped river density)
    minimum_hill: int  # effective minimum counts of step 8 (the §11 values when they fit)
    minimum_rough: int
    minimum_forest: int
    rng_steps: int  # LCG steps consumed: the next seed is the input seed advanced this often

    def count(self, terrain: TerrainType) -> int:
        """Cells of ``terrain``."""
        return next(entry.cells for entry in self.terrain if entry.terrain is terrain)


def measure(
    board: Board,
    *,
    road_target: int,
    river_target: int,
    minimums: tuple[int, int, int],
    rng_steps: int,
) -> TerrainStats:
    """Count terrain, regions, roads, rivers and bridges on ``board``."""
    w, h = board.width, board.height
    cells = "".join(board.rows)
    base = [TERRAIN_CHARS[c][0] for c in cells]
    road = [TERRAIN_CHARS[c][1] for c in cells]
    river = [TERRAIN_CHARS[c][2] for c in cells]
    kinds = list(TerrainType)
    codes = [kinds.index(t) for t in base]
    sizes = _region_sizes(codes, len(kinds), w, h)
    entries = tuple(
        TerrainCount(
            terrain=kind,
            cells=sum(1 for c in codes if c == k),
            regions=len(sizes[k]),
            largest_region=max(sizes[k], default=0),
        )
        for k, kind in enumerate(kinds)
    )
    road_codes = [0 if r else -1 for r in road]
    river_codes = [0 if r else -1 for r in river]
    return TerrainStats(
        width=w,
        height=h,
        terrain=entries,
        road_cells=sum(road),
        road_regions=len(_region_sizes(road_codes, 1, w, h)[0]),
        river_cells=sum(river),
        river_regions=len(_region_sizes(river_codes, 1, w, h)[0]),
        bridges=tuple(label(i % w, i // w) for i, c in enumerate(cells) if c == "#"),
        road_target=road_target,
        river_target=river_target,
        minimum_hill=minimums[0],
        minimum_rough=minimums[1],
        minimum_forest=minimums[2],
        rng_steps=rng_steps,
    )


def _region_sizes(codes: list[int], kinds: int, w: int, h: int) -> list[list[int]]:
    """Sizes of the 4-connected regions of equal codes, for each code ``0 .. kinds-1``.

    Cells with a negative code belong to no region.
    """
    sizes: list[list[int]] = [[] for _ in range(kinds)]
    seen = bytearray(len(codes))
    last = w * h
    for start, code in enumerate(codes):
        if seen[start] or code < 0:
            continue
        seen[start] = 1
        stack, size = [start], 0
        while stack:
            i = stack.pop()
            size += 1
            x = i % w
            for n in (i - w, i + 1 if x < w - 1 else -1, i + w, i - 1 if x > 0 else -1):
                if 0 <= n < last and not seen[n] and codes[n] == code:
                    seen[n] = 1
                    stack.append(n)
        sizes[code].append(size)
    return sizes
