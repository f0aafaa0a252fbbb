"""Reachable cells of a unit (rules §5.2-§5.4): least-cost search over static step tables.

Step costs never change during a game (`BoardInfo.steps`), so the search only adds
occupancy: units never enter or pass through an occupied cell. Costs are small whole
half-points, so the search is Dial's bucket-queue variant of Dijkstra.
"""

from __future__ import annotations

from collections.abc import Collection

from .boardinfo import board_info
from .hooks import can_move_unit, movement_allowance
from .state import GameState, Unit

__all__ = ["occupied_cells", "reachable_cells", "search_reachable"]


def occupied_cells(state: GameState) -> frozenset[int]:
    """Indices of every cell holding a unit."""
    index = board_info(state.board).index
    return frozenset(index[u.cell] for u in state.units if u.cell is not None)


def search_reachable(
    steps: tuple[tuple[tuple[int, int], ...], ...], start: int, allowance: int, occupied: Collection[int]
) -> dict[int, int]:
    """Least cost (half-points) of every cell reachable from ``start`` within ``allowance``.

    ``steps[i]`` lists ``(neighbour, cost)`` of cell ``i``; ``occupied`` cells are never
    entered. The start cell itself is never in the result.
    """
    best = {start: 0}
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
    buckets[0].append(start)
    for spent in range(allowance + 1):
        for cell in buckets[spent]:
            if best[cell] != spent:
                continue  # a cheaper route reached it first
            for neighbour, cost in steps[cell]:
                total = spent + cost
                if total > allowance or neighbour in occupied:
                    continue
                known = best.get(neighbour)
                if known is None or total < known:
                    best[neighbour] = total
                    buckets[total].append(neighbour)
    del best[start]
    return best


def reachable_cells(state: GameState, unit: Unit, occupied: Collection[int] | None = None) -> dict[int, int]:
    """Cells ``unit`` can reach this turn with their least cost, ignoring the move limit.

    Empty when the unit is off the board, ``can_move_unit`` is false or its allowance is 0.
    Whether the unit may still move at all (``has_moved``, the per-turn move limit, the
    phase) is the movement page's business.
    """
    if unit.cell is None or not can_move_unit(state, unit):
        return {}
    allowance = movement_allowance(state, unit)
    if allowance <= 0:
        return {}
    info = board_info(state.board)
    steps = info.steps(unit.type, state.rules.movement_rules)
    return search_reachable(
        steps, info.index[unit.cell], allowance, occupied_cells(state) if occupied is None else occupied
    )
