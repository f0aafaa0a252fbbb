"""Deployment zones, legal deployment cells and the automatic placement rule (rules §3.4)."""

from __future__ import annotations

from msgspec.structs import replace

from .boardinfo import BoardInfo, board_info
from .rng import pick
from .state import Event, GameState, Unit
from .types import EventKind, Side, TerrainType

__all__ = ["auto_deploy", "deployment_cells", "entry_cells", "home_side", "preferred_cells"]


def home_side(y: int, height: int) -> Side:
    """The side whose deployment zone contains row ``y``: ATTACKER above the front line."""
    return Side.ATTACKER if y < height // 3 else Side.DEFENDER


def _open_cell(info: BoardInfo, i: int) -> bool:
    return info.terrain[i] is not TerrainType.WATER and not (info.river[i] and not info.bridge[i])


def deployment_cells(info: BoardInfo, side: Side, occupied: frozenset[int] | set[int]) -> list[int]:
    """Legal deployment cells of ``side``: own zone, not WATER, not a non-bridge river, free; by (y, x)."""
    return [
        i
        for i in range(info.size)
        if home_side(i // info.width, info.height) is side and i not in occupied and _open_cell(info, i)
    ]


def preferred_cells(info: BoardInfo, side: Side, occupied: frozenset[int] | set[int]) -> list[int]:
    """Auto-deployment's first choice: zone cells of PLAIN base with no road or river, free."""
    return [
        i
        for i in range(info.size)
        if home_side(i // info.width, info.height) is side
        and i not in occupied
        and info.terrain[i] is TerrainType.PLAIN
        and not info.road[i]
        and not info.river[i]
    ]


def entry_cells(info: BoardInfo, side: Side, occupied: frozenset[int] | set[int]) -> list[int]:
    """International Aid entry cells: the side's home edge row, free, not WATER or non-bridge river."""
    y = 0 if side is Side.ATTACKER else info.height - 1
    return [i for i in range(y * info.width, (y + 1) * info.width) if i not in occupied and _open_cell(info, i)]


def auto_deploy(state: GameState, unit_ids: list[str]) -> GameState:
    """Place each unit of ``unit_ids`` in order with one uniform pick (rules §3.4)."""
    info = board_info(state.board)
    occupied = {info.index[u.cell] for u in state.units if u.cell is not None}
    units = {u.id: u for u in state.units}
    rng = state.rng
    events = list(state.events)
    for unit_id in unit_ids:
        unit = units[unit_id]
        candidates = preferred_cells(info, unit.side, occupied) or deployment_cells(info, unit.side, occupied)
        if not candidates:
            raise ValueError(f"no legal deployment cell left for {unit_id}")
        choice, rng = pick(len(candidates), rng)
        cell = candidates[choice]
        occupied.add(cell)
        units[unit_id] = replace(unit, cell=info.labels[cell])
        events.append(Event(kind=EventKind.UNIT_DEPLOYED, side=unit.side, unit=unit_id, cell=info.labels[cell]))
    ordered: tuple[Unit, ...] = tuple(units[u.id] for u in state.units)
    return replace(state, units=ordered, rng=rng, events=tuple(events))
