"""Bot policies: legal, deterministic for a seed, and fed only a player's view."""

from __future__ import annotations

from engine import GameConfig, RoundLimit, Side, VictoryConfig, legal_actions, new_game, player_view, reduce
from server.bots import POLICIES, mix_seed, random_policy
from server.settings import Settings


def test_the_random_policy_plays_a_whole_game_legally_and_reproducibly() -> None:
    def play(seed: int) -> list[str]:
        state = new_game(GameConfig(seed=3, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=1))))
        chosen = []
        while legal := legal_actions(state):
            assert state.to_act is not None
            action, seed = random_policy(player_view(state, state.to_act), legal, seed)
            assert action in legal
            chosen.append(repr(action))
            state = reduce(state, action)
        return chosen

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_every_engine_bot_is_a_policy_and_seeds_mix_per_decision() -> None:
    assert list(POLICIES) == ["greedy", "mcts", "random"]  # the first is `taktik serve`'s default
    assert Settings.bot_policy == "greedy"
    state = new_game(GameConfig(seed=3))
    view = player_view(state, state.to_act)
    for name, policy in POLICIES.items():
        action, seed = policy(view, legal_actions(state), 11)
        assert action in legal_actions(state), name
        assert policy(view, legal_actions(state), 11) == (action, seed), name
    assert mix_seed(5, 0) != mix_seed(5, 1)
    assert all(0 <= mix_seed(2**32 - 1, v) < 2**32 for v in range(100))
    assert Side.ATTACKER.other is Side.DEFENDER
