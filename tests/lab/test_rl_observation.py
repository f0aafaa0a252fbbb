"""RL observations and action indexing: what is remembered between steps is never stale."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the RL environments need the [rl] extra (numpy)")

from msgspec.structs import replace  # noqa: E402

from engine import (  # noqa: E402
    GameConfig,
    GameState,
    Side,
    VictoryConfig,
    VictoryPoints,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from lab.bots import get_bot  # noqa: E402
from lab.rl import ActionSpace, TaktikAECEnv  # noqa: E402
from lab.rl.memo import clear_memos  # noqa: E402
from lab.rl.observation import encode_observation, features, planes  # noqa: E402
from tests.support import config  # noqa: E402


def greedy_game(seed: int, limit: int) -> list[GameState]:
    """Positions of a greedy-vs-greedy default game: attacks, cards, effects and destroyed units."""
    state = new_game(replace(GameConfig(), seed=seed))
    bot, rng, states = get_bot("greedy"), seed, []
    while state.to_act is not None and len(states) < limit:
        states.append(state)
        action, rng = bot.choose(player_view(state, state.to_act), legal_actions(state), rng)
        state = reduce(state, action)
    return states


def test_remembered_observations_equal_fresh_ones_over_a_whole_game() -> None:
    """Step after step, as an env encodes, against the same positions encoded with every memo emptied."""
    states = greedy_game(seed=3, limit=400)
    assert any(s.effects for s in states) and any(s.attack_queue or s.pending_attack for s in states)
    assert any(s.pending_card for s in states) and any(p.destroyed for s in states for p in s.players)
    clear_memos()
    warm = [encode_observation(player_view(s, side), side, None) for s in states for side in Side]
    for k, (state, side) in enumerate((s, side) for s in states for side in Side):
        clear_memos()
        fresh = encode_observation(player_view(state, side), side, None)
        assert np.array_equal(warm[k]["board"], fresh["board"]), (k, side)
        assert np.array_equal(warm[k]["features"], fresh["features"]), (k, side)


def test_observations_jumping_between_games_sides_and_positions_equal_fresh_ones() -> None:
    """The feature vector starts from the observer's last one and the unit layer from the last units' marks.

    In any order of positions (two games interleaved, shuffled, both sides), whatever is
    carried over from the previous encoding must never survive into the next one.
    """
    games = (greedy_game(seed=3, limit=300), greedy_game(seed=8, limit=300))
    positions = [(state, side) for game in games for state in game for side in Side]
    order = np.random.default_rng(1).permutation(len(positions))
    clear_memos()
    warm = [encode_observation(player_view(positions[k][0], positions[k][1]), positions[k][1], None) for k in order]
    for observation, k in zip(warm, order, strict=True):
        state, side = positions[k]
        clear_memos()
        fresh = encode_observation(player_view(state, side), side, None)
        assert np.array_equal(observation["board"], fresh["board"]), (k, side)
        assert np.array_equal(observation["features"], fresh["features"]), (k, side)


def test_a_changed_unit_is_encoded_again_and_the_others_are_kept() -> None:
    """One unit hit: its HP share changes on the planes and nothing else does; a destroyed unit leaves the count."""
    state = new_game(config(unit_specs=("A1 L B2", "A2 M C2", "D1 L B8"), phase="MOVEMENT"))
    before_planes, before_features = planes(state, Side.DEFENDER), features(state, Side.DEFENDER)
    hit = replace(state, units=(state.units[0], replace(state.units[1], hp=1), state.units[2]))
    after = planes(hit, Side.DEFENDER)
    changed = np.argwhere(after != before_planes)
    assert [tuple(c) for c in changed] == [(14, 1, 2)] and after[14, 1, 2] == 0.5  # enemy MECHANIZED on C2
    gone = replace(state, units=state.units[1:])
    counts = features(gone, Side.DEFENDER)[-2:]
    assert np.array_equal(counts, np.array([1 / 15, 1 / 15], dtype=np.float32))
    assert np.array_equal(features(state, Side.DEFENDER), before_features)


def test_the_static_planes_follow_the_victory_cells_not_only_the_board() -> None:
    """Same board object, other victory points: plane 24 (victory cells) must change with them."""
    state = new_game(config(phase="MOVEMENT"))
    victory = VictoryConfig(victory_points=VictoryPoints(points=("C5",)))
    marked = replace(state, rules=replace(state.rules, victory=victory))
    assert marked.board is state.board
    assert planes(state, Side.ATTACKER)[24].sum() == 0
    assert planes(marked, Side.ATTACKER)[24, 4, 2] == 1.0


def test_a_moved_unit_moves_in_the_planes_and_observations_are_independent_copies() -> None:
    state = new_game(config(unit_specs=("A1 L B2", "D1 L B8"), phase="MOVEMENT"))
    before = planes(state, Side.ATTACKER)
    unit = state.units[0]
    moved = replace(state, units=(replace(unit, cell="C3", has_moved=True), *state.units[1:]))
    after = planes(moved, Side.ATTACKER)
    assert before[10, 1, 1] == 1.0 and before[10, 2, 2] == 0.0 and before[16].sum() == 0
    assert after[10, 1, 1] == 0.0 and after[10, 2, 2] == 1.0 and after[16, 2, 2] == 1.0
    after[10] = 0.5  # a caller may change its copy: the next observation is unaffected
    assert planes(moved, Side.ATTACKER)[10, 2, 2] == 1.0
    vector = features(moved, Side.ATTACKER)
    vector[:] = 9.0
    assert features(moved, Side.ATTACKER).max() <= 1.0


def test_fit_indexes_exactly_like_index_of_with_a_warm_memo_and_leaves_out_what_does_not_fit() -> None:
    """A second listing comes from the memo; a space without some units drops their actions."""
    states = greedy_game(seed=5, limit=250)
    space = ActionSpace.for_state(states[0])
    narrow = ActionSpace(space.width, space.height, space.roster[:4])
    for state in states:
        legal = legal_actions(state)
        for numbering in (space, narrow):
            expected = [(numbering.index_of(a, state), a) for a in legal]
            expected = [(i, a) for i, a in expected if i is not None]
            for _ in range(2):  # cold, then remembered
                found, fitting = numbering.fit(legal, state)
                assert list(zip(found, fitting, strict=True)) == expected
    assert len(narrow.fit(legal_actions(states[-1]), states[-1])[0]) <= len(legal_actions(states[-1]))


def test_the_aec_env_indexes_through_the_same_memo() -> None:
    env = TaktikAECEnv()
    env.reset(seed=2)
    legal = legal_actions(env.state)
    assert env.space.indices(legal, env.state) == {env.space.index_of(a, env.state): a for a in legal}
