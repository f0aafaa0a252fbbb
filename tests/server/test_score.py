"""The score in every state message (server/score.py): victory points, what wins at once, the round."""

from __future__ import annotations

import msgspec

from engine import EventKind, GameConfig, Side, new_game, player_view, reduce
from engine.analysis import unit_vp
from server.score import score_of

from .conftest import LiveServer, Peer, arun, create_match, tokens_of
from .test_history import eager_game


def test_a_default_game_is_won_at_five_points_or_decided_after_round_25() -> None:
    score = score_of(new_game(GameConfig(seed=7)))
    assert score.vp == {"ATTACKER": 0, "DEFENDER": 0} and score.goal == 5
    assert (score.round, score.rounds) == (1, 25)
    assert score.conditions == ("annihilation", "victory_points", "round_limit")


def test_a_game_without_a_threshold_or_round_limit_says_so() -> None:
    config = msgspec.convert({"seed": 7, "victory": {"victory_points": None, "round_limit": None,
                                                     "timed_resistance": {"rounds": 6}}}, GameConfig)
    score = score_of(new_game(config))
    assert score.goal is None and score.rounds is None
    assert score.conditions == ("annihilation", "timed_resistance")


def test_points_follow_the_destroyed_units_for_every_viewer() -> None:
    config, actions = eager_game(5, 700)
    state = new_game(config)
    seen_loss = False
    for action in actions:
        state = reduce(state, action)
        seen_loss = seen_loss or any(e.kind is EventKind.UNIT_DESTROYED for e in state.events)
        score = score_of(state)
        assert score.vp == {s.value: unit_vp(state, s) + state.player(s).point_vp for s in Side}
        assert score.round == (state.turn + 1) // 2
        assert all(score_of(player_view(state, seat)) == score for seat in (Side.ATTACKER, Side.DEFENDER, None))
    assert seen_loss and sum(score_of(state).vp.values()) > 0


def test_the_state_message_carries_the_score(strict_server: LiveServer) -> None:
    created = create_match(strict_server, seed=3)

    async def run() -> dict[str, object]:
        peer = await Peer.seated(strict_server, created["match_id"], tokens_of(created)["ATTACKER"])
        await peer.send({"type": "sync"})
        state = await peer.expect("state")
        await peer.close()
        return dict(state["score"])

    assert arun(run()) == {"vp": {"ATTACKER": 0, "DEFENDER": 0}, "goal": 5, "round": 1, "rounds": 2,
                           "conditions": ["annihilation", "victory_points", "round_limit"]}
