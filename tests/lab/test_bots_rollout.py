"""The MCTS playout policy and the advice for people (lab/bots/rollout.py, lab/bots/advice.py)."""

from __future__ import annotations

import pytest

from engine import (
    DeclareAttack,
    NextPhase,
    PlayTactic,
    Side,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from lab.bots import GreedyBot, hint, win_chance
from lab.bots.advice import WIN_MODEL, reason, win_features
from lab.bots.rollout import quick_action
from tests.support import config

from .test_bots_cards import pending, start


def test_playouts_choose_only_legal_actions_and_are_deterministic() -> None:
    state = new_game(config(unit_specs=("A1 L C3", "A2 M E3", "A3 S G2", "D1 L C6", "D2 M F6", "D4 S E9")))
    for _ in range(150):
        if state.to_act is None:
            break
        legal = legal_actions(state)
        action = quick_action(state, legal, 8)
        assert action in legal and quick_action(state, legal, 8) == action
        state = reduce(state, action)


def test_a_playout_declares_the_shot_worth_most_and_then_ends_the_phase() -> None:
    # The special unit (3 VP, 1 HP left) is worth more than the light unit next to it.
    state = start(("A7 M B3", "D1 L B4", "D14 S C5 hp=1", "D2 L J9"), "ATTACK")
    first = quick_action(state, legal_actions(state), 8)
    assert first == DeclareAttack(attacker_id="A7", target_id="D14")
    state = reduce(state, first)
    assert quick_action(state, legal_actions(state), 8) == NextPhase()  # the only shooter has fired


def test_a_hint_explains_a_tactic_with_the_odds_before_and_after() -> None:
    state = pending(("A7 M B3", "D9 M B4", "D1 L J9"), "A7", "D9", ("precision_shot",))
    legal = legal_actions(state)
    action, words = hint(player_view(state, Side.ATTACKER), legal, 3)
    assert isinstance(action, PlayTactic) and action.card_id == "precision_shot"
    assert "Play Precision Shot: the attack on D9 goes from 67 % for 1 damage to 67 % for 2." in words
    roll = next(a for a in legal if not isinstance(a, PlayTactic) and type(a).__name__ == "RollDice")
    assert reason(state, roll) == "Roll: 67 % to hit for 1 damage."


def test_the_win_chance_is_certain_at_the_end_and_even_for_a_mirror_start() -> None:
    state = new_game(config(unit_specs=("A1 L C3", "D1 L C8")))
    assert 0.3 < win_chance(state) < 0.7
    seed = 1
    while state.to_act is not None:
        action, seed = GreedyBot().choose(player_view(state, state.to_act), legal_actions(state), seed)
        state = reduce(state, action)
    assert win_chance(state) == (1.0 if state.winner is Side.ATTACKER else 0.0)


def test_the_win_model_reads_a_level_start_as_an_even_game_and_a_level_end_as_the_defenders() -> None:
    # No constant: the rules are the same for both sides, so nothing but the position leans
    # the estimate; at the round limit a tie is the DEFENDER's (rules: round limit).
    judged, _, judged_by_time, gone = win_features(new_game(config(unit_specs=("A1 L C3", "D1 L C8"))))
    assert judged_by_time == pytest.approx(judged * gone) and 0 < gone < 0.1
    assert WIN_MODEL.chance((0.0, 0.0, 0.0, 0.0)) == 0.5
    assert WIN_MODEL.chance((0.0, 0.0, 0.0, 1.0)) < 0.5 < WIN_MODEL.chance((1.0, 0.0, 1.0, 1.0))
