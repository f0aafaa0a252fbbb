"""`decision`: who decides and why, checked along real games and in chosen positions."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import (
    HIDDEN,
    DeclareAttack,
    DrawCard,
    GameConfig,
    GameState,
    NextPhase,
    Phase,
    RollDice,
    Side,
    Window,
    legal_actions,
    new_game,
    player_view,
    reaction_windows,
    reduce,
)
from engine.analysis import TURN_RULER, DecisionKind, decision, useful_response
from engine.board.terrain_map import TERRAIN_CHARS
from engine.data import TERRAIN_LEGEND
from engine.flow.phases import NEXT_PHASE
from lab.bots.random_bot import pick_by_type

from ..support import play, seed_rolling, start


def random_games(configs: list[GameConfig], plies: int) -> list[GameState]:
    """Every state of random games (a uniform pick among action types, then among actions)."""
    seen: list[GameState] = []
    for config in configs:
        state = new_game(config)
        rng = config.seed
        for _ in range(plies):
            seen.append(state)
            legal = legal_actions(state)
            if not legal:
                break
            action, rng = pick_by_type(legal, rng)
            state = reduce(state, action)
    return seen


@pytest.fixture(scope="module")
def visited() -> list[GameState]:
    configs = [GameConfig(seed=seed) for seed in range(1, 9)]
    configs += [GameConfig(seed=seed, deployment="manual") for seed in range(20, 23)]
    return random_games(configs, 2500)


def test_every_kind_of_decision_comes_up_in_random_games(visited: list[GameState]) -> None:
    kinds = Counter(decision(state).kind for state in visited)
    assert set(kinds) == set(DecisionKind), f"never reached: {set(DecisionKind) - set(kinds)}"


def test_the_deciding_side_is_the_side_to_act(visited: list[GameState]) -> None:
    for state in visited:
        found = decision(state)
        assert found.side is state.to_act
        assert (found.kind is DecisionKind.GAME_OVER) == (state.to_act is None)


def test_a_reaction_is_the_non_active_side_deciding_in_an_open_window(visited: list[GameState]) -> None:
    for state in visited:
        found = decision(state)
        assert found.windows == tuple(w.window for w in reaction_windows(state))
        if found.kind is DecisionKind.REACT:
            assert found.side is state.active.other and found.windows
            if state.phase is Phase.DICE_RESOLUTION:
                assert found.attack == state.pending_attack


def test_the_roll_decisions_name_the_pending_attack(visited: list[GameState]) -> None:
    for state in visited:
        found = decision(state)
        if found.kind in (DecisionKind.ROLL, DecisionKind.APPLY_ROLL):
            assert found.attack is not None and found.attack == state.pending_attack
            assert (found.kind is DecisionKind.APPLY_ROLL) == (state.last_roll is not None)


def test_the_ruler_is_the_turns_resting_phases_in_order() -> None:
    phases = [step.phase for step in TURN_RULER]
    assert phases == [Phase.CARD_DRAW, Phase.CARD_RESOLUTION, Phase.MOVEMENT, Phase.ATTACK, Phase.DICE_RESOLUTION]
    assert [NEXT_PHASE[a] for a in phases[:-1]] == phases[1:]


def test_the_ruler_marks_the_phase_and_says_where_next_phase_leads() -> None:
    state = new_game(GameConfig(seed=7))
    found = decision(state)
    assert found.at == 0 and found.ruler[found.at].phase is Phase.CARD_DRAW
    assert found.next_phase is not None and found.next_phase.phase is Phase.CARD_RESOLUTION
    dice = decision(start(phase="DICE_RESOLUTION", draw=[]))
    assert dice.kind is DecisionKind.FINISH_TURN
    assert dice.next_phase is not None and dice.next_phase.phase is Phase.END_TURN


def test_outside_a_turn_the_ruler_has_no_current_step() -> None:
    found = decision(new_game(GameConfig(seed=20, deployment="manual")))
    assert found.kind is DecisionKind.DEPLOY and found.at is None and found.next_phase is None
    assert found.phase_name == "Deployment"


def test_a_drawn_bonus_stays_hidden_from_the_opponent() -> None:
    state = start(draw=["air_cover#1"])
    state = reduce(state, DrawCard())
    assert decision(state).kind is DecisionKind.RESOLVE_BONUS
    assert decision(state).card == "air_cover#1"
    assert decision(state, player_view(state, Side.ATTACKER)).card == "air_cover#1"
    assert decision(state, player_view(state, Side.DEFENDER)).card == HIDDEN
    assert decision(state, player_view(state, None)).card == HIDDEN


def test_a_drawn_malus_is_named_to_everyone() -> None:
    state = reduce(start(draw=["supply_interruption#1"]), DrawCard())
    found = decision(state, player_view(state, Side.DEFENDER))
    assert found.kind is DecisionKind.RESOLVE_MALUS and found.card == "supply_interruption#1"


def test_nothing_drawn_means_stored_bonuses_or_movement() -> None:
    state = reduce(start(draw=[]), NextPhase())
    assert state.phase is Phase.CARD_RESOLUTION
    assert decision(state).kind is DecisionKind.PLAY_STORED


def test_the_reacting_side_decides_before_the_first_move() -> None:
    state = start(phase="MOVEMENT", tactics=((), ("suppressive_fire",)), draw=[])
    found = decision(state)
    assert found.kind is DecisionKind.REACT and found.side is Side.DEFENDER
    assert found.windows == (Window.BEFORE_MOVE,)


def test_the_legend_is_the_map_characters() -> None:
    assert {e.char: (e.terrain, e.road, e.river) for e in TERRAIN_LEGEND} == TERRAIN_CHARS


# Whether a reaction can help (hot-seat skips the device pass when it cannot) ---------------


def _post_roll(natural: int, attacks: tuple[tuple[str, str], ...] = (("A1", "D1"),)) -> GameState:
    """The defender holding priority after the roll of the first of ``attacks`` (Natural Cover in hand)."""
    units = ("A1 L B2", "A2 L C2", "D1 L B3")
    state = start(units=units, phase="ATTACK", draw=[], seed=seed_rolling(natural), tactics=((), ("natural_cover",)))
    declared = [DeclareAttack(attacker_id=a, target_id=t) for a, t in attacks]
    return play(state, *declared, NextPhase(), RollDice())


def test_a_reaction_after_a_roll_that_already_misses_is_not_useful() -> None:
    state = _post_roll(1)
    assert state.last_roll is not None and state.last_roll.outcome == "MISS"
    d = decision(state)
    assert (d.kind, d.side, d.useful) == (DecisionKind.REACT, Side.DEFENDER, False)
    assert not useful_response(state)


def test_a_reaction_after_a_hit_is_useful() -> None:
    state = _post_roll(6)
    assert state.last_roll is not None and state.last_roll.outcome == "HIT"
    assert decision(state).kind is DecisionKind.REACT and decision(state).useful


def test_a_lasting_defence_after_a_miss_is_useful_when_the_unit_is_attacked_again_this_turn() -> None:
    state = _post_roll(1, (("A1", "D1"), ("A2", "D1")))
    assert state.last_roll is not None and state.last_roll.outcome == "MISS"
    assert decision(state).kind is DecisionKind.REACT and decision(state).useful


def test_every_decision_outside_a_reaction_is_useful(visited: list[GameState]) -> None:
    assert all(decision(s).useful for s in visited if decision(s).kind is not DecisionKind.REACT)
