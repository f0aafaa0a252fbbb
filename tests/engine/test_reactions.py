"""Reaction windows, priority and every tactic card (rules §7.5, §9)."""

from __future__ import annotations

import pytest

from engine import (
    DeclareAttack,
    EndTurn,
    EventKind,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    OpenWindow,
    Params,
    PassReaction,
    PlayTactic,
    Quadrant,
    ResolveAttack,
    RollDice,
    Side,
    Window,
    legal_actions,
    player_view,
    reaction_windows,
    reduce,
)
from engine.movement.allowance import movement_allowance
from engine.rng import next_seed
from engine.state import Modifier, ReactionMark
from tests.support import play, seed_rolling, snapshot, start, terrain_with, unit

A, D = Side.ATTACKER, Side.DEFENDER


def dice(
    units: tuple[str, ...],
    attacks: tuple[tuple[str, str], ...],
    *naturals: int,
    tactics: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    **kw: object,
) -> GameState:
    """DICE_RESOLUTION of turn 1 with ``attacks`` declared in order; the next rolls give ``naturals``."""
    state = start(
        units=units, phase="ATTACK", draw=[], seed=seed_rolling(*naturals) if naturals else 1, tactics=tactics, **kw
    )
    declared = [DeclareAttack(attacker_id=a, target_id=t) for a, t in attacks]
    return play(state, *declared, NextPhase())


def tactic_actions(state: GameState) -> list[PlayTactic]:
    return [a for a in legal_actions(state) if isinstance(a, PlayTactic)]


def mods(state: GameState) -> list[tuple[str, int]]:
    assert state.last_roll is not None
    return [(m.source, m.value) for m in state.last_roll.modifiers]


DUEL = ("A1 L B2", "D1 L B3")
TWO_DUELS = ("A1 L B2", "A2 L E2", "D1 L B3", "D2 L E3")


# §9.1 window derivation --------------------------------------------------------------------


def test_before_move_window_is_open_in_movement_before_any_move() -> None:
    state = start(units=DUEL, phase="MOVEMENT", draw=[])
    assert reaction_windows(state) == (OpenWindow(Window.BEFORE_MOVE, "1:beforeMove"),)


def test_after_move_window_has_one_instance_per_move_count() -> None:
    state = start(units=("A1 L B2", "A2 L E2", "D1 L B8"), phase="MOVEMENT", draw=[])
    state = play(state, MoveUnit(unit_id="A1", to="B3"))
    assert reaction_windows(state) == (OpenWindow(Window.AFTER_MOVE, "1:afterMove:1"),)
    state = play(state, MoveUnit(unit_id="A2", to="E3"))
    assert reaction_windows(state) == (OpenWindow(Window.AFTER_MOVE, "1:afterMove:2"),)


def test_before_attack_roll_window_is_keyed_by_the_attack_number() -> None:
    state = dice(TWO_DUELS, (("A1", "D1"), ("A2", "D2")))
    assert reaction_windows(state) == (OpenWindow(Window.BEFORE_ATTACK_ROLL, "1:beforeAttackRoll:1"),)
    state = play(state, RollDice(), ResolveAttack())
    assert reaction_windows(state) == (OpenWindow(Window.BEFORE_ATTACK_ROLL, "1:beforeAttackRoll:2"),)


def test_post_roll_windows_share_one_instance() -> None:
    state = play(dice(DUEL, (("A1", "D1"),)), RollDice())
    assert reaction_windows(state) == (
        OpenWindow(Window.AFTER_ATTACK_ROLL, "1:postRoll:1"),
        OpenWindow(Window.BEFORE_DAMAGE, "1:postRoll:1"),
    )


def test_no_window_outside_movement_and_a_pending_attack() -> None:
    card_draw = start(units=DUEL, phase="CARD_DRAW", draw=["air_cover#1"])
    attack = start(units=DUEL, phase="ATTACK", draw=[])
    empty_dice = play(attack, NextPhase())
    assert empty_dice.pending_attack is None
    assert [reaction_windows(s) for s in (card_draw, attack, empty_dice)] == [(), (), ()]


# §9.2 / §9.3 priority ----------------------------------------------------------------------


def test_reacting_player_with_a_playable_tactic_holds_priority() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=((), ("dense_fog",)))
    assert state.to_act is D
    assert legal_actions(state) == [PlayTactic(card_id="dense_fog"), PassReaction()]


def test_active_player_cannot_act_while_the_reacting_player_holds_priority() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=(("precision_shot",), ("dense_fog",)))
    before = snapshot(state)
    for action in (RollDice(), EndTurn()):
        with pytest.raises(IllegalAction) as err:
            reduce(state, action)
        assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:  # the actor is DEFENDER, who does not hold it
        reduce(state, PlayTactic(card_id="precision_shot", targets=("A1",)))
    assert err.value.code == "cannot_play_tactic"
    assert snapshot(state) == before


def test_reacting_player_commits_before_the_active_players_tactics_are_offered() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=(("precision_shot",), ("dense_fog",)))
    assert PlayTactic(card_id="precision_shot", targets=("A1",)) not in legal_actions(state)
    state = play(state, PassReaction())
    assert state.to_act is A
    assert legal_actions(state) == [EndTurn(), RollDice(), PlayTactic(card_id="precision_shot", targets=("A1",))]


def test_passing_closes_the_instance_for_the_reacting_player() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=(("precision_shot",), ("dense_fog",)))
    state = play(state, PassReaction())
    assert state.reactions == (ReactionMark(instance="1:beforeAttackRoll:1", side=D, played=False),)
    state = play(state, PlayTactic(card_id="precision_shot", targets=("A1",)))
    assert state.to_act is A
    assert state.player(D).tactics == ("dense_fog",)
    assert PassReaction() not in legal_actions(state)


def test_reacting_player_plays_at_most_one_tactic_per_instance() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=((), ("dense_fog", "tactical_block")))
    state = play(state, PlayTactic(card_id="dense_fog"))
    assert state.to_act is A
    assert state.player(D).tactics == ("tactical_block",)
    assert legal_actions(state) == [EndTurn(), RollDice()]


def test_active_player_plays_at_most_one_tactic_per_instance() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=(("precision_shot", "expert_aim"), ()))
    assert len(tactic_actions(state)) == 2
    state = play(state, PlayTactic(card_id="precision_shot", targets=("A1",)))
    assert tactic_actions(state) == []
    assert state.player(A).tactics == ("expert_aim",)


def test_active_player_has_the_last_word() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=(("precision_shot",), ("dense_fog", "tactical_block")))
    state = play(state, PlayTactic(card_id="dense_fog"))
    state = play(state, PlayTactic(card_id="precision_shot", targets=("A1",)))
    assert state.to_act is A  # the reacting player never answers the active player's tactic
    assert [e.source_card for e in state.effects] == ["dense_fog", "precision_shot"]
    assert state.pending_attack is not None


def test_rolling_closes_the_before_roll_instance_for_the_active_player() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=(("precision_shot",), ()))
    state = play(state, RollDice())
    assert tactic_actions(state) == []
    assert legal_actions(state) == [ResolveAttack()]


def test_reacting_player_may_react_again_in_the_next_instance() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=((), ("dense_fog", "natural_cover")))
    state = play(state, PassReaction(), RollDice())
    assert state.to_act is D
    assert legal_actions(state) == [PlayTactic(card_id="natural_cover", targets=("D1",)), PassReaction()]


def test_player_without_a_playable_tactic_is_skipped() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=((), ("natural_cover", "suppressive_fire")))
    assert state.to_act is A
    assert PassReaction() not in legal_actions(state)
    assert RollDice() in legal_actions(state)


def test_window_records_are_cleared_at_turn_start() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=((), ("dense_fog",)))
    state = play(state, PassReaction())
    assert state.reactions != ()
    state = play(state, EndTurn())
    assert state.turn == 2
    assert state.reactions == ()


def test_played_tactic_leaves_the_hand_for_good_and_is_public() -> None:
    state = dice(TWO_DUELS, (("A1", "D1"), ("A2", "D2")), tactics=((), ("dense_fog", "natural_cover")))
    state = play(state, PlayTactic(card_id="dense_fog"))
    assert state.player(D).tactics == ("natural_cover",)
    assert state.player(D).played_tactics == ("dense_fog",)
    assert [(e.kind, e.side, e.card) for e in state.events if e.kind is EventKind.TACTIC_PLAYED] == [
        ("tactic_played", D, "dense_fog")
    ]
    seen_by_attacker = player_view(state, A).player(D)
    assert (seen_by_attacker.played_tactics, seen_by_attacker.tactics) == (("dense_fog",), ("?",))
    state = play(state, RollDice())
    state = play(state, PassReaction(), ResolveAttack())
    assert state.attack_seq == 2
    assert state.to_act is A  # dense_fog is gone: nothing left to react with before the roll


# §7.5 tactics ------------------------------------------------------------------------------


def test_dense_fog_lowers_every_attack_this_turn() -> None:
    state = dice(TWO_DUELS, (("A1", "D1"), ("A2", "D2")), tactics=((), ("dense_fog",)))
    state = play(state, PlayTactic(card_id="dense_fog"), RollDice())
    assert mods(state) == [("dense_fog", -1)]
    state = play(state, ResolveAttack(), RollDice())
    assert mods(state) == [("dense_fog", -1)]
    state = play(state, ResolveAttack(), EndTurn())
    assert state.effects == ()


def test_natural_cover_turns_a_hit_into_a_miss_after_the_roll() -> None:
    state = dice(DUEL, (("A1", "D1"),), 3, tactics=((), ("natural_cover",)))
    assert state.to_act is A  # not offered before the roll
    state = play(state, RollDice())
    assert state.last_roll is not None and (state.last_roll.modified, state.last_roll.outcome) == (3, "HIT")
    state = play(state, PlayTactic(card_id="natural_cover", targets=("D1",)))
    roll = state.last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.required, roll.outcome) == (3, 2, 3, "MISS")
    assert mods(state) == [("defense:natural_cover", -1)]
    assert any(e.kind is EventKind.ROLL_CHANGED and e.detail == "MISS" for e in state.events)
    state = play(state, ResolveAttack())
    assert unit(state, "D1").hp == 1


def test_clear_line_of_fire_ignores_target_terrain_for_this_attack_only() -> None:
    state = dice(
        ("A1 L B2", "A2 L E2", "D1 L B4", "D2 L E4"),
        (("A1", "D1"), ("A2", "D2")),
        5,
        6,
        tactics=(("clear_line_of_fire",), ()),
        terrain=terrain_with(B4="u", E4="u"),
    )
    assert tactic_actions(state) == [PlayTactic(card_id="clear_line_of_fire")]
    state = play(state, PlayTactic(card_id="clear_line_of_fire"), RollDice())
    roll = state.last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.outcome, roll.modifiers) == (5, 5, "HIT", ())
    state = play(state, ResolveAttack())
    assert state.unit("D1") is None
    assert state.effects == ()
    state = play(state, RollDice())
    assert state.last_roll is not None and (state.last_roll.natural, state.last_roll.modified) == (6, 4)
    assert mods(state) == [("terrain_cover:URBAN", -1), ("terrain_defense:URBAN", -1)]


def test_precision_shot_doubles_the_damage_of_a_hit() -> None:
    state = dice(("A1 L B2", "D9 M B3", "D1 L J10"), (("A1", "D9"),), 6, tactics=(("precision_shot",), ()))
    assert tactic_actions(state) == [PlayTactic(card_id="precision_shot", targets=("A1",))]
    state = play(state, PlayTactic(card_id="precision_shot", targets=("A1",)), RollDice(), ResolveAttack())
    assert state.unit("D9") is None
    assert [(e.unit, e.value) for e in state.events if e.kind is EventKind.UNIT_DESTROYED] == [("D9", 2)]


def test_suppressive_fire_halves_the_active_players_movement() -> None:
    state = start(
        units=("A1 L E2", "A7 M H2", "D1 L E8"), phase="MOVEMENT", draw=[], tactics=((), ("suppressive_fire",))
    )
    assert state.to_act is D
    assert legal_actions(state) == [PlayTactic(card_id="suppressive_fire"), PassReaction()]
    state = play(state, PlayTactic(card_id="suppressive_fire"))
    assert [movement_allowance(state, unit(state, u)) for u in ("A1", "A7", "D1")] == [2, 4, 4]
    a1_cells = sorted(a.to for a in legal_actions(state) if isinstance(a, MoveUnit) and a.unit_id == "A1")
    assert a1_cells == ["D1", "D2", "D3", "E1", "E3", "F1", "F2", "F3"]


def test_suppressive_fire_halving_floors_in_half_points() -> None:
    # special unit: 3 MP = 6 half-points, halved to 3: three road steps (0.5 MP each), not two
    road_map = terrain_with(**{f"{c}2": "=" for c in "ABCDEFGHIJ"})
    state = start(
        units=("A10 S A2", "D1 L J9"), phase="MOVEMENT", draw=[], terrain=road_map, tactics=((), ("suppressive_fire",))
    )
    state = play(state, PlayTactic(card_id="suppressive_fire"))
    assert movement_allowance(state, unit(state, "A10")) == 3
    cells = {a.to for a in legal_actions(state) if isinstance(a, MoveUnit)}
    assert "D2" in cells
    assert "E2" not in cells
    assert "A4" not in cells


def test_coordinated_maneuver_offers_one_action_per_eligible_supporter() -> None:
    state = start(
        units=("A1 L B2", "A2 L C2", "A3 L A2", "A4 L I2", "A10 S E1", "D9 M B3"),
        phase="MOVEMENT",
        draw=[],
        tactics=(("coordinated_maneuver",), ()),
    )
    state = play(
        state,
        MoveUnit(unit_id="A10", to="F1"),  # in range (4) but moved: move-or-fire
        NextPhase(),
        DeclareAttack(attacker_id="A1", target_id="D9"),
        DeclareAttack(attacker_id="A3", target_id="D9"),  # already declared
        NextPhase(),
    )
    # A4 is out of range (distance 6)
    assert tactic_actions(state) == [PlayTactic(card_id="coordinated_maneuver", targets=("A2",))]


def test_coordinated_maneuver_adds_one_to_roll_and_damage_and_spends_the_supporter() -> None:
    state = dice(
        ("A1 L B2", "A2 L C2", "D9 M B3", "D1 L J10"), (("A1", "D9"),), 2, tactics=(("coordinated_maneuver",), ())
    )
    state = play(state, PlayTactic(card_id="coordinated_maneuver", targets=("A2",)))
    assert unit(state, "A2").has_attacked is True
    state = play(state, RollDice())
    roll = state.last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.outcome) == (2, 3, "HIT")
    assert mods(state) == [("coordinated_maneuver", 1)]
    state = play(state, ResolveAttack())
    assert [(e.unit, e.value) for e in state.events if e.kind is EventKind.UNIT_DESTROYED] == [("D9", 2)]


def test_commanders_luck_consumes_one_rng_step_and_recomputes_from_the_new_die() -> None:
    state = dice(
        ("A1 L B2", "D1 L B3"), (("A1", "D1"),), 1, 6, tactics=(("commanders_luck",), ()), terrain=terrain_with(B3="u")
    )
    state = play(state, RollDice())
    assert state.last_roll is not None and (state.last_roll.modified, state.last_roll.outcome) == (1, "MISS")
    rng_before = state.rng
    state = play(state, PlayTactic(card_id="commanders_luck"))
    assert state.rng == next_seed(rng_before)
    roll = state.last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.required, roll.outcome) == (6, 4, 3, "HIT")
    assert [(e.kind, e.value) for e in state.events if e.kind is EventKind.DICE_REROLLED] == [("dice_rerolled", 6)]
    assert state.effects == ()


def test_commanders_luck_can_be_played_by_the_reacting_player() -> None:
    state = dice(DUEL, (("A1", "D1"),), 4, 1, tactics=((), ("commanders_luck",)))
    assert state.to_act is A  # afterAttackRoll only
    state = play(state, RollDice())
    assert state.to_act is D
    state = play(state, PlayTactic(card_id="commanders_luck"))
    roll = state.last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.outcome) == (1, 1, "MISS")
    state = play(state, ResolveAttack())
    assert unit(state, "D1").hp == 1


def test_favorable_weather_adds_one_to_own_attacks_at_distance_two_or_more() -> None:
    state = dice(
        ("A1 L B2", "A2 L E2", "A3 L H2", "D1 L B4", "D2 L E3", "D3 L H4"),
        (("A1", "D1"), ("A2", "D2"), ("A3", "D3")),
        tactics=(("favorable_weather",), ()),
    )
    state = play(state, PlayTactic(card_id="favorable_weather"))
    seen = []
    for _ in range(3):
        state = play(state, RollDice())
        assert state.last_roll is not None
        seen.append((state.last_roll.distance, mods(state)))
        state = play(state, ResolveAttack())
    assert seen == [(2, [("favorable_weather", 1)]), (1, []), (2, [("favorable_weather", 1)])]


def test_expert_aim_adds_two_to_own_attacks_against_that_unit_this_turn() -> None:
    state = dice(
        ("A1 L B2", "A2 L C2", "A3 L E2", "D9 M B3", "D1 L E3"),
        (("A1", "D9"), ("A2", "D9"), ("A3", "D1")),
        tactics=(("expert_aim",), ()),
    )
    assert tactic_actions(state) == [PlayTactic(card_id="expert_aim", targets=("D9",))]
    state = play(state, PlayTactic(card_id="expert_aim", targets=("D9",)))
    seen = []
    for _ in range(3):
        state = play(state, RollDice())
        assert state.pending_attack is not None
        seen.append((state.pending_attack.target, mods(state)))
        state = play(state, ResolveAttack())
    assert seen == [("D9", [("expert_aim", 2)]), ("D9", [("expert_aim", 2)]), ("D1", [])]


def test_tactical_block_cancels_the_attack_without_a_roll_and_the_queue_advances() -> None:
    state = dice(TWO_DUELS, (("A1", "D1"), ("A2", "D2")), tactics=((), ("tactical_block",)))
    assert legal_actions(state) == [PlayTactic(card_id="tactical_block", targets=("A1",)), PassReaction()]
    rng_before = state.rng
    state = play(state, PlayTactic(card_id="tactical_block", targets=("A1",)))
    assert state.rng == rng_before
    assert state.last_roll is None
    assert (state.pending_attack and state.pending_attack.attacker, state.attack_seq) == ("A2", 2)
    assert unit(state, "A1").has_attacked is True
    assert unit(state, "D1").hp == 1
    assert [(e.kind, e.unit) for e in state.events if e.kind.startswith("attack_")] == [
        ("attack_cancelled", "A1"),
        ("attack_pending", "A2"),
    ]


def test_tactical_block_on_the_last_attack_leaves_nothing_pending() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=((), ("tactical_block",)))
    state = play(state, PlayTactic(card_id="tactical_block", targets=("A1",)))
    assert state.pending_attack is None
    assert legal_actions(state) == [NextPhase(), EndTurn()]


def test_enemy_recon_detection_is_listed_once_per_quadrant() -> None:
    state = dice(DUEL, (("A1", "D1"),), tactics=(("enemy_recon_detection",), ()))
    assert tactic_actions(state) == [
        PlayTactic(card_id="enemy_recon_detection", params=Params(quadrant=q))
        for q in (Quadrant.NW, Quadrant.NE, Quadrant.SW, Quadrant.SE)
    ]


def test_enemy_recon_detection_adds_one_against_targets_in_that_quadrant() -> None:
    # 10x10: NW is A-E × rows 1-5; B3 is NW, B7 is SW
    state = dice(
        ("A1 L B2", "A2 L B6", "D1 L B3", "D2 L B7"),
        (("A1", "D1"), ("A2", "D2")),
        tactics=(("enemy_recon_detection",), ()),
    )
    state = play(state, PlayTactic(card_id="enemy_recon_detection", params=Params(quadrant=Quadrant.NW)), RollDice())
    assert mods(state) == [("enemy_recon_detection", 1)]
    state = play(state, ResolveAttack(), RollDice())
    assert state.last_roll is not None and state.last_roll.modifiers == ()


def test_post_roll_tactic_modifiers_are_named_in_the_roll() -> None:
    state = dice(DUEL, (("A1", "D1"),), 5, tactics=((), ("natural_cover",)))
    state = play(state, RollDice(), PlayTactic(card_id="natural_cover", targets=("D1",)))
    assert state.last_roll is not None
    assert state.last_roll.modifiers == (Modifier(source="defense:natural_cover", value=-1),)


def test_reacting_attacker_holds_priority_in_the_defenders_turn() -> None:
    state = dice(DUEL, (("D1", "A1"),), side=D, tactics=(("dense_fog",), ("precision_shot",)))
    assert (state.turn, state.active, state.to_act) == (2, D, A)
    assert legal_actions(state) == [PlayTactic(card_id="dense_fog"), PassReaction()]
    state = play(state, PassReaction())
    assert tactic_actions(state) == [PlayTactic(card_id="precision_shot", targets=("D1",))]


def test_coordinated_maneuver_is_not_offered_without_an_eligible_supporter() -> None:
    state = dice(("A1 L B2", "A2 L J2", "D1 L B3"), (("A1", "D1"),), tactics=(("coordinated_maneuver",), ()))
    assert tactic_actions(state) == []


def test_post_roll_tactics_of_both_players_combine_on_the_new_natural_die() -> None:
    state = dice(DUEL, (("A1", "D1"),), 4, 3, tactics=(("commanders_luck",), ("natural_cover",)))
    state = play(state, RollDice(), PlayTactic(card_id="natural_cover", targets=("D1",)))
    assert state.last_roll is not None and (state.last_roll.modified, state.last_roll.outcome) == (3, "HIT")
    state = play(state, PlayTactic(card_id="commanders_luck"))
    roll = state.last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.outcome) == (3, 2, "MISS")
    assert tactic_actions(state) == []


def test_natural_cover_keeps_protecting_that_unit_for_the_rest_of_the_turn() -> None:
    state = dice(
        ("A1 L B2", "A2 L C2", "D9 M B3", "D1 L J10"),
        (("A1", "D9"), ("A2", "D9")),
        tactics=((), ("natural_cover",)),
    )
    state = play(state, RollDice(), PlayTactic(card_id="natural_cover", targets=("D9",)), ResolveAttack())
    assert state.attack_seq == 2
    state = play(state, RollDice())
    assert mods(state) == [("defense:natural_cover", -1)]
    state = play(state, ResolveAttack(), EndTurn())
    assert state.effects == ()
