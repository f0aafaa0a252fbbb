"""Minimum counts (rules §11 step 8): enough HILL, ROUGH and FOREST on every map.

The §11 minimums are ``max(8, round(A / 150))`` HILL, ``max(10, round(A / 120))`` ROUGH
and ``max(18, round(A / 70))`` FOREST (A = W * H). They are met by converting *pool*
cells: interior cells (not on the board edge) that are neither road nor river and are
PLAIN, ROUGH, FOREST or HILL (so never WATER, URBAN or INDUSTRIAL).

Decision (small or crowded boards): the three minimums need 36 pool cells, and on an 8x8
board there are only 36 interior cells before any river or road, so the rule cannot always
hold as written. When the pool is smaller than the sum of the minimums, each minimum is
scaled to ``floor(m * pool / sum)``; otherwise the §11 values apply unchanged. These
*effective* minimums are reported in the statistics and always met.

For each type in the order HILL, ROUGH, FOREST, the missing cells are taken from PLAIN
pool cells, highest elevation (HILL, ROUGH) or moisture (FOREST) first, ties by (y, x).
Decision: if PLAIN runs out (a map dominated by one type), cells are taken by the same
order from the other two types where they exceed their own minimum. Because the
effective minimums fit in the pool, this always succeeds.
"""

from __future__ import annotations

from heapq import nsmallest

from ..types import TerrainType
from .geometry import Grid, round_half_up

__all__ = ["MINIMUM_TYPES", "effective_minimums", "enforce_minimums", "rule_minimums"]

PLAIN, ROUGH, FOREST, HILL = TerrainType.PLAIN, TerrainType.ROUGH, TerrainType.FOREST, TerrainType.HILL
MINIMUM_TYPES = (HILL, ROUGH, FOREST)
POOL_TYPES = (PLAIN, ROUGH, FOREST, HILL)


def rule_minimums(width: int, height: int) -> tuple[int, int, int]:
    """The §11 minimum ``(HILL, ROUGH, FOREST)`` counts for a board size."""
    area = width * height
    return (
        max(8, round_half_up(area / 150)),
        max(10, round_half_up(area / 120)),
        max(18, round_half_up(area / 70)),
    )


def effective_minimums(width: int, height: int, pool: int) -> tuple[int, int, int]:
    """The minimums scaled down to fit ``pool`` cells (unchanged when they fit)."""
    wanted = rule_minimums(width, height)
    total = sum(wanted)
    if total <= pool:
        return wanted
    hill, rough, forest = (m * pool // total for m in wanted)
    return hill, rough, forest


def enforce_minimums(
    grid: Grid,
    terrain: list[TerrainType],
    overlay: bytearray,
    elevation: list[float],
    moisture: list[float],
) -> tuple[int, int, int]:
    """Convert pool cells until the effective minimums hold; return those minimums."""
    pool = [i for i in range(grid.size) if _in_pool(grid, terrain, overlay, i)]
    minimums = effective_minimums(grid.width, grid.height, len(pool))
    needed = dict(zip(MINIMUM_TYPES, minimums, strict=True))
    counts = {kind: 0 for kind in POOL_TYPES}
    for i in pool:
        counts[terrain[i]] += 1
    for kind in MINIMUM_TYPES:
        missing = needed[kind] - counts[kind]
        if missing <= 0:
            continue
        score = moisture if kind is FOREST else elevation
        plain = [i for i in pool if terrain[i] is PLAIN]
        chosen = nsmallest(missing, plain, key=lambda i: (-score[i], i))
        if len(chosen) < missing:
            spare = {t: counts[t] - needed[t] for t in MINIMUM_TYPES}
            donors = [i for i in pool if terrain[i] in MINIMUM_TYPES and terrain[i] is not kind]
            for i in sorted(donors, key=lambda i: (-score[i], i)):
                if len(chosen) == missing:
                    break
                if spare[terrain[i]] > 0:
                    spare[terrain[i]] -= 1
                    chosen.append(i)
        for i in chosen:
            counts[terrain[i]] -= 1
            terrain[i] = kind
            counts[kind] += 1
    return minimums


def _in_pool(grid: Grid, terrain: list[TerrainType], overlay: bytearray, i: int) -> bool:
    return not overlay[i] and not grid.is_edge(i) and terrain[i] in POOL_TYPES
