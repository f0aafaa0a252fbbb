"""Effects model (rules §8): hook combination rules, scopes, conditions and durations.

Combination and scope tests place hand-built effect records in a tiny scenario and ask
the hooks; duration tests play the real cards through whole turns.
"""

from __future__ import annotations

import msgspec
import pytest

from engine import (
    DeclareAttack,
    DiscardBonus,
    DrawCard,
    EndTurn,
    EventKind,
    GameState,
    NextPhase,
    PlayBonus,
    PlayTactic,
    ResolveAttack,
    RollDice,
    Side,
    legal_actions,
)
from engine.cards import hooks as H
from engine.cards.catalogue import CARDS
from engine.flow.phases import decide_to_act
from engine.movement.allowance import movement_allowance
from engine.state import Conditions, Effect
from engine.types import Hook, Phase, Quadrant, UnitType
from tests.support import effect, play, seed_rolling, start, terrain_with, unit

A, D = Side.ATTACKER, Side.DEFENDER


# helpers ---------------------------------------------------------------------------------


def with_effects(state: GameState, *effects: Effect) -> GameState:
    """``state`` holding exactly ``effects``, numbered in the given order, ``to_act`` refreshed."""
    numbered = tuple(msgspec.structs.replace(e, effect_id=i, play_id=i) for i, e in enumerate(effects, start=1))
    state = msgspec.structs.replace(
        state, effects=numbered, next_effect_id=len(numbered) + 1, next_play_id=len(numbered) + 1
    )
    return msgspec.structs.replace(state, to_act=decide_to_act(state))


def pending(units: tuple[str, ...], attacker: str, target: str, *naturals: int, **kw: object) -> GameState:
    """DICE_RESOLUTION with ``attacker``→``target`` pending; the next rolls give ``naturals``."""
    state = start(units=units, phase="ATTACK", draw=[], seed=seed_rolling(*naturals) if naturals else 1, **kw)
    return play(state, DeclareAttack(attacker_id=attacker, target_id=target), NextPhase())


def finish_turn(state: GameState) -> GameState:
    """End the active player's turn from wherever it rests, drawing and discarding a bonus if any."""
    while EndTurn() not in legal_actions(state):
        actions = legal_actions(state)
        state = play(state, next(a for a in (DrawCard(), DiscardBonus(), NextPhase()) if a in actions))
    return play(state, EndTurn())


def moves_on_plain(state: GameState, unit_id: str) -> int:
    """Allowance of ``unit_id`` in half-points."""
    return movement_allowance(state, unit(state, unit_id))


# §8.2 combination rules --------------------------------------------------------------------

MOVING = ("A1 L B2", "A7 M E2", "A10 S H2", "D1 L B8", "D9 M E8")


def test_can_move_unit_is_false_when_a_deny_applies_and_no_allow() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.CAN_MOVE_UNIT, "deny", scope="targets", targets=("A1",)),
    )
    assert H.can_move_unit(state, unit(state, "A1")) is False
    assert H.can_move_unit(state, unit(state, "A7")) is True
    assert not any(a.unit_id == "A1" for a in legal_actions(state) if hasattr(a, "unit_id"))


@pytest.mark.parametrize("allow_first", [True, False])
def test_can_move_unit_allow_overrides_deny_in_either_order(allow_first: bool) -> None:
    deny = effect(Hook.CAN_MOVE_UNIT, "deny", scope="targets", targets=("A1",))
    allow = effect(Hook.CAN_MOVE_UNIT, "allow", scope="targets", targets=("A1",))
    effects = (allow, deny) if allow_first else (deny, allow)
    state = with_effects(start(units=MOVING, phase="MOVEMENT", draw=[]), *effects)
    assert H.can_move_unit(state, unit(state, "A1")) is True


def test_can_attack_is_false_when_any_deny_applies() -> None:
    state = start(units=("A1 L B2", "A2 L C2", "D1 L B3"), phase="ATTACK", draw=[])
    state = with_effects(state, effect(Hook.CAN_ATTACK, "deny", scope="targets", targets=("A1",)))
    assert H.can_attack(state, unit(state, "A1"), unit(state, "D1")) is False
    assert H.can_attack(state, unit(state, "A2"), unit(state, "D1")) is True
    assert DeclareAttack(attacker_id="A1", target_id="D1") not in legal_actions(state)
    assert DeclareAttack(attacker_id="A2", target_id="D1") in legal_actions(state)


def test_can_attack_after_move_is_true_only_with_an_allow() -> None:
    state = start(units=("A10 S B2", "D1 L B5"), phase="ATTACK", draw=[])
    assert H.can_attack_after_move(state, unit(state, "A10")) is False
    allowed = with_effects(state, effect(Hook.CAN_ATTACK_AFTER_MOVE, "allow", scope="targets", targets=("A10",)))
    assert H.can_attack_after_move(allowed, unit(allowed, "A10")) is True


def test_movement_sums_adds_before_halving() -> None:
    # light infantry: 2 × (2 MP + 1 MP) = 6 half-points, halved once = 3 (halving first would give 4)
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MOVEMENT, "halve", scope="own_units"),
        effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units"),
    )
    assert moves_on_plain(state, "A1") == 3


def test_movement_halvings_floor_in_half_points() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MOVEMENT, "halve", scope="own_units"),
        effect(Hook.MODIFY_MOVEMENT, "halve", scope="own_units"),
    )
    assert moves_on_plain(state, "A1") == 1  # 4 → 2 → 1
    assert moves_on_plain(state, "A7") == 2  # 8 → 4 → 2
    assert moves_on_plain(state, "A10") == 1  # 6 → 3 → 1


def test_movement_allowance_is_never_negative() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MOVEMENT, "add", -6, scope="own_units"),
    )
    assert moves_on_plain(state, "A1") == 0
    assert moves_on_plain(state, "A7") == 2
    assert not any(getattr(a, "unit_id", None) == "A1" for a in legal_actions(state))


def test_max_moves_is_five_plus_adds() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MAX_MOVES, "add", 1, scope="controller"),
        effect(Hook.MODIFY_MAX_MOVES, "add", 1, scope="controller"),
    )
    assert H.max_moves(state, A) == 7
    assert H.max_moves(state, D) == 5


@pytest.mark.parametrize(
    ("values", "expected"),
    [((("add", 2), ("cap", 6)), 6), ((("cap", 4), ("add", 1), ("cap", 2)), 2), ((("add", 1), ("cap", 9)), 6)],
)
def test_max_moves_caps_take_the_minimum_after_adding(values: tuple[tuple[str, int], ...], expected: int) -> None:
    effects = [effect(Hook.MODIFY_MAX_MOVES, op, v, scope="controller") for op, v in values]
    base = start(units=MOVING, phase="MOVEMENT", draw=[])
    assert H.max_moves(with_effects(base, *effects), A) == expected
    assert H.max_moves(with_effects(base, *reversed(effects)), A) == expected


def test_attack_roll_adds_every_modifier_to_the_natural_die() -> None:
    state = pending(("A1 L B2", "D1 L B3"), "A1", "D1", 2)
    state = with_effects(
        state,
        effect(Hook.MODIFY_ATTACK_ROLL, "add", 2, scope="own_attacks"),
        effect(Hook.MODIFY_ATTACK_ROLL, "add", -1, scope="all_attacks", controller=D),
    )
    roll = play(state, RollDice()).last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.outcome) == (2, 3, "HIT")
    assert sorted(m.value for m in roll.modifiers) == [-1, 2]


def test_defense_adds_are_subtracted_from_the_roll() -> None:
    state = pending(("A1 L B2", "D1 L B3"), "A1", "D1", 4)
    state = with_effects(
        state,
        effect(Hook.MODIFY_DEFENSE, "add", 1, scope="targets", controller=D, targets=("D1",)),
        effect(Hook.MODIFY_DEFENSE, "add", 1, scope="own_units", controller=D),
    )
    roll = play(state, RollDice()).last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.outcome) == (4, 2, "MISS")


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        ((("add", 1), ("mul", 2)), 4),  # (1 + 1) × 2, not 1 × 2 + 1
        ((("mul", 2), ("add", 1)), 4),
        ((("mul", 2), ("mul", 3), ("add", 1)), 12),
        ((), 1),
    ],
)
def test_damage_is_damage_plus_adds_times_every_multiplier(ops: tuple[tuple[str, int], ...], expected: int) -> None:
    state = start(units=("A1 L B2", "D9 M B3"), phase="ATTACK", draw=[])
    state = with_effects(state, *(effect(Hook.MODIFY_DAMAGE, op, v, scope="own_attacks") for op, v in ops))
    assert H.attack_damage(state, unit(state, "A1"), unit(state, "D9")) == expected


def test_resolved_hit_removes_the_combined_damage() -> None:
    state = pending(("A1 L B2", "D9 M B3", "D1 L J10"), "A1", "D9", 6)
    state = with_effects(
        state,
        effect(Hook.MODIFY_DAMAGE, "mul", 2, scope="own_attacks"),
        effect(Hook.MODIFY_DAMAGE, "add", 1, scope="own_attacks"),
    )
    state = play(state, RollDice(), ResolveAttack())
    destroyed = [e for e in state.events if e.kind is EventKind.UNIT_DESTROYED]
    assert [(e.unit, e.value) for e in destroyed] == [("D9", 4)]


@pytest.mark.parametrize(("adds", "expected"), [((), 6), ((1,), 7), ((1, 1), 7), ((1, 2), 8), ((2, 1), 8)])
def test_storage_limit_is_six_plus_the_largest_add(adds: tuple[int, ...], expected: int) -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        *(effect(Hook.MODIFY_STORAGE_LIMIT, "add", v, scope="controller") for v in adds),
    )
    assert H.storage_limit(state, A) == expected
    assert H.storage_limit(state, D) == 6


def test_ignore_defender_terrain_applies_when_any_effect_covers_the_attack() -> None:
    state = start(units=("A1 L B2", "A2 L C2", "D1 L B3"), phase="ATTACK", draw=[], terrain=terrain_with(B3="u"))
    state = with_effects(state, effect(Hook.IGNORE_DEFENDER_TERRAIN, "apply", scope="targets", targets=("A1",)))
    assert H.ignores_defender_terrain(state, unit(state, "A1"), unit(state, "D1")) is True
    assert H.ignores_defender_terrain(state, unit(state, "A2"), unit(state, "D1")) is False


def test_can_play_card_deny_matches_only_its_category_or_class() -> None:
    base = start(units=MOVING, phase="MOVEMENT", draw=[])
    logistics = with_effects(
        base,
        effect(Hook.CAN_PLAY_CARD, "deny", scope="controller", conditions=Conditions(card_category=("Logistics",))),
    )
    special = with_effects(
        base, effect(Hook.CAN_PLAY_CARD, "deny", scope="controller", conditions=Conditions(card_class=("special",)))
    )
    convoy, recon, ecm = CARDS["rapid_supply_convoy"], CARDS["advanced_recon"], CARDS["electronic_countermeasures"]
    assert [H.can_play_card(logistics, A, c) for c in (convoy, recon, ecm)] == [False, True, True]
    assert [H.can_play_card(special, A, c) for c in (convoy, recon, ecm)] == [True, True, False]
    assert H.can_play_card(logistics, D, convoy) is True


def test_can_play_tactic_is_denied_only_to_the_controller() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.CAN_PLAY_TACTIC, "deny", scope="controller", controller=D),
    )
    assert H.can_play_tactic(state, D) is False
    assert H.can_play_tactic(state, A) is True


def test_can_resupply_is_false_when_any_deny_applies() -> None:
    state = with_effects(
        start(units=("A7 M B2 hp=1", "A8 M C2 hp=1", "D1 L B8"), phase="MOVEMENT", draw=[]),
        effect(Hook.CAN_RESUPPLY, "deny", scope="targets", targets=("A7",)),
    )
    assert H.can_resupply(state, unit(state, "A7")) is False
    assert H.can_resupply(state, unit(state, "A8")) is True


MIXED = (
    effect(Hook.MODIFY_MOVEMENT, "halve", scope="all_units", controller=D),
    effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units"),
    effect(Hook.MODIFY_MOVEMENT, "add", -1, scope="targets", targets=("A7",)),
    effect(Hook.MODIFY_MAX_MOVES, "cap", 3, scope="controller"),
    effect(Hook.MODIFY_MAX_MOVES, "add", 2, scope="controller"),
    effect(Hook.MODIFY_ATTACK_ROLL, "add", 2, scope="own_attacks"),
    effect(Hook.MODIFY_ATTACK_ROLL, "add", -1, scope="all_attacks", controller=D),
    effect(Hook.MODIFY_DEFENSE, "add", 1, scope="own_units", controller=D),
    effect(Hook.MODIFY_DAMAGE, "mul", 2, scope="own_attacks"),
    effect(Hook.MODIFY_DAMAGE, "add", 1, scope="own_attacks"),
    effect(Hook.CAN_MOVE_UNIT, "allow", scope="targets", targets=("A1",)),
    effect(Hook.CAN_MOVE_UNIT, "deny", scope="own_units"),
    effect(Hook.MODIFY_STORAGE_LIMIT, "add", 1, scope="controller"),
    effect(Hook.MODIFY_STORAGE_LIMIT, "add", 2, scope="controller"),
)


def _hook_answers(state: GameState) -> tuple[object, ...]:
    a1, a7, a10, d1 = (unit(state, u) for u in ("A1", "A7", "A10", "D1"))
    return (
        [movement_allowance(state, u) for u in (a1, a7, a10, d1)],
        H.max_moves(state, A),
        sum(m.value for m in H.attack_roll_modifiers(state, a1, d1, 1)),
        sum(m.value for m in H.defense_modifiers(state, d1)),
        H.attack_damage(state, a1, d1),
        [H.can_move_unit(state, u) for u in (a1, a7, a10)],
        H.storage_limit(state, A),
    )


def test_hook_results_do_not_depend_on_effect_order() -> None:
    base = start(units=("A1 L B2", "A7 M E2", "A10 S H2", "D1 L B3"), phase="ATTACK", draw=[])
    forward = _hook_answers(with_effects(base, *MIXED))
    assert forward == _hook_answers(with_effects(base, *reversed(MIXED)))
    assert forward == ([3, 4, 4, 2], 3, 1, 1, 4, [True, False, False], 8)


def test_roll_outcome_does_not_depend_on_effect_order() -> None:
    state = pending(("A1 L B2", "D1 L B3"), "A1", "D1", 3)
    rolls = [play(with_effects(state, *order), RollDice()).last_roll for order in (MIXED, MIXED[::-1])]
    assert rolls[0] is not None and rolls[1] is not None
    assert (rolls[0].modified, rolls[0].outcome) == (rolls[1].modified, rolls[1].outcome) == (3, "HIT")


# §8.3 scopes and conditions ----------------------------------------------------------------


def test_scope_targets_applies_only_to_the_listed_units() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="targets", targets=("A7",)),
    )
    assert [moves_on_plain(state, u) for u in ("A1", "A7", "A10", "D9")] == [4, 10, 6, 8]


@pytest.mark.parametrize(
    ("scope", "expected"),
    [("own_units", [6, 10, 4, 8]), ("enemy_units", [4, 8, 6, 10]), ("all_units", [6, 10, 6, 10])],
)
def test_unit_scopes_are_relative_to_the_controller(scope: str, expected: list[int]) -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]), effect(Hook.MODIFY_MOVEMENT, "add", 2, scope=scope)
    )
    assert [moves_on_plain(state, u) for u in ("A1", "A7", "D1", "D9")] == expected


@pytest.mark.parametrize(("scope", "expected"), [("own_attacks", (1, 0)), ("all_attacks", (1, 1))])
def test_attack_scopes_own_and_all_attacks(scope: str, expected: tuple[int, int]) -> None:
    state = with_effects(
        start(units=("A1 L B2", "D1 L B3"), phase="ATTACK", draw=[]),
        effect(Hook.MODIFY_ATTACK_ROLL, "add", 1, scope=scope),
    )
    a1, d1 = unit(state, "A1"), unit(state, "D1")
    by_attacker = sum(m.value for m in H.attack_roll_modifiers(state, a1, d1, 1))
    by_defender = sum(m.value for m in H.attack_roll_modifiers(state, d1, a1, 1))
    assert (by_attacker, by_defender) == expected


def test_scope_pending_attack_matches_only_its_attack_number() -> None:
    state = pending(("A1 L B2", "D1 L B3"), "A1", "D1")
    assert state.attack_seq == 1
    current = effect(Hook.MODIFY_ATTACK_ROLL, "add", 2, scope="pending_attack", expires="this_attack", attack_seq=1)
    stale = effect(Hook.MODIFY_ATTACK_ROLL, "add", 1, scope="pending_attack", expires="this_attack", attack_seq=0)
    state = with_effects(state, current, stale)
    mods = H.attack_roll_modifiers(state, unit(state, "A1"), unit(state, "D1"), 1)
    assert [m.value for m in mods] == [2]


def test_scope_controller_applies_to_the_controller_only() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MAX_MOVES, "cap", 1, scope="controller", controller=D),
    )
    assert (H.max_moves(state, A), H.max_moves(state, D)) == (5, 1)


def test_condition_unit_types_restricts_unit_effects() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(
            Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units", conditions=Conditions(unit_types=(UnitType.SPECIAL,))
        ),
    )
    assert [moves_on_plain(state, u) for u in ("A1", "A7", "A10")] == [4, 8, 8]


def test_condition_unit_tags_restricts_unit_effects() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units", conditions=Conditions(unit_tags=("vehicle",))),
    )
    assert [moves_on_plain(state, u) for u in ("A1", "A7", "A10")] == [4, 10, 6]


def test_condition_min_distance_ignores_closer_attacks() -> None:
    state = with_effects(
        start(units=("A1 L B2", "D1 L B3", "D2 L D2"), phase="ATTACK", draw=[]),
        effect(Hook.MODIFY_ATTACK_ROLL, "add", 1, scope="own_attacks", conditions=Conditions(min_distance=2)),
    )
    a1 = unit(state, "A1")
    assert sum(m.value for m in H.attack_roll_modifiers(state, a1, unit(state, "D1"), 1)) == 0
    assert sum(m.value for m in H.attack_roll_modifiers(state, a1, unit(state, "D2"), 2)) == 1


def test_condition_target_unit_matches_that_target_only() -> None:
    state = with_effects(
        start(units=("A1 L B2", "D1 L B3", "D2 L C3"), phase="ATTACK", draw=[]),
        effect(Hook.MODIFY_ATTACK_ROLL, "add", 2, scope="own_attacks", conditions=Conditions(target_unit="D2")),
    )
    a1 = unit(state, "A1")
    assert sum(m.value for m in H.attack_roll_modifiers(state, a1, unit(state, "D1"), 1)) == 0
    assert sum(m.value for m in H.attack_roll_modifiers(state, a1, unit(state, "D2"), 1)) == 2


def test_condition_target_quadrant_matches_targets_standing_there() -> None:
    # 10x10: west is x < 5 (A-E), north is y < 5 (rows 1-5)
    state = with_effects(
        start(units=("A1 L E4", "D1 L E5", "D2 L F5", "D3 L E6"), phase="ATTACK", draw=[]),
        effect(
            Hook.MODIFY_ATTACK_ROLL, "add", 1, scope="own_attacks", conditions=Conditions(target_quadrant=Quadrant.NW)
        ),
    )
    a1 = unit(state, "A1")
    hits = [sum(m.value for m in H.attack_roll_modifiers(state, a1, unit(state, t), 1)) for t in ("D1", "D2", "D3")]
    assert hits == [1, 0, 0]


# §8.4 durations ----------------------------------------------------------------------------


def drawn(card: str, *, side: Side = A, units: tuple[str, ...] = MOVING, **kw: object) -> GameState:
    """CARD_RESOLUTION with ``card`` drawn by ``side``."""
    return play(start(units=units, phase="CARD_DRAW", draw=[card], side=side, **kw), DrawCard())


def sources(state: GameState) -> list[str]:
    return [e.source_card for e in state.effects]


def test_end_of_turn_effect_is_removed_at_this_turns_end_turn() -> None:
    state = play(drawn("rapid_supply_convoy#1"), PlayBonus(), NextPhase())
    assert sources(state) == ["rapid_supply_convoy"]
    assert moves_on_plain(state, "A1") == 6
    state = play(state, EndTurn())
    assert (state.turn, state.phase) == (2, Phase.CARD_DRAW)
    assert sources(state) == []
    assert [(e.kind, e.card) for e in state.events if e.kind is EventKind.EFFECT_EXPIRED] == [
        ("effect_expired", "rapid_supply_convoy")
    ]


def test_turns_2_effect_lasts_through_the_next_players_turn() -> None:
    state = play(drawn("troop_motivation#1"), PlayBonus(targets=("A1",)))
    state = finish_turn(state)
    assert state.turn == 2
    assert sources(state) == ["troop_motivation", "troop_motivation"]
    assert [e.remaining_turn_ends for e in state.effects] == [1, 1]
    state = finish_turn(state)
    assert state.turn == 3
    assert sources(state) == []


def test_turns_3_effect_lasts_through_the_controllers_next_turn() -> None:
    state = play(drawn("forward_supply_depot#1"), PlayBonus())
    for turn in (2, 3):
        state = finish_turn(state)
        assert state.turn == turn
        assert sources(state) == ["forward_supply_depot"]
    state = finish_turn(state)
    assert state.turn == 4
    assert sources(state) == []


def test_permanent_effect_is_never_removed() -> None:
    state = play(drawn("internal_discipline#1"), PlayBonus())
    for _ in range(4):
        state = finish_turn(state)
    assert state.turn == 5
    assert sources(state) == ["internal_discipline"]


def test_instant_effects_leave_no_record() -> None:
    state = play(drawn("special_supplies#1", units=("A7 M B2 hp=1", "D1 L B8")), PlayBonus(targets=("A7",)))
    assert unit(state, "A7").hp == 2
    assert state.effects == ()


def test_this_attack_effect_expires_on_resolve_and_skips_the_next_attack() -> None:
    state = start(
        units=("A1 L B2", "A2 L C2", "D9 M B3", "D10 M C3"),
        phase="ATTACK",
        draw=[],
        seed=seed_rolling(6, 5),
        tactics=(["precision_shot"], []),
    )
    state = play(
        state,
        DeclareAttack(attacker_id="A1", target_id="D9"),
        DeclareAttack(attacker_id="A2", target_id="D10"),
        NextPhase(),
        PlayTactic(card_id="precision_shot", targets=("A1",)),
        RollDice(),
        ResolveAttack(),
    )
    assert state.unit("D9") is None
    assert state.pending_attack is not None and state.attack_seq == 2
    state = play(state, RollDice(), ResolveAttack())
    assert unit(state, "D10").hp == 1  # one hit, normal damage


def test_this_attack_effect_is_dropped_with_a_pending_attack_at_end_turn() -> None:
    state = pending(("A1 L B2", "D9 M B3"), "A1", "D9", tactics=(["precision_shot"], []))
    state = play(state, PlayTactic(card_id="precision_shot", targets=("A1",)))
    assert sources(state) == ["precision_shot"]
    state = play(state, EndTurn())
    assert state.turn == 2
    assert sources(state) == []
    assert any(e.kind is EventKind.ATTACK_CANCELLED and e.unit == "A1" for e in state.events)


def test_until_phase_effect_is_removed_on_the_next_entry_into_that_phase() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units", expires="until_phase", until_phase=Phase.ATTACK),
        effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units", expires="until_phase", until_phase=Phase.MOVEMENT),
    )
    assert moves_on_plain(state, "A1") == 8
    state = play(state, NextPhase())
    assert state.phase is Phase.ATTACK
    assert [e.until_phase for e in state.effects] == [Phase.MOVEMENT]
    state = play(state, EndTurn(), NextPhase(), NextPhase())
    assert (state.turn, state.phase) == (2, Phase.MOVEMENT)
    assert state.effects == ()


def test_until_phase_turn_start_effect_survives_end_turn_and_goes_at_turn_start() -> None:
    state = with_effects(
        start(units=MOVING, phase="MOVEMENT", draw=[]),
        effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units", expires="until_phase", until_phase=Phase.TURN_START),
    )
    state = play(state, EndTurn())
    kinds = [(e.kind, e.detail) for e in state.events if e.kind in ("phase_entered", "effect_expired")]
    assert kinds == [
        ("phase_entered", "END_TURN"),
        ("phase_entered", "TURN_START"),
        ("effect_expired", None),
        ("phase_entered", "CARD_DRAW"),
    ]
    assert state.effects == ()


# golden rule examples ---------------------------------------------------------------------


@pytest.mark.parametrize(("natural", "modified", "outcome"), [(6, 4, "HIT"), (5, 3, "MISS")])
def test_rule_example_distance_2_against_urban(natural: int, modified: int, outcome: str) -> None:
    """§6.4: attacker at distance 2 (needs 4+) against URBAN: 6 → 4 HIT, 5 → 3 MISS."""
    state = pending(("A1 L B2", "D1 L B4"), "A1", "D1", natural, terrain=terrain_with(B4="u"))
    roll = play(state, RollDice()).last_roll
    assert roll is not None
    assert (roll.natural, roll.modified, roll.required, roll.distance, roll.outcome) == (
        natural,
        modified,
        4,
        2,
        outcome,
    )
    assert sorted(m.value for m in roll.modifiers) == [-1, -1]  # cover −1 and defense +1: URBAN costs 2


def test_rule_example_only_the_targets_cell_affects_the_roll() -> None:
    """§2.3 Decision: the attacker standing in URBAN changes nothing."""
    state = pending(("A1 L B2", "D1 L B4"), "A1", "D1", 4, terrain=terrain_with(B2="u"))
    roll = play(state, RollDice()).last_roll
    assert roll is not None
    assert (roll.modified, roll.outcome, roll.modifiers) == (4, "HIT", ())


def test_phase_expiry_reads_the_effects_of_each_state_it_is_given() -> None:
    from engine.cards.effects import expire_phase_effects

    waiting = Effect(
        effect_id=1, play_id=1, source_card="supply_interruption", source_kind="malus", controller=Side.ATTACKER,
        hook=Hook.MODIFY_MOVEMENT, op="add", value=-2, scope="own_units", conditions=Conditions(),
        expires="until_phase", until_phase=Phase.ATTACK,
    )  # fmt: skip
    lasting = msgspec.structs.replace(waiting, effect_id=2, play_id=2, expires="permanent", until_phase=None)
    base = start(phase="MOVEMENT")
    without = msgspec.structs.replace(base, effects=(lasting,))
    with_it = msgspec.structs.replace(base, effects=(lasting, waiting))
    assert expire_phase_effects(without, Phase.ATTACK) is without
    assert expire_phase_effects(with_it, Phase.ATTACK).effects == (lasting,)
    assert expire_phase_effects(with_it, Phase.MOVEMENT) is with_it
    assert expire_phase_effects(without, Phase.ATTACK) is without
