"""engine/state_reads.py: the per-action reads of the state answer as the GameState methods do."""

from __future__ import annotations

from engine import GameConfig, Side, new_game
from engine.state_reads import player_of, unit_by_id


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
