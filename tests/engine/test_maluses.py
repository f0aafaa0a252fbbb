"""Malus cards (rules §7.4), victims, cancelling (§7.6) and the deck's randomness."""

from __future__ import annotations

import msgspec
import pytest

from engine import (
    AcceptMalus,
    CancelMalus,
    ChooseMalusTargets,
    DeclareAttack,
    DiscardBonus,
    DrawCard,
    EndTurn,
    EventKind,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    Params,
    PlayBonus,
    PlayTactic,
    ResolveAttack,
    RollDice,
    Side,
    legal_actions,
    player_view,
    reduce,
)
from engine.cards.hooks import max_moves
from engine.movement.allowance import movement_allowance
from engine.rng import next_seed, shuffle
from engine.types import Phase
from tests.support import (
    attackers,
    finish_turn,
    mover_ids,
    play,
    replace,
    seed_rolling,
    snapshot,
    start,
    to_phase,
    unit,
)

A, D = Side.ATTACKER, Side.DEFENDER
FILLER = [
    "troop_motivation#4",
    "troop_motivation#5",
    "troop_motivation#6",
]  # neutral bonuses the next turns draw and discard


# helpers ---------------------------------------------------------------------------------


def drew(card: str, *, units: tuple[str, ...] = ("A1 L B2", "D1 L B8"), side: Side = A, **kw: object) -> GameState:
    """CARD_RESOLUTION with ``card`` just drawn by ``side``; neutral fillers follow in the pile."""
    return play(start(units=units, phase="CARD_DRAW", draw=[card, *FILLER], side=side, **kw), DrawCard())


def play_id_of(state: GameState) -> int:
    """Play id of the malus applied by the last action."""
    (event,) = [e for e in state.events if e.kind is EventKind.MALUS_APPLIED]
    assert event.value is not None
    return event.value


def cancels(state: GameState) -> list[CancelMalus]:
    return [a for a in legal_actions(state) if isinstance(a, CancelMalus)]


FORCES = ("A1 L B2", "A7 M E2", "A10 S H2", "D1 L B8", "D9 M E8")


# drawing a malus ---------------------------------------------------------------------------


def test_drawn_malus_is_shown_to_both_players() -> None:
    state = drew("blackout#1")
    (event,) = [e for e in state.events if e.kind is EventKind.CARD_DRAWN]
    assert (event.card, event.private_to) == ("blackout#1", None)
    view = player_view(state, D)
    assert view.pending_card is not None and view.pending_card.card == "blackout#1"
    assert [e.card for e in view.events if e.kind is EventKind.CARD_DRAWN] == ["blackout#1"]


def test_drawn_malus_must_be_accepted_or_cancelled_before_leaving_card_resolution() -> None:
    state = drew("ammunition_shortage#1", stored=(["electronic_countermeasures#1"], []))
    assert legal_actions(state) == [AcceptMalus(), CancelMalus(stored_index=0)]
    with pytest.raises(IllegalAction) as err:
        reduce(state, NextPhase())
    assert err.value.code == "precondition"


# §7.4 each malus ---------------------------------------------------------------------------


def test_supply_interruption_cuts_the_drawers_movement_by_unit_type() -> None:
    state = play(drew("supply_interruption#1", units=FORCES), AcceptMalus())
    allowances = [movement_allowance(state, unit(state, u)) for u in ("A1", "A7", "A10", "D1", "D9")]
    assert allowances == [2, 4, 4, 4, 8]  # half-points: −1 MP light/special, −2 MP mechanized, enemy untouched
    state = play(state, NextPhase(), EndTurn())
    assert state.effects == ()


def test_malus_drawn_by_the_defender_hurts_the_defender() -> None:
    state = play(drew("supply_interruption#1", units=FORCES, side=D), AcceptMalus())
    allowances = [movement_allowance(state, unit(state, u)) for u in ("A1", "A7", "D1", "D9")]
    assert allowances == [4, 8, 2, 4]
    assert [e.controller for e in state.effects] == [D, D]


def test_operational_funding_cut_blocks_logistics_bonuses_for_effect_and_cancel() -> None:
    state = drew("operational_funding_cut#1", stored=(["rapid_supply_convoy#1", "advanced_recon#1"], []))
    state = play(state, AcceptMalus())
    play_id = play_id_of(state)
    actions = legal_actions(state)
    assert PlayBonus(stored_index=0) not in actions
    assert PlayBonus(stored_index=1) in actions
    assert cancels(state) == [CancelMalus(stored_index=1, malus_play_id=play_id)]
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus(stored_index=0))
    assert err.value.code == "card_blocked"
    with pytest.raises(IllegalAction) as err:
        reduce(state, CancelMalus(stored_index=0, malus_play_id=play_id))
    assert err.value.code == "cannot_cancel"


def test_operational_funding_cut_lasts_this_turn_only() -> None:
    state = drew("operational_funding_cut#1", stored=(["rapid_supply_convoy#1"], []))
    state = finish_turn(play(state, AcceptMalus()))
    assert state.effects == ()
    state = finish_turn(state)  # DEFENDER's turn
    state = to_phase(state, Phase.MOVEMENT)
    assert state.turn == 3
    assert PlayBonus(stored_index=0) in legal_actions(state)


def test_enemy_disinformation_victim_is_chosen_by_the_opponent_in_unit_order() -> None:
    state = play(drew("enemy_disinformation#1", units=("A2 L B2", "A10 S H2", "A1 L E2", "D1 L B8")), AcceptMalus())
    assert state.to_act is D
    assert legal_actions(state) == [
        ChooseMalusTargets(unit_ids=("A1",)),
        ChooseMalusTargets(unit_ids=("A2",)),
        ChooseMalusTargets(unit_ids=("A10",)),
    ]
    assert (state.pending_card is not None, state.discard_pile) == (True, ())  # still pending until chosen
    state = play(state, ChooseMalusTargets(unit_ids=("A2",)))
    assert state.to_act is A
    assert (state.pending_card, state.discard_pile) == (None, ("enemy_disinformation#1",))
    assert [(e.kind, e.unit) for e in state.events if e.kind is EventKind.MALUS_VICTIM] == [("malus_victim", "A2")]
    state = play(state, NextPhase())
    assert mover_ids(state) == {"A1", "A10"}


def test_only_the_choosers_choice_is_legal_while_victims_are_awaited() -> None:
    state = play(
        drew("enemy_disinformation#1", stored=(["electronic_countermeasures#1"], [])),
        AcceptMalus(),
    )
    before = snapshot(state)
    for action in (NextPhase(), AcceptMalus(), CancelMalus(stored_index=0)):
        with pytest.raises(IllegalAction) as err:
            reduce(state, action)
        assert err.value.code == "wrong_phase"
    assert snapshot(state) == before
    assert legal_actions(state) == [ChooseMalusTargets(unit_ids=("A1",))]


def test_defender_drawn_targeted_malus_is_chosen_by_the_attacker() -> None:
    state = play(drew("enemy_disinformation#1", side=D, units=("A1 L B2", "D1 L B8", "D2 L C8")), AcceptMalus())
    assert state.to_act is A
    assert legal_actions(state) == [ChooseMalusTargets(unit_ids=("D1",)), ChooseMalusTargets(unit_ids=("D2",))]


def test_ammunition_shortage_lowers_the_drawers_attack_rolls_this_turn() -> None:
    state = play(drew("ammunition_shortage#1", units=("A1 L B2", "D1 L B3", "D2 L J10")), AcceptMalus())
    state = to_phase(state, Phase.ATTACK)
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase())
    state = play(state, RollDice())
    assert state.last_roll is not None
    assert [(m.source, m.value) for m in state.last_roll.modifiers] == [("ammunition_shortage", -1)]
    state = play(state, ResolveAttack())
    state = finish_turn(state)
    assert state.effects == ()


def test_mechanical_failure_victims_are_mechanized_units_that_then_cannot_move_or_attack() -> None:
    units = ("A1 L B2", "A7 M C2", "A8 M D2", "D1 L C4")
    state = play(drew("mechanical_failure#1", units=units), AcceptMalus())
    assert legal_actions(state) == [ChooseMalusTargets(unit_ids=("A7",)), ChooseMalusTargets(unit_ids=("A8",))]
    state = play(state, ChooseMalusTargets(unit_ids=("A7",)), NextPhase())
    assert mover_ids(state) == {"A1", "A8"}
    state = play(state, NextPhase())
    assert attackers(state) == {"A1", "A8"}


def test_targeted_malus_without_eligible_victims_fizzles() -> None:
    state = play(drew("mechanical_failure#1"), AcceptMalus())
    assert state.pending_card is None
    assert state.effects == ()
    assert state.discard_pile == ("mechanical_failure#1",)
    assert state.to_act is A
    assert [e.kind for e in state.events if e.kind.startswith("malus")] == ["malus_fizzled"]
    assert legal_actions(state) == [NextPhase()]


def test_disrupted_supply_lines_victims_are_exactly_two_in_unit_order() -> None:
    state = play(drew("disrupted_supply_lines#1", units=("A2 L B2", "A10 S H2", "A1 L E2", "D1 L B8")), AcceptMalus())
    assert legal_actions(state) == [
        ChooseMalusTargets(unit_ids=("A1", "A2")),
        ChooseMalusTargets(unit_ids=("A1", "A10")),
        ChooseMalusTargets(unit_ids=("A2", "A10")),
    ]
    for wrong in (("A2", "A1"), ("A1",), ("A1", "A2", "A10"), ("A1", "D1"), ("A1", "A1")):
        with pytest.raises(IllegalAction) as err:
            reduce(state, ChooseMalusTargets(unit_ids=wrong))
        assert err.value.code == "bad_target"


def test_disrupted_supply_lines_takes_the_only_unit_when_one_is_eligible() -> None:
    state = play(drew("disrupted_supply_lines#1"), AcceptMalus())
    assert legal_actions(state) == [ChooseMalusTargets(unit_ids=("A1",))]


def test_disrupted_supply_lines_cuts_movement_and_resupply_through_the_drawers_next_turn() -> None:
    units = ("A1 L B2", "A7 M E2 hp=1", "A8 M H2 hp=1", "D1 L B8")
    state = drew("disrupted_supply_lines#1", units=units, stored=(["special_supplies#1"], []))
    state = play(state, AcceptMalus(), ChooseMalusTargets(unit_ids=("A1", "A7")))
    assert [movement_allowance(state, unit(state, u)) for u in ("A1", "A7", "A8")] == [2, 6, 8]
    assert [a for a in legal_actions(state) if isinstance(a, PlayBonus)] == [PlayBonus(stored_index=0, targets=("A8",))]
    for turn in (2, 3):
        state = finish_turn(state)
        assert (state.turn, len(state.effects)) == (turn, 2)
    state = finish_turn(state)
    assert state.effects == ()


def test_un_ceasefire_stops_both_sides_through_the_opponents_next_turn() -> None:
    state = play(drew("un_ceasefire#1", units=("A1 L B2", "D1 L B3")), AcceptMalus())
    assert attackers(to_phase(state, Phase.ATTACK)) == set()
    state = to_phase(finish_turn(state), Phase.ATTACK)
    assert (state.turn, state.active, attackers(state)) == (2, D, set())
    state = to_phase(finish_turn(state), Phase.ATTACK)
    assert (state.turn, attackers(state)) == (3, {"A1"})


def test_international_pressure_stops_only_the_drawers_attacks_this_turn() -> None:
    state = play(drew("international_pressure#1", units=("A1 L B2", "D1 L B3")), AcceptMalus())
    assert attackers(to_phase(state, Phase.ATTACK)) == set()
    state = to_phase(finish_turn(state), Phase.ATTACK)
    assert (state.turn, attackers(state)) == (2, {"D1"})


def test_severe_international_sanctions_block_special_bonuses_through_the_drawers_next_turn() -> None:
    stored = ["electronic_countermeasures#1", "rapid_supply_convoy#1"]
    state = play(drew("severe_international_sanctions#1", stored=(stored, [])), AcceptMalus())
    play_id = play_id_of(state)
    assert cancels(state) == []  # ECM is special-class; the convoy's generic power cannot cancel a special malus
    with pytest.raises(IllegalAction) as err:
        reduce(state, CancelMalus(stored_index=0, malus_play_id=play_id))
    assert err.value.code == "cannot_cancel"
    state = finish_turn(finish_turn(state))
    state = to_phase(state, Phase.MOVEMENT)
    assert state.turn == 3
    assert cancels(state) == []
    assert [e.remaining_turn_ends for e in state.effects] == [1]
    state = finish_turn(state)
    assert state.effects == ()


def test_severe_international_sanctions_block_international_aid() -> None:
    # DEFENDER destroys A2 in turn 2; ATTACKER draws Sanctions in turn 3 holding International Aid
    state = start(
        units=("A1 L B2", "A2 L E3", "D1 L E4"),
        phase="ATTACK",
        side=D,
        draw=["severe_international_sanctions#1"],
        stored=(["international_aid#1"], []),
        seed=seed_rolling(6),
    )
    state = play(state, DeclareAttack(attacker_id="D1", target_id="A2"), NextPhase())
    state = play(state, RollDice(), ResolveAttack())
    assert state.unit("A2") is None
    state = play(state, EndTurn(), DrawCard())
    aid = PlayBonus(stored_index=0, targets=("A2",), params=Params(cell="A1"))
    state = play(state, AcceptMalus())
    assert aid not in legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        reduce(state, aid)
    assert err.value.code == "card_blocked"


def test_logistical_blockade_caps_moves_at_two_even_with_advanced_recon() -> None:
    units = ("A1 L B2", "A2 L C2", "A3 L D2", "D1 L B8")
    state = drew("logistical_blockade#1", units=units, stored=(["advanced_recon#1"], []))
    state = play(state, AcceptMalus(), PlayBonus(stored_index=0), NextPhase())
    assert max_moves(state, A) == 2
    state = play(state, MoveUnit(unit_id="A1", to="B3"), MoveUnit(unit_id="A2", to="C3"))
    assert mover_ids(state) == set()
    with pytest.raises(IllegalAction) as err:
        reduce(state, MoveUnit(unit_id="A3", to="D3"))
    assert err.value.code == "move_limit"


def test_blackout_blocks_the_drawers_tactics_and_priority_through_the_opponents_turn() -> None:
    state = drew(
        "blackout#1", units=("A7 M B2", "D9 M B3"), tactics=(("precision_shot", "dense_fog"), ("precision_shot",))
    )
    state = to_phase(play(state, AcceptMalus()), Phase.ATTACK)
    state = play(state, DeclareAttack(attacker_id="A7", target_id="D9"), NextPhase())
    assert [a for a in legal_actions(state) if isinstance(a, PlayTactic)] == []
    state = to_phase(finish_turn(state), Phase.ATTACK)
    assert state.turn == 2
    state = play(state, DeclareAttack(attacker_id="D9", target_id="A7"), NextPhase())
    assert state.to_act is D  # ATTACKER would hold priority with Dense Fog, but is blacked out
    assert PlayTactic(card_id="precision_shot", targets=("D9",)) in legal_actions(state)
    state = to_phase(finish_turn(state), Phase.ATTACK)
    state = play(state, DeclareAttack(attacker_id="A7", target_id="D9"), NextPhase())
    assert state.turn == 3
    assert PlayTactic(card_id="precision_shot", targets=("A7",)) in legal_actions(state)


# §7.6 cancelling ---------------------------------------------------------------------------


def test_cancelling_the_drawn_malus_discards_the_spent_bonus_then_the_malus() -> None:
    stored = ["artillery_support#1", "rapid_supply_convoy#1", "advanced_recon#1"]
    state = drew("ammunition_shortage#1", stored=(stored, []))
    assert cancels(state) == [CancelMalus(stored_index=1), CancelMalus(stored_index=2)]
    state = play(state, CancelMalus(stored_index=1))
    assert state.pending_card is None
    assert state.player(A).stored == ("artillery_support#1", "advanced_recon#1")
    assert state.discard_pile == ("rapid_supply_convoy#1", "ammunition_shortage#1")
    assert state.effects == ()  # neither the malus nor the spent convoy does anything
    assert [(e.kind, e.card, e.detail) for e in state.events if e.kind is EventKind.MALUS_CANCELLED] == [
        ("malus_cancelled", "ammunition_shortage#1", "rapid_supply_convoy#1")
    ]


def test_generic_cancel_power_cannot_cancel_a_special_malus() -> None:
    state = drew("international_pressure#1", stored=(["rapid_supply_convoy#1", "electronic_countermeasures#1"], []))
    assert cancels(state) == [CancelMalus(stored_index=1)]
    with pytest.raises(IllegalAction) as err:
        reduce(state, CancelMalus(stored_index=0))
    assert err.value.code == "cannot_cancel"


def test_cancelling_an_applied_malus_removes_all_its_effects() -> None:
    state = drew("supply_interruption#1", units=FORCES, stored=(["advanced_recon#1"], []))
    state = play(state, AcceptMalus(), NextPhase())
    play_id = state.effects[0].play_id
    assert len(state.effects) == 2
    assert cancels(state) == [CancelMalus(stored_index=0, malus_play_id=play_id)]
    state = play(state, CancelMalus(stored_index=0, malus_play_id=play_id))
    assert state.effects == ()
    assert state.player(A).stored == ()
    assert state.discard_pile == ("supply_interruption#1", "advanced_recon#1")
    assert movement_allowance(state, unit(state, "A7")) == 8


def test_applied_malus_affecting_both_sides_can_be_cancelled_by_the_opponent() -> None:
    state = drew("un_ceasefire#1", units=("A1 L B2", "D1 L B3"), stored=([], ["electronic_countermeasures#1"]))
    state = play(state, AcceptMalus())
    play_id = play_id_of(state)
    state = to_phase(finish_turn(state), Phase.MOVEMENT)
    assert state.active is D
    assert cancels(state) == [CancelMalus(stored_index=0, malus_play_id=play_id)]
    state = play(state, CancelMalus(stored_index=0, malus_play_id=play_id), NextPhase())
    assert attackers(state) == {"D1"}


def test_applied_malus_affecting_only_the_drawer_cannot_be_cancelled_by_the_opponent() -> None:
    state = drew("blackout#1", stored=([], ["electronic_countermeasures#1"]))
    state = to_phase(finish_turn(play(state, AcceptMalus())), Phase.MOVEMENT)
    assert (state.active, [e.source_card for e in state.effects]) == (D, ["blackout"])
    assert cancels(state) == []


def test_applied_malus_cannot_be_cancelled_while_a_drawn_card_is_pending() -> None:
    state = drew("disrupted_supply_lines#1", stored=(["advanced_recon#1"], []))
    state = play(state, AcceptMalus(), ChooseMalusTargets(unit_ids=("A1",)))
    play_id = play_id_of(state)
    state = finish_turn(finish_turn(state))
    state = play(state, DrawCard())
    assert state.turn == 3 and state.pending_card is not None
    assert cancels(state) == []
    state = play(state, DiscardBonus())
    assert cancels(state) == [CancelMalus(stored_index=0, malus_play_id=play_id)]


def test_applied_malus_cannot_be_cancelled_in_dice_resolution() -> None:
    state = drew("ammunition_shortage#1", units=("A1 L B2", "D1 L B3"), stored=(["advanced_recon#1"], []))
    state = to_phase(play(state, AcceptMalus()), Phase.ATTACK)
    assert len(cancels(state)) == 1
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase())
    assert cancels(state) == []


# the deck's randomness ---------------------------------------------------------------------


def test_empty_draw_pile_recycles_the_discard_pile_consuming_n_minus_1_steps() -> None:
    state = start(phase="CARD_DRAW", draw=[], seed=12345)
    discard = ("air_cover#1", "blackout#1", "advanced_recon#1", "un_ceasefire#1")
    state = msgspec.structs.replace(state, draw_pile=(), discard_pile=discard)
    expected_pile, _ = shuffle(discard, state.rng)
    expected_rng = state.rng
    for _ in range(len(discard) - 1):
        expected_rng = next_seed(expected_rng)
    state = play(state, DrawCard())
    assert state.pending_card is not None and state.pending_card.card == expected_pile[0]
    assert state.draw_pile == expected_pile[1:]
    assert state.discard_pile == ()
    assert state.rng == expected_rng
    assert [(e.kind, e.value) for e in state.events if e.kind is EventKind.DECK_RECYCLED] == [("deck_recycled", 4)]


def test_nothing_to_draw_lets_card_draw_be_left_with_nothing_drawn() -> None:
    state = start(phase="CARD_DRAW", draw=[])
    assert legal_actions(state) == [NextPhase()]
    state = play(state, NextPhase())
    assert (state.phase, state.pending_card) == (Phase.CARD_RESOLUTION, None)


@pytest.mark.parametrize("left", [0, 1, 2, 5])
def test_end_of_turn_shuffle_consumes_n_minus_1_steps(left: int) -> None:
    pile = ["air_cover#1", "air_cover#2", "troop_motivation#1", "blackout#1", "un_ceasefire#1", "advanced_recon#1"]
    state = start(phase="MOVEMENT", draw=pile[:left], seed=777)
    expected_pile, _ = shuffle(tuple(pile[:left]), state.rng)
    expected_rng = state.rng
    for _ in range(max(0, left - 1)):
        expected_rng = next_seed(expected_rng)
    state = play(state, EndTurn())
    assert state.draw_pile == expected_pile
    assert state.rng == expected_rng


def test_the_maluses_offered_for_cancelling_follow_the_effects_and_side_of_each_position() -> None:
    stored = (["advanced_recon#1"], ["advanced_recon#2"])
    state = play(drew("supply_interruption#1", units=FORCES, stored=stored), AcceptMalus(), NextPhase())
    play_id = state.effects[0].play_id
    cleared = replace(state, effects=())  # the same side and hands, no malus left
    assert cancels(state) == [CancelMalus(stored_index=0, malus_play_id=play_id)]
    assert cancels(cleared) == []
    assert cancels(replace(cleared, effects=state.effects)) == [CancelMalus(stored_index=0, malus_play_id=play_id)]
    assert cancels(replace(state, active=D, to_act=D)) == []  # the drawer's malus does not hurt the defender
