"""Combat (§6): declaring, the hit table, modifiers, damage and the attack queue."""

from __future__ import annotations

import pytest

from engine import (
    DeclareAttack,
    EndTurn,
    IllegalAction,
    MoveUnit,
    NextPhase,
    Phase,
    ResolveAttack,
    RollDice,
    Side,
    WithdrawAttack,
    legal_actions,
    new_game,
    reduce,
)
from engine.rng import roll_d6
from tests.support import abilities, config, play, seed_rolling, snapshot, start, unit


def declarations(state: object) -> set[tuple[str, str]]:
    return {(a.attacker_id, a.target_id) for a in legal_actions(state) if isinstance(a, DeclareAttack)}  # type: ignore[arg-type]


def attack(
    units: tuple[str, ...], natural: int, *, terrain: str | None = None, target: str = "D1", attacker: str = "A1"
) -> object:
    """Declare attacker → target, enter DICE_RESOLUTION and roll ``natural``."""
    kwargs = {"terrain": terrain} if terrain else {}
    state = start(units=units, phase="ATTACK", seed=seed_rolling(natural), draw=[], **kwargs)
    return play(state, DeclareAttack(attacker_id=attacker, target_id=target), NextPhase(), RollDice())


def test_attacks_reach_exactly_the_unit_range_in_chebyshev_distance() -> None:
    state = start(units=("A1 L A1", "A7 M J1", "D1 L C3", "D2 L A4", "D3 L J4", "D4 L G5"), phase="ATTACK")
    assert declarations(state) == {("A1", "D1"), ("A7", "D3")}  # A1 range 2 reaches C3 not A4; A7 range 3


@pytest.mark.parametrize(("distance", "needed"), [(1, 3), (2, 4), (3, 5), (4, 6)])
def test_required_roll_by_distance(distance: int, needed: int) -> None:
    target = f"{chr(65 + distance)}1"
    hit = attack(("A10 S A1", f"D1 M {target}"), needed, attacker="A10")
    miss = attack(("A10 S A1", f"D1 M {target}"), needed - 1, attacker="A10")
    assert hit.last_roll.required == needed and hit.last_roll.outcome == "HIT"  # type: ignore[attr-defined]
    assert miss.last_roll.outcome == "MISS"  # type: ignore[attr-defined]


def test_urban_target_worked_example() -> None:
    terrain = "\n".join([".........."] * 2 + ["..u......."] + [".........."] * 7)
    six = attack(("A1 L A1", "D1 M C3"), 6, terrain=terrain)
    five = attack(("A1 L A1", "D1 M C3"), 5, terrain=terrain)
    assert (six.last_roll.modified, six.last_roll.outcome) == (4, "HIT")  # type: ignore[attr-defined]
    assert (five.last_roll.modified, five.last_roll.outcome) == (3, "MISS")  # type: ignore[attr-defined]
    sources = {m.source: m.value for m in six.last_roll.modifiers}  # type: ignore[attr-defined]
    assert sources == {"terrain_cover:URBAN": -1, "terrain_defense:URBAN": -1}


def test_only_the_targets_terrain_counts() -> None:
    terrain = "\n".join(["uh........"] + [".........."] * 9)
    state = attack(("A1 L A1", "D1 M B3"), 4, terrain=terrain)
    assert state.last_roll.modified == 4 and state.last_roll.modifiers == ()  # type: ignore[attr-defined]


def test_modified_roll_is_clamped_to_one_through_six() -> None:
    terrain = "\n".join([".........."] * 2 + [".f........"] + [".........."] * 7)
    low = attack(("A1 L A1", "D1 M B3"), 1, terrain=terrain)
    assert low.last_roll.modified == 1  # type: ignore[attr-defined]
    rule = {"id": "ambush", "hook": "modify_attack_roll", "op": "add", "value": 4}
    state = new_game(
        config(unit_specs=("A1 L A1", "D1 M B2"), phase="ATTACK", seed=seed_rolling(6), draw=[], rules=abilities(rule))
    )
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase(), RollDice())
    assert state.last_roll.modified == 6 and {m.source for m in state.last_roll.modifiers} == {"ability:rules.ambush"}


def test_combat_abilities_match_only_their_conditions() -> None:
    rule = {
        "id": "armour",
        "hook": "modify_attack_roll",
        "op": "add",
        "value": -2,
        "when": {"if": "target", "is": {"if": "type", "is": ["MECHANIZED"]}},
    }
    for target, expected in (("D1 M B2", 2), ("D1 L B2", 4)):
        state = new_game(
            config(unit_specs=("A1 L A1", target), phase="ATTACK", seed=seed_rolling(4), draw=[], rules=abilities(rule))
        )
        state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase(), RollDice())
        assert state.last_roll.modified == expected


def test_a_hit_damages_a_mechanized_unit_which_survives_as_damaged() -> None:
    state = play(attack(("A1 L A1", "D1 M B2"), 6), ResolveAttack())
    assert unit(state, "D1").hp == 1
    assert [e.kind for e in state.events if e.kind.startswith(("attack_", "unit_"))] == ["attack_hit", "unit_damaged"]
    again = play(attack(("A1 L A1", "D1 M B2 hp=1"), 6), ResolveAttack())
    assert again.unit("D1") is None or again.phase is Phase.VICTORY


def test_destroyed_units_go_to_their_owners_destroyed_list() -> None:
    state = play(attack(("A1 L A1", "D1 L B2", "D2 L J10"), 6), ResolveAttack())
    assert state.unit("D1") is None
    destroyed = state.player(Side.DEFENDER).destroyed
    assert [u.id for u in destroyed] == ["D1"] and destroyed[0].hp == 0 and destroyed[0].cell is None


def test_a_miss_changes_no_hp() -> None:
    state = play(attack(("A1 L A1", "D1 M B2"), 1), ResolveAttack())
    assert unit(state, "D1").hp == 2 and state.last_roll is None


def test_destroyed_targets_skip_later_queued_attacks_without_rolling() -> None:
    state = start(units=("A1 L A1", "A2 L B1", "D1 L B2", "D2 L J10"), phase="ATTACK", seed=seed_rolling(6), draw=[])
    state = play(
        state,
        DeclareAttack(attacker_id="A1", target_id="D1"),
        DeclareAttack(attacker_id="A2", target_id="D1"),
        NextPhase(),
        RollDice(),
    )
    rng_before = play(state, ResolveAttack()).rng
    after = play(state, ResolveAttack())
    assert after.pending_attack is None and after.rng == rng_before == state.rng
    assert [(e.kind, e.unit) for e in after.events if e.kind == "attack_skipped"] == [("attack_skipped", "A2")]


def test_queue_resolves_in_declaration_order() -> None:
    state = start(units=("A1 L A1", "A2 L B1", "D1 M B2", "D2 M C2"), phase="ATTACK")
    state = play(
        state,
        DeclareAttack(attacker_id="A2", target_id="D2"),
        DeclareAttack(attacker_id="A1", target_id="D1"),
        NextPhase(),
    )
    assert (state.pending_attack.attacker, state.attack_seq) == ("A2", 1)  # type: ignore[union-attr]
    state = play(state, RollDice(), ResolveAttack())
    assert (state.pending_attack.attacker, state.attack_seq) == ("A1", 2)  # type: ignore[union-attr]


def test_special_units_cannot_fire_after_moving() -> None:
    state = start(units=("A10 S A1", "D1 L D4"), phase="MOVEMENT")
    assert ("A10", "D1") in declarations(play(state, NextPhase()))
    moved = play(state, MoveUnit(unit_id="A10", to="A2"), NextPhase())
    assert ("A10", "D1") not in declarations(moved)
    with pytest.raises(
        IllegalAction, match=r"A10 may not attack D1 now .Special unit: moved this turn and cannot also fire"
    ):
        reduce(moved, DeclareAttack(attacker_id="A10", target_id="D1"))


def test_other_units_may_move_and_fire() -> None:
    state = start(units=("A7 M A1", "D1 L D4"), phase="MOVEMENT")
    assert ("A7", "D1") in declarations(play(state, MoveUnit(unit_id="A7", to="B2"), NextPhase()))


def test_each_unit_declares_once_and_withdrawing_frees_it() -> None:
    state = play(
        start(units=("A1 L A1", "D1 L B2", "D2 L A2"), phase="ATTACK"), DeclareAttack(attacker_id="A1", target_id="D1")
    )
    assert unit(state, "A1").has_attacked and declarations(state) == set()
    with pytest.raises(IllegalAction, match="A1 has already attacked this turn"):
        reduce(state, DeclareAttack(attacker_id="A1", target_id="D2"))
    state = play(state, WithdrawAttack(attacker_id="A1"))
    assert not unit(state, "A1").has_attacked and state.attack_queue == ()
    assert declarations(state) == {("A1", "D1"), ("A1", "D2")}


def test_at_most_five_declarations_per_turn() -> None:
    attackers = tuple(f"A{i + 1} L {chr(65 + i)}1" for i in range(6))
    state = start(units=(*attackers, "D1 M C2", "D2 M D2"), phase="ATTACK")
    for i in range(5):
        state = play(state, DeclareAttack(attacker_id=f"A{i + 1}", target_id="D1" if i < 3 else "D2"))
    assert declarations(state) == set()
    with pytest.raises(IllegalAction, match="5 attacks are already declared") as caught:
        reduce(state, DeclareAttack(attacker_id="A6", target_id="D2"))
    assert caught.value.code == "attack_limit"
    assert ("A6", "D2") in declarations(play(state, WithdrawAttack(attacker_id="A1")))


def test_a_turn_allows_as_many_withdrawals_as_declarations_may_be_queued() -> None:
    state = start(units=("A1 L A1", "D1 L B2", "D2 L A2"), phase="ATTACK")
    for target in ("D1", "D2", "D1", "D2", "D1"):
        state = play(state, DeclareAttack(attacker_id="A1", target_id=target), WithdrawAttack(attacker_id="A1"))
    assert state.withdrawals == 5
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D2"))  # a withdrawn unit may declare again
    assert WithdrawAttack(attacker_id="A1") not in legal_actions(state)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="5 declarations have already been withdrawn this turn") as caught:
        reduce(state, WithdrawAttack(attacker_id="A1"))
    assert caught.value.code == "withdraw_limit"
    assert snapshot(state) == before


def test_withdrawals_are_counted_per_turn() -> None:
    state = start(units=("A1 L A1", "D1 L B2"), phase="ATTACK", draw=[])
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), WithdrawAttack(attacker_id="A1"))
    assert state.withdrawals == 1
    state = play(state, EndTurn())
    assert (state.active, state.withdrawals) == (Side.DEFENDER, 0)


def test_declare_rejections_name_the_problem() -> None:
    state = start(units=("A1 L A1", "A2 L B1", "D1 L A5", "D2 L B2"), phase="ATTACK")
    before = snapshot(state)
    cases = [
        (DeclareAttack(attacker_id="A9", target_id="D1"), "there is no unit A9"),
        (DeclareAttack(attacker_id="D2", target_id="A1"), "D2 is not a unit of the active player"),
        (DeclareAttack(attacker_id="A1", target_id="A2"), "A2 is not an enemy of A1"),
        (DeclareAttack(attacker_id="A1", target_id="D1"), r"D1 at A5 is out of range of A1 \(distance 4, range 2\)"),
        (WithdrawAttack(attacker_id="A1"), "A1 has no declared attack to withdraw"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            reduce(state, action)
    with pytest.raises(IllegalAction) as caught:
        reduce(state, WithdrawAttack(attacker_id="A2"))
    assert caught.value.code == "not_declared"
    assert snapshot(state) == before


def test_end_turn_drops_unresolved_attacks() -> None:
    state = start(units=("A1 L A1", "A2 L B1", "D1 M B2", "D2 M C2"), phase="ATTACK")
    state = play(
        state,
        DeclareAttack(attacker_id="A1", target_id="D1"),
        DeclareAttack(attacker_id="A2", target_id="D2"),
        NextPhase(),
        EndTurn(),
    )
    kinds = [e.kind for e in state.events]
    assert "attack_cancelled" in kinds and kinds.count("attack_dropped") == 1
    assert (state.pending_attack, state.attack_queue, state.active) == (None, (), Side.DEFENDER)


def test_rolling_consumes_exactly_one_step() -> None:
    state = start(units=("A1 L A1", "D1 M B2"), phase="ATTACK", seed=77)
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase())
    natural, after = roll_d6(state.rng)
    rolled = play(state, RollDice())
    assert (rolled.last_roll.natural, rolled.rng) == (natural, after)  # type: ignore[union-attr]
