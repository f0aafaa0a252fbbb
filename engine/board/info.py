"""Derived, read-only lookup tables for a `Board`, computed once per board object.

A board never changes during a game, so everything the rules ask about cells (labels,
terrain, overlays, the static cost of every step of §5.3) is precomputed here and cached
by board identity. Cells are addressed by index ``y * width + x`` internally; labels are
what states and actions carry.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..cards.conditions import (
    AllOf,
    AnyOf,
    Condition,
    HasTag,
    InQuadrant,
    IsType,
    Not,
    OnOverlay,
    OnTerrain,
    TerrainTag,
    Xor,
)
from ..tables import CONNECTOR_TAGS, OVERLAY_TAGS, STANDARD_TABLES, TERRAIN, UNITS
from ..types import Quadrant, TerrainType, UnitType

if TYPE_CHECKING:
    from ..cards.defs import AbilityDef
from .grid import DIRECTIONS, label, quadrant_of
from .terrain_map import TERRAIN_CHARS, Board

__all__ = ["STANDARD_OVERLAY_COSTS", "BoardInfo", "OverlayCosts", "board_info"]

StepTable = tuple[tuple[tuple[int, int], ...], ...]
"""Per cell index: ``((neighbour index, cost in half-points), ...)`` of every enterable step,
cheapest first (then by neighbour index)."""

OverlayCosts = tuple[int, int, int]
"""Road discount, river entering and river following costs in half-points (`TableOverrides.overlay_costs`)."""

STANDARD_OVERLAY_COSTS: OverlayCosts = STANDARD_TABLES.overlay_costs()


class BoardInfo:
    """Lookup tables for one board. Treat as immutable."""

    def __init__(self, board: Board) -> None:
        self.width = w = board.width
        self.height = h = board.height
        self.size = w * h
        # Shared by every board of this size: what is built per label (a MOVE_UNIT) is then reused across games.
        self.labels, self.index = _labels(w, h)
        chars = "".join(board.rows)
        self.terrain: tuple[TerrainType, ...] = tuple(TERRAIN_CHARS[ch][0] for ch in chars)
        self.road: tuple[bool, ...] = tuple(ch in "=#" for ch in chars)
        self.river: tuple[bool, ...] = tuple(ch in "~#" for ch in chars)
        self.bridge: tuple[bool, ...] = tuple(ch == "#" for ch in chars)
        # A barrier is what a diagonal step may not slip between (rules §5.3 step 3).
        self.barrier: tuple[bool, ...] = tuple(
            self.terrain[i] is TerrainType.WATER or (self.river[i] and not self.bridge[i]) for i in range(w * h)
        )
        self.quadrant: tuple[Quadrant, ...] = tuple(quadrant_of(i % w, i // w, w, h) for i in range(w * h))
        # keyed (unit type or None, rules) for the standard road and river costs, plus the costs otherwise
        self._steps: dict[tuple[object, ...], StepTable] = {}
        self._within: dict[int, dict[str, frozenset[str]]] = {}

    def xy(self, index: int) -> tuple[int, int]:
        """``(x, y)`` of a cell index."""
        return index % self.width, index // self.width

    def within(self, cell: str, radius: int) -> frozenset[str]:
        """Labels of the cells within ``radius`` (Chebyshev) of cell ``cell``, itself included.

        Built once per cell and radius: a condition that counts units near a unit tests
        each unit's cell against it, one set lookup each.
        """
        by_cell = self._within.get(radius)
        if by_cell is None:
            by_cell = self._within[radius] = {}  # two threads may both start one: only a cache
        found = by_cell.get(cell)
        if found is None:
            x, y = self.xy(self.index[cell])
            found = by_cell[cell] = frozenset(
                self.labels[qy * self.width + qx]
                for qy in range(max(0, y - radius), min(self.height, y + radius + 1))
                for qx in range(max(0, x - radius), min(self.width, x + radius + 1))
            )
        return found

    def overlay_tags(self, index: int) -> tuple[str, ...]:
        """Tags of the overlays on a cell (``road``, ``river``)."""
        tags: tuple[str, ...] = ()
        if self.road[index]:
            tags += OVERLAY_TAGS["road"]
        if self.river[index]:
            tags += OVERLAY_TAGS["river"]
        return tags

    def connector_tags(self, index: int) -> tuple[str, ...]:
        """Tags of the connectors on a cell (``bridge``)."""
        return CONNECTOR_TAGS["bridge"] if self.bridge[index] else ()

    def steps(
        self, unit_type: UnitType, rules: tuple[AbilityDef, ...], overlays: OverlayCosts | None = None
    ) -> StepTable:
        """Static step costs for ``unit_type`` under the game's ``step_cost`` abilities (``rules``,
        `engine.cards.abilities.step_abilities`) and its road and river costs.

        ``overlays`` None means the standard costs. Occupancy is not included. Without
        step abilities every unit type shares one table.
        """
        # The standard game's key stays a pair: this lookup runs for every unit in every listing.
        shared = unit_type if rules else None
        key = (shared, rules) if overlays is None else (shared, rules, overlays)
        table = self._steps.get(key)
        if table is None:
            table = self._steps[key] = self._build_steps(unit_type, rules, overlays or STANDARD_OVERLAY_COSTS)
        return table

    def _build_steps(self, unit_type: UnitType, rules: Sequence[AbilityDef], overlays: OverlayCosts) -> StepTable:
        """Rules §5.3 steps 2-8 for every cell and direction (step 1, occupancy, is the search's)."""
        road_discount, river_enter, river_follow = overlays
        # Per destination cell: the base entry cost, or None when it blocks (terrain or a rule).
        entry: list[int | None] = []
        for b in range(self.size):
            stats = TERRAIN[self.terrain[b]]
            cost: int | None = None if stats.blocks else 2 * stats.move_cost
            for rule in rules:
                if cost is not None and _holds_on_cell(rule, self, b, unit_type):
                    cost = None if rule.op == "block" else cost + round(2 * rule.value)
            entry.append(cost)
        road, barrier = self.road, self.barrier
        cut = [r and not b for r, b in zip(self.river, self.bridge, strict=True)]  # a river without a bridge
        table: list[tuple[tuple[int, int], ...]] = []
        for a, neighbours in enumerate(_neighbours(self.width, self.height)):
            road_here, in_river = road[a], cut[a]
            out: list[tuple[int, int]] = []
            for b, corner1, corner2 in neighbours:
                cost = entry[b]
                if cost is None:
                    continue
                if corner1 >= 0:  # diagonal
                    if barrier[corner1] and barrier[corner2]:
                        continue  # no slipping between two barrier corners
                    if cut[b]:
                        cost += river_enter
                else:
                    if road_here and road[b]:
                        cost -= road_discount
                    if cut[b]:
                        cost += river_follow if in_river else river_enter
                out.append((cost if cost > 1 else 1, b))
            out.sort()  # cheapest first: the search stops at the first step beyond the allowance
            table.append(tuple([(b, cost) for cost, b in out]))
        return tuple(table)


_LABELS: dict[tuple[int, int], tuple[tuple[str, ...], dict[str, int]]] = {}


def _labels(width: int, height: int) -> tuple[tuple[str, ...], dict[str, int]]:
    """The labels of a board size by cell index, and the index of each label (one pair per size; do not change)."""
    found = _LABELS.get((width, height))
    if found is None:
        labels = tuple(label(i % width, i // width) for i in range(width * height))
        found = (labels, {name: i for i, name in enumerate(labels)})
        if len(_LABELS) >= 16:
            _LABELS.clear()  # one atomic step (threads)
        _LABELS[(width, height)] = found
    return found


_Neighbours = tuple[tuple[tuple[int, int, int], ...], ...]
_GEOMETRY: dict[tuple[int, int], _Neighbours] = {}


def _neighbours(width: int, height: int) -> _Neighbours:
    """Per cell index, its neighbours in `DIRECTIONS` order as ``(index, corner, corner)``.

    The corners are the two cells a diagonal step passes between (-1 for an orthogonal
    step). The same for every board of one size, so built once per size: every new game
    builds its step table from it.
    """
    found = _GEOMETRY.get((width, height))
    if found is None:
        cells: list[tuple[tuple[int, int, int], ...]] = []
        for a in range(width * height):
            ax, ay = a % width, a // width
            out: list[tuple[int, int, int]] = []
            for dx, dy in DIRECTIONS:
                bx, by = ax + dx, ay + dy
                if 0 <= bx < width and 0 <= by < height:
                    diagonal = bool(dx and dy)
                    corners = (ay * width + bx, by * width + ax) if diagonal else (-1, -1)
                    out.append((by * width + bx, *corners))
            cells.append(tuple(out))
        found = tuple(cells)
        if len(_GEOMETRY) >= 16:
            _GEOMETRY.clear()  # one atomic step (threads)
        _GEOMETRY[(width, height)] = found
    return found


def _holds_on_cell(rule: AbilityDef, info: BoardInfo, cell: int, unit_type: UnitType) -> bool:
    """A ``step_cost`` ability applies to a step of ``unit_type`` into ``cell`` (rules §5.3 step 7)."""
    if rule.unit is not None and rule.unit is not unit_type:
        return False
    return rule.when is None or _cell_fact(rule.when, info, cell, unit_type)


def _cell_fact(node: Condition, info: BoardInfo, cell: int, unit_type: UnitType) -> bool:
    """``node`` about a unit of ``unit_type`` entering ``cell`` (the facts a step may read, checked at load)."""
    match node:
        case AllOf(of=parts):
            return all(_cell_fact(p, info, cell, unit_type) for p in parts)
        case AnyOf(of=parts):
            return any(_cell_fact(p, info, cell, unit_type) for p in parts)
        case Xor(of=parts):
            return [_cell_fact(p, info, cell, unit_type) for p in parts].count(True) == 1
        case Not(of=part):
            return not _cell_fact(part, info, cell, unit_type)
        case IsType(is_=types):
            return unit_type in types
        case HasTag(is_=tags):
            return any(tag in tags for tag in UNITS[unit_type].tags)
        case OnTerrain(is_=terrains):
            return info.terrain[cell] in terrains
        case TerrainTag(is_=tags):
            return any(tag in tags for tag in TERRAIN[info.terrain[cell]].tags)
        case OnOverlay(is_=overlay):
            return {"road": info.road, "river": info.river, "bridge": info.bridge}[overlay][cell]
        case InQuadrant(is_=quadrants):
            return info.quadrant[cell] in quadrants
    raise AssertionError(f"a step_cost cannot read {node!r} (refused at load)")  # pragma: no cover


_CACHE: Final[dict[int, tuple[weakref.ref[Board], BoardInfo]]] = {}


def board_info(board: Board) -> BoardInfo:
    """The (cached) `BoardInfo` of ``board``, kept exactly as long as the board lives.

    Keyed by object identity through a weak reference whose callback drops the entry when
    the board is freed, so an id is never reused while its entry lives and a server with
    many live matches keeps every match's tables. A board equal to a cached one but
    decoded anew gets its own entry, which is correct, only slower once.
    """
    entry = _CACHE.get(id(board))
    if entry is not None and entry[0]() is board:
        return entry[1]
    info = BoardInfo(board)
    key = id(board)

    def forget(_: weakref.ref[Board]) -> None:
        _CACHE.pop(key, None)

    _CACHE[key] = (weakref.ref(board, forget), info)
    return info
