"""explain: exactly the IllegalAction reduce raises (code and words), or None when reduce accepts."""

from __future__ import annotations

from engine import (
    Action,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    Phase,
    draw_index,
    legal_actions,
    new_game,
    reduce,
)
from engine.analysis import explain
from lab.fuzz import random_config
from lab.fuzz.mutate import mutations
from tests.support import snapshot, start


def reduce_verdict(state: GameState, action: Action) -> tuple[str, str] | None:
    try:
        reduce(state, action)
    except IllegalAction as error:
        return error.code, str(error)
    return None


def explain_verdict(state: GameState, action: Action) -> tuple[str, str] | None:
    problem = explain(state, action)
    return None if problem is None else (problem.code, str(problem))


def test_explain_agrees_with_reduce_on_legal_and_mutated_actions_over_random_games() -> None:
    illegal: set[str] = set()
    checked = 0
    for seed in range(12):
        state = new_game(random_config(seed))
        choice = seed + 7
        step = 0
        while legal := legal_actions(state):
            if step % 2 == 0:
                for action in legal[:: max(1, len(legal) // 8)]:
                    assert explain(state, action) is None, action
                for action in mutations(state, legal, 6, choice):
                    before = snapshot(state)
                    verdict = explain_verdict(state, action)
                    assert verdict is not None and verdict == reduce_verdict(state, action), action
                    assert snapshot(state) == before
                    illegal.add(verdict[0])
                    checked += 1
            index, choice = draw_index(len(legal), choice)
            state = reduce(state, legal[index])
            step += 1
        assert explain_verdict(state, NextPhase()) == reduce_verdict(state, NextPhase())
        assert explain(state, NextPhase()).code == "game_over"  # type: ignore[union-attr]
    assert checked > 500
    assert {"wrong_phase", "unreachable", "cannot_attack", "not_your_unit"} <= illegal


def test_a_move_problem_names_the_reason_without_moving() -> None:
    state = start(units=("A1 L A2", "A2 L C3", "D1 L J10"), phase="MOVEMENT")
    far = explain(state, MoveUnit(unit_id="A1", to="A9"))
    assert far is not None and far.code == "unreachable" and "A9 is not reachable for A1" in str(far)
    assert explain(state, MoveUnit(unit_id="D1", to="J9")).code == "not_your_unit"  # type: ignore[union-attr]
    assert explain(state, MoveUnit(unit_id="A1", to="B2")) is None
    moved = reduce(state, MoveUnit(unit_id="A1", to="B2"))
    assert explain(moved, MoveUnit(unit_id="A1", to="A2")).code == "already_moved"  # type: ignore[union-attr]
    assert moved.phase is Phase.MOVEMENT
