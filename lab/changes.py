"""What a variant changes besides cards, value by value: each table entry and scenario field, base → variant.

The balance report lists these next to its numbers, so a reader sees which rules produced
them. Each change is named by its path in the variant file (``tables.units.MECHANIZED.range``,
``tables.terrain.FOREST.move_cost``, ``tables.max_moves``, ``scenario.deck``) and carries
the value the base rules play with and the variant's, as JSON values. A value the variant
states but leaves as it was is no change. A changed row or setting (a unit type's stats, the
victory conditions) is followed down to the values that differ
(``scenario.victory.round_limit.max_rounds``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine import GameConfig, TableOverrides, TerrainType, UnitType
from engine.data import HIT_THRESHOLDS, TERRAIN, game_tables, unit_stats

from .variant import Variant

__all__ = ["RuleChange", "rule_changes"]


class RuleChange(msgspec.Struct, frozen=True, kw_only=True):
    """One table entry or scenario field the variant changes."""

    field: str  # its path in the variant file
    base: Any  # the base rules' value (JSON)
    variant: Any  # the variant's value (JSON)


_VALUE_TABLES = tuple(f.name for f in msgspec.structs.fields(TableOverrides) if f.name != "units")


def rule_changes(base: GameConfig, variant: Variant) -> tuple[RuleChange, ...]:
    """Every table entry and scenario field ``variant`` changes against ``base``: units, terrain, the
    other tables (in `TableOverrides` order), then the scenario fields (in the file's order)."""
    before = game_tables(base.rules.tables if base.rules is not None else None)
    after = variant.rules.tables
    changes: list[RuleChange] = []

    def note(field: str, old: Any, new: Any) -> None:
        if isinstance(old, msgspec.Struct) and type(new) is type(old):
            for name in old.__struct_fields__:
                note(f"{field}.{name}", getattr(old, name), getattr(new, name))
            return
        old, new = msgspec.to_builtins(old), msgspec.to_builtins(new)
        if old != new:
            changes.append(RuleChange(field=field, base=old, variant=new))

    for unit_type in UnitType:
        note(f"tables.units.{unit_type.name}", unit_stats(unit_type, before), unit_stats(unit_type, after))
    for terrain in TerrainType:
        row = variant.terrain.get(terrain)
        if row is not None:
            note(f"tables.terrain.{terrain.name}", TERRAIN[terrain], row)
    for name in _VALUE_TABLES:
        note(f"tables.{name}", _effective(before, name), _effective(after, name))
    for name, value in variant.scenario.items():
        note(f"scenario.{name}", getattr(base, name), value)
    return tuple(changes)


def _effective(tables: TableOverrides, name: str) -> Any:
    """The value ``tables`` play with for ``name`` (hit thresholds left unset are the standard ones)."""
    value = getattr(tables, name)
    return HIT_THRESHOLDS if name == "hit_thresholds" and value is None else value
