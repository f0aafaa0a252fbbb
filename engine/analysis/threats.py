"""Which enemy units could reach or fire at each cell on their next turn: the threat overlay.

`threat_map` answers "is this cell safe?" for one side, the way a player reads the board
before ending a turn (Into the Breach's danger tiles). It asks the engine's own questions,
never a copy of a rule: `engine.movement.unit_reach` for where an enemy unit can go (the
search that decides MOVE_UNIT), and `engine.attacks.attack_problem` for whether it could
declare an attack on a unit standing on a cell (range, effects that forbid the attack,
move-or-fire). The position is read as it stands now: units do not move out of each
other's way, and the effects in play are those of this moment.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from ..board.grid import chebyshev
from ..board.info import BoardInfo, board_info
from ..cards.hooks import can_attack_after_move
from ..combat.queue import attack_problem
from ..movement import unit_reach
from ..state import GameState, Unit
from ..tables import UNITS, unit_stats
from ..types import Side, UnitType, unit_order

__all__ = ["CellThreat", "ThreatMap", "threat_map"]


class CellThreat(msgspec.Struct, frozen=True, kw_only=True):
    """The enemy units that threaten one cell next turn."""

    cell: str
    reach: tuple[str, ...]  # enemy units that can move onto the cell (§5.4), in unit order
    fire: tuple[str, ...]  # enemy units that could declare an attack on a unit standing there (§6.1)


class ThreatMap(msgspec.Struct, frozen=True, kw_only=True):
    """`threat_map`'s answer: every threatened cell of the board for ``side``."""

    side: Side  # the side whose cells are threatened
    by: Side  # the side whose units threaten them
    cells: tuple[CellThreat, ...]  # threatened cells only, by (y, x)


def threat_map(state: GameState, side: Side) -> ThreatMap:
    """Every cell that an enemy of ``side`` could move onto or fire at on the enemy's next turn.

    For each enemy unit on the board, as if its turn had just begun (not yet moved, not yet
    attacked, the enemy active): ``reach`` lists it on every cell `unit_reach` finds, and
    ``fire`` on every cell it could declare an attack on from its own cell or, unless it
    is a move-or-fire unit that may not fire after moving, from a cell it can reach. An
    attack counts when `attack_problem` has nothing against it, the attacker standing on
    the nearest such cell; a cell held by a unit of ``side`` is asked about that unit, an
    empty cell about a stand-in light infantry unit of ``side`` (so effects aimed at one
    named unit are not counted there). Cells held by the enemy are never threatened.

    >>> from engine import GameConfig, Side, new_game
    >>> found = threat_map(new_game(GameConfig(seed=7)), Side.ATTACKER)
    >>> found.by, all(c.reach or c.fire for c in found.cells)
    (<Side.DEFENDER: 'DEFENDER'>, True)
    """
    enemy = side.other
    info = board_info(state.board)
    world = replace(state, active=enemy)
    held = {info.index[u.cell]: u for u in state.units if u.cell is not None}
    reach: dict[int, list[str]] = {}
    fire: dict[int, list[str]] = {}
    for unit in sorted(state.units, key=lambda u: unit_order(u.id)):
        if unit.side is not enemy or unit.cell is None:
            continue
        fresh = replace(unit, has_moved=False, has_attacked=False)
        found = unit_reach(world, fresh)
        for cell in found.costs:
            reach.setdefault(cell, []).append(unit.id)
        start = info.index[unit.cell]
        fires_after_move = "move_or_fire" not in UNITS[unit.type].tags or can_attack_after_move(world, fresh)
        spots = [start, *sorted(found.costs)] if fires_after_move else [start]
        for cell, spot in _nearest_spots(info, spots, unit_stats(unit.type, world.rules.tables).range).items():
            occupant = held.get(cell)
            if occupant is not None and occupant.side is enemy:
                continue
            target = occupant or Unit(id="?", side=side, type=UnitType.LIGHT_INFANTRY, cell=info.labels[cell], hp=1)
            shooter = fresh if spot == start else replace(fresh, cell=info.labels[spot], has_moved=True)
            if attack_problem(world, shooter, target) is None:
                fire.setdefault(cell, []).append(unit.id)
    cells = tuple(
        CellThreat(cell=info.labels[cell], reach=tuple(reach.get(cell, ())), fire=tuple(fire.get(cell, ())))
        for cell in sorted(reach.keys() | fire.keys())
        if (held.get(cell) is None or held[cell].side is not enemy)
    )
    return ThreatMap(side=side, by=enemy, cells=cells)


def _nearest_spots(info: BoardInfo, spots: list[int], reach: int) -> dict[int, int]:
    """Every cell within Chebyshev ``reach`` of one of ``spots``, with the first nearest spot."""
    best: dict[int, tuple[int, int]] = {}
    for order, spot in enumerate(spots):
        sx, sy = info.xy(spot)
        for y in range(max(0, sy - reach), min(info.height, sy + reach + 1)):
            for x in range(max(0, sx - reach), min(info.width, sx + reach + 1)):
                cell = y * info.width + x
                distance = chebyshev((sx, sy), (x, y))
                if distance == 0:
                    continue
                known = best.get(cell)
                if known is None or (distance, order) < known:
                    best[cell] = (distance, order)
    return {cell: spots[order] for cell, (_, order) in best.items()}
