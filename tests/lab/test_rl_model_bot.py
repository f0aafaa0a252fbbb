"""ModelBot: a model trained on TaktikEnv sees, as a bot, the same observation and mask the environment gave it."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the RL environments need the [rl] extra (numpy)")

from engine import GameConfig, Side, legal_actions, new_game, player_view, reduce  # noqa: E402
from lab.bots import get_bot  # noqa: E402
from lab.rl import ModelBot, TaktikEnv  # noqa: E402
from lab.selfplay import play_game  # noqa: E402

SMALL = GameConfig(width=10, height=12)


class Picker:
    """A stand-in for a trained model with SB3's predict signature: the k-th legal index, k from a counter.

    It records what it was shown, so the test compares the bot's inputs with the environment's.
    """

    def __init__(self, observation_keys: tuple[str, ...] | None = None, actions: int | None = None) -> None:
        self.seen: list[tuple[dict[str, Any], Any]] = []
        if observation_keys is not None:
            self.observation_space = type("Spaces", (), {"spaces": dict.fromkeys(observation_keys)})()
        if actions is not None:
            self.action_space = type("Discrete", (), {"n": actions})()

    def predict(self, obs: dict[str, Any], action_masks: Any = None, deterministic: bool = True) -> tuple[Any, None]:
        self.seen.append((obs, action_masks))
        legal = np.flatnonzero(action_masks)
        return np.array(legal[(7 * len(self.seen)) % len(legal)]), None


@pytest.mark.parametrize("mask_in_observation", [False, True])
def test_the_bot_encodes_each_decision_as_the_environment_does(mask_in_observation: bool) -> None:
    env = TaktikEnv(SMALL, opponent="greedy", mask_in_observation=mask_in_observation, auto_forced=True)
    trained = Picker(tuple(env.observation_space.spaces), env.space.size)
    bot = ModelBot(trained)
    shadow = Picker(tuple(env.observation_space.spaces))
    assert bot.mask_in_observation is mask_in_observation
    obs, info = env.reset(seed=11)
    steps = 0
    while True:
        view, legal = player_view(env.state, Side.ATTACKER), legal_actions(env.state)
        action, seed = bot.choose(view, legal, 5)
        assert seed == 5 and action in legal
        index, _ = shadow.predict(obs, action_masks=env.action_masks())
        seen_obs, seen_mask = trained.seen[-1]
        assert seen_obs.keys() == obs.keys()
        for key in obs:
            assert np.array_equal(seen_obs[key], obs[key]), key
        assert np.array_equal(seen_mask, info["action_mask"])
        assert env.space.action_at(int(index), env.state) == action  # the same index is the same action
        obs, _, terminated, truncated, info = env.step(int(index))
        steps += 1
        if terminated or truncated:
            break
    assert steps > 20


def test_a_model_bot_plays_whole_games_and_forced_decisions_without_asking() -> None:
    env = TaktikEnv(SMALL, mask_in_observation=False)
    model = Picker(tuple(env.observation_space.spaces), env.space.size)
    record, final = play_game(GameConfig(width=10, height=12, seed=3), {Side.ATTACKER: ModelBot(model),
                                                                       Side.DEFENDER: get_bot("random")})
    assert final.to_act is None and len(record.actions) > len(model.seen) > 0


def test_a_model_for_another_board_or_without_predict_is_refused() -> None:
    state = new_game(GameConfig(seed=2))
    while len(legal_actions(state)) < 2:
        state = reduce(state, legal_actions(state)[0])
    assert state.to_act is not None
    bot = ModelBot(Picker(("board", "features"), actions=1234))
    with pytest.raises(ValueError, match="trained for 1234 actions"):
        bot.choose(player_view(state, state.to_act), legal_actions(state), 1)
    with pytest.raises(ValueError, match="no predict"):
        ModelBot(object())
