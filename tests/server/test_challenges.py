"""Open challenges (server/challenges.py): listed until joined, joined once, the creator's token kept secret."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tests.server.conftest import QUICK_GAME, LiveServer, Peer, arun, create_match, http_json, tokens_of
from tests.server.manual_clock import InProcessServer, ManualClock


def listed(server: LiveServer | InProcessServer) -> list[str]:
    status, answer = http_json(server, "GET", "/api/challenges")
    assert status == 200
    return [c["match_id"] for c in answer["challenges"]]


def test_a_challenge_is_listed_joined_once_and_then_played(server: LiveServer) -> None:
    created = create_match(server, open=True, side="DEFENDER", clock={"per_turn": 120})
    match_id = created["match_id"]
    assert [s["seat"] for s in created["seats"]] == ["DEFENDER"]
    assert created["summary"]["open_seat"] == "ATTACKER"
    assert match_id in listed(server)
    status, joined = http_json(server, "POST", f"/api/challenges/{match_id}/join", {})
    assert status == 201, joined
    assert [s["seat"] for s in joined["seats"]] == ["ATTACKER"] and joined["summary"]["open_seat"] is None
    creator_token = created["seats"][0]["token"]
    assert creator_token not in json.dumps(joined)
    status, again = http_json(server, "POST", f"/api/challenges/{match_id}/join", {})
    assert status == 409 and again["code"] == "taken"
    assert match_id not in listed(server)

    async def run() -> None:
        joiner = await Peer.seated(server, match_id, joined["seats"][0]["token"])
        creator = await Peer.seated(server, match_id, creator_token)
        assert joiner.state is not None and joiner.state["seat"] == "ATTACKER"
        assert creator.state is not None and creator.state["seat"] == "DEFENDER"
        started = await joiner.expect("clock")
        assert started["clock"]["running"] == "ATTACKER"

    arun(run())


def test_a_clock_waits_for_the_joiner(tmp_path: Path) -> None:
    clock = ManualClock()
    server = InProcessServer(tmp_path / "data", clock).start()
    try:
        created = create_match(server, open=True, clock={"initial": 60})
        match_id = created["match_id"]

        async def run() -> None:
            creator = await Peer.seated(server, match_id, created["seats"][0]["token"])
            clock.advance(3600)  # nobody joined for an hour: nobody's clock ran
            await creator.send({"type": "sync"})
            state = await creator.expect("state")
            assert state["clock"]["running"] is None and state["presence"]["claim_at"] is None
            assert state["open_seat"] == "DEFENDER"  # the creator is told it waits for that seat
            status, joined = http_json(server, "POST", f"/api/challenges/{match_id}/join", {})
            assert status == 201
            joiner = await Peer.seated(server, match_id, joined["seats"][0]["token"])
            assert joiner.state is not None and joiner.state["open_seat"] is None
            started = await creator.expect("clock")
            assert started["clock"]["remaining_ms"] == {"attacker": 60000, "defender": 60000}

        arun(run())
    finally:
        server.stop()


def test_an_address_may_keep_only_a_few_challenges_waiting(tmp_path: Path) -> None:
    server = InProcessServer(tmp_path / "data", ManualClock(), open_challenges_per_address=2).start()
    try:
        first = create_match(server, open=True)
        create_match(server, open=True)
        status, refused = http_json(server, "POST", "/api/matches", {"open": True, "config": QUICK_GAME})
        assert status == 429 and refused["code"] == "rate_limited" and "2 open challenges" in refused["reason"]
        assert http_json(server, "POST", f"/api/challenges/{first['match_id']}/join", {})[0] == 201
        create_match(server, open=True)  # one was taken: room for another
    finally:
        server.stop()


def test_a_challenge_is_only_between_people_and_joining_needs_one(server: LiveServer) -> None:
    for body in ({"open": True, "opponent": "bot"}, {"open": True, "hotseat": True}):
        status, refused = http_json(server, "POST", "/api/matches", body)
        assert status == 400 and "open challenge" in refused["reason"]
    plain = create_match(server)
    status, refused = http_json(server, "POST", f"/api/challenges/{plain['match_id']}/join", {})
    assert status == 409 and refused["code"] == "taken"
    assert len(tokens_of(plain)) == 2
    assert http_json(server, "POST", "/api/challenges/nosuchmatch/join", {})[0] == 404


def test_two_joiners_racing_get_one_seat(server: LiveServer) -> None:
    created = create_match(server, open=True)
    path = f"/api/challenges/{created['match_id']}/join"

    async def race() -> list[int]:
        answers = await asyncio.gather(*(asyncio.to_thread(http_json, server, "POST", path, {}) for _ in range(4)))
        return sorted(status for status, _ in answers)

    assert arun(race()) == [201, 409, 409, 409]
