"""threat_map: which enemy units could reach or fire at each cell, checked against what the enemy may then play."""

from __future__ import annotations

from engine import (
    DeclareAttack,
    GameConfig,
    GameState,
    MoveUnit,
    RulesOverlay,
    Side,
    TableOverrides,
    UnitType,
    legal_actions,
    new_game,
)
from engine.analysis import CellThreat, ThreatMap, threat_map
from engine.board.grid import chebyshev
from engine.data import UNITS
from engine.state import Effect
from engine.types import Hook
from tests.support import replace, start


def cells_of(found: ThreatMap, field: str, unit: str) -> set[str]:
    return {c.cell for c in found.cells if unit in getattr(c, field)}


def defender_to_move(*units: str) -> GameState:
    """The defender's movement phase with ``units`` on an open 10x10 board (nothing drawn)."""
    return start(units=units, phase="MOVEMENT", side=Side.DEFENDER, draw=[])


def test_reach_is_every_cell_the_enemy_may_move_to_on_its_turn() -> None:
    now = start(units=("A1 L B2", "D1 L E7", "D2 M H8"), phase="MOVEMENT", draw=[])
    found = threat_map(now, Side.ATTACKER)
    assert (found.side, found.by) == (Side.ATTACKER, Side.DEFENDER)
    their_turn = defender_to_move("A1 L B2", "D1 L E7", "D2 M H8")
    for unit_id in ("D1", "D2"):
        moves = {a.to for a in legal_actions(their_turn) if isinstance(a, MoveUnit) and a.unit_id == unit_id}
        assert moves and cells_of(found, "reach", unit_id) == moves


def test_fire_counts_an_attack_after_a_move_and_agrees_with_declare_attack() -> None:
    # D1 (light infantry: 2 MP, range 2) stands 4 rows from A1: out of range now, in range after a move.
    state = defender_to_move("A1 L E2", "D1 L E6")
    found = threat_map(state, Side.ATTACKER)
    assert "D1" in next(c for c in found.cells if c.cell == "E2").fire
    assert DeclareAttack(attacker_id="D1", target_id="A1") not in legal_actions(state)
    assert "E4" in cells_of(found, "reach", "D1")
    from_there = start(units=("A1 L E2", "D1 L E4"), phase="ATTACK", side=Side.DEFENDER, draw=[])
    assert DeclareAttack(attacker_id="D1", target_id="A1") in legal_actions(from_there)
    # Nothing beyond its reach plus its range: two steps and two cells of range from E6.
    fire = cells_of(found, "fire", "D1")
    assert fire and all(chebyshev(state.board.cell_of(c), state.board.cell_of("E6")) <= 4 for c in fire)
    assert "E1" not in fire  # five rows away


def test_fire_reaches_as_far_as_the_games_own_unit_range() -> None:
    light = UnitType.LIGHT_INFANTRY
    longer = RulesOverlay(name="long_range", tables=TableOverrides(units={light: replace(UNITS[light], range=4)}))
    state = start(units=("A1 L E1", "D1 L E7"), phase="MOVEMENT", side=Side.DEFENDER, draw=[], rules=longer)
    found = threat_map(state, Side.ATTACKER)
    assert "D1" in next(c for c in found.cells if c.cell == "E1").fire  # two steps and four cells of range
    standard = threat_map(replace(state, rules=replace(state.rules, tables=None)), Side.ATTACKER)
    assert "E1" not in cells_of(standard, "fire", "D1")  # two steps and two cells of range


def test_a_move_or_fire_unit_threatens_fire_only_from_where_it_stands() -> None:
    state = defender_to_move("A1 L A1", "D1 S E6")
    found = threat_map(state, Side.ATTACKER)
    origin = state.board.cell_of("E6")
    fire = cells_of(found, "fire", "D1")
    assert fire == {
        label for label in _labels(state) if 1 <= chebyshev(state.board.cell_of(label), origin) <= 4
    } - {"E6"}
    assert cells_of(found, "reach", "D1")  # it can still move, just not also fire


def test_an_effect_that_forbids_attacks_removes_every_fire_threat() -> None:
    ceasefire = Effect(
        effect_id=1, play_id=1, source_card="un_ceasefire", source_kind="malus", controller=Side.ATTACKER,
        hook=Hook.CAN_ATTACK, op="deny", value=0, scope="all_attacks", remaining_turn_ends=2,
    )
    state = replace(defender_to_move("A1 L E2", "D1 L E5"), effects=(ceasefire,))
    found = threat_map(state, Side.ATTACKER)
    assert not any(c.fire for c in found.cells)
    assert cells_of(found, "reach", "D1")


def test_cells_held_by_the_enemy_are_never_listed_and_own_units_are_asked_about() -> None:
    state = defender_to_move("A1 L E4", "D1 L E6", "D2 L F6")
    found = threat_map(state, Side.ATTACKER)
    listed = {c.cell for c in found.cells}
    assert "E6" not in listed and "F6" not in listed
    assert next(c for c in found.cells if c.cell == "E4").fire == ("D1", "D2")
    assert all(isinstance(c, CellThreat) and (c.reach or c.fire) for c in found.cells)


def test_cells_come_in_board_order_and_the_answer_is_deterministic() -> None:
    state = new_game(GameConfig(seed=7))
    found = threat_map(state, Side.DEFENDER)
    order = [state.board.cell_of(c.cell) for c in found.cells]
    assert order == sorted(order, key=lambda xy: (xy[1], xy[0]))
    assert threat_map(new_game(GameConfig(seed=7)), Side.DEFENDER) == found
    assert {c.cell for c in found.cells}.isdisjoint(u.cell for u in state.units if u.side is Side.ATTACKER)


def _labels(state: GameState) -> list[str]:
    from engine.data import label

    return [label(x, y) for y in range(state.board.height) for x in range(state.board.width)]
