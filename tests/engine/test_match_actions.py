"""Match actions (engine/match_actions.py): resign, timeouts and claims, listed apart from game moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    MATCH_ACTION_ORDER,
    Action,
    ClaimVictory,
    EventKind,
    GameConfig,
    GameState,
    IllegalAction,
    Phase,
    Resign,
    Side,
    Timeout,
    VictoryConfig,
    decode_action,
    decode_record,
    encode_action,
    encode_record,
    legal_actions,
    match_actions,
    new_game,
    record_game,
    reduce,
    replay,
    state_hash,
)
from engine.analysis import DecisionKind, decision, explain

SIDES = (Side.ATTACKER, Side.DEFENDER)
EVERY_MATCH_ACTION: tuple[Action, ...] = (
    *(Resign(side=s) for s in SIDES),
    *(Timeout(side=s, clock=c) for s in SIDES for c in ("game", "turn")),
    *(ClaimVictory(side=s) for s in SIDES),
)


def playout(seed: int, steps: int, *, manual: bool = False) -> list[GameState]:
    """The states of a random game of at most ``steps`` actions (a fixed `random.Random` picks)."""
    rng = random.Random(seed)
    state = new_game(GameConfig(seed=seed, deployment="manual" if manual else "auto"))
    states = [state]
    for _ in range(steps):
        moves = legal_actions(state)
        if not moves:
            break
        state = reduce(state, rng.choice(moves))
        states.append(state)
    return states


def states_by_decision() -> dict[DecisionKind, GameState]:
    """One position for each kind of decision random play reaches (deployment included)."""
    found: dict[DecisionKind, GameState] = {}
    for seed in range(12):
        # seed 0 plays to the end (the default game lasts up to 50 turns): the game-over position
        for state in playout(seed, 5000 if seed == 0 else 400, manual=seed % 3 == 0):
            found.setdefault(decision(state).kind, state)
    return found


DECISIONS = states_by_decision()


def test_random_play_reaches_the_decisions_the_tests_need() -> None:
    needed = {DecisionKind.DEPLOY, DecisionKind.DRAW_CARD, DecisionKind.RESOLVE_BONUS, DecisionKind.RESOLVE_MALUS,
              DecisionKind.MOVE, DecisionKind.DECLARE_ATTACKS, DecisionKind.ROLL, DecisionKind.APPLY_ROLL,
              DecisionKind.REACT, DecisionKind.CHOOSE_VICTIMS, DecisionKind.GAME_OVER}
    assert needed <= set(DECISIONS)


def test_match_actions_are_never_game_moves() -> None:
    for state in playout(3, 300):
        assert not any(type(a) in MATCH_ACTION_ORDER for a in legal_actions(state))


def test_the_listing_names_both_resignations_the_actors_timeouts_and_the_others_claim() -> None:
    state = new_game(GameConfig(seed=7))
    assert state.to_act is Side.ATTACKER
    assert match_actions(state) == [Resign(side=Side.ATTACKER), Resign(side=Side.DEFENDER),
                                    Timeout(side=Side.ATTACKER, clock="game"),
                                    Timeout(side=Side.ATTACKER, clock="turn"), ClaimVictory(side=Side.DEFENDER)]


@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250), manual=st.booleans())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_reduce_accepts_a_match_action_iff_it_is_listed(seed: int, steps: int, manual: bool) -> None:
    state = playout(seed, steps, manual=manual)[-1]
    listed = match_actions(state)
    for action in EVERY_MATCH_ACTION:
        problem = explain(state, action)
        if action in listed:
            assert problem is None
            after = reduce(state, action)
            assert after.actions_taken == state.actions_taken + 1
        else:
            assert problem is not None
            with pytest.raises(IllegalAction) as refused:
                reduce(state, action)
            assert (refused.value.code, str(refused.value)) == (problem.code, str(problem))


@pytest.mark.parametrize("kind", sorted(DECISIONS, key=lambda k: k.value))
@pytest.mark.parametrize("side", SIDES)
def test_either_side_may_resign_in_every_phase(kind: DecisionKind, side: Side) -> None:
    state = DECISIONS[kind]
    if kind is DecisionKind.GAME_OVER:
        with pytest.raises(IllegalAction, match="the game is over") as refused:
            reduce(state, Resign(side=side))
        assert refused.value.code == "game_over"
        return
    over = reduce(state, Resign(side=side))
    assert (over.phase, over.winner, over.victory_reason, over.to_act) == (
        Phase.VICTORY, side.other, "resignation", None)
    assert over.events[-1].kind is EventKind.VICTORY and over.events[-1].detail == "resignation"
    assert legal_actions(over) == [] and match_actions(over) == []


def test_a_game_clock_timeout_loses_on_time() -> None:
    state = DECISIONS[DecisionKind.MOVE]
    assert state.to_act is not None
    over = reduce(state, Timeout(side=state.to_act, clock="game"))
    assert (over.winner, over.victory_reason) == (state.to_act.other, "time")


def test_only_the_side_to_act_can_time_out() -> None:
    state = DECISIONS[DecisionKind.MOVE]
    assert state.to_act is not None
    with pytest.raises(IllegalAction, match="only the side to act") as refused:
        reduce(state, Timeout(side=state.to_act.other, clock="game"))
    assert refused.value.code == "not_to_act"


def test_the_side_not_to_act_claims_an_abandoned_seat_and_the_side_to_act_cannot() -> None:
    state = DECISIONS[DecisionKind.DECLARE_ATTACKS]
    assert state.to_act is not None
    over = reduce(state, ClaimVictory(side=state.to_act.other))
    assert (over.winner, over.victory_reason) == (state.to_act.other, "abandonment")
    with pytest.raises(IllegalAction) as refused:
        reduce(state, ClaimVictory(side=state.to_act))
    assert refused.value.code == "not_to_act"


@pytest.mark.parametrize("kind", [DecisionKind.DRAW_CARD, DecisionKind.RESOLVE_BONUS, DecisionKind.MOVE,
                                  DecisionKind.DECLARE_ATTACKS, DecisionKind.ROLL, DecisionKind.APPLY_ROLL])
def test_a_turn_timeout_of_the_active_side_ends_its_turn(kind: DecisionKind) -> None:
    state = DECISIONS[kind]
    assert state.to_act is state.active
    after = reduce(state, Timeout(side=state.active, clock="turn"))
    assert after.events[0].kind is EventKind.TIME_RAN_OUT and after.events[0].side is state.active
    if after.phase is not Phase.VICTORY:  # the end of a turn may decide the game
        assert (after.turn, after.active) == (state.turn + 1, state.active.other)
        assert after.pending_card is None and after.pending_attack is None and after.attack_queue == ()
    assert len(after.discard_pile) >= len(state.discard_pile)


def test_a_turn_timeout_with_a_drawn_malus_accepts_it() -> None:
    state = DECISIONS[DecisionKind.RESOLVE_MALUS]
    after = reduce(state, Timeout(side=state.active, clock="turn"))
    kinds = [e.kind for e in after.events]
    assert {EventKind.MALUS_APPLIED, EventKind.MALUS_ACCEPTED, EventKind.MALUS_FIZZLED} & set(kinds)
    if after.pending_card is not None:  # a targeted malus: the opponent picks its victims first
        assert decision(after).kind is DecisionKind.CHOOSE_VICTIMS
    else:
        assert after.turn == state.turn + 1 or after.phase is Phase.VICTORY


def test_a_turn_timeout_of_the_reacting_side_passes() -> None:
    state = DECISIONS[DecisionKind.REACT]
    reacting = state.active.other
    assert state.to_act is reacting
    after = reduce(state, Timeout(side=reacting, clock="turn"))
    assert [e.kind for e in after.events][:2] == [EventKind.TIME_RAN_OUT, EventKind.REACTION_PASSED]
    assert after.turn == state.turn and after.active is state.active


def test_a_turn_timeout_of_the_victim_chooser_discards_the_malus() -> None:
    state = DECISIONS[DecisionKind.CHOOSE_VICTIMS]
    assert state.pending_card is not None and state.to_act is state.pending_card.drawer.other
    card = state.pending_card.card
    after = reduce(state, Timeout(side=state.to_act, clock="turn"))
    assert after.pending_card is None and after.discard_pile[-1] == card
    assert after.events[0].card == card
    assert after.to_act is state.active and after.turn == state.turn


def test_a_turn_timeout_in_deployment_places_the_rest_and_confirms() -> None:
    state = DECISIONS[DecisionKind.DEPLOY]
    deploying = state.deploying
    assert deploying is not None
    after = reduce(state, Timeout(side=deploying, clock="turn"))
    assert all(u.cell is not None for u in after.units if u.side is deploying)
    assert after.deploying is not deploying


def test_a_record_with_timeouts_resigns_and_claims_replays_every_hash() -> None:
    rng = random.Random(5)
    config = GameConfig(seed=5, victory=VictoryConfig(max_actions=400))
    records = []
    for ending in ("resign", "claim", "time"):
        state, actions = new_game(config), []
        for step in range(150):
            assert state.to_act is not None
            if step % 9 == 4:  # a per-turn timeout now and then, whoever is to act
                action: Action = Timeout(side=state.to_act, clock="turn")
            else:
                action = rng.choice(legal_actions(state))
            state = reduce(state, action)
            actions.append(action)
            if state.to_act is None:
                break
        if state.to_act is not None:
            last = {"resign": Resign(side=Side.DEFENDER), "claim": ClaimVictory(side=state.to_act.other),
                    "time": Timeout(side=state.to_act, clock="game")}[ending]
            actions.append(last)
        records.append(record_game(config, actions))
    for record in records:
        again = decode_record(encode_record(record))
        assert again == record
        hashes = [state_hash(s) for s in replay(again)][1:]  # replay yields the start too
        assert tuple(hashes) == record.hashes
    assert {r.actions[-1].__struct_config__.tag for r in records} >= {"RESIGN", "CLAIM_VICTORY", "TIMEOUT"}


@pytest.mark.parametrize("action", EVERY_MATCH_ACTION)
def test_match_actions_round_trip_through_json(action: Action) -> None:
    assert decode_action(encode_action(action)) == action


def test_a_claim_spells_its_reason() -> None:
    assert encode_action(ClaimVictory(side=Side.ATTACKER)) == (
        '{"type":"CLAIM_VICTORY","side":"ATTACKER","reason":"abandonment"}')
