"""`GET /api/matches/{id}/history` (server/history.py): the rolls and turns of a stored match."""

from __future__ import annotations

import random

from engine import (
    Action,
    DeclareAttack,
    EndTurn,
    EventKind,
    GameConfig,
    PassReaction,
    ResolveAttack,
    RollDice,
    Side,
    encode_action,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from engine.analysis import describe_event, unit_vp
from server.history import history_of, turn_of

from .conftest import LiveServer, create_match, http_json
from .test_api import finished


def eager_game(seed: int, plies: int) -> tuple[GameConfig, list[Action]]:
    """A random game that never ends a turn early, so attacks are declared and rolled."""
    rng = random.Random(seed)
    config = GameConfig(seed=seed)
    state = new_game(config)
    actions: list[Action] = []
    for _ in range(plies):
        options = legal_actions(state)
        if not options:
            break
        keen = [a for a in options if not isinstance(a, EndTurn | PassReaction)] or options
        attack = [a for a in keen if isinstance(a, DeclareAttack | RollDice | ResolveAttack)]
        action = rng.choice(attack or keen)
        state = reduce(state, action)
        actions.append(action)
    return config, actions


def test_the_history_lists_every_roll_and_turn_as_the_log_replays() -> None:
    config, actions = eager_game(5, 700)
    history = history_of("m", config, [encode_action(a) for a in actions])
    states = [new_game(config)]
    for action in actions:
        states.append(reduce(states[-1], action))
    assert history.steps == len(actions)
    results = [e.kind for s in states for e in s.events if e.kind in (EventKind.ATTACK_HIT, EventKind.ATTACK_MISSED)]
    assert len(history.rolls) >= 3, "an eager game rolls dice"
    assert len(results) <= len(history.rolls)  # a roll cancelled by a tactic has no result
    for roll in history.rolls:
        at = states[roll.step]
        assert at.last_roll is not None and at.pending_attack is not None
        pending = at.pending_attack
        assert (pending.attacker, pending.target, at.turn) == (roll.attacker, roll.target, roll.turn)
        assert states[roll.step - 1].last_roll is None or states[roll.step - 1].attack_seq != at.attack_seq
    turns = history.turns
    assert [t.turn for t in turns] == sorted({s.turn for s in states if s.turn > 0})
    for turn in turns:
        assert states[turn.step].turn == turn.turn
        assert turn.step == 0 or states[turn.step - 1].turn != turn.turn
    assert sum(t.hits for t in turns) == results.count(EventKind.ATTACK_HIT)
    assert sum(t.misses for t in turns) == results.count(EventKind.ATTACK_MISSED)
    assert turns[-1].vp == {s.value: unit_vp(states[-1], s) + states[-1].player(s).point_vp for s in Side}


def test_the_history_over_http_names_the_winner_of_a_finished_match(server: LiveServer) -> None:
    created = finished(server, seed=81)
    status, history = http_json(server, "GET", f"/api/matches/{created['match_id']}/history")
    assert status == 200, history
    _, summary = http_json(server, "GET", f"/api/matches/{created['match_id']}")
    assert history["winner"] == summary["winner"] and history["winner"] is not None
    assert history["steps"] == summary["version"]


def test_a_running_match_has_a_history_without_hidden_cards(server: LiveServer) -> None:
    created = create_match(server)
    status, history = http_json(server, "GET", f"/api/matches/{created['match_id']}/history")
    assert status == 200 and history["steps"] == 0 and history["rolls"] == [] and history["winner"] is None


def test_an_unknown_match_has_no_history(server: LiveServer) -> None:
    assert http_json(server, "GET", "/api/matches/nosuchmatch/history")[0] == 404
    assert http_json(server, "GET", "/api/matches/bad%20id/history")[0] == 404


def test_a_fork_keeps_the_history_of_the_steps_it_was_forked_from(server: LiveServer) -> None:
    parent = finished(server, seed=83)
    _, history = http_json(server, "GET", f"/api/matches/{parent['match_id']}/history")
    step = history["steps"] - 1
    status, fork = http_json(server, "POST", f"/api/matches/{parent['match_id']}/fork", {"step": step})
    assert status == 201
    _, forked = http_json(server, "GET", f"/api/matches/{fork['match_id']}/history")
    assert forked["steps"] == step
    assert forked["rolls"] == [r for r in history["rolls"] if r["step"] <= step]
    assert [t["turn"] for t in forked["turns"]] == [t["turn"] for t in history["turns"] if t["step"] <= step]


def test_a_turns_steps_carry_every_event_the_log_made_in_it() -> None:
    config, actions = eager_game(5, 400)
    texts = [encode_action(a) for a in actions]
    states = [new_game(config)]
    for action in actions:
        states.append(reduce(states[-1], action))
    turn = states[-1].turn - 1
    config_rules = states[0].rules
    found = turn_of("m", config, texts, turn)
    assert found is not None and found.turn == turn and found.side is states[found.steps[0].step].active
    in_turn = [k for k in range(1, len(states)) if states[k].turn == turn]
    assert [s.step for s in found.steps] == in_turn
    assert EventKind.TURN_STARTED in [e.event.kind for e in found.steps[0].events]
    for step in found.steps:
        shown = player_view(states[step.step], None).events
        assert [e.event for e in step.events] == list(shown)
        assert all(e.text == describe_event(e.event, config_rules) for e in step.events)
    assert turn_of("m", config, texts, states[-1].turn + 1) is None


def test_a_turn_over_http_and_its_bad_requests(server: LiveServer) -> None:
    created = finished(server, seed=81)
    match = created["match_id"]
    status, turn = http_json(server, "GET", f"/api/matches/{match}/turns/2")
    assert status == 200, turn
    assert turn["turn"] == 2 and turn["side"] == "DEFENDER" and turn["steps"]
    assert "turn_started" in [e["event"]["kind"] for e in turn["steps"][0]["events"]]
    assert http_json(server, "GET", f"/api/matches/{match}/turns/99999")[0] == 404
    assert http_json(server, "GET", f"/api/matches/{match}/turns/0")[0] == 400
    assert http_json(server, "GET", f"/api/matches/{match}/turns/two")[0] == 400
    assert http_json(server, "GET", "/api/matches/nosuchmatch/turns/1")[0] == 404
