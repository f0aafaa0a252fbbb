"""lab.variant: every table rules.md lets a designer change is a `tables` field, checked with its JSON path."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cli.main import main
from engine import (
    EventKind,
    GameConfig,
    RoundLimit,
    TableOverrides,
    VictoryConfig,
    decode_record,
    new_game,
    replay,
    state_hash,
)
from engine.data import STANDARD_TABLES
from lab.variant import VariantError, apply_variant, decode_variant

NEW_TABLES = {
    "road_discount_mp": 0,
    "river_enter_mp": 3,
    "river_follow_mp": 1.5,
    "max_moves": 2,
    "max_attacks_per_turn": 1,
    "storage_limit": 1,
    "tactic_hand_size": 4,
}


def variant(**fields: Any) -> bytes:
    return json.dumps({"name": "tables_variant", **fields}).encode()


def test_every_table_field_is_carried_into_the_game() -> None:
    checked = decode_variant(variant(tables={**NEW_TABLES, "hit_thresholds": [3, 4]}))
    tables = checked.rules.tables
    assert json.loads(msgspec.json.encode(tables)) == {**NEW_TABLES, "hit_thresholds": [3, 4]}
    state = new_game(apply_variant(GameConfig(seed=5), checked))
    assert state.rules.tables == tables
    assert [len(p.tactics) for p in state.players] == [4, 4]


def test_a_variant_names_every_table_field_docs_lab_lists() -> None:
    """docs/lab.md's table of `tables` fields lists every field, with its default."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "lab.md").read_text()
    for field in msgspec.structs.fields(TableOverrides):
        assert f"`{field.name}`" in text, f"docs/lab.md does not list tables.{field.name}"
    for name in NEW_TABLES:
        default = getattr(STANDARD_TABLES, name)
        assert f"`{name}` | {default:g}" in text, f"docs/lab.md does not give {name}'s default {default}"


def test_the_tables_example_in_docs_lab_is_a_valid_variant() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "lab.md").read_text()
    example = next(block for block in text.split("```json\n")[1:] if '"slow_war"' in block).split("```", 1)[0]
    checked = decode_variant(example.encode())
    assert checked.rules.tables.max_moves == 3 and checked.rules.tables.road_discount_mp == 0
    assert new_game(apply_variant(GameConfig(seed=1), checked)).rules.tables == checked.rules.tables


@pytest.mark.parametrize(
    ("tables", "expected"),
    [
        ({"road_discount_mp": "half"}, "$.tables.road_discount_mp: Expected `float`, got `str`"),
        ({"road_discount_mp": 0.3}, "$.tables.road_discount_mp: Expected `float` that's a multiple of 0.5"),
        ({"river_enter_mp": -0.5}, "$.tables.river_enter_mp: Expected `float` >= 0"),
        ({"river_follow_mp": 40}, "$.tables.river_follow_mp: Expected `float` <= 20"),
        ({"max_moves": 0}, "$.tables.max_moves: Expected `int` >= 1"),
        ({"max_moves": 2.5}, "$.tables.max_moves: Expected `int`, got `float`"),
        ({"max_attacks_per_turn": True}, "$.tables.max_attacks_per_turn: Expected `int`, got `bool`"),
        ({"max_attacks_per_turn": 100}, "$.tables.max_attacks_per_turn: Expected `int` <= 99"),
        ({"storage_limit": -1}, "$.tables.storage_limit: Expected `int` >= 0"),
        ({"storage_limit": [6]}, "$.tables.storage_limit: Expected `int`, got `array`"),
        ({"tactic_hand_size": 12}, "$.tables.tactic_hand_size: 12 is more than the 11 tactic cards of the pool"),
        ({"max_move": 3}, "$.tables.max_move: unknown table 'max_move' (units, terrain, hit_thresholds, road_disc"),
        ({"units": []}, "$.tables.units: Expected `object`, got `array`"),
    ],
)
def test_bad_tables_are_refused_with_the_path(tables: dict[str, Any], expected: str) -> None:
    with pytest.raises(VariantError) as caught:
        decode_variant(variant(tables=tables))
    assert expected in str(caught.value)


def test_tables_must_be_an_object() -> None:
    with pytest.raises(VariantError, match=r"\$\.tables: Expected `object`, got `array`"):
        decode_variant(variant(tables=[1]))


def test_the_hand_size_counts_the_variants_own_tactic_pool() -> None:
    with pytest.raises(VariantError, match="6 is more than the 5 tactic cards"):
        decode_variant(
            variant(
                cards={"remove": ["dense_fog", "natural_cover", "precision_shot", "suppressive_fire", "expert_aim",
                                  "tactical_block"]},
                tables={"tactic_hand_size": 6},
            )
        )
    smaller = decode_variant(variant(cards={"remove": ["dense_fog"]}, tables={"tactic_hand_size": 10}))
    assert smaller.rules.tables.tactic_hand_size == 10


@pytest.mark.parametrize("seed", [1, 2])
def test_the_fuzzers_invariants_hold_under_the_games_own_tables(seed: int) -> None:
    from lab.fuzz import FuzzOptions, fuzz_game

    roomy = {"max_attacks_per_turn": 9, "max_moves": 9, "storage_limit": 2, "units": {"MECHANIZED": {"hp": 3}}}
    board = GameConfig(seed=seed, terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=400))
    config = apply_variant(board, decode_variant(variant(tables=roomy)))
    outcome = fuzz_game(config, seed=seed, options=FuzzOptions(unlisted=2))
    assert outcome.failure is None, outcome.failure
    assert len(outcome.actions) > 50


# --- `taktik balance` end to end with the new tables ------------------------------------


SMALL = GameConfig(
    terrain="\n".join(["." * 4 + "=" + "." * 5] * 12),
    victory=VictoryConfig(max_actions=240, round_limit=RoundLimit(max_rounds=4)),
)


def test_taktik_balance_plays_a_variant_of_the_new_tables(tmp_path: Path) -> None:
    (tmp_path / "variant.json").write_text(json.dumps({"name": "slow_war", "tables": NEW_TABLES}))
    (tmp_path / "small.json").write_bytes(msgspec.json.encode(SMALL))
    out = tmp_path / "out"
    argv = [
        "balance", str(tmp_path / "variant.json"), "--games", "4", "--bots", "greedy,greedy", "--seed", "3",
        "--config", str(tmp_path / "small.json"), "--out", str(out), "--no-html",
    ]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 0
    assert "slow_war" in printed.getvalue()
    most: dict[str, dict[str, int]] = {}
    for rules in ("base", "variant"):
        paths = sorted((out / rules).glob("game-*.json"))
        assert len(paths) == 4
        moves = attacks = 0
        for path in paths:
            record = decode_record(path.read_bytes())
            states = list(replay(record))
            assert [state_hash(s) for s in states[1:]] == list(record.hashes)
            assert (record.config.rules is not None) == (rules == "variant")
            for state in states:
                moves = max(moves, state.moves_this_turn)
                attacks = max(attacks, len(state.attack_queue))
                if rules == "variant":
                    assert all(len(p.stored) <= 1 for p in state.players)
            assert sum(e.kind is EventKind.UNIT_MOVED for s in states for e in s.events) > 0
        most[rules] = {"moves": moves, "attacks": attacks}
    assert most["variant"] == {"moves": 2, "attacks": 1}  # the limits bind, and only in the variant
    assert most["base"]["moves"] > 2
