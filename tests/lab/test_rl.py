"""RL environments: the mask is legal_actions, episodes end, seeding is exact."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

np = pytest.importorskip("numpy", reason="the RL environments need the [rl] extra (numpy)")

from engine import GameConfig, Side, VictoryConfig, legal_actions, new_game  # noqa: E402
from lab.rl import ActionSpace, TaktikAECEnv, TaktikEnv  # noqa: E402
from lab.rl.observation import FEATURES, PLANES  # noqa: E402
from tests.support import OPEN_10, config  # noqa: E402

SMALL = GameConfig(
    terrain="\n".join([".........."] * 9 + ["..=~~#~~.."] + [".........."] * 2), victory=VictoryConfig(max_actions=600)
)


def legal_indices(env: TaktikEnv | TaktikAECEnv) -> set[int]:
    indices = {env.space.index_of(a, env.state) for a in legal_actions(env.state)}
    assert None not in indices, "every legal action of the default rules fits the space"
    return {i for i in indices if i is not None}


def random_episode(env: TaktikEnv, seed: int, picks: int) -> tuple[list[float], list[int]]:
    rng = np.random.default_rng(picks)
    obs, _ = env.reset(seed=seed)
    rewards, actions = [], []
    for _ in range(5000):
        assert set(np.flatnonzero(obs["action_mask"])) == legal_indices(env)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        actions.append(action)
        if terminated or truncated:
            return rewards, actions
    raise AssertionError("the episode did not end")


def test_mask_equals_legal_actions_and_episodes_end() -> None:
    env = TaktikEnv(SMALL, opponent="random")
    rewards, _ = random_episode(env, seed=3, picks=1)
    assert env.state.to_act is None and rewards[-1] in (-1.0, 1.0)
    assert sum(rewards) == rewards[-1]  # no shaping: only the result


def test_every_mask_index_decodes_to_its_legal_action() -> None:
    env = TaktikEnv(SMALL, agent_side=Side.DEFENDER, opponent="greedy")
    obs, _ = env.reset(seed=5)
    for _ in range(40):
        legal = legal_actions(env.state)
        for index in np.flatnonzero(obs["action_mask"]):
            assert env.space.action_at(int(index), env.state) in legal
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        if terminated or truncated:
            break


def test_seeding_is_exact() -> None:
    first = random_episode(TaktikEnv(SMALL), seed=11, picks=4)
    second = random_episode(TaktikEnv(SMALL), seed=11, picks=4)
    other = random_episode(TaktikEnv(SMALL), seed=12, picks=4)
    assert first == second
    assert other != first
    env = TaktikEnv(SMALL)
    a, _ = env.reset(seed=7)
    env.step(int(np.flatnonzero(a["action_mask"])[0]))
    b, _ = env.reset(seed=7)
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_observations_have_the_documented_shapes_and_fit_the_space() -> None:
    env = TaktikEnv(SMALL)
    obs, info = env.reset(seed=1)
    assert obs["board"].shape == (PLANES, 12, 10) and obs["board"].dtype == np.float32
    assert obs["features"].shape == (FEATURES,)
    assert obs["action_mask"].shape == (env.space.size,) and obs["action_mask"].dtype == np.int8
    assert np.array_equal(info["action_mask"], obs["action_mask"])
    assert env.observation_space.contains(obs)
    assert env.action_space.contains(int(np.flatnonzero(obs["action_mask"])[0]))
    own = obs["board"][10:13].sum()
    assert own == len([u for u in env.state.units if u.side is Side.ATTACKER and u.cell])


def test_a_masked_action_changes_nothing_and_is_penalised_or_refused() -> None:
    env = TaktikEnv(SMALL)
    obs, _ = env.reset(seed=1)
    before = env.state
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert env.state is before and info["invalid_action"] and reward == -0.1
    assert not terminated and not truncated
    assert np.array_equal(after["action_mask"], obs["action_mask"])
    strict = TaktikEnv(SMALL, invalid_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)


def test_shaping_rewards_vp_changes_and_truncation_stops_episodes() -> None:
    env = TaktikEnv(SMALL, opponent="greedy", shaping=0.5, max_steps=30)
    rewards, actions = random_episode(env, seed=2, picks=2)
    assert len(actions) <= 30
    assert env.state.to_act is not None or rewards[-1] != 0


def test_action_space_numbers_every_action_once() -> None:
    space = ActionSpace(5, 4, ("A1", "A2", "D1"))
    decoded = [space.action_at(i) for i in range(space.size)]
    for index, action in enumerate(decoded):
        if type(action).__name__ != "CancelMalus" or action.malus_play_id is None:
            assert space.index_of(action) == index
    with pytest.raises(ValueError):
        space.action_at(space.size)
    default = ActionSpace.for_state(new_game(config(terrain=OPEN_10)))
    assert default.roster == ("A1", "D1")


def test_aec_environment_follows_to_act_and_ends_with_every_agent_removed() -> None:
    env = TaktikAECEnv(SMALL)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    totals = {"ATTACKER": 0.0, "DEFENDER": 0.0}
    steps = 0
    for agent in env.agent_iter(max_iter=5000):
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert env.state.to_act is not None and agent == env.state.to_act.value
        assert set(np.flatnonzero(obs["action_mask"])) == legal_indices(env)
        other = "DEFENDER" if agent == "ATTACKER" else "ATTACKER"
        assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert env.agents == [] and steps > 0
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_engine_and_bots_never_import_numpy() -> None:
    modules = "engine, lab.bots, lab.fuzz, lab.selfplay, lab.rl.actions"
    code = f"import sys, {modules}; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_gymnasium_checker_accepts_the_env() -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(TaktikEnv(SMALL), skip_render_check=True)
    check_env(TaktikEnv(SMALL, mask_in_observation=False, auto_forced=True), skip_render_check=True)


def _quiet_api_test(env: TaktikAECEnv) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # Its advisory warnings prefer flat Box observations; ours are a Dict (board, features,
        # action_mask), which the API allows. Every assertion of the test still applies.
        warnings.filterwarnings("ignore", category=UserWarning, module="pettingzoo.test.api_test")
        api_test(env)  # its default length: 1,000 cycles, past the end of a game


def test_pettingzoo_api_test_accepts_the_aec_env_over_whole_games() -> None:
    _quiet_api_test(TaktikAECEnv(SMALL))
    _quiet_api_test(TaktikAECEnv(SMALL, mask_in_observation=False, auto_forced=True))


def test_pettingzoo_seed_test_accepts_the_aec_env() -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: TaktikAECEnv(SMALL))


def test_a_finished_agent_leaves_without_its_reward_counted_twice() -> None:
    env = TaktikAECEnv(SMALL)
    env.reset(seed=2)
    seen = {"ATTACKER": 0.0, "DEFENDER": 0.0}
    paid = {"ATTACKER": 0.0, "DEFENDER": 0.0}
    for agent in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        assert reward == seen[agent]  # what last() shows is what the steps paid since it acted
        seen[agent] = 0.0
        env.step(None if termination or truncation else int(np.flatnonzero(env.action_mask(agent))[0]))
        for a, r in env.rewards.items():
            seen[a] += r
            paid[a] += r
    assert sorted(paid.values()) == [-1.0, 1.0]


def test_a_full_default_game_is_one_episode() -> None:
    env = TaktikEnv(opponent="random")
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for steps in range(1, 20_000):  # noqa: B007 - the count is checked after the loop
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            break
    assert terminated and not truncated and reward in (-1.0, 1.0) and steps > 50
    assert env.state.to_act is None


def test_the_mask_can_stay_out_of_the_observation() -> None:
    env = TaktikEnv(SMALL, mask_in_observation=False)
    obs, info = env.reset(seed=3)
    assert set(obs) == {"board", "features"} and env.observation_space.contains(obs)
    assert set(np.flatnonzero(info["action_mask"])) == legal_indices(env)
    assert np.array_equal(env.action_masks(), info["action_mask"])
    aec = TaktikAECEnv(SMALL, mask_in_observation=False)
    aec.reset(seed=3)
    agent = aec.agent_selection
    assert set(aec.observe(agent)) == {"board", "features"}
    assert set(np.flatnonzero(aec.infos[agent]["action_mask"])) == legal_indices(aec)


def test_forced_steps_can_be_played_by_the_environment() -> None:
    def agent_choices(auto: bool) -> tuple[list[int], int]:
        env = TaktikEnv(SMALL, auto_forced=auto)
        _, info = env.reset(seed=6)
        rng = np.random.default_rng(6)
        sizes = []
        while True:
            choices = np.flatnonzero(info["action_mask"])
            sizes.append(len(choices))
            _, _, terminated, truncated, info = env.step(int(rng.choice(choices)))
            if terminated or truncated:
                return sizes, info["forced"]

    plain, forced_plain = agent_choices(False)
    auto, forced_auto = agent_choices(True)
    assert 1 in plain and forced_plain == 0
    assert 1 not in auto and forced_auto > 0


def test_observations_read_the_games_own_tables() -> None:
    """A variant's 4-HP MECHANIZED shows as whole at 4 HP and half at 2; moves count against its move limit."""
    from msgspec.structs import replace

    from engine import Phase, RulesOverlay, TableOverrides, UnitType
    from engine.data import UNITS
    from lab.rl.observation import features, planes

    tough = TableOverrides(units={UnitType.MECHANIZED: replace(UNITS[UnitType.MECHANIZED], hp=4)}, max_moves=2)
    specs = ("A1 M C3", "D1 M C6 hp=2")
    state = new_game(config(unit_specs=specs, phase="MOVEMENT", rules=RulesOverlay(name="tough", tables=tough)))
    board = planes(state, Side.ATTACKER)
    assert board[11, 2, 2] == 1.0  # own MECHANIZED on C3
    assert board[14, 5, 2] == 0.5  # enemy MECHANIZED on C6
    moved = replace(state, moves_this_turn=1)
    moves_at = len(Phase) + 2 + 3
    assert features(moved, Side.ATTACKER)[moves_at] == 0.5


def test_the_mask_is_one_read_only_array_per_step_that_no_later_step_changes() -> None:
    """obs and info share the step's mask; it cannot be written, and later steps make new ones.

    action_masks() (MaskablePPO's) gives an equal copy the caller may change.
    """
    env = TaktikEnv(SMALL)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    kept = []
    for _ in range(60):
        mask = obs["action_mask"]
        assert mask is info["action_mask"] and not mask.flags.writeable
        own = env.action_masks()
        assert own is not mask and np.array_equal(own, mask) and own.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            mask[0] = 1
        kept.append((mask, mask.copy()))
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert all(mask is not obs["action_mask"] and np.array_equal(mask, copy) for mask, copy in kept)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, _, _, _, _ = env.step(illegal)  # the same decision: equal, but a new array
    assert again["action_mask"] is not obs["action_mask"] and np.array_equal(again["action_mask"], obs["action_mask"])
    aec = TaktikAECEnv(SMALL)
    aec.reset(seed=2)
    deciding = aec.agent_selection
    waiting = next(a for a in aec.possible_agents if a != deciding)
    assert not aec.observe(deciding)["action_mask"].flags.writeable  # shared by observe, infos and action_mask
    assert not aec.action_mask(waiting).flags.writeable and not aec.action_mask(waiting).any()
