"""Bots plan with the game's own tables: a variant's unit stats change what they see and do."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine import (
    DeclareAttack,
    GameState,
    MoveUnit,
    RulesOverlay,
    Side,
    TableOverrides,
    UnitType,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from engine.data import UNITS
from lab.bots import GreedyBot, seat_seed
from lab.bots.advice import reason
from lab.bots.evaluate import Style, evaluate
from lab.bots.position import DAMAGE_SHARE, Position
from tests.support import config


def longer(unit_type: UnitType, **stats: int) -> RulesOverlay:
    """A variant whose ``unit_type`` has changed ``stats``."""
    return RulesOverlay(name="longer", tables=TableOverrides(units={unit_type: replace(UNITS[unit_type], **stats)}))


def greedy_turn(state: GameState) -> list[object]:
    """The actions of one turn with greedy in both seats (the defender may react)."""
    bot = GreedyBot()
    seeds = {side: seat_seed(7, side) for side in Side}
    played: list[object] = []
    turn = state.turn
    while state.to_act is not None and state.turn == turn:
        side = state.to_act
        action, seeds[side] = bot.choose(player_view(state, side), legal_actions(state), seeds[side])
        played.append(action)
        state = reduce(state, action)
    return played


def test_greedy_keeps_a_special_in_place_to_fire_with_the_variants_range() -> None:
    """A SPECIAL may move or fire (rules §3.1). Six cells from its target it is out of range in the
    standard game, so greedy moves it; with range 6 it fires from where it stands instead."""
    specs = ("A1 S C2", "D1 L C8")
    fire = DeclareAttack(attacker_id="A1", target_id="D1")
    standard = greedy_turn(new_game(config(unit_specs=specs, phase="MOVEMENT")))
    assert fire not in standard
    assert any(isinstance(a, MoveUnit) and a.unit_id == "A1" for a in standard)
    variant = greedy_turn(new_game(config(unit_specs=specs, phase="MOVEMENT", rules=longer(UnitType.SPECIAL, range=6))))
    assert fire in variant
    assert not any(isinstance(a, MoveUnit) for a in variant)


def test_the_evaluation_fears_an_enemy_whose_variant_range_reaches() -> None:
    """A DEFENDER SPECIAL (move or fire) seven cells away threatens only when its range is 7."""
    specs = ("A1 L C2", "D1 S C9")
    standard = new_game(config(unit_specs=specs, phase="MOVEMENT"))
    variant = new_game(config(unit_specs=specs, phase="MOVEMENT", rules=longer(UnitType.SPECIAL, range=7)))

    def threat(state: GameState) -> float:
        """What the evaluation subtracts for the DEFENDER's next turn."""
        return evaluate(state, Side.ATTACKER, style=Style(threat=0.0)) - evaluate(state, Side.ATTACKER)

    assert threat(standard) == 0.0
    assert threat(variant) > 0.0


def test_positions_value_units_by_the_variants_hp_and_vp() -> None:
    """A MECHANIZED unit of 4 HP and 5 VP: a hit takes a quarter of its damage share of 5 VP."""
    specs = ("A1 L C3", "D1 M C5")
    tough = longer(UnitType.MECHANIZED, hp=4, vp=5)
    standard = Position(new_game(config(unit_specs=specs, phase="ATTACK")))
    variant = Position(new_game(config(unit_specs=specs, phase="ATTACK", rules=tough)))
    assert variant.by_id["D1"].hp == 4
    assert variant.stats[UnitType.MECHANIZED].vp == 5
    assert standard.stats is UNITS  # the standard game reads the standard table itself
    assert variant.hit_value["D1"] == pytest.approx(5 * DAMAGE_SHARE / 4)
    assert standard.hit_value["D1"] == pytest.approx(2 * DAMAGE_SHARE / 2)


def test_a_hint_names_a_shot_the_variants_range_opens() -> None:
    state = new_game(config(unit_specs=("A1 L C2", "D1 L C8"), phase="MOVEMENT"))
    move = MoveUnit(unit_id="A1", to="C3")
    assert "closes in" in reason(state, move)
    variant = new_game(
        config(unit_specs=("A1 L C2", "D1 L C8"), phase="MOVEMENT", rules=longer(UnitType.LIGHT_INFANTRY, range=5))
    )
    assert "from there it can fire at D1" in reason(variant, move)
