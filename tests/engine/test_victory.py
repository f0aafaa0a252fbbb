"""Victory conditions (§10): each at its checkpoint, in table order, and the game always ends."""

from __future__ import annotations

import pytest

from engine import (
    CaptureAndHold,
    DeclareAttack,
    EndTurn,
    IllegalAction,
    Leaders,
    MoveUnit,
    NextPhase,
    Phase,
    ResolveAttack,
    RollDice,
    RoundLimit,
    Side,
    TerritorialControl,
    TimedResistance,
    VictoryConfig,
    VictoryPoints,
    legal_actions,
    reduce,
)
from engine.analysis import points_leader
from tests.support import pass_turns, play, seed_rolling, start


def kill(state: object, attacker: str, target: str) -> object:
    """From ATTACK: declare, roll a 6 (seeded) and resolve."""
    return play(
        state,
        DeclareAttack(attacker_id=attacker, target_id=target),
        NextPhase(),
        RollDice(),  # type: ignore[arg-type]
        ResolveAttack(),
    )


def test_annihilation_ends_the_game_at_once() -> None:
    state = start(units=("A1 L A1", "D1 L B2"), phase="ATTACK", seed=seed_rolling(6), draw=[])
    over = kill(state, "A1", "D1")
    assert (over.phase, over.winner, over.victory_reason, over.to_act) == (
        Phase.VICTORY,
        Side.ATTACKER,  # type: ignore[attr-defined]
        "annihilation",
        None,
    )
    assert legal_actions(over) == []  # type: ignore[arg-type]
    assert over.events[-1].kind == "victory"  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match="the game is over"):
        reduce(over, EndTurn())  # type: ignore[arg-type]


def test_target_elimination_needs_the_leader() -> None:
    victory = VictoryConfig(leaders=Leaders(attacker="A1", defender="D2"))
    state = start(
        units=("A1 L A1", "D1 L B2", "D2 L J10"), phase="ATTACK", seed=seed_rolling(6), draw=[], victory=victory
    )
    after = kill(state, "A1", "D1")
    assert after.phase is not Phase.VICTORY  # type: ignore[attr-defined]
    state = start(
        units=("A1 L A1", "D1 L J10", "D2 L B2"), phase="ATTACK", seed=seed_rolling(6), draw=[], victory=victory
    )
    after = kill(state, "A1", "D2")
    assert (after.winner, after.victory_reason) == (Side.ATTACKER, "target_elimination")  # type: ignore[attr-defined]


def test_victory_points_from_destroyed_units_after_a_removal() -> None:
    victory = VictoryConfig(victory_points=VictoryPoints(threshold=3))
    state = start(
        units=("A10 S A1", "D10 S B2", "D1 L J10"), phase="ATTACK", seed=seed_rolling(6), draw=[], victory=victory
    )
    state = kill(state, "A10", "D10")  # hp 2: damaged only
    assert state.phase is not Phase.VICTORY  # type: ignore[attr-defined]
    state = start(
        units=("A10 S A1", "D10 S B2 hp=1", "D1 L J10"), phase="ATTACK", seed=seed_rolling(6), draw=[], victory=victory
    )
    state = kill(state, "A10", "D10")
    assert (state.winner, state.victory_reason) == (Side.ATTACKER, "victory_points")  # type: ignore[attr-defined]


def test_points_score_one_vp_per_controlled_point_at_each_own_end_turn() -> None:
    victory = VictoryConfig(victory_points=VictoryPoints(threshold=3, points=("B2", "C2", "J9")))
    state = start(units=("A1 L A1", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory)
    state = play(state, EndTurn())
    assert state.player(Side.ATTACKER).point_vp == 2  # B2 and C2 lie in the ATTACKER zone
    state = pass_turns(state, 1)
    assert state.player(Side.DEFENDER).point_vp == 1
    state = pass_turns(state, 1)
    assert (state.winner, state.victory_reason) == (Side.ATTACKER, "victory_points")


def test_control_goes_to_the_last_side_standing_on_a_point() -> None:
    victory = VictoryConfig(victory_points=VictoryPoints(threshold=10, points=("B4",)))
    state = start(units=("A1 L B2", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory)
    assert state.control[0].side is Side.DEFENDER  # row 4 is DEFENDER territory
    state = play(state, MoveUnit(unit_id="A1", to="B4"), EndTurn())
    assert state.control[0].side is Side.ATTACKER and state.player(Side.ATTACKER).point_vp == 1
    assert any(e.kind == "point_captured" for e in state.events)


def test_capture_and_hold_counts_consecutive_own_turns() -> None:
    victory = VictoryConfig(capture_and_hold=CaptureAndHold(objectives=("B3",), hold_turns=2))
    state = start(units=("A1 L B2", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory)
    state = play(state, MoveUnit(unit_id="A1", to="B3"), EndTurn())
    assert state.hold_count == 1 and state.phase is not Phase.VICTORY
    state = pass_turns(state, 2)
    assert (state.winner, state.victory_reason) == (Side.ATTACKER, "capture_and_hold")


def test_capture_and_hold_resets_when_the_objective_is_left() -> None:
    victory = VictoryConfig(capture_and_hold=CaptureAndHold(objectives=("B3",), hold_turns=2))
    state = start(units=("A1 L B2", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory)
    state = play(state, MoveUnit(unit_id="A1", to="B3"), EndTurn())
    state = pass_turns(state, 1)
    state = play(state, NextPhase(), NextPhase(), MoveUnit(unit_id="A1", to="B2"), EndTurn())
    assert state.hold_count == 0 and state.phase is not Phase.VICTORY


@pytest.mark.parametrize(("cells", "winner"), [(("B2", "C2", "J9"), Side.ATTACKER), (("B2", "J9"), Side.DEFENDER)])
def test_territorial_control_decides_at_its_round_with_ties_to_the_defender(
    cells: tuple[str, ...], winner: Side
) -> None:
    victory = VictoryConfig(territorial_control=TerritorialControl(points=cells, after_rounds=1))
    state = pass_turns(start(units=("A1 L A1", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory), 1)
    assert state.phase is not Phase.VICTORY
    state = pass_turns(state, 1)
    assert (state.winner, state.victory_reason) == (winner, "territorial_control")


def test_timed_resistance_gives_the_defender_the_win_at_its_round() -> None:
    victory = VictoryConfig(timed_resistance=TimedResistance(rounds=2))
    state = pass_turns(start(units=("A1 L A1", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory), 3)
    assert state.phase is not Phase.VICTORY and state.turn == 4
    state = pass_turns(state, 1)
    assert (state.winner, state.victory_reason, state.turn) == (Side.DEFENDER, "timed_resistance", 4)


def test_round_limit_decides_by_unit_vp_ties_to_the_defender() -> None:
    victory = VictoryConfig(round_limit=RoundLimit(max_rounds=2))
    state = pass_turns(start(units=("A1 L A1", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory), 4)
    assert (state.winner, state.victory_reason, state.turn) == (Side.DEFENDER, "round_limit", 4)
    state = start(
        units=("A1 L A1", "D1 L B2", "D2 L J10"), phase="ATTACK", seed=seed_rolling(6), draw=[], victory=victory
    )
    state = pass_turns(kill(state, "A1", "D1"), 4)  # type: ignore[arg-type]
    assert (state.winner, state.victory_reason) == (Side.ATTACKER, "round_limit")


def test_points_leader_is_who_the_round_limit_would_crown_now() -> None:
    state = start(units=("A1 L A1", "D1 L B2", "D2 L J10"), phase="ATTACK", seed=seed_rolling(6), draw=[])
    assert points_leader(state) is Side.DEFENDER  # level: the tie goes to the DEFENDER
    assert points_leader(kill(state, "A1", "D1")) is Side.ATTACKER  # type: ignore[arg-type]


def test_conditions_run_in_table_order_at_the_same_end_turn() -> None:
    victory = VictoryConfig(
        timed_resistance=TimedResistance(rounds=1),
        round_limit=RoundLimit(max_rounds=1),
        territorial_control=TerritorialControl(points=("A1",), after_rounds=1),
    )
    state = pass_turns(start(units=("A1 L A1", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory), 2)
    assert (state.winner, state.victory_reason) == (Side.ATTACKER, "territorial_control")


def test_default_games_end_by_the_round_limit_at_turn_fifty() -> None:
    state = pass_turns(start(units=("A1 L A1", "D1 L J10"), phase="MOVEMENT", draw=[]), 49)
    assert state.phase is Phase.CARD_DRAW and state.turn == 50
    state = pass_turns(state, 1)
    assert (state.phase, state.victory_reason, state.turn) == (Phase.VICTORY, "round_limit", 50)


def test_the_action_cap_ends_the_game_mid_turn() -> None:
    victory = VictoryConfig(max_actions=3)
    state = start(units=("A1 L A1", "A2 L C1", "A3 L E1", "D1 L J10"), phase="MOVEMENT", draw=[], victory=victory)
    state = play(state, MoveUnit(unit_id="A1", to="A2"), MoveUnit(unit_id="A2", to="C2"))
    assert state.phase is Phase.MOVEMENT
    state = play(state, MoveUnit(unit_id="A3", to="E2"))
    assert (state.phase, state.victory_reason, state.winner, state.actions_taken) == (
        Phase.VICTORY,
        "action_cap",
        Side.DEFENDER,
        3,
    )


def test_the_action_cap_never_awards_the_game_to_the_side_that_reached_it() -> None:
    """Ahead on points, the ATTACKER still loses when its own action reaches the cap (rules §10)."""
    victory = VictoryConfig(max_actions=5)
    state = start(units=("A1 L A1", "D1 L B2", "D2 L J10"), phase="ATTACK", seed=seed_rolling(6), draw=[],
                  victory=victory)
    state = kill(state, "A1", "D1")
    assert (state.phase, state.actions_taken, points_leader(state)) == (Phase.DICE_RESOLUTION, 4, Side.ATTACKER)
    over = play(state, NextPhase())
    assert (over.victory_reason, over.winner) == ("action_cap", Side.DEFENDER)


def test_a_game_ended_at_end_turn_skips_expiry_and_the_shuffle() -> None:
    victory = VictoryConfig(round_limit=RoundLimit(max_rounds=1))
    state = start(
        units=("A1 L A1", "D1 L J10"),
        phase="MOVEMENT",
        side=Side.DEFENDER,
        draw=["air_cover#1", "air_cover#2", "blackout#1"],
        victory=victory,
    )
    over = play(state, EndTurn())
    assert over.phase is Phase.VICTORY and over.draw_pile == state.draw_pile and over.rng == state.rng
