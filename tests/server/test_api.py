"""The HTTP API against a real server: creation and links, lobby, records, forks, replay steps, bots."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import MAX_GAME_LENGTH, RULES_VERSION, GameRecord, GameState, Side, player_view, replay

from .conftest import LiveServer, Peer, arun, create_match, http_json, tokens_of
from .test_ws import play_out


@pytest.fixture(scope="module")
def tight_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("tight") / "data", {"create_burst": 2, "create_rate": 0.001,
                                                                  "max_body_bytes": 4096}).start()
    yield live
    assert live.stop() == 0


def finished(server: LiveServer, seed: int = 77) -> dict[str, Any]:
    """Create and play a match to its end; returns the creation answer."""
    created = create_match(server, seed=seed)

    async def run() -> None:
        seats = {s: await Peer.seated(server, created["match_id"], t) for s, t in tokens_of(created).items()}
        await play_out(seats, [], random.Random(seed))

    arun(run())
    return created


def test_creating_a_match_returns_one_secret_link_per_seat_and_a_spectator_link(server: LiveServer) -> None:
    status, created = http_json(server, "POST", "/api/matches", {"config": {"seed": 9}})
    assert status == 201
    match_id = created["match_id"]
    assert [s["seat"] for s in created["seats"]] == ["ATTACKER", "DEFENDER"]
    for seat in created["seats"]:
        assert seat["path"] == f"/play/{match_id}#{seat['token']}" and len(seat["token"]) >= 43
        assert seat["url"] == f"{server.base}/play/{match_id}#{seat['token']}"
    assert created["spectator"] == {"path": f"/watch/{match_id}", "url": f"{server.base}/watch/{match_id}"}
    summary = created["summary"]
    assert summary["status"] == "live" and summary["mode"] == "human" and summary["version"] == 0
    assert summary["to_act"] == "ATTACKER" and len(summary["seed_commitment"]) == 64
    assert http_json(server, "GET", f"/api/matches/{match_id}") == (200, summary)
    status, lobby = http_json(server, "GET", "/api/matches?limit=5")
    assert status == 200 and lobby[0]["match_id"] == match_id and len(lobby) <= 5
    assert "token" not in json.dumps(lobby) and created["seats"][0]["token"] not in json.dumps(lobby)


def test_an_empty_body_gets_a_default_game_with_a_seed_drawn_by_the_server(server: LiveServer) -> None:
    status, created = http_json(server, "POST", "/api/matches", b"")
    assert status == 201
    status, record = http_json(server, "GET", f"/api/matches/{created['match_id']}/record")
    assert record["status"] == "live" and record["seed"] is None and record["salt"] is None
    assert "seed" not in record["record"]["config"] and record["record"]["hashes"] is None
    assert record["seed_commitment"] == created["summary"]["seed_commitment"]


def test_hot_seat_returns_both_links_and_says_so(server: LiveServer) -> None:
    created = create_match(server, hotseat=True)
    assert created["summary"]["mode"] == "hotseat" and len(created["seats"]) == 2


def test_a_match_against_your_own_bot_gives_both_seat_links_and_the_server_plays_neither(server: LiveServer) -> None:
    created = create_match(server, opponent="outside_bot")
    summary = created["summary"]
    assert (summary["mode"], summary["bot_side"], summary["bot"]) == ("outside_bot", None, None)
    assert [seat["seat"] for seat in created["seats"]] == ["ATTACKER", "DEFENDER"]
    assert all(f"/play/{created['match_id']}#" in seat["url"] for seat in created["seats"])


@pytest.mark.parametrize(("body", "status", "code", "words"), [
    ({"config": {"seed": 1, "width": 1}}, 400, "bad_request", "$.config.width"),
    ({"config": {"seed": 1, "victory": {"round_limit": {"max_rounds": 0}}}}, 400, "bad_request", "max_rounds"),
    ({"config": {"seed": 1, "terrain": "..\n.."}}, 400, "bad_request", "invalid config"),
    ({"config": {"victory": {"max_actions": MAX_GAME_LENGTH + 1}}}, 400, "bad_request", f"at most {MAX_GAME_LENGTH}"),
    ({"opponent": "alien"}, 400, "bad_request", "$.opponent"),
    ({"colour": "red"}, 400, "bad_request", "colour"),
    ({"step": 3}, 400, "bad_request", "from_record"),
    ({"opponent": "outside_bot", "hotseat": True}, 400, "bad_request", "not a hot-seat match"),
    ({"opponent": "outside_bot", "open": True}, 400, "bad_request", "open challenge"),
    (b"{nope", 400, "bad_request", "malformed"),
])
def test_bad_creation_requests_say_what_is_wrong(server: LiveServer, body: Any, status: int, code: str,
                                                 words: str) -> None:
    got, answer = http_json(server, "POST", "/api/matches", body)
    assert (got, answer["code"]) == (status, code) and words in answer["reason"], answer


def test_only_json_bodies_are_accepted(server: LiveServer) -> None:
    got, answer = http_json(server, "POST", "/api/matches", b"{}", headers={"content-type": "text/plain"})
    assert got == 415 and answer["code"] == "unsupported_media_type"


def test_oversized_bodies_and_creation_floods_are_refused(tight_server: LiveServer) -> None:
    got, answer = http_json(tight_server, "POST", "/api/matches", {"config": {"terrain": "." * 5000}})
    assert got == 413 and answer["code"] == "too_large"
    codes = [http_json(tight_server, "POST", "/api/matches", {})[0] for _ in range(3)]
    assert codes == [201, 429, 429]  # the burst of two was one oversized request and one match


def test_unknown_matches_are_404(server: LiveServer) -> None:
    for path in ("/api/matches/nope", "/api/matches/nope/record", "/api/matches/%2e%2e/record",
                 "/api/matches/nope/steps/0"):
        got, answer = http_json(server, "GET", path)
        assert got == 404 and answer["code"] == "not_found", path


def test_a_live_match_cannot_be_forked_by_id(server: LiveServer) -> None:
    created = create_match(server)
    got, answer = http_json(server, "POST", f"/api/matches/{created['match_id']}/fork", {"step": 0})
    assert got == 409 and answer["code"] == "match_live"


def test_a_finished_match_reveals_its_seed_and_forks_into_a_what_if(server: LiveServer) -> None:
    parent = finished(server)
    parent_id = parent["match_id"]
    status, body = http_json(server, "GET", f"/api/matches/{parent_id}/record")
    record = msgspec.json.decode(json.dumps(body["record"]), type=GameRecord)
    states = list(replay(record))
    assert body["seed"] == record.config.seed == 77

    step = len(record.actions) // 2
    status, fork = http_json(server, "POST", f"/api/matches/{parent_id}/fork", {"step": step})
    assert status == 201 and fork["summary"]["version"] == step
    assert fork["summary"]["parent"] == {"match_id": parent_id, "step": step}
    assert fork["summary"]["seed_commitment"] != body["seed_commitment"]  # a fresh salt

    async def diverge_then_follow() -> None:
        seats = {s: await Peer.seated(server, fork["match_id"], t) for s, t in tokens_of(fork).items()}
        actor = seats[seats["ATTACKER"].state["to_act"]]  # type: ignore[index]
        seat = Side(actor.state["seat"])  # type: ignore[index]
        assert actor.state["view"] == as_json(player_view(states[step], seat))  # type: ignore[index]
        seq = await actor.act(as_json(record.actions[step]))  # the same move: the same dice and cards follow
        assert (await actor.reply(seq))["type"] == "ack"
        await actor.until_version(step + 1)
        assert actor.state["view"] == as_json(player_view(states[step + 1], seat))  # type: ignore[index]

    arun(diverge_then_follow())


def test_a_posted_record_prefix_becomes_a_new_match_and_a_tampered_one_is_refused(server: LiveServer) -> None:
    parent = finished(server, seed=78)
    status, body = http_json(server, "GET", f"/api/matches/{parent['match_id']}/record")
    status, fork = http_json(server, "POST", "/api/matches", {"from_record": body["record"], "step": 5,
                                                               "opponent": "bot", "bot_side": "ATTACKER"})
    assert status == 201 and fork["summary"]["version"] == 5 and fork["summary"]["mode"] == "bot"
    assert [s["seat"] for s in fork["seats"]] == ["DEFENDER"]
    tampered = body["record"] | {"hashes": ["0" * 64, *body["record"]["hashes"][1:]]}
    status, answer = http_json(server, "POST", "/api/matches", {"from_record": tampered, "step": 5})
    assert status == 400 and "step 0" in answer["reason"]
    status, answer = http_json(server, "POST", "/api/matches", {"from_record": body["record"], "step": 10**6})
    assert status == 400
    other = body["record"] | {"rules_version": "0.0ldrul3s"}  # played under rules this server does not play
    status, answer = http_json(server, "POST", "/api/matches", {"from_record": other, "step": 5})
    assert status == 400 and f"rules version 0.0ldrul3s; this server plays {RULES_VERSION}" in answer["reason"]
    older = body["record"] | {"rules_version": 1}  # written before the version was derived: 1.f133b462's rules,
    status, answer = http_json(server, "POST", "/api/matches", {"from_record": older, "step": 5})  # not today's
    assert status == 400 and f"rules version 1.f133b462; this server plays {RULES_VERSION}" in answer["reason"]


def test_replay_steps_show_spectator_views_while_live_and_everything_after(server: LiveServer) -> None:
    live = create_match(server)
    status, step0 = http_json(server, "GET", f"/api/matches/{live['match_id']}/steps/0")
    assert status == 200 and step0["complete"] is False and step0["action"] is None
    assert all(card == "?" for p in step0["state"]["players"] for card in p["tactics"])
    assert http_json(server, "GET", f"/api/matches/{live['match_id']}/steps/1")[0] == 404

    over = finished(server, seed=79)
    status, body = http_json(server, "GET", f"/api/matches/{over['match_id']}/record")
    record = msgspec.json.decode(json.dumps(body["record"]), type=GameRecord)
    states = list(replay(record))
    status, step = http_json(server, "GET", f"/api/matches/{over['match_id']}/steps/3")
    assert step["complete"] is True and step["steps"] == len(record.actions)
    assert step["state"] == as_json(states[3]) and step["action"] == as_json(record.actions[2])
    assert http_json(server, "GET", f"/api/matches/{over['match_id']}/steps/x")[0] == 400


def test_each_bot_match_names_its_bot_from_the_servers_list(server: LiveServer) -> None:
    status, listed = http_json(server, "GET", "/api/bots")
    assert status == 200 and listed["default"] == "greedy"
    assert [b["name"] for b in listed["bots"]] == ["greedy", "strong", "random"]
    assert all(b["about"] for b in listed["bots"])
    assert create_match(server, opponent="bot")["summary"]["bot"] == "greedy"
    chosen = create_match(server, opponent="bot", bot="strong")
    assert chosen["summary"]["bot"] == "strong"
    assert http_json(server, "GET", f"/api/matches/{chosen['match_id']}")[1]["bot"] == "strong"
    assert create_match(server, bot="strong")["summary"]["bot"] is None  # a match between people has no bot
    status, refused = http_json(server, "POST", "/api/matches", {"opponent": "bot", "bot": "stockfish"})
    assert status == 400 and refused["code"] == "bad_request"
    assert "unknown bot 'stockfish'" in refused["reason"] and "greedy, strong, random" in refused["reason"]
    status, refused = http_json(server, "POST", "/api/matches", {"opponent": "bot", "bot": 3})
    assert status == 400 and "bot" in refused["reason"]
    over = finished(server, seed=79)
    status, fork = http_json(server, "POST", f"/api/matches/{over['match_id']}/fork",
                             {"step": 4, "opponent": "bot", "bot": "random"})
    assert status == 201 and fork["summary"]["bot"] == "random"
    status, refused = http_json(server, "POST", f"/api/matches/{over['match_id']}/fork",
                                {"opponent": "bot", "bot": "nobody"})
    assert status == 400 and "unknown bot 'nobody'" in refused["reason"]


def test_a_person_can_play_a_whole_game_against_the_bot(server: LiveServer) -> None:
    created = create_match(server, opponent="bot")
    assert created["summary"]["mode"] == "bot" and created["summary"]["bot_side"] == "DEFENDER"
    token = tokens_of(created)["ATTACKER"]

    async def run() -> dict[str, Any]:
        me = await Peer.seated(server, created["match_id"], token)
        rng = random.Random(6)
        while me.state is not None and me.state["status"] == "live":
            if me.state["to_act"] == "ATTACKER":
                seq = await me.act(rng.choice(me.state["legal_actions"]))
                assert (await me.reply(seq))["type"] == "ack"
            else:
                await me.expect("state")
        assert me.state is not None
        return me.state

    final = arun(run())
    assert final["status"] == "over"


def as_json(value: GameState | Any) -> Any:
    return json.loads(msgspec.json.encode(value))


def test_pages_route_to_the_client_and_static_files_are_served(server: LiveServer) -> None:
    for path in ("/", "/play/abc", "/watch/abc", "/replay/abc"):
        status, page = http_json(server, "GET", path)
        assert status == 200 and b"<html" in page.lower(), path
    assert http_json(server, "GET", "/static/no-such-file.js")[0] == 404
    tiles = sorted((Path(__file__).resolve().parents[2] / "assets").rglob("*.png"))
    if tiles:
        relative = tiles[0].relative_to(Path(__file__).resolve().parents[2] / "assets")
        status, data = http_json(server, "GET", f"/assets/{relative.as_posix()}")
        assert status == 200 and data[:8] == b"\x89PNG\r\n\x1a\n"
