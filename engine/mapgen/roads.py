"""The road network (rules §11 step 4): arterials, collectors, local spurs, one pruning pass.

With ``d`` the clamped road density and ``target = round(W * H * d)`` road cells:

1. Every bridge is a road cell from the start.
2. The first arterial is forced across the primary bridge: from a dry cell on the board
   edge on one side of it to its land cell on that side, and from its land cell on the
   other side to a dry cell on the opposite edge.
3. Arterials, ``clamp(floor(6d), 2, 7)`` in all (the forced one included), join a dry
   cell on one edge to one on the opposite edge while the road has fewer than 55 % of
   the target cells; up to 8 endpoint pairs are drawn and the first at least
   ``arterial_min_length * (W + H)`` apart (Manhattan) is used, else the farthest.
4. Collectors, ``clamp(floor(16d), 6, 34)``, join two road cells drawn the same way
   (``collector_min_length``) while the road is below 90 % of the target.
5. Local spurs, ``clamp(floor(40d), 10, 160)``, run from a drawn road cell to a cell
   drawn within +-5 columns and rows of it, while the road is below the target.

Each route gets ``road_search_budget_per_cell * max(1, Manhattan length)`` expansions;
a failed route is retried once relaxed (penalties halved, budget doubled) and then
skipped. Afterwards every bridge gets road on both of its land sides, so each bridge is
crossable; road only meets river at bridges; an empty network gets one road cell (the
dry cell nearest the centre). Finally one pruning pass, computed on the network as it
stands, removes dead-end cells whose neighbour is a junction and isolated two-cell
stubs, sparing bridges and their approaches, and never emptying the network.
"""

from __future__ import annotations

from math import floor

from .bridges import bridge_sides
from .geometry import Grid, round_half_up
from .params import TerrainParams
from .routing import RELAXED, STRICT, RoadLayer
from .stream import Draws

__all__ = ["build_roads", "road_plan"]

ENDPOINT_TRIES = 8
LOCAL_REACH = 5
ARTERIAL_SHARE, COLLECTOR_SHARE = 0.55, 0.90


def road_plan(width: int, height: int, density: float) -> tuple[int, int, int, int]:
    """``(target cells, arterials, collectors, locals)`` for a clamped road density."""
    target = round_half_up(width * height * density)
    arterials = min(7, max(2, floor(6 * density)))
    collectors = min(34, max(6, floor(16 * density)))
    spurs = min(160, max(10, floor(40 * density)))
    return target, arterials, collectors, spurs


def build_roads(
    grid: Grid, river: bytearray, bridges: list[int], params: TerrainParams, density: float, draws: Draws
) -> bytearray:
    """Lay the road network; return the road mask (bridges included)."""
    layer = RoadLayer(grid, river, bridges, params)
    layer.add(bridges)
    target, arterials, collectors, spurs = road_plan(grid.width, grid.height, density)
    edges = _dry_edges(grid, river)
    built = 0
    if bridges:
        _forced_arterial(grid, river, layer, bridges[0], edges, draws)
        built = 1
    for _ in range(built, arterials):
        if len(layer.cells) >= ARTERIAL_SHARE * target:
            break
        pair = _edge_pair(grid, edges, params.arterial_min_length * (grid.width + grid.height), draws)
        if pair is not None:
            _connect(grid, layer, *pair)
    for _ in range(collectors):
        if len(layer.cells) >= COLLECTOR_SHARE * target:
            break
        a, b = _road_pair(grid, layer, params.collector_min_length * (grid.width + grid.height), draws)
        _connect(grid, layer, a, b)
    for _ in range(spurs):
        if len(layer.cells) >= target:
            break
        origin = layer.cells[draws.index(len(layer.cells))]
        x, y = grid.xy(origin)
        dx, dy = draws.integer(-LOCAL_REACH, LOCAL_REACH), draws.integer(-LOCAL_REACH, LOCAL_REACH)
        end = grid.index(min(max(x + dx, 0), grid.width - 1), min(max(y + dy, 0), grid.height - 1))
        if not layer.road[end]:
            _connect(grid, layer, origin, end)
    approaches = _finish(grid, river, layer, bridges)
    _prune(grid, layer, approaches)
    return layer.road


def _connect(grid: Grid, layer: RoadLayer, a: int, b: int) -> bool:
    """Route and lay road from ``a`` to ``b``: strict, then relaxed; False when both fail."""
    budget = layer.params.road_search_budget_per_cell * max(1, grid.manhattan(a, b))
    path = layer.route(a, b, STRICT, budget) or layer.route(a, b, RELAXED, 2 * budget)
    if path is None:
        return False
    layer.add(path)
    return True


def _dry_edges(grid: Grid, river: bytearray) -> dict[str, list[int]]:
    """Non-river cells of each board edge, corners excluded, keyed N, E, S, W (lookup only)."""
    w, h = grid.width, grid.height
    rows = {
        "N": [x for x in range(1, w - 1)],
        "S": [(h - 1) * w + x for x in range(1, w - 1)],
        "W": [y * w for y in range(1, h - 1)],
        "E": [y * w + w - 1 for y in range(1, h - 1)],
    }
    return {side: [i for i in cells if not river[i]] for side, cells in rows.items()}


def _forced_arterial(
    grid: Grid, river: bytearray, layer: RoadLayer, bridge: int, edges: dict[str, list[int]], draws: Draws
) -> None:
    sides = bridge_sides(grid, river, bridge)
    assert sides is not None
    near, far = sides
    if far - near == 2:  # the river runs north-south here: cross it west to east
        start_edge, goal_edge = edges["W"], edges["E"]
    else:
        start_edge, goal_edge = edges["N"], edges["S"]
    if start_edge:
        _connect(grid, layer, start_edge[draws.index(len(start_edge))], near)
    if goal_edge:
        _connect(grid, layer, far, goal_edge[draws.index(len(goal_edge))])


def _edge_pair(grid: Grid, edges: dict[str, list[int]], min_length: float, draws: Draws) -> tuple[int, int] | None:
    best: tuple[int, int, int] | None = None
    for _ in range(ENDPOINT_TRIES):
        first, second = ("N", "S") if draws.index(2) == 0 else ("W", "E")
        if not edges[first] or not edges[second]:
            continue
        a = edges[first][draws.index(len(edges[first]))]
        b = edges[second][draws.index(len(edges[second]))]
        length = grid.manhattan(a, b)
        if best is None or length > best[0]:
            best = (length, a, b)
        if length >= min_length:
            break
    return None if best is None else (best[1], best[2])


def _road_pair(grid: Grid, layer: RoadLayer, min_length: float, draws: Draws) -> tuple[int, int]:
    cells = layer.cells
    best = (-1, cells[0], cells[0])
    for _ in range(ENDPOINT_TRIES):
        a, b = cells[draws.index(len(cells))], cells[draws.index(len(cells))]
        length = grid.manhattan(a, b)
        if length > best[0]:
            best = (length, a, b)
        if length >= min_length:
            break
    return best[1], best[2]


def _finish(grid: Grid, river: bytearray, layer: RoadLayer, bridges: list[int]) -> set[int]:
    """Approaches on both sides of every bridge, road off non-bridge river, never empty.

    Returns the protected cells (bridges and their approaches), a lookup set.
    """
    protected = set(bridges)
    for b in bridges:
        sides = bridge_sides(grid, river, b)
        assert sides is not None
        layer.add(list(sides))
        protected.update(sides)
    layer.remove([i for i in layer.cells if river[i] and not layer.bridge[i]])
    if not layer.cells:
        cx, cy = (grid.width - 1) / 2, (grid.height - 1) / 2
        dry = [i for i in range(grid.size) if not river[i]]
        layer.add([min(dry, key=lambda i: (abs(i % grid.width - cx) + abs(i // grid.width - cy), i))])
    return protected


def _prune(grid: Grid, layer: RoadLayer, protected: set[int]) -> None:
    """One pass: drop dead ends hanging off a junction and isolated two-cell stubs.

    Both are decided on the network as it stands before the pass (never repeated).
    """
    road, road_nb = layer.road, layer.road_nb
    doomed: list[int] = []
    for i in sorted(layer.cells):
        if road_nb[i] != 1 or i in protected:
            continue
        (n,) = [n for n in grid.n4[i] if road[n]]
        if road_nb[n] >= 3 or (road_nb[n] == 1 and n not in protected):
            doomed.append(i)  # off a junction, or one half of a two-cell stub
    if doomed and len(doomed) < len(layer.cells):
        layer.remove(doomed)
