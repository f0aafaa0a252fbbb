"""What a variant changes, value by value: each card field, ability, table entry and scenario field, base → variant.

The balance report lists these next to its numbers, so a reader sees which rules produced
them. Each change is named by its path in the variant file (``cards.change.air_cover.copies_60``,
``cards.add.ambush``, ``abilities.SPECIAL.move_or_fire``, ``tables.units.MECHANIZED.range``,
``tables.terrain.FOREST.move_cost``, ``tables.max_moves``, ``scenario.deck``) and carries
the value the base rules play with and the variant's, as JSON values (None: there is none,
for an added or removed card or ability). A value the variant states but leaves as it was is
no change. A changed row or setting (a unit type's stats, the victory conditions, a card's
effect) is followed down to the values that differ (``scenario.victory.round_limit.max_rounds``,
``cards.change.steady_aim.effects[0].value``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine import GameConfig, TableOverrides, TerrainType, UnitType
from engine.data import CARDS, HIT_THRESHOLDS, STANDARD_ABILITIES, TERRAIN, CardDef, game_tables, unit_stats

from .variant import Variant

__all__ = ["RuleChange", "rule_changes"]


class RuleChange(msgspec.Struct, frozen=True, kw_only=True):
    """One table entry or scenario field the variant changes."""

    field: str  # its path in the variant file
    base: Any  # the base rules' value (JSON)
    variant: Any  # the variant's value (JSON)


_VALUE_TABLES = tuple(f.name for f in msgspec.structs.fields(TableOverrides) if f.name != "units")


def rule_changes(base: GameConfig, variant: Variant) -> tuple[RuleChange, ...]:
    """Every card field, ability, table entry and scenario field ``variant`` changes against ``base``: the
    changed cards' fields, added and removed cards, abilities, units, terrain, the other tables (in
    `TableOverrides` order), then the scenario fields (in the file's order)."""
    before = game_tables(base.rules.tables if base.rules is not None else None)
    after = variant.rules.tables
    changes: list[RuleChange] = []

    def note(field: str, old: Any, new: Any, items: bool = False) -> None:
        """Record ``field`` if it changed; rows and objects down to the values that did (``items``: lists too)."""
        if isinstance(old, msgspec.Struct) and type(new) is type(old):
            for name in old.__struct_fields__:
                note(f"{field}.{name}", getattr(old, name), getattr(new, name), items)
            return
        old, new = msgspec.to_builtins(old), msgspec.to_builtins(new)
        if isinstance(old, dict) and isinstance(new, dict):
            for key in dict.fromkeys([*old, *new]):
                note(f"{field}.{key}", old.get(key), new.get(key), items)
            return
        if items and isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and len(old) == len(new):
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                note(f"{field}[{i}]", a, b, items)
            return
        if old != new:
            changes.append(RuleChange(field=field, base=old, variant=new))

    for card_id, fields in variant.change.items():
        standard = msgspec.to_builtins(CARDS[card_id])
        changed = msgspec.to_builtins(msgspec.convert({**standard, **fields}, CardDef))  # defaults filled in, as loaded
        for name in fields:
            note(f"cards.change.{card_id}.{name}", standard.get(name), changed.get(name), items=True)
    for card in variant.rules.cards:
        if str(card.get("id")) not in variant.change:
            changes.append(RuleChange(field=f"cards.add.{card.get('id')}", base=None, variant=card.get("name")))
    for card_id in variant.rules.removed:
        changes.append(RuleChange(field=f"cards.remove.{card_id}", base=CARDS[card_id].name, variant=None))
    standard_abilities = {a.key: msgspec.to_builtins(a) for a in STANDARD_ABILITIES}
    for ability in variant.abilities:
        key = f"{ability.get('unit') or 'rules'}.{ability.get('id')}"
        note(f"abilities.{key}", standard_abilities.get(key), ability)
    for key in variant.rules.removed_abilities:
        changes.append(RuleChange(field=f"abilities.{key}", base=standard_abilities.get(key), variant=None))

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
