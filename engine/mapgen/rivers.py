"""Rivers (rules §11 steps 1-2): one trunk across the board, then tributaries.

Both are grown by the axis-persistent walk of `walk.AxisWalk` (no A-B-A-B zig-zags);
here the walks also refuse any cell that would fill a 2x2 block of river.

* The trunk runs from the farthest of 30 sampled edge/opposite-edge pairs (corners
  excluded) and ends when it reaches the opposite edge; it stays off the two side edges.
  Once out of budget (``trunk_step_budget_per_cell * W * H`` moves) it finishes straight
  forward, which never fills a 2x2 block (it only enters rows or columns it has not
  visited), so the trunk always crosses the board.
* A tributary leaves a straight, degree-2 river cell (the *join*) sideways and walks to a
  *source* cell drawn on the board edge (or, when the density is above 0.35, inside the
  board with probability 0.35), at least ``(W + H) // 4`` from the join and at least two
  cells out on the side it leaves from. It may touch the river only at the join and never
  touches itself, so it adds exactly one junction; sideways it only steps back towards
  the source's line; it ends at that line or at the first board edge it reaches. A walk is
  kept when it has at least 4 cells, ends far enough away and creates at most 2 junctions.
  The path is the same object whichever end it is grown from; growing it from the join
  means it can never miss its join.
* Budgets: ``tributary_attempts_per_cell * W * H`` attempts, each walk at most
  ``tributary_step_budget_per_side * (W + H)`` cells, and all attempts together at most
  ``tributary_work_per_side * (W + H)`` units of work (one per attempt plus one per cell
  walked), so generation time stays bounded whatever the target.
"""

from __future__ import annotations

from bisect import bisect_left, insort

from .geometry import ORTHO, Grid, round_half_up
from .params import TerrainParams
from .stream import Draws
from .walk import AxisWalk, Step

__all__ = ["TRUNK_SAMPLES", "carve_rivers", "river_target"]

TRUNK_SAMPLES = 30
INTERIOR_SOURCE_DENSITY = 0.35  # above this river density, sources may lie inside the board
INTERIOR_SOURCE_PROB = 0.35
MIN_TRIBUTARY_CELLS = 4
MAX_NEW_JUNCTIONS = 2


def river_target(width: int, height: int, density: float) -> int:
    """Cells the river network aims for: ``round(W * H * density)``."""
    return round_half_up(width * height * density)


def carve_rivers(grid: Grid, params: TerrainParams, density: float, draws: Draws) -> bytearray:
    """Grow the trunk and the tributaries; return the river mask."""
    river = bytearray(grid.size)
    _carve_trunk(grid, params, river, draws)
    _carve_tributaries(grid, params, density, river, draws)
    return river


def _carve_trunk(grid: Grid, params: TerrainParams, river: bytearray, draws: Draws) -> None:
    w, h = grid.width, grid.height
    best: tuple[int, tuple[int, int], tuple[int, int], Step] | None = None
    for _ in range(TRUNK_SAMPLES):
        side = draws.integer(0, 3)  # edge of the start: 0 N, 1 E, 2 S, 3 W
        if side in (0, 2):
            a, b = draws.integer(1, w - 2), draws.integer(1, w - 2)
            start, goal, forward = ((a, 0), (b, h - 1), (0, 1)) if side == 0 else ((a, h - 1), (b, 0), (0, -1))
        else:
            a, b = draws.integer(1, h - 2), draws.integer(1, h - 2)
            start, goal, forward = ((w - 1, a), (0, b), (-1, 0)) if side == 1 else ((0, a), (w - 1, b), (1, 0))
        distance = abs(start[0] - goal[0]) + abs(start[1] - goal[1])
        if best is None or distance > best[0]:
            best = (distance, start, goal, forward)
    assert best is not None
    _, start, goal, forward = best
    fx, fy = forward
    river[grid.index(*start)] = 1

    def arrived(x: int, y: int) -> bool:
        return (fx != 0 and x == goal[0]) or (fy != 0 and y == goal[1])

    def allowed(x: int, y: int, head: tuple[int, int]) -> bool:
        i = y * w + x
        if river[i] or grid.completes_square(river, i):
            return False
        return arrived(x, y) or not grid.is_edge(i)  # keep off the side edges

    walker = AxisWalk(grid, goal, forward, params.trunk_turn_prob, params.min_axis_run, draws)
    x, y = start
    budget = params.trunk_step_budget_per_cell * grid.size
    while not arrived(x, y):
        step = walker.choose((x, y), allowed) if budget > 0 else None
        budget -= 1
        if step is None:  # out of budget (or stuck): straight on always works (see module doc)
            step = walker.finishing_step(forward, (x, y), allowed)
            walker.record(step)
        x, y = x + step[0], y + step[1]
        river[y * w + x] = 1


def _carve_tributaries(grid: Grid, params: TerrainParams, density: float, river: bytearray, draws: Draws) -> None:
    target = river_target(grid.width, grid.height, density)
    count = sum(river)
    min_distance = (grid.width + grid.height) // 4
    edges = grid.edge_cells()
    joins = [i for i in range(grid.size) if _is_straight(grid, river, i)]
    interior_sources = density > INTERIOR_SOURCE_DENSITY
    work = params.tributary_work_per_side * (grid.width + grid.height)  # shared by all attempts
    walk_budget = params.tributary_step_budget_per_side * (grid.width + grid.height)
    scratch = bytearray(grid.size)
    for _ in range(grid.size * params.tributary_attempts_per_cell):
        if count >= target or not joins or work <= 0:
            break
        join = joins[draws.index(len(joins))]
        side = _sides(grid, river, join)[draws.index(2)]
        if interior_sources and draws.fraction() < INTERIOR_SOURCE_PROB:
            source, on_edge = draws.index(grid.size), False
        else:
            source, on_edge = edges[draws.index(len(edges))], True
        work -= 1  # every attempt costs one unit, plus one per cell it walks
        if not _source_fits(grid, river, join, side, source, min_distance):
            continue
        walk = _TributaryWalk(grid, params, river, scratch, join, side, source, on_edge, draws)
        path, arrived = walk.run(min(walk_budget, work))
        work -= len(path)
        accepted = arrived and _acceptable(grid, river, scratch, join, path, min_distance)
        for i in path:
            scratch[i] = 0
        if not accepted:
            continue
        for i in path:
            river[i] = 1
        count += len(path)
        del joins[bisect_left(joins, join)]
        for i in path:
            if _is_straight(grid, river, i):
                insort(joins, i)


def _sides(grid: Grid, river: bytearray, join: int) -> list[Step]:
    """The two land directions of a straight river cell (it never lies on the board edge)."""
    w = grid.width
    return [(dx, dy) for dx, dy in ORTHO if not river[join + dy * w + dx]]


def _source_fits(grid: Grid, river: bytearray, join: int, side: Step, source: int, min_distance: int) -> bool:
    """A source must be dry, far enough, and at least 2 cells out on the chosen side."""
    (jx, jy), (sx, sy) = grid.xy(join), grid.xy(source)
    ahead = (sx - jx) * side[0] + (sy - jy) * side[1]
    return not river[source] and ahead >= 2 and grid.manhattan(source, join) >= min_distance


def _acceptable(
    grid: Grid, river: bytearray, on_path: bytearray, join: int, path: list[int], min_distance: int
) -> bool:
    """Keep a finished walk of at least 4 cells, ending far enough, adding at most 2 junctions."""
    if len(path) < MIN_TRIBUTARY_CELLS or grid.manhattan(path[-1], join) < min_distance:
        return False
    return _new_junctions(grid, river, on_path, path, join) <= MAX_NEW_JUNCTIONS


class _TributaryWalk:
    """One tributary attempt: leave the join sideways, then walk until an edge or the source line."""

    __slots__ = ("first", "forward", "grid", "join", "on_path", "river", "source", "walker")

    def __init__(
        self,
        grid: Grid,
        params: TerrainParams,
        river: bytearray,
        on_path: bytearray,
        join: int,
        first: Step,
        source: int,
        on_edge: bool,
        draws: Draws,
    ) -> None:
        self.grid, self.river, self.on_path = grid, river, on_path
        self.join, self.first = join, first
        sx, sy = self.source = grid.xy(source)
        jx, jy = grid.xy(join)
        if on_edge:  # head for the source's edge
            h = grid.height
            self.forward = (0, -1) if sy == 0 else (0, 1) if sy == h - 1 else (-1, 0) if sx == 0 else (1, 0)
        else:  # head along the dominant axis towards the interior source
            dx, dy = sx - (jx + first[0]), sy - (jy + first[1])
            self.forward = ((1 if dx > 0 else -1), 0) if abs(dx) > abs(dy) else (0, 1 if dy > 0 else -1)
        self.walker = AxisWalk(grid, self.source, self.forward, params.tributary_turn_prob, params.min_axis_run, draws)
        self.walker.strict = True

    def run(self, budget: int) -> tuple[list[int], bool]:
        """Walk at most ``budget`` cells: ``(cells walked, finished?)``; cells are marked in ``on_path``."""
        grid, w = self.grid, self.grid.width
        jx, jy = grid.xy(self.join)
        x, y = jx + self.first[0], jy + self.first[1]
        path: list[int] = []
        if budget <= 0 or not self._allowed(x, y, (jx, jy)):
            return path, False
        self.walker.record(self.first)
        while True:
            self.on_path[y * w + x] = 1
            path.append(y * w + x)
            if self._arrived(x, y):
                return path, True
            step = self.walker.choose((x, y), self._allowed) if len(path) < budget else None
            if step is None:
                return path, False
            x, y = x + step[0], y + step[1]

    def _allowed(self, x: int, y: int, head: tuple[int, int]) -> bool:
        grid, river, on_path = self.grid, self.river, self.on_path
        i = y * grid.width + x
        if river[i] or on_path[i]:
            return False
        here = head[1] * grid.width + head[0]
        # It may touch the river or itself only at the head. That also rules out any 2x2
        # block: a block through ``i`` holds two of its orthogonal neighbours, at most one
        # of them the head, so the other would have to be river or path.
        return not any(n != here and (river[n] or on_path[n]) for n in grid.n4[i])

    def _arrived(self, x: int, y: int) -> bool:
        if x in (0, self.grid.width - 1) or y in (0, self.grid.height - 1):
            return True  # a tributary never runs along the edge: it enters the board here
        return x == self.source[0] if self.forward[0] else y == self.source[1]


def _new_junctions(grid: Grid, river: bytearray, on_path: bytearray, path: list[int], join: int) -> int:
    """Cells that would reach river degree 3 or more only because of ``path``."""
    touched = sorted({join, *path, *(n for i in path for n in grid.n4[i])})
    created = 0
    for i in touched:
        if not (river[i] or on_path[i]):
            continue
        before = sum(1 for n in grid.n4[i] if river[n]) if river[i] else 0
        after = sum(1 for n in grid.n4[i] if river[n] or on_path[n])
        if after >= 3 > before:
            created += 1
    return created


def _is_straight(grid: Grid, river: bytearray, i: int) -> bool:
    """A river cell with exactly two river neighbours, on opposite sides."""
    if not river[i]:
        return False
    w = grid.width
    x, y = i % w, i // w
    ns = 0 < y < grid.height - 1 and river[i - w] and river[i + w]
    ew = 0 < x < w - 1 and river[i - 1] and river[i + 1]
    return sum(1 for n in grid.n4[i] if river[n]) == 2 and bool(ns or ew)
