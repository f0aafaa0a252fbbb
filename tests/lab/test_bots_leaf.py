"""The MCTS bot's leaf value: the evaluation read as a chance to win the race (lab/bots/leaf.py)."""

from __future__ import annotations

import math

import pytest
from msgspec.structs import replace

from engine import GameState, Side, legal_actions, new_game, player_view, reduce
from lab.bots import MCTSBot
from lab.bots.evaluate import WIN_SCORE, evaluate
from lab.bots.leaf import race_left, race_value
from tests.support import config

UNITS = ("A1 L C3", "A2 M E3", "A3 L G3", "D1 L C8", "D2 L E8", "D3 S G8", "D4 L I8")


def _game() -> GameState:
    return new_game(config(unit_specs=UNITS))


def _destroy(state: GameState, side: Side, unit_id: str) -> GameState:
    """``state`` with ``side``'s unit ``unit_id`` destroyed (off the board, in its owner's destroyed list)."""
    unit = next(u for u in state.units if u.id == unit_id)
    owner = state.player(side)
    players = tuple(replace(p, destroyed=(*p.destroyed, unit)) if p is owner else p for p in state.players)
    return replace(state, units=tuple(u for u in state.units if u.id != unit_id), players=(players[0], players[1]))


def test_the_game_left_shrinks_as_the_leader_nears_the_threshold_and_as_rounds_pass() -> None:
    state = _game()
    assert race_left(state) == pytest.approx(1 - state.turn / 50)
    one_vp = _destroy(state, Side.DEFENDER, "D1")  # the ATTACKER holds 1 of the 5 VP it needs
    # 1 + 3 + 1 VP: 5, the game would be over (the floor keeps some spread).
    four_vp = _destroy(_destroy(one_vp, Side.DEFENDER, "D3"), Side.DEFENDER, "D2")
    assert race_left(one_vp) == pytest.approx(4 / 5)
    assert race_left(four_vp) == pytest.approx(0.04)
    assert race_left(replace(state, turn=40)) == pytest.approx(1 - 40 / 50)


def test_the_race_value_follows_the_evaluation_and_narrows_towards_the_end() -> None:
    state = _game()
    ahead = _destroy(state, Side.DEFENDER, "D1")
    for position in (state, ahead):
        for side in Side:
            value = race_value(position, side)
            assert -WIN_SCORE < value < WIN_SCORE
            assert value == pytest.approx(-race_value(position, side.other))
            assert (value > 0) == (evaluate(position, side) > 0)
    # A lead late in the game is worth more of a won game than the same score at the start.
    late = replace(ahead, turn=43)
    score = evaluate(late, Side.ATTACKER)
    assert score > 0
    at_start = WIN_SCORE * (2 / (1 + math.exp(-score / 3.0)) - 1)
    assert race_value(late, Side.ATTACKER) > 2 * at_start


def test_an_mcts_bot_with_the_race_leaf_plays_legal_and_deterministic_choices() -> None:
    state = _game()
    bot = MCTSBot(iterations=6, race=3.0)
    for _ in range(30):
        if state.to_act is None:
            break
        legal = legal_actions(state)
        view = player_view(state, state.to_act)
        action, _ = MCTSBot(iterations=6, race=3.0).choose(view, legal, 5)
        assert action in legal
        assert bot.search(view, legal, 5)[0] == MCTSBot(iterations=6, race=3.0).search(view, legal, 5)[0]
        state = reduce(state, action)


def test_a_negative_race_spread_is_refused() -> None:
    with pytest.raises(ValueError, match="race"):
        MCTSBot(race=-1.0)
