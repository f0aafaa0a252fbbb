"""State structs: out of the cyclic garbage collector's way, and the reads the rules use at every action."""

from __future__ import annotations

import gc

from engine import EndTurn, GameConfig, Side, legal_actions, new_game, reduce
from engine.state import player_of, unit_by_id


def test_states_and_actions_are_not_tracked_by_the_collector() -> None:
    # They are immutable data that can never be part of a reference cycle, so a server
    # holding thousands of positions should not have every collection scan them.
    state = new_game(GameConfig(seed=5))
    for _ in range(20):
        state = reduce(state, legal_actions(state)[-1])
    assert not gc.is_tracked(state)
    assert not any(gc.is_tracked(unit) for unit in state.units)
    assert not any(gc.is_tracked(player) for player in state.players)
    assert not gc.is_tracked(EndTurn())


def test_player_of_is_the_player_of_that_side() -> None:
    state = new_game(GameConfig(seed=3))
    for side in Side:
        assert player_of(state, side) is state.player(side)
        assert player_of(state, side).side is side


def test_unit_by_id_finds_each_unit_and_nothing_else() -> None:
    state = new_game(GameConfig(seed=3))
    for unit in state.units:
        assert unit_by_id(state, unit.id) is unit is state.unit(unit.id)
    assert unit_by_id(state, "Z99") is None
