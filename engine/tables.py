"""Static rule tables as data: unit types, base terrain, overlays, hit thresholds and limits.

Everything here is the rules' data (rules §2.3, §2.4, §3.1, §5.1, §6.1, §6.2, §7.5, §7.6);
code reads it through these names so that a designer changes a number in one place, and a
variant changes it for one game through `TableOverrides` (read with `game_tables`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from .canonical import keep_defaults
from .types import TerrainType, UnitType

__all__ = [
    "BASE_MAX_MOVES",
    "BASE_STORAGE_LIMIT",
    "CONNECTOR_TAGS",
    "HIT_THRESHOLDS",
    "MAX_ATTACKS_PER_TURN",
    "OVERLAY_TAGS",
    "RIVER_ENTER_COST",
    "RIVER_FOLLOW_COST",
    "ROAD_DISCOUNT",
    "STANDARD_TABLES",
    "TACTIC_HAND_SIZE",
    "TERRAIN",
    "UNITS",
    "UNIT_ABILITY_DATA",
    "UNIT_NAMES",
    "TableOverrides",
    "TerrainRules",
    "UnitStats",
    "game_tables",
    "required_roll",
    "unit_stats",
]


class UnitStats(msgspec.Struct, frozen=True):
    """One row of the unit table (rules §3.1)."""

    movement_mp: int  # movement points per turn
    range: int  # maximum Chebyshev distance of an attack
    hp: int  # hit points when fresh
    damage: int  # HP removed by one hit
    vp: int  # victory points the enemy earns by destroying it
    tags: tuple[str, ...]


class _UnitRow(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One unit type as ``data/units.json`` writes it: stats, tags and abilities (card language)."""

    type: UnitType
    name: str
    movement_mp: Annotated[int, Meta(ge=0, le=20)]
    range: Annotated[int, Meta(ge=1, le=30)]
    hp: Annotated[int, Meta(ge=1, le=99)]
    damage: Annotated[int, Meta(ge=0, le=99)]
    vp: Annotated[int, Meta(ge=0, le=99)]
    tags: tuple[str, ...]
    abilities: tuple[dict[str, Any], ...] = ()  # checked by `engine.cards.abilities` (it reads the card language)


class _UnitFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    units: tuple[_UnitRow, ...]


def _unit_rows() -> tuple[_UnitRow, ...]:
    rows = msgspec.json.decode((Path(__file__).parent / "data" / "units.json").read_bytes(), type=_UnitFile).units
    if [row.type for row in rows] != list(UnitType):
        raise ValueError(f"data/units.json lists {[r.type.value for r in rows]}, not every unit type once in order")
    return rows


_ROWS = _unit_rows()

UNITS: dict[UnitType, UnitStats] = {
    row.type: UnitStats(
        movement_mp=row.movement_mp, range=row.range, hp=row.hp, damage=row.damage, vp=row.vp, tags=row.tags
    )
    for row in _ROWS
}
"""The unit table (rules §3.1), from ``data/units.json``."""

UNIT_NAMES: dict[UnitType, str] = {row.type: row.name for row in _ROWS}
UNIT_ABILITY_DATA: dict[UnitType, tuple[dict[str, Any], ...]] = {row.type: row.abilities for row in _ROWS}
"""Each unit type's abilities as the file writes them (loaded and checked by `engine.cards.abilities`)."""


class TerrainRules(msgspec.Struct, frozen=True):
    """One row of the base-terrain table (rules §2.3)."""

    move_cost: int  # MP to enter (ignored when `blocks`)
    blocks: bool  # cannot be entered at all
    hit_modifier: int  # added to rolls against a unit standing here
    defense: int  # subtracted from rolls against a unit standing here
    tags: tuple[str, ...]


TERRAIN: dict[TerrainType, TerrainRules] = {
    TerrainType.PLAIN: TerrainRules(move_cost=1, blocks=False, hit_modifier=0, defense=0, tags=("open",)),
    TerrainType.ROUGH: TerrainRules(move_cost=2, blocks=False, hit_modifier=0, defense=0, tags=("rough",)),
    TerrainType.FOREST: TerrainRules(
        move_cost=2, blocks=False, hit_modifier=-1, defense=0, tags=("cover", "concealment")
    ),
    TerrainType.URBAN: TerrainRules(
        move_cost=2, blocks=False, hit_modifier=-1, defense=1, tags=("cover", "structures")
    ),
    TerrainType.INDUSTRIAL: TerrainRules(
        move_cost=2, blocks=False, hit_modifier=-1, defense=0, tags=("cover", "structures")
    ),
    TerrainType.HILL: TerrainRules(move_cost=2, blocks=False, hit_modifier=0, defense=1, tags=("elevated",)),
    TerrainType.WATER: TerrainRules(move_cost=0, blocks=True, hit_modifier=0, defense=0, tags=("water",)),
}

OVERLAY_TAGS = {"road": ("road",), "river": ("river",)}
"""Tags carried by the overlays (a cell's road and river, rules §2.4)."""

CONNECTOR_TAGS = {"bridge": ("bridge",)}
"""Tags carried by connectors (a bridge is every road ∩ river cell)."""

ROAD_DISCOUNT = 1  # half-points saved by an orthogonal road-to-road step (0.5 MP)
RIVER_ENTER_COST = 4  # half-points added for entering a non-bridge river cell (+2 MP)
RIVER_FOLLOW_COST = 2  # half-points added for an orthogonal river-to-river step (+1 MP)

BASE_MAX_MOVES = 5  # units a player may move per turn before effects
BASE_STORAGE_LIMIT = 6  # stored bonuses a player may keep before effects
MAX_ATTACKS_PER_TURN = 5  # declarations a player may have queued at once
TACTIC_HAND_SIZE = 6  # tactic cards each player's seeded hand keeps from the pool

HIT_THRESHOLDS: tuple[int, ...] = (3, 4, 5, 6)
"""Required modified roll at Chebyshev distance 1, 2, 3, 4; farther needs the last value."""


Roll = Annotated[int, Meta(ge=2, le=12)]
HalfMP = Annotated[float, Meta(ge=0, le=20, multiple_of=0.5)]  # an MP cost: a multiple of 0.5 (rules §8.2)
Limit = Annotated[int, Meta(ge=1, le=99)]


class TableOverrides(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The tables a game plays with: the standard ones, with a variant's changes.

    Every field defaults to the standard value (and is then left out of the encoding, so a
    standard game hashes as before). A game carries them in its rules
    (`GameState.rules.tables`, None for the standard ones); code that reads a table during
    play asks `game_tables`, `unit_stats` or `required_roll` with them, once per call.
    """

    units: dict[UnitType, UnitStats] = msgspec.field(default_factory=dict)  # rows replacing `UNITS` rows
    hit_thresholds: Annotated[tuple[Roll, ...], Meta(min_length=1, max_length=12)] | None = None  # §6.2
    road_discount_mp: HalfMP = ROAD_DISCOUNT / 2  # §2.4: saved by an orthogonal road-to-road step
    river_enter_mp: HalfMP = RIVER_ENTER_COST / 2  # §2.4: added for entering a non-bridge river cell
    river_follow_mp: HalfMP = RIVER_FOLLOW_COST / 2  # §2.4: added for an orthogonal river-to-river step
    max_moves: Limit = BASE_MAX_MOVES  # §5.1: units moved per turn before effects
    max_attacks_per_turn: Limit = MAX_ATTACKS_PER_TURN  # §6.1: declarations queued at once
    storage_limit: Annotated[int, Meta(ge=0, le=99)] = BASE_STORAGE_LIMIT  # §7.6: stored bonuses before effects
    tactic_hand_size: Annotated[int, Meta(ge=0, le=99)] = TACTIC_HAND_SIZE  # §7.5: seeded hand size

    def __post_init__(self) -> None:
        keep_defaults(self)  # a decoded 0.5 is the default object: equal tables encode alike (engine.canonical)

    def overlay_costs(self) -> tuple[int, int, int]:
        """``(road discount, river enter, river follow)`` in half-points (rules §5.3 steps 5-6)."""
        return round(2 * self.road_discount_mp), round(2 * self.river_enter_mp), round(2 * self.river_follow_mp)


STANDARD_TABLES = TableOverrides()
"""The standard tables (a game whose ``rules.tables`` is None plays with these)."""


def game_tables(tables: TableOverrides | None) -> TableOverrides:
    """The tables a game plays with, given its ``rules.tables`` (None: `STANDARD_TABLES`)."""
    return STANDARD_TABLES if tables is None else tables


def unit_stats(unit_type: UnitType, tables: TableOverrides | None = None) -> UnitStats:
    """The stats of ``unit_type`` (rules §3.1), as ``tables`` change them."""
    if tables is not None:
        row = tables.units.get(unit_type)
        if row is not None:
            return row
    return UNITS[unit_type]


def required_roll(distance: int, tables: TableOverrides | None = None) -> int:
    """Minimum modified roll that hits at ``distance`` (rules §6.2), as ``tables`` change it."""
    thresholds = HIT_THRESHOLDS if tables is None or tables.hit_thresholds is None else tables.hit_thresholds
    return thresholds[min(max(distance, 1), len(thresholds)) - 1]
