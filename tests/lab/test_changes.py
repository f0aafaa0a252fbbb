"""lab.changes: every table entry and scenario field a variant changes, with the base and the variant value."""

from __future__ import annotations

import json
from typing import Any

from engine import GameConfig, RoundLimit, RulesOverlay, TableOverrides, VictoryConfig
from lab.changes import RuleChange, rule_changes
from lab.variant import decode_variant


def changes(base: GameConfig, **variant: Any) -> list[tuple[str, Any, Any]]:
    checked = decode_variant(json.dumps({"name": "changes", **variant}).encode())
    return [(c.field, c.base, c.variant) for c in rule_changes(base, checked)]


def test_each_changed_value_is_listed_by_its_path_with_both_values() -> None:
    tables = {
        "units": {"MECHANIZED": {"range": 4, "hp": 2}, "SPECIAL": {"movement_mp": 2}},  # hp 2 is MECHANIZED's own
        "terrain": {"FOREST": {"move_cost": 3, "defense": 1}},
        "hit_thresholds": [3, 4, 4, 5],
        "road_discount_mp": 0,
        "max_attacks_per_turn": 5,  # the standard value: no change
    }
    scenario = {"deck": 90, "victory": {"round_limit": {"max_rounds": 12}}}
    assert changes(GameConfig(), tables=tables, scenario=scenario) == [
        ("tables.units.MECHANIZED.range", 3, 4),
        ("tables.units.SPECIAL.movement_mp", 3, 2),
        ("tables.terrain.FOREST.move_cost", 2, 3),
        ("tables.terrain.FOREST.defense", 0, 1),
        ("tables.hit_thresholds", (3, 4, 5, 6), (3, 4, 4, 5)),
        ("tables.road_discount_mp", 0.5, 0.0),
        ("scenario.deck", 60, 90),
        ("scenario.victory.round_limit.max_rounds", 25, 12),
    ]


def test_card_changes_are_itemized_field_by_field() -> None:
    steady = {"id": "steady_hands", "name": "Steady Hands", "kind": "bonus", "class": "generic", "category": "Morale",
              "timing": "stored", "text": "Reroll a miss.", "copies_60": 1,
              "effects": [{"hook": "reroll_attack_die", "op": "reroll_miss", "scope": "own_attacks",
                           "duration": "end_of_turn"}]}
    motivation = [
        {"hook": "modify_attack_roll", "op": "add", "value": 2, "scope": "targets", "duration": "turns:2"},
        {"hook": "modify_defense", "op": "add", "value": 1, "scope": "targets", "duration": "turns:3"},
    ]
    cards = {"change": {"air_cover": {"copies_60": 4}, "troop_motivation": {"effects": motivation}},
             "add": [steady], "remove": ["blackout"]}
    assert changes(GameConfig(), cards=cards) == [
        ("cards.change.air_cover.copies_60", 2, 4),
        ("cards.change.troop_motivation.effects[0].value", 1, 2),
        ("cards.change.troop_motivation.effects[1].duration", "turns:2", "turns:3"),
        ("cards.add.steady_hands", None, "Steady Hands"),
        ("cards.remove.blackout", "Blackout", None),
    ]


def test_abilities_are_itemized_by_key() -> None:
    mine = {"id": "move_or_fire", "unit": "MECHANIZED", "hook": "can_attack", "op": "deny", "when": {"if": "moved"}}
    found = changes(GameConfig(), abilities=[mine], remove_abilities=["SPECIAL.move_or_fire"])
    assert [(field, base) for field, base, _ in found] == [
        ("abilities.MECHANIZED.move_or_fire", None),
        ("abilities.SPECIAL.move_or_fire", found[1][1]),
    ]
    assert found[1][1]["hook"] == "can_attack" and found[1][2] is None


def test_the_scenario_is_compared_with_the_base_config_the_run_uses() -> None:
    base = GameConfig(victory=VictoryConfig(round_limit=RoundLimit(max_rounds=12)), deck=90)
    assert changes(base, scenario={"deck": 90, "victory": {"round_limit": {"max_rounds": 12}}}) == []
    assert changes(base, scenario={"deck": 60}) == [("scenario.deck", 90, 60)]


def test_tables_are_compared_with_the_base_configs_own() -> None:
    base = GameConfig(rules=RulesOverlay(name="slow", tables=TableOverrides(max_moves=3)))
    assert changes(base, tables={"max_moves": 3}) == []
    assert changes(base, tables={"storage_limit": 2}) == [
        ("tables.max_moves", 3, 5),  # the variant's rules replace the base's, back to the standard value
        ("tables.storage_limit", 6, 2),
    ]


def test_a_change_encodes_as_json() -> None:
    import msgspec

    change = RuleChange(field="tables.hit_thresholds", base=[3, 4, 5, 6], variant=[3, 4])
    assert json.loads(msgspec.json.encode(change)) == {
        "field": "tables.hit_thresholds", "base": [3, 4, 5, 6], "variant": [3, 4]
    }
