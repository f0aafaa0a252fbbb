"""`taktik serve` seats the lab's bots: greedy by default, strong on request, random as fallback."""

from __future__ import annotations

from cli.cmd_serve import SEATED_BOTS, bot_roster
from engine import GameConfig, RoundLimit, VictoryConfig, legal_actions, mix_seed, new_game, player_view, reduce


def test_every_seated_bot_is_a_deterministic_policy_fed_only_a_view() -> None:
    roster = bot_roster()
    assert list(roster.policies) == list(SEATED_BOTS) == ["greedy", "strong", "random"]
    assert roster.fallback == "random" and all(roster.describe(name) != name for name in SEATED_BOTS)
    state = new_game(GameConfig(seed=3))
    view = player_view(state, state.to_act)
    for name, policy in roster.policies.items():
        action, seed = policy(view, legal_actions(state), 11)
        assert action in legal_actions(state), name
        assert policy(view, legal_actions(state), 11) == (action, seed), name


def test_the_fallback_plays_a_whole_game_legally_and_reproducibly() -> None:
    fallback = bot_roster().policies["random"]

    def play(seed: int) -> list[str]:
        state = new_game(GameConfig(seed=3, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=1))))
        chosen = []
        while legal := legal_actions(state):
            assert state.to_act is not None
            action, seed = fallback(player_view(state, state.to_act), legal, seed)
            assert action in legal
            chosen.append(repr(action))
            state = reduce(state, action)
        return chosen

    assert play(7) == play(7)
    assert play(7) != play(8)
    assert mix_seed(5, 0) != mix_seed(5, 1)
    assert all(0 <= mix_seed(2**32 - 1, v) < 2**32 for v in range(100))
