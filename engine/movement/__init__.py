"""Movement (rules §5): what a unit may spend, where it can go and the MOVE_UNIT actions that take it there.

The face the rest of the engine uses:

- `movement_allowance`: half-points a unit may spend this turn (§5.2, with its card effects);
- `unit_reach` / `reachable_cells` / `move_cost`: the least-cost search over the board's step
  tables (§5.3, §5.4), memoised while the cells it examined keep their occupancy;
- `unit_moves` / `unit_reaches`: each unit's listing, kept while what it was derived from stays;
- `unit_cost`: what one MOVE_UNIT costs (the listing's answer, or a search for that cell alone);
- `occupancy` / `occupied_cells` / `occupancy_after_move`: which cells hold a unit.
"""

from __future__ import annotations

from .allowance import movement_allowance
from .listing import unit_cost, unit_moves, unit_reaches
from .search import (
    NO_REACH,
    Occupancy,
    Reach,
    move_cost,
    occupancy,
    occupancy_after_move,
    occupied_cells,
    reachable_cells,
    unit_reach,
)

__all__ = [
    "NO_REACH",
    "Occupancy",
    "Reach",
    "move_cost",
    "movement_allowance",
    "occupancy",
    "occupancy_after_move",
    "occupied_cells",
    "reachable_cells",
    "unit_cost",
    "unit_moves",
    "unit_reach",
    "unit_reaches",
]
