"""The opening truce (rules §6.1): no attack may be declared in the first rounds of a deployed game."""

from __future__ import annotations

import msgspec
import pytest

from engine import (
    DeclareAttack,
    GameConfig,
    GameState,
    IllegalAction,
    NextPhase,
    Phase,
    Side,
    legal_actions,
    new_game,
    reduce,
)
from engine.analysis import explain, in_truce
from tests.support import config, pass_turns, play, snapshot

ADJACENT = ("A1 L B3", "D1 L B4")


def to_attack(state: GameState) -> GameState:
    """Leave the card and movement phases without doing anything."""
    while state.phase is not Phase.ATTACK:
        state = play(state, NextPhase())
    return state


def test_a_scenario_that_places_its_units_has_no_truce() -> None:
    state = to_attack(new_game(config(unit_specs=ADJACENT, draw=[])))
    assert state.rules.truce_rounds == 0 and not in_truce(state)
    assert DeclareAttack(attacker_id="A1", target_id="D1") in legal_actions(state)


def test_the_default_game_has_one_truce_round_and_carries_it_in_its_rules() -> None:
    state = new_game(GameConfig(seed=7))
    assert state.rules.truce_rounds == 1
    assert in_truce(state) and in_truce(state, 2) and not in_truce(state, 3)
    manual = new_game(GameConfig(seed=7, deployment="manual"))
    assert manual.rules.truce_rounds == 1


@pytest.mark.parametrize("rounds", [1, 2])
def test_no_attack_is_listed_or_accepted_in_the_truce_and_the_first_after_it_is(rounds: int) -> None:
    state = new_game(config(unit_specs=ADJACENT, draw=[], truce_rounds=rounds))
    declare = DeclareAttack(attacker_id="A1", target_id="D1")
    for turn in range(1, 2 * rounds + 1):
        attacking = to_attack(state)
        assert attacking.turn == turn and in_truce(attacking)
        assert not any(isinstance(a, DeclareAttack) for a in legal_actions(attacking))
        if attacking.active is Side.ATTACKER:
            before = snapshot(attacking)
            with pytest.raises(IllegalAction, match="opening truce") as refused:
                reduce(attacking, declare)
            assert refused.value.code == "truce"
            assert snapshot(attacking) == before  # nothing changed
            problem = explain(attacking, declare)
            assert problem is not None and problem.code == "truce"
        state = pass_turns(state, 1)
    attacking = to_attack(state)
    assert attacking.turn == 2 * rounds + 1 and not in_truce(attacking)
    assert declare in legal_actions(attacking)


def test_a_truce_can_be_switched_off_in_a_deployed_game() -> None:
    assert new_game(GameConfig(seed=7, truce_rounds=0)).rules.truce_rounds == 0


def test_a_negative_truce_is_refused_by_the_config() -> None:
    with pytest.raises(msgspec.ValidationError, match="truce_rounds"):
        msgspec.json.decode(b'{"seed": 1, "truce_rounds": -1}', type=GameConfig)
