"""Deployment zones: which side a row belongs to and the legal deployment cells (rules §3.4)."""

from __future__ import annotations

from ..types import Side, TerrainType
from .info import BoardInfo

__all__ = ["deployment_cells", "entry_cells", "home_side", "preferred_cells"]


def home_side(y: int, height: int) -> Side:
    """The side whose deployment zone contains row ``y``: ATTACKER above the front line."""
    return Side.ATTACKER if y < height // 3 else Side.DEFENDER


def _zone(info: BoardInfo, side: Side) -> range:
    """The cells of ``side``'s deployment zone, by (y, x): its rows are contiguous (`home_side`)."""
    front = info.height // 3 * info.width  # the first cell of the first DEFENDER row
    return range(front) if side is Side.ATTACKER else range(front, info.size)


def _open_cell(info: BoardInfo, i: int) -> bool:
    return info.terrain[i] is not TerrainType.WATER and not (info.river[i] and not info.bridge[i])


def deployment_cells(info: BoardInfo, side: Side, occupied: frozenset[int] | set[int]) -> list[int]:
    """Legal deployment cells of ``side``: own zone, not WATER, not a non-bridge river, free; by (y, x)."""
    return [i for i in _zone(info, side) if i not in occupied and _open_cell(info, i)]


def preferred_cells(info: BoardInfo, side: Side, occupied: frozenset[int] | set[int]) -> list[int]:
    """Auto-deployment's first choice: zone cells of PLAIN base with no road or river, free."""
    terrain, road, river = info.terrain, info.road, info.river
    return [
        i
        for i in _zone(info, side)
        if i not in occupied and terrain[i] is TerrainType.PLAIN and not road[i] and not river[i]
    ]


def entry_cells(info: BoardInfo, side: Side, occupied: frozenset[int] | set[int]) -> list[int]:
    """International Aid entry cells: the side's home edge row, free, not WATER or non-bridge river."""
    y = 0 if side is Side.ATTACKER else info.height - 1
    return [i for i in range(y * info.width, (y + 1) * info.width) if i not in occupied and _open_cell(info, i)]
