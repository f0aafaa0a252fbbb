"""State and action structs stay out of the cyclic garbage collector's way."""

from __future__ import annotations

import gc

from engine import EndTurn, GameConfig, legal_actions, new_game, reduce


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
