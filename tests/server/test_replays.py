"""Posted-record replays (server/replays.py), against a real server."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from engine import GameConfig, GameRecord, legal_actions, new_game, player_view, record_game, reduce
from engine.analysis import decision
from engine.data import TERRAIN_LEGEND

from .conftest import LiveServer, http_json

SMALL = msgspec.convert({"seed": 11, "width": 12, "height": 15, "victory": {"round_limit": {"max_rounds": 2}}},
                        GameConfig)


def played(config: GameConfig, plies: int, seed: int = 3) -> GameRecord:
    """A record of up to ``plies`` random legal actions from ``config``."""
    rng = random.Random(seed)
    state = new_game(config)
    actions = []
    for _ in range(plies):
        options = legal_actions(state)
        if not options:
            break
        action = rng.choice(options)
        state = reduce(state, action)
        actions.append(action)
    return record_game(config, actions)


def as_json(record: GameRecord) -> Any:
    return json.loads(msgspec.json.encode(record))


def post(server: LiveServer, body: Any) -> tuple[int, Any]:
    return http_json(server, "POST", "/api/replays", body)


def test_a_record_replays_into_spectator_views_with_events_and_is_verified(server: LiveServer) -> None:
    record = played(SMALL, 40)
    status, page = post(server, {"record": as_json(record)})
    assert status == 200, page
    assert page["verification"] == {"status": "verified", "steps": len(record.actions),
                                    "actions": len(record.actions), "error": None, "failed_step": None}
    assert page["total"] == len(record.actions) + 1 and page["start"] == 0 and page["view"] == "spectator"
    steps = page["steps"]
    assert [s["step"] for s in steps] == list(range(len(record.actions) + 1))
    assert steps[0]["action"] is None and steps[1]["action"] == json.loads(msgspec.json.encode(record.actions[0]))
    state = new_game(record.config)
    for step, action in zip(steps[1:], record.actions, strict=True):
        state = reduce(state, action)
        assert step["state"] == json.loads(msgspec.json.encode(player_view(state, None)))
        assert step["to_act"] == (state.to_act.value if state.to_act else None)
        assert len(step["events"]) == len(state.events) and all(e["text"] for e in step["events"])
        assert step["decision"] == json.loads(msgspec.json.encode(decision(state, player_view(state, None))))
    assert page["legend"] == json.loads(msgspec.json.encode(TERRAIN_LEGEND))
    assert all(t == "?" for t in steps[-1]["state"]["players"][0]["tactics"])


def test_a_page_of_steps_through_a_players_eyes(server: LiveServer) -> None:
    record = played(SMALL, 30)
    status, page = post(server, {"record": as_json(record), "view": "ATTACKER", "start": 10, "count": 5})
    assert status == 200
    assert [s["step"] for s in page["steps"]] == [10, 11, 12, 13, 14]
    players = page["steps"][0]["state"]["players"]
    assert "?" not in players[0]["tactics"] and set(players[1]["tactics"]) == {"?"}
    status, full = post(server, {"record": as_json(record), "view": "full", "start": 0, "count": 1})
    assert status == 200 and full["steps"][0]["state"]["rng"] != 0


def test_a_record_without_hashes_replays_unverified(server: LiveServer) -> None:
    record = msgspec.structs.replace(played(SMALL, 12), hashes=None)
    status, page = post(server, {"record": as_json(record), "count": 2})
    assert status == 200
    assert page["verification"]["status"] == "unverified" and page["total"] == 13 and len(page["steps"]) == 2


def test_a_tampered_hash_fails_verification_at_its_step_and_keeps_the_steps_before(server: LiveServer) -> None:
    record = played(SMALL, 20)
    data = as_json(record)
    data["hashes"][7] = "0" * 64
    status, page = post(server, {"record": data})
    assert status == 200
    verification = page["verification"]
    assert verification["status"] == "failed" and verification["failed_step"] == 8 and verification["steps"] == 7
    assert "step 8" in verification["error"] and page["total"] == 8 and len(page["steps"]) == 8


def test_an_illegal_action_fails_verification_naming_the_step(server: LiveServer) -> None:
    data = as_json(played(SMALL, 5))
    data["actions"].insert(1, {"type": "ROLL_DICE"})
    data["hashes"] = None
    status, page = post(server, {"record": data})
    assert status == 200
    assert page["verification"]["status"] == "failed" and page["verification"]["failed_step"] == 2
    assert "step 2" in page["verification"]["error"] and page["total"] == 2


@pytest.mark.parametrize(("body", "code", "needle"), [
    ({"record": {"config": {"seed": 1}, "rules_version": 999}}, "bad_request", "rules version"),
    ({"record": {"config": {"seed": 1}, "actions": [], "hashes": ["x"]}}, "bad_request", "hashes"),
    ({"record": {"config": {"seed": 1}}, "view": "everyone"}, "bad_request", "$.view"),
    ({"record": {"config": {"seed": 1}}, "count": 0}, "bad_request", "$.count"),
    ({"recording": {}}, "bad_request", "recording"),
])
def test_bad_requests_are_refused_with_a_reason(server: LiveServer, body: Any, code: str, needle: str) -> None:
    status, answer = post(server, body)
    assert status == 400 and answer["code"] == code and needle in answer["reason"]


def test_only_json_bodies_are_accepted(server: LiveServer) -> None:
    status, answer = http_json(server, "POST", "/api/replays", b"{}", headers={"content-type": "text/plain"})
    assert status == 415 and answer["code"] == "unsupported_media_type"
