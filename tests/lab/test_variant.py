"""lab.variant: a variant file is checked before anything runs, and its rules travel with the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import (
    RULES_VERSION,
    DeclareAttack,
    GameConfig,
    MoveUnit,
    Phase,
    decode_record,
    encode_record,
    legal_actions,
    new_game,
    record_game,
    reduce,
    replay,
    state_hash,
)
from engine.analysis import attack_preview
from engine.data import CARDS
from lab.variant import VariantError, apply_variant, decode_variant, load_variant
from tests.support import config, shipped_deck, terrain_with


def variant(**fields: Any) -> bytes:
    return json.dumps({"name": "test_variant", **fields}).encode()


def in_variant(base: GameConfig, **fields: Any) -> GameConfig:
    return apply_variant(base, decode_variant(variant(**fields)))


# --- what a variant changes -------------------------------------------------------------


def test_a_changed_card_field_changes_the_deck_and_keeps_the_standard_card() -> None:
    changed = in_variant(GameConfig(seed=4), cards={"change": {"air_cover": {"copies_60": 4}}})
    state = new_game(changed)
    covers = [c for c in state.draw_pile if c.startswith("air_cover")]
    assert len(covers) == 4
    assert all(c.partition("#")[0].startswith("air_cover@") for c in covers)  # its own id: no shadowing
    standard = CARDS["air_cover"].copies_60
    assert standard != 4 and sum(c.startswith("air_cover#") for c in shipped_deck(60)) == standard
    assert new_game(GameConfig(seed=4)).rules.cards == "standard"


def test_removed_and_added_cards() -> None:
    added = {
        "id": "test_rally", "name": "Test Rally", "kind": "bonus", "class": "generic", "category": "Morale",
        "copies_60": 2, "copies_90": 2, "timing": "stored", "targeting": {"kind": "none"}, "text": "+1 move.",
        "effects": [{"hook": "modify_max_moves", "op": "add", "value": 1, "scope": "controller",
                     "duration": "end_of_turn"}],
    }
    state = new_game(in_variant(GameConfig(seed=4), cards={"remove": ["air_cover"], "add": [added]}))
    deck = {c.partition("#")[0] for c in state.draw_pile}
    assert "air_cover" not in deck and "test_rally" in deck


def test_unit_stats_change_range_and_hp() -> None:
    base = config(phase="ATTACK", unit_specs=("A1 L B2", "D1 L B6"))
    assert "A1" not in {a.attacker_id for a in legal_actions(new_game(base)) if isinstance(a, DeclareAttack)}
    longer = in_variant(base, tables={"units": {"LIGHT_INFANTRY": {"range": 4, "hp": 3}}})
    state = new_game(longer)
    assert DeclareAttack(attacker_id="A1", target_id="D1") in legal_actions(state)
    assert {u.id: u.hp for u in state.units} == {"A1": 3, "D1": 3}


def test_hit_thresholds_change_the_required_roll() -> None:
    base = config(phase="ATTACK", unit_specs=("A1 L B2", "D1 L B4"))
    attack = DeclareAttack(attacker_id="A1", target_id="D1")
    assert attack_preview(new_game(base), attack).odds.required == 4
    easier = new_game(in_variant(base, tables={"hit_thresholds": [2, 3, 4, 5]}))
    assert attack_preview(easier, attack).odds.required == 3


def test_terrain_move_cost_and_cover() -> None:
    base = config(terrain=terrain_with(B3="f"), phase="MOVEMENT", unit_specs=("A1 L B2", "D1 L B9"))
    into_forest = MoveUnit(unit_id="A1", to="B3")
    assert into_forest in legal_actions(new_game(base))
    costly = new_game(in_variant(base, tables={"terrain": {"FOREST": {"move_cost": 3}}}))
    assert into_forest not in legal_actions(costly)
    target = config(terrain=terrain_with(B4="f"), phase="ATTACK", unit_specs=("A1 L B2", "D1 L B4"))
    attack = DeclareAttack(attacker_id="A1", target_id="D1")
    before = attack_preview(new_game(target), attack).odds.hit_chance
    covered = new_game(in_variant(target, tables={"terrain": {"FOREST": {"defense": 2}}}))
    assert attack_preview(covered, attack).odds.hit_chance < before


def test_scenario_fields_replace_the_base() -> None:
    changed = in_variant(GameConfig(seed=2), scenario={"deck": 90, "victory": {"round_limit": {"max_rounds": 9}}})
    assert changed.deck == 90 and changed.victory.round_limit is not None
    assert changed.victory.round_limit.max_rounds == 9 and changed.seed == 2


def test_a_variant_game_replays_from_its_record_alone() -> None:
    changed = in_variant(
        config(phase="ATTACK", unit_specs=("A1 L B2", "D1 L B6")),
        cards={"change": {"air_cover": {"copies_60": 3}}},
        tables={"units": {"LIGHT_INFANTRY": {"range": 4}}, "hit_thresholds": [2, 3, 4, 5]},
    )
    state = new_game(changed)
    actions = []
    for _ in range(6):
        action = legal_actions(state)[0]
        actions.append(action)
        state = reduce(state, action)
    record = decode_record(encode_record(record_game(changed, actions)))  # the rules are in the record
    assert record.rules_version == RULES_VERSION
    assert state_hash(list(replay(record))[-1]) == state_hash(state)


def test_the_standard_config_does_not_mention_rules() -> None:
    assert b"rules" not in msgspec.json.encode(GameConfig(seed=1))
    assert new_game(GameConfig(seed=1)).rules.tables is None


# --- errors: each names the path; nothing runs ------------------------------------------


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"cards": {"change": {"air_cuver": {"copies_60": 2}}}}, "$.cards.change.air_cuver: unknown card 'air_cuver'"),
        ({"cards": {"remove": ["nothing_here"]}}, "$.cards.remove[0]: unknown card 'nothing_here'"),
        ({"cards": {"change": {"air_cover": {"copies": 2}}}}, "$.cards.change.air_cover: card 'air_cover'"),
        ({"cards": {"change": {"air_cover": {"copies_60": "two"}}}}, "Expected `int`, got `str`"),
        ({"tables": {"units": {"LIGHT_INFANTRY": {"armour": 1}}}}, "unknown field `armour`"),
        ({"tables": {"units": {"TANK": {"range": 1}}}}, "$.tables.units.TANK: unknown units 'TANK'"),
        ({"tables": {"units": {"MECHANIZED": {"range": "far"}}}}, "$.tables.units.MECHANIZED.range: Expected `int"),
        ({"tables": {"units": {"MECHANIZED": {"range": 0}}}}, "$.tables.units.MECHANIZED.range: Expected `int` >= 1"),
        ({"tables": {"hit_thresholds": [3, 4, 13]}}, "$.tables.hit_thresholds[2]: Expected `int` <= 12"),
        ({"tables": {"terrain": {"FOREST": {"move_cost": 0}}}}, "$.tables.terrain.FOREST.move_cost"),
        ({"tables": {"terrain": {"WATER": {"blocks": False}}}}, "$.tables.terrain.WATER.blocks: WATER cannot"),
        ({"scenario": {"deck": 75}}, "$.scenario.deck"),
        ({"scenario": {"seed": 3}}, "$.scenario.seed"),
        ({"scenario": {"wdith": 3}}, "unknown field `wdith`"),
        ({"tabels": {}}, "unknown field `tabels`"),
    ],
)
def test_bad_variants_are_refused_with_the_path(fields: dict[str, Any], expected: str) -> None:
    with pytest.raises(VariantError) as caught:
        decode_variant(variant(**fields))
    assert expected in str(caught.value)


def test_a_changed_card_that_breaks_the_card_language_names_card_and_field() -> None:
    effect = {"hook": "modify_attack_roll", "op": "halve", "scope": "own_attacks", "duration": "end_of_turn"}
    bad = {"effects": [effect]}
    with pytest.raises(VariantError, match=r"card 'air_cover': field `effects\[0\]\.op`"):
        decode_variant(variant(cards={"change": {"air_cover": bad}}))


def test_a_bad_name_and_bad_json(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match=r"\$\.name"):
        decode_variant(json.dumps({"name": "Bad Name"}).encode())
    path = tmp_path / "broken.json"
    path.write_text("{")
    with pytest.raises(VariantError, match=r"broken\.json: "):
        load_variant(path)
    with pytest.raises(VariantError, match="cannot read"):
        load_variant(tmp_path / "missing.json")


def test_phase_of_a_variant_game_is_the_scenario_phase() -> None:
    assert new_game(in_variant(config(phase="MOVEMENT"), tables={"hit_thresholds": [3]})).phase is Phase.MOVEMENT


def test_the_example_in_docs_lab_is_a_valid_variant() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "lab.md").read_text()
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    checked = decode_variant(example.encode())
    assert checked.name == "cheap_air_cover" and "air_cover" in checked.changed_cards
    new_game(apply_variant(GameConfig(seed=1), checked))  # and the engine plays it


def test_a_changed_tactic_plays_through_a_whole_game() -> None:
    from engine import Side, VictoryConfig
    from lab.bots import get_bot
    from lab.selfplay import play_game

    small = GameConfig(seed=11, terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=300))
    changed = in_variant(small, cards={"change": {"dense_fog": {"text": "Thicker fog."}}, "remove": ["natural_cover"]})
    state = new_game(changed)
    hands = state.players[0].tactics + state.players[1].tactics
    assert "natural_cover" not in hands and "dense_fog" not in hands
    record, final = play_game(changed, {side: get_bot("greedy") for side in Side})
    assert state_hash(list(replay(record))[-1]) == state_hash(final)
