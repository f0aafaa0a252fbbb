"""engine.tables: a game's own tables (a variant's `TableOverrides`) change play; the standard ones change nothing."""

from __future__ import annotations

import msgspec
import pytest

from engine import (
    DeclareAttack,
    DrawCard,
    GameConfig,
    GameState,
    IllegalAction,
    MoveUnit,
    RulesOverlay,
    StoreBonus,
    TableOverrides,
    legal_actions,
    new_game,
    reduce,
    state_hash,
)
from engine.analysis import explain
from engine.data import STANDARD_TABLES, game_tables, label
from engine.movement.search import reachable_cells
from tests.support import config, play, start, unit


def tables(**fields: object) -> RulesOverlay:
    return RulesOverlay(name="tables_test", tables=msgspec.convert(fields, TableOverrides))


def reach_costs(state: GameState, unit_id: str) -> dict[str, int]:
    """Least cost in half-points of every cell ``unit_id`` reaches."""
    width, height = state.board.width, state.board.height
    labels = [label(i % width, i // width) for i in range(width * height)]
    return {labels[i]: cost for i, cost in reachable_cells(state, unit(state, unit_id)).items()}


def moves_of(state: object, unit_id: str) -> set[str]:
    return {a.to for a in legal_actions(state) if isinstance(a, MoveUnit) and a.unit_id == unit_id}  # type: ignore[arg-type]


ROAD = "\n".join([".........."] * 4 + ["=========="] + [".........."] * 5)
RIVER = "\n".join(["....~....."] * 10)


def test_the_standard_tables_encode_as_nothing_and_leave_the_state_alone() -> None:
    assert msgspec.json.encode(TableOverrides()) == b"{}"
    assert game_tables(None) is STANDARD_TABLES
    assert (STANDARD_TABLES.max_moves, STANDARD_TABLES.max_attacks_per_turn, STANDARD_TABLES.storage_limit) == (5, 5, 6)
    assert STANDARD_TABLES.overlay_costs() == (1, 4, 2)  # half-points: rules §2.4
    spelled_out = RulesOverlay(name="same", tables=TableOverrides(max_moves=5, road_discount_mp=0.5))
    game = new_game(GameConfig(seed=3, rules=spelled_out))
    assert game.rules.tables is None
    assert state_hash(game) == state_hash(new_game(GameConfig(seed=3)))


def test_a_road_without_discount_shortens_reach() -> None:
    standard = start(terrain=ROAD, units=("A1 L A5", "D1 L J10"), phase="MOVEMENT")
    assert {"B5", "C5", "D5", "E5"} <= moves_of(standard, "A1")
    slow = start(terrain=ROAD, units=("A1 L A5", "D1 L J10"), phase="MOVEMENT", rules=tables(road_discount_mp=0))
    assert {"B5", "C5"} <= moves_of(slow, "A1") and "D5" not in moves_of(slow, "A1")
    with pytest.raises(IllegalAction, match="E5") as caught:
        reduce(slow, MoveUnit(unit_id="A1", to="E5"))
    assert caught.value.code == "unreachable"
    play(slow, MoveUnit(unit_id="A1", to="C5"))
    faster = start(terrain=ROAD, units=("A1 L A5", "D1 L J10"), phase="MOVEMENT", rules=tables(road_discount_mp=1.5))
    costs = reach_costs(faster, "A1")
    assert costs["E5"] == 4 and "F5" not in costs  # a step never costs less than one half-point (rules §5.3 step 8)
    assert reach_costs(slow, "A1")["C5"] == 4 and reach_costs(standard, "A1")["C5"] == 2


def test_river_costs_let_light_infantry_ford_and_follow_for_free() -> None:
    standard = start(terrain=RIVER, units=("A1 L D2", "D1 L J10"), phase="MOVEMENT")
    assert "E2" not in moves_of(standard, "A1")  # entering costs 3 MP > 2
    shallow = start(terrain=RIVER, units=("A1 L D2", "D1 L J10"), phase="MOVEMENT", rules=tables(river_enter_mp=1))
    assert "E2" in moves_of(shallow, "A1")
    flowing = start(terrain=RIVER, units=("A7 M E2", "D1 L J10"), phase="MOVEMENT", rules=tables(river_follow_mp=0))
    assert reach_costs(flowing, "A7")["E3"] == 2 and reach_costs(flowing, "A7")["E5"] == 6  # plain steps along it


def test_max_moves_one_refuses_the_second_move() -> None:
    state = start(units=("A1 L B2", "A2 L D2", "D1 L J10"), phase="MOVEMENT", rules=tables(max_moves=1))
    state = play(state, MoveUnit(unit_id="A1", to="B3"))
    assert not any(isinstance(a, MoveUnit) for a in legal_actions(state))
    with pytest.raises(IllegalAction, match="you have moved 1 of 1 unit this turn") as caught:
        reduce(state, MoveUnit(unit_id="A2", to="D3"))
    assert caught.value.code == "move_limit"
    assert "1 of 1" in str(explain(state, MoveUnit(unit_id="A2", to="D3")))


def test_an_attack_queue_of_one_refuses_a_second_declaration() -> None:
    units = ("A1 L B2", "A2 L C2", "D1 L B4")
    state = start(units=units, phase="ATTACK", rules=tables(max_attacks_per_turn=1))
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"))
    second = DeclareAttack(attacker_id="A2", target_id="D1")
    assert second not in legal_actions(state)
    with pytest.raises(IllegalAction, match="1 attack is already declared this turn") as caught:
        reduce(state, second)
    assert caught.value.code == "attack_limit"
    assert "1 attack is" in str(explain(state, second))
    standard = play(start(units=units, phase="ATTACK"), DeclareAttack(attacker_id="A1", target_id="D1"))
    assert second in legal_actions(standard)


def test_a_storage_limit_of_one_refuses_the_second_store() -> None:
    bonus = "rapid_supply_convoy#1"
    state = start(stored=((bonus,), ()), draw=("air_cover#1",), rules=tables(storage_limit=1))
    state = play(state, DrawCard())
    assert StoreBonus() not in legal_actions(state) and StoreBonus(replace_index=0) in legal_actions(state)
    with pytest.raises(IllegalAction, match=r"storage is full \(1\)"):
        reduce(state, StoreBonus())
    standard = play(start(stored=((bonus,), ()), draw=("air_cover#1",)), DrawCard())
    assert StoreBonus() in legal_actions(standard)
    with pytest.raises(ValueError, match="stores 1 bonus; the limit is 0"):
        new_game(config(stored=((bonus,), ()), rules=tables(storage_limit=0)))


def test_the_tactic_hand_size_keeps_the_same_random_stream() -> None:
    small = new_game(GameConfig(seed=9, rules=tables(tactic_hand_size=3)))
    standard = new_game(GameConfig(seed=9))
    assert [len(p.tactics) for p in small.players] == [3, 3]
    assert [len(p.tactics) for p in standard.players] == [6, 6]
    assert set(small.players[0].tactics) <= set(standard.players[0].tactics)  # the same shuffle, fewer kept
    assert small.board == standard.board and small.units == standard.units


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"road_discount_mp": 0.25}, "$.road_discount_mp"),
        ({"river_enter_mp": -1}, "$.river_enter_mp"),
        ({"max_moves": 0}, "$.max_moves"),
        ({"max_attacks_per_turn": "five"}, "$.max_attacks_per_turn"),
        ({"storage_limit": 100}, "$.storage_limit"),
        ({"max_move": 3}, "unknown field `max_move`"),
    ],
)
def test_bad_tables_are_refused_at_decode(fields: dict[str, object], path: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=path.replace("$", r"\$")):
        msgspec.convert(fields, TableOverrides)
