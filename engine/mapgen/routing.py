"""Weighted shortest road routes (rules §11 step 4), with a bounded A* search.

`RoadLayer` holds the road cells built so far and finds the cheapest route between two
cells under the §11 step weight:

    weight = 1 + turn + near-river + adjacent-road + 2x2-square + dense-crossing - bridge bonus

* *turn*: the step changes direction from the step that reached the current cell;
* *near-river*: the new cell is land next to a non-bridge river cell;
* *adjacent-road*: the new cell is off-road but has ``k >= 1`` road neighbours besides the
  current cell: ``adjacent_road_penalty * (1 + adjacent_road_penalty_per_neighbour * (k - 1))``;
* *2x2-square*: the new cell would complete a 2x2 block of road, with
  ``road_square_penalty_touching`` when the other three cells are all existing road and
  ``road_square_penalty_new`` when the route itself supplies one or two of them;
* *dense-crossing*: the route joins an existing road (creating a junction) within
  Chebyshev distance 2 of an existing junction;
* *bridge bonus*: subtracted on a bridge; a weight never drops below 0.1.

Stepping along an existing road costs only 1 (+ turn), so routes reuse roads where that
is shorter. River cells are impassable except bridges. The search keeps one state per
cell (the direction it was reached from is remembered for the turn penalty), uses the
Manhattan distance as its heuristic, pops ties by cell index (the (y, x) order) and
gives up after ``budget`` expansions. A relaxed search halves every penalty.
"""

from __future__ import annotations

from heapq import heappop, heappush

from .geometry import Grid
from .params import TerrainParams

__all__ = ["RELAXED", "STRICT", "RoadLayer"]

STRICT = 1.0
RELAXED = 0.5  # penalty scale of the retry after a failed route
MIN_WEIGHT = 0.1
_DRY = bytes([1, 0]) + bytes(254)  # translate table: river mask -> land mask


class RoadLayer:
    """The road cells built so far, and the route search over them."""

    __slots__ = ("bridge", "cells", "grid", "near_river", "params", "passable", "road", "road_nb")

    def __init__(self, grid: Grid, river: bytearray, bridges: list[int], params: TerrainParams) -> None:
        self.grid = grid
        self.params = params
        self.bridge = bytearray(grid.size)
        for b in bridges:
            self.bridge[b] = 1
        self.passable = river.translate(_DRY)  # land, plus bridges below
        self.near_river = bytearray(grid.size)  # land next to a non-bridge river cell
        for i in range(grid.size):
            if river[i] and not self.bridge[i]:
                for n in grid.n4[i]:
                    if not river[n]:
                        self.near_river[n] = 1
        for b in bridges:
            self.passable[b] = 1
        self.road = bytearray(grid.size)
        self.road_nb = bytearray(grid.size)  # orthogonal road neighbours of every cell
        self.cells: list[int] = []  # road cells in the order they were laid

    def add(self, cells: list[int]) -> None:
        """Lay road on ``cells`` (already-road cells are skipped)."""
        for i in cells:
            if not self.road[i]:
                self.road[i] = 1
                self.cells.append(i)
                for n in self.grid.n4[i]:
                    self.road_nb[n] += 1

    def remove(self, cells: list[int]) -> None:
        """Take road off ``cells``."""
        gone = set(cells)
        for i in sorted(gone):
            if self.road[i]:
                self.road[i] = 0
                for n in self.grid.n4[i]:
                    self.road_nb[n] -= 1
        self.cells = [i for i in self.cells if i not in gone]

    def route(self, start: int, goal: int, scale: float, budget: int) -> list[int] | None:
        """Cheapest route ``start .. goal`` (both included) with penalties times ``scale``."""
        if not (self.passable[start] and self.passable[goal]):
            return None
        grid, road, road_nb, passable = self.grid, self.road, self.road_nb, self.passable
        near_river, bridge = self.near_river, self.bridge
        p = self.params
        turn_pen, river_pen = p.road_turn_penalty * scale, p.near_river_penalty * scale
        adj_pen, adj_per = p.adjacent_road_penalty * scale, p.adjacent_road_penalty_per_neighbour
        dense_pen, bonus = p.dense_crossing_penalty * scale, p.bridge_bonus
        sq_new, sq_touch = p.road_square_penalty_new * scale, p.road_square_penalty_touching * scale
        w, n4 = grid.width, grid.n4
        gx, gy = goal % w, goal // w
        cost = [0.0] * grid.size
        parent = [-1] * grid.size
        came = [0] * grid.size  # index delta of the step that reached a cell, 0 at the start
        seen = bytearray(grid.size)
        closed = bytearray(grid.size)
        seen[start] = 1
        heap = [(float(abs(start % w - gx) + abs(start // w - gy)), start)]
        expansions = 0
        while heap:
            _, i = heappop(heap)
            if closed[i]:
                continue
            if i == goal:
                return _unwind(parent, goal)
            closed[i] = 1
            expansions += 1
            if expansions > budget:
                return None
            here, on_road, pi, arrival = cost[i], road[i], parent[i], came[i]
            for n in n4[i]:
                if closed[n] or not passable[n]:
                    continue
                d = n - i
                c = 1.0
                if arrival and arrival != d:
                    c += turn_pen
                if road[n]:
                    if not on_road and dense_pen and self._near_junction(n):
                        c += dense_pen
                else:
                    if near_river[n]:
                        c += river_pen
                    k = road_nb[n] - on_road
                    if k > 0:
                        c += adj_pen * (1.0 + adj_per * (k - 1))
                        c += self._square_penalty(n, i, pi, sq_new, sq_touch)
                if bridge[n]:
                    c -= bonus
                if c < MIN_WEIGHT:
                    c = MIN_WEIGHT
                total = here + c
                if not seen[n] or total < cost[n]:
                    seen[n] = 1
                    cost[n] = total
                    parent[n] = i
                    came[n] = d
                    heappush(heap, (total + abs(n % w - gx) + abs(n // w - gy), n))
        return None

    def _near_junction(self, cell: int) -> bool:
        """True when a junction (road degree >= 3) lies within Chebyshev 2 of ``cell``."""
        grid, road, road_nb = self.grid, self.road, self.road_nb
        w = grid.width
        x, y = cell % w, cell // w
        for yy in range(max(0, y - 2), min(grid.height, y + 3)):
            for xx in range(max(0, x - 2), min(w, x + 3)):
                j = yy * w + xx
                if j != cell and road[j] and road_nb[j] >= 3:
                    return True
        return False

    def _square_penalty(self, cell: int, prev: int, prev2: int, new: float, touching: float) -> float:
        """Penalty for completing a 2x2 block of road at ``cell`` (route cells ``prev``, ``prev2``)."""
        road = self.road
        worst = 0.0
        for a, b, c in self.grid.squares[cell]:  # three cells of each 2x2 block, unrolled: asked at most steps
            if road[a] and road[b] and road[c]:
                return touching
            if (road[a] or a in (prev, prev2)) and (road[b] or b in (prev, prev2)) and (road[c] or c in (prev, prev2)):
                worst = new
        return worst


def _unwind(parent: list[int], goal: int) -> list[int]:
    path = [goal]
    while parent[path[-1]] != -1:
        path.append(parent[path[-1]])
    path.reverse()
    return path
