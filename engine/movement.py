"""Reachable cells of a unit (rules §5.2-§5.4): least-cost search over static step tables.

Step costs never change during a game (`BoardInfo.steps`), so the search only adds
occupancy: units never enter or pass through an occupied cell. Costs are small whole
half-points, so the search is Dial's bucket-queue variant of Dijkstra.

Results are memoised. A search only depends on the cells whose occupancy it examined,
so a stored result is reused exactly when none of those cells changed occupancy; this
is what keeps move generation cheap while units around the board stand still.
"""

from __future__ import annotations

from .boardinfo import StepTable, board_info
from .hooks import can_move_unit, movement_allowance
from .state import GameState, Unit

__all__ = ["move_cost", "occupied_cells", "reachable_cells", "search_reachable"]


def occupied_cells(state: GameState) -> frozenset[int]:
    """Indices of every cell holding a unit."""
    index = board_info(state.board).index
    return frozenset(index[u.cell] for u in state.units if u.cell is not None)


def search_reachable(
    steps: StepTable, start: int, allowance: int, occupied: frozenset[int]
) -> tuple[dict[int, int], frozenset[int]]:
    """Least cost (half-points) of every cell reachable from ``start`` within ``allowance``.

    Returns the costs (the start cell excluded) and every cell whose occupancy the search
    examined: the result depends on no other cell's occupancy.
    """
    best = {start: 0}
    examined: set[int] = set()
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
    buckets[0].append(start)
    for spent in range(allowance + 1):
        for cell in buckets[spent]:
            if best[cell] != spent:
                continue  # a cheaper route reached it first
            for neighbour, cost in steps[cell]:
                total = spent + cost
                if total > allowance:
                    continue
                examined.add(neighbour)
                if neighbour in occupied:
                    continue
                known = best.get(neighbour)
                if known is None or total < known:
                    best[neighbour] = total
                    buckets[total].append(neighbour)
    del best[start]
    return best, frozenset(examined)


def search_cost(
    steps: StepTable, start: int, goal: int, allowance: int, occupied: frozenset[int], width: int
) -> int | None:
    """Least cost from ``start`` to ``goal`` within ``allowance``, or None: the same search as
    `search_reachable`, stopped at the goal and pruned by an admissible bound (every step
    costs at least one half-point and moves one cell in Chebyshev distance)."""
    if goal == start:
        return None  # the start cell is never reachable
    gx, gy = goal % width, goal // width
    best = {start: 0}
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
    buckets[0].append(start)
    for spent in range(allowance + 1):
        for cell in buckets[spent]:
            if best[cell] != spent:
                continue
            if cell == goal:
                return spent
            for neighbour, cost in steps[cell]:
                total = spent + cost
                if total > allowance or neighbour in occupied:
                    continue
                if total + max(abs(neighbour % width - gx), abs(neighbour // width - gy)) > allowance:
                    continue
                known = best.get(neighbour)
                if known is None or total < known:
                    best[neighbour] = total
                    buckets[total].append(neighbour)
    return None


_Entry = tuple[StepTable, dict[int, int], frozenset[int], frozenset[int]]
_MEMO: dict[tuple[int, int, int], _Entry] = {}
_MEMO_LIMIT = 20_000


def reachable_cells(state: GameState, unit: Unit, occupied: frozenset[int] | None = None) -> dict[int, int]:
    """Cells ``unit`` can reach this turn with their least cost, ignoring the move limit.

    Empty when the unit is off the board, ``can_move_unit`` is false or its allowance is 0.
    Whether the unit may still move at all (``has_moved``, the per-turn move limit, the
    phase) is the movement page's business. The returned dict is shared: do not change it.
    """
    if unit.cell is None or not can_move_unit(state, unit):
        return {}
    allowance = movement_allowance(state, unit)
    if allowance <= 0:
        return {}
    info = board_info(state.board)
    steps = info.steps(unit.type, state.rules.movement_rules)
    start = info.index[unit.cell]
    if occupied is None:
        occupied = occupied_cells(state)
    key = (id(steps), start, allowance)
    entry = _MEMO.get(key)
    # The entry holds `steps`, so its id cannot be reused by another table while it lives.
    if entry is not None and entry[0] is steps and occupied & entry[2] == entry[3]:
        return entry[1]
    reach, examined = search_reachable(steps, start, allowance, occupied)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = (steps, reach, examined, occupied & examined)
    return reach


def move_cost(state: GameState, unit: Unit, goal: int) -> int | None:
    """Least cost for ``unit`` to reach cell index ``goal`` this turn, or None if it cannot.

    Agrees with `reachable_cells` (``reachable_cells(...).get(goal)``), but searches
    towards the goal only unless the full set is already memoised.
    """
    if unit.cell is None or not can_move_unit(state, unit):
        return None
    allowance = movement_allowance(state, unit)
    if allowance <= 0:
        return None
    info = board_info(state.board)
    steps = info.steps(unit.type, state.rules.movement_rules)
    start = info.index[unit.cell]
    occupied = occupied_cells(state)
    entry = _MEMO.get((id(steps), start, allowance))
    if entry is not None and entry[0] is steps and occupied & entry[2] == entry[3]:
        return entry[1].get(goal)
    return search_cost(steps, start, goal, allowance, occupied, info.width)
