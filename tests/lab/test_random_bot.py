"""The random bot's draw: the same pick as its choice from the full listing, without the listing."""

from __future__ import annotations

import pytest

from engine import GameConfig, legal_actions, new_game, player_view, reduce
from lab.bots import RandomBot


@pytest.mark.parametrize("seed", [8, 21])
def test_draw_picks_what_choose_picks_from_the_listing(seed: int) -> None:
    bot = RandomBot()
    state, rng = new_game(GameConfig(seed=seed)), seed * 7
    forced = 0
    while legal := legal_actions(state):
        assert state.to_act is not None
        listed = bot.choose(player_view(state, state.to_act), legal, rng)
        drawn = bot.draw(state, rng)
        assert drawn == listed
        forced += len(legal) == 1
        state, rng = reduce(state, listed[0]), listed[1]
    assert forced > 0  # forced picks spend no step in both


def test_draw_with_by_type_lists_and_picks_the_same() -> None:
    bot = RandomBot(by_type=True)
    state = new_game(GameConfig(seed=3))
    assert state.to_act is not None
    assert bot.draw(state, 5) == bot.choose(player_view(state, state.to_act), legal_actions(state), 5)


def test_draw_in_a_finished_game_is_refused() -> None:
    state = new_game(GameConfig(seed=4))
    rng = 1
    while legal_actions(state):
        action, rng = RandomBot().draw(state, rng)
        state = reduce(state, action)
    with pytest.raises(ValueError, match="game is over"):
        RandomBot().draw(state, rng)
