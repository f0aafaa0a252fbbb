"""Phase gating (§4.5), phase preconditions and turn flow (§4.1, §4.2)."""

from __future__ import annotations

import pytest

from engine import (
    AcceptMalus,
    Action,
    AutoDeploy,
    CancelMalus,
    ChooseMalusTargets,
    ConfirmDeployment,
    DeclareAttack,
    DeployUnit,
    DiscardBonus,
    DrawCard,
    EndTurn,
    IllegalAction,
    MoveUnit,
    NextPhase,
    PassReaction,
    Phase,
    PlayBonus,
    PlayTactic,
    ResolveAttack,
    RollDice,
    Side,
    StoreBonus,
    WithdrawAttack,
    legal_actions,
    reduce,
)
from tests.support import play, replace, snapshot, start, unit

SAMPLE: dict[str, Action] = {
    "NEXT_PHASE": NextPhase(),
    "END_TURN": EndTurn(),
    "DRAW_CARD": DrawCard(),
    "PLAY_BONUS": PlayBonus(stored_index=0),
    "STORE_BONUS": StoreBonus(),
    "DISCARD_BONUS": DiscardBonus(),
    "ACCEPT_MALUS": AcceptMalus(),
    "CHOOSE_MALUS_TARGETS": ChooseMalusTargets(unit_ids=("A1",)),
    "CANCEL_MALUS": CancelMalus(stored_index=0),
    "MOVE_UNIT": MoveUnit(unit_id="A1", to="B3"),
    "DECLARE_ATTACK": DeclareAttack(attacker_id="A1", target_id="D1"),
    "WITHDRAW_ATTACK": WithdrawAttack(attacker_id="A1"),
    "ROLL_DICE": RollDice(),
    "RESOLVE_ATTACK": ResolveAttack(),
    "PLAY_TACTIC": PlayTactic(card_id="dense_fog"),
    "PASS_REACTION": PassReaction(),
    "DEPLOY_UNIT": DeployUnit(unit_id="A1", cell="A1"),
    "AUTO_DEPLOY": AutoDeploy(),
    "CONFIRM_DEPLOYMENT": ConfirmDeployment(),
}

# The rules' §4.5 table restated: which action types each resting phase may allow for the active player.
GATING = {
    "CARD_DRAW": {"NEXT_PHASE", "DRAW_CARD"},
    "CARD_RESOLUTION": {"NEXT_PHASE", "PLAY_BONUS", "STORE_BONUS", "DISCARD_BONUS", "ACCEPT_MALUS", "CANCEL_MALUS"},
    "MOVEMENT": {"NEXT_PHASE", "END_TURN", "PLAY_BONUS", "CANCEL_MALUS", "MOVE_UNIT", "PLAY_TACTIC"},
    "ATTACK": {"NEXT_PHASE", "END_TURN", "PLAY_BONUS", "CANCEL_MALUS", "DECLARE_ATTACK", "WITHDRAW_ATTACK"},
    "DICE_RESOLUTION": {"NEXT_PHASE", "END_TURN", "ROLL_DICE", "RESOLVE_ATTACK", "PLAY_TACTIC"},
}


@pytest.mark.parametrize(
    ("phase", "tag"), [(phase, tag) for phase, allowed in GATING.items() for tag in SAMPLE if tag not in allowed]
)
def test_action_types_outside_their_phases_are_rejected_unchanged(phase: str, tag: str) -> None:
    state = start(phase=phase, stored=(["artillery_support#1"], []))
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=f"{tag} is not legal in phase {phase}") as caught:
        reduce(state, SAMPLE[tag])
    assert caught.value.code == "wrong_phase"
    assert snapshot(state) == before


@pytest.mark.parametrize("phase", list(GATING))
def test_legal_actions_only_list_types_the_phase_allows(phase: str) -> None:
    state = start(units=("A1 L B2", "A7 M C2", "D1 L B4"), phase=phase, stored=(["artillery_support#1"], []))
    listed = {a.__struct_config__.tag for a in legal_actions(state)}
    assert listed <= GATING[phase]
    assert listed  # someone can always act


def test_draw_card_moves_to_card_resolution_and_a_second_draw_is_rejected() -> None:
    state = play(start(phase="CARD_DRAW", draw=["air_cover#1", "air_cover#2"]), DrawCard())
    assert state.phase is Phase.CARD_RESOLUTION and state.drawn_this_turn
    assert state.pending_card is not None and state.pending_card.card == "air_cover#1"
    with pytest.raises(IllegalAction, match="DRAW_CARD is not legal in phase CARD_RESOLUTION"):
        reduce(state, DrawCard())


def test_next_phase_from_card_draw_needs_an_empty_deck() -> None:
    state = start(phase="CARD_DRAW", draw=["air_cover#1"])
    assert legal_actions(state) == [DrawCard()]
    with pytest.raises(IllegalAction, match="a card is available"):
        reduce(state, NextPhase())
    empty = start(phase="CARD_DRAW", draw=[])
    assert legal_actions(empty) == [NextPhase()]
    after = play(empty, NextPhase())
    assert after.phase is Phase.CARD_RESOLUTION and after.pending_card is None and not after.drawn_this_turn


def test_next_phase_waits_for_the_drawn_card() -> None:
    state = play(start(phase="CARD_DRAW", draw=["air_cover#1"]), DrawCard())
    assert NextPhase() not in legal_actions(state)
    with pytest.raises(IllegalAction, match="must be dealt with"):
        reduce(state, NextPhase())
    assert play(state, DiscardBonus(), NextPhase()).phase is Phase.MOVEMENT


def test_end_turn_is_not_legal_while_a_card_is_pending() -> None:
    state = play(start(phase="CARD_DRAW", draw=["air_cover#1"]), DrawCard())
    with pytest.raises(IllegalAction, match="END_TURN is not legal in phase CARD_RESOLUTION"):
        reduce(state, EndTurn())


def test_next_phase_walks_the_phase_order_and_hands_over_the_turn() -> None:
    state = start(phase="CARD_RESOLUTION", draw=["air_cover#1", "air_cover#2"])
    seen = [state.phase]
    for _ in range(4):
        state = play(state, NextPhase())
        seen.append(state.phase)
    assert seen == [Phase.CARD_RESOLUTION, Phase.MOVEMENT, Phase.ATTACK, Phase.DICE_RESOLUTION, Phase.CARD_DRAW]
    assert (state.active, state.turn, state.round) == (Side.DEFENDER, 2, 1)


def test_end_turn_from_each_allowed_phase_passes_the_turn() -> None:
    for phase in ("MOVEMENT", "ATTACK", "DICE_RESOLUTION"):
        state = play(start(phase=phase, side=Side.DEFENDER), EndTurn())
        assert (state.phase, state.active, state.turn) == (Phase.CARD_DRAW, Side.ATTACKER, 3)


def test_turns_alternate_and_count_up() -> None:
    state = start(phase="MOVEMENT", draw=[])
    for expected in range(2, 8):
        state = play(state, EndTurn() if state.phase is not Phase.CARD_DRAW else NextPhase())
        assert state.turn == expected
        assert state.active is (Side.ATTACKER if expected % 2 else Side.DEFENDER)
        state = play(state, NextPhase(), NextPhase())  # empty deck: CARD_DRAW → CARD_RESOLUTION → MOVEMENT


def test_dice_resolution_next_phase_waits_for_attacks() -> None:
    state = start(units=("A1 L B2", "D1 M B4"), phase="ATTACK")
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase())
    assert state.phase is Phase.DICE_RESOLUTION and state.pending_attack is not None
    with pytest.raises(IllegalAction, match="attacks are still waiting"):
        reduce(state, NextPhase())
    rolled = play(state, RollDice())
    with pytest.raises(IllegalAction, match="must be resolved"):
        reduce(rolled, EndTurn())
    resolved = play(rolled, ResolveAttack())
    assert resolved.pending_attack is None and NextPhase() in legal_actions(resolved)


def test_turn_start_resets_unit_flags_and_counters() -> None:
    state = start(units=("A1 L B2", "D1 L B4"), phase="MOVEMENT")
    state = play(state, MoveUnit(unit_id="A1", to="B3"), NextPhase(), DeclareAttack(attacker_id="A1", target_id="D1"))
    assert unit(state, "A1").has_moved and unit(state, "A1").has_attacked
    state = play(state, EndTurn())
    assert not unit(state, "A1").has_moved and not unit(state, "A1").has_attacked
    assert (state.moves_this_turn, state.attack_queue, state.attack_seq, state.reactions) == (0, (), 0, ())


def test_victory_rejects_every_action() -> None:
    state = start(units=("A1 L B2", "D1 L B4"), phase="MOVEMENT")
    over = replace(state, phase=Phase.VICTORY, winner=Side.ATTACKER, victory_reason="annihilation", to_act=None)
    assert legal_actions(over) == []
    for action in SAMPLE.values():
        with pytest.raises(IllegalAction, match="the game is over") as caught:
            reduce(over, action)
        assert caught.value.code == "game_over"


def test_illegal_actions_consume_no_randomness_and_change_nothing() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="MOVEMENT")
    before = snapshot(state)
    for bad in (
        MoveUnit(unit_id="A1", to="J10"),
        MoveUnit(unit_id="D1", to="B7"),
        RollDice(),
        DeclareAttack(attacker_id="A1", target_id="D1"),
    ):
        with pytest.raises(IllegalAction):
            reduce(state, bad)
    assert snapshot(state) == before
