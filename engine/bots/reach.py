"""Where each enemy unit can shoot from next turn, with exact movement: `ReachMaps`.

The evaluation's default threat model lets an enemy close its full movement points in
a straight line; real movement pays for forests, rough ground and rivers, cannot enter
water and cannot pass units. A `ReachMaps` runs the engine's own reachability search
(`engine.movement.reachable_cells`) once for every enemy unit of a position, then a
multi-source breadth-first search over the eight neighbours, which gives, for every
cell within weapon range of where the enemy could stand, the Chebyshev distance it
could shoot from. Enemy units do not move during the seat's own turn, so one map serves
a whole search (the MCTS bot builds it once per decision).
"""

from __future__ import annotations

from ..boardinfo import board_info
from ..grid import DIRECTIONS
from ..movement import occupied_cells, reachable_cells
from ..state import GameState
from ..tables import UNITS
from ..types import Side

__all__ = ["ReachMaps"]


class ReachMaps:
    """Per enemy unit: cell index → the shortest distance it could fire from next turn."""

    def __init__(self, state: GameState, seat: Side) -> None:
        info = board_info(state.board)
        width, height = info.width, info.height
        occupied = occupied_cells(state)
        self.maps: dict[str, dict[int, int]] = {}
        self.origins: dict[str, str] = {}  # the cell each map was computed from
        for unit in state.units:
            if unit.side is seat or unit.cell is None:
                continue
            stats = UNITS[unit.type]
            start = info.index[unit.cell]
            sources = [start]
            if "move_or_fire" not in stats.tags:
                sources += sorted(reachable_cells(state, unit, occupied))
            distance = dict.fromkeys(sources, 0)
            frontier = sources
            for ring in range(1, stats.range + 1):
                following: list[int] = []
                for cell in frontier:
                    x, y = cell % width, cell // width
                    for dx, dy in DIRECTIONS:
                        nx, ny = x + dx, y + dy
                        if 0 <= nx < width and 0 <= ny < height:
                            neighbour = ny * width + nx
                            if neighbour not in distance:
                                distance[neighbour] = ring
                                following.append(neighbour)
                frontier = following
            self.maps[unit.id] = distance
            self.origins[unit.id] = unit.cell

    def firing_distance(self, enemy_id: str, enemy_cell: str | None, target_index: int) -> int | None:
        """Shortest distance ``enemy_id`` could fire at cell ``target_index`` from, or None if out of reach.

        None as well when the enemy is no longer where the map was made (then the caller
        falls back to its own estimate).
        """
        if self.origins.get(enemy_id) != enemy_cell:
            return None
        d = self.maps[enemy_id].get(target_index)
        return None if d is None else max(1, d)

    def knows(self, enemy_id: str, enemy_cell: str | None) -> bool:
        """True when a map exists for this enemy at this cell."""
        return self.origins.get(enemy_id) == enemy_cell
