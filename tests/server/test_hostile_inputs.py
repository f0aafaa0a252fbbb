"""Hostile input against a real server, one test per class (not per string).

Each class that once broke (numbers in URLs, duplicate JSON keys, stored matches these rules
cannot read, a board big enough to stall every match) and each that already held (decoding,
HTTP body framing) gets one test here, so a regression in any of them fails CI. Tokens,
origins, floods, slow readers and kill -9 are covered where they live: test_ws.py,
test_ratelimit.py and test_cmd_serve.py.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from engine import RULES_VERSION

from .conftest import FAST_LIMITS, QUICK_GAME, LiveServer, Peer, arun, create_match, http_json, tokens_of
from .test_ws import QUERY_GAME, ask, closes_with, play_out, two_seats, unchanged_and_playable

BUDGET = 6000  # Limits.max_board_cells by default
LARGEST = {"width": 60, "height": 100}  # exactly the budget


# -- numbers in URLs ---------------------------------------------------------------------


def test_numbers_in_urls_are_ascii_digits_in_range_or_a_400_naming_the_parameter(server: LiveServer) -> None:
    match_id = create_match(server)["match_id"]
    bad = ["%C2%B2", "%EF%BC%95", "9" * 5000, "-1", "", "+5", "1e3", "0x10", "%201", "007" + "0" * 20]
    for text in bad:
        for path, name in ((f"/api/matches?limit={text}", "limit"),
                           (f"/api/matches/{match_id}/steps/{text}", "step")):
            if not text and "steps" in path:
                continue  # an empty path segment is another route (404)
            status, answer = http_json(server, "GET", path)
            assert (status, answer["code"]) == (400, "bad_request") and name in answer["reason"], (path, answer)
    for limit in ("0", "101"):
        status, answer = http_json(server, "GET", f"/api/matches?limit={limit}")
        assert status == 400 and "limit" in answer["reason"] and limit in answer["reason"]
    assert http_json(server, "GET", "/api/matches?limit=100")[0] == 200
    assert http_json(server, "GET", f"/api/matches/{match_id}/steps/0")[0] == 200
    assert http_json(server, "GET", f"/api/matches/{match_id}/steps/9999999")[0] == 404  # a number, no such step


# -- duplicate keys ----------------------------------------------------------------------


def test_duplicate_keys_in_a_message_are_refused_and_nothing_is_applied(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        attacker = seats["ATTACKER"]
        assert attacker.state is not None
        legal = attacker.state["legal_actions"][0]
        action = json.dumps(legal)
        twice_typed = action.replace("{", '{"type": ' + json.dumps(legal["type"]) + ", ", 1)
        duplicated = [
            ('{"type": "act", "version": 7, "version": 0, "seq": 1, "action": ' + action + "}", "version"),
            ('{"type": "act", "version": 0, "vers\\u0069on": 0, "seq": 1, "action": ' + action + "}", "version"),
            ('{"type": "act", "version": 0, "seq": 1, "action": ' + twice_typed + "}", "type"),
        ]
        for text, key in duplicated:
            await attacker.send(text)
            reply = await attacker.reply()
            assert reply["code"] == "bad_message" and repr(key) in reply["reason"], reply
        assert not [m for m in await attacker.quiet(0.2) if m["type"] == "state"]
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_duplicate_keys_in_an_http_body_are_a_400_naming_the_key(server: LiveServer) -> None:
    for path, body, key in (("/api/matches", b'{"config": {"seed": 1, "seed": 2}}', "seed"),
                            ("/api/matches", b'{"hotseat": true, "opponent": "human", "hotseat": false}', "hotseat"),
                            ("/api/replays", b'{"record": {"config": {}}, "view": "full", "view": "full"}', "view")):
        status, answer = http_json(server, "POST", path, body)
        assert (status, answer["code"]) == (400, "bad_request") and repr(key) in answer["reason"], answer


# -- stored matches these rules cannot read ---------------------------------------------

DAMAGE = {  # how each kind of unreadable match is made, as an edit of the real database
    "config": "UPDATE matches SET config='{\"width\": \"wide\"}' WHERE id=?",
    "start": "UPDATE matches SET config='{\"seed\": 1, \"terrain\": \"..\"}' WHERE id=?",
    "action": "UPDATE actions SET action='{\"type\": \"FIRE_NUKES\"}' WHERE match_id=? AND ply=2",
    "replay": "UPDATE actions SET state_hash='" + "0" * 64 + "' WHERE match_id=? AND ply=3",
    "rules": "UPDATE matches SET rules_version='0.0ldrul3s' WHERE id=?",
}
# The documented status (docs/protocol.md, "Stored matches these rules cannot read") of each
# endpoint for each kind: the record, the first and the last position, a fork.
EXPECTED = {
    "config": {"record": 409, "steps/0": 409, "steps/end": 409, "fork": 409},
    "start": {"record": 200, "steps/0": 409, "steps/end": 409, "fork": 409},
    "action": {"record": 409, "steps/0": 200, "steps/end": 409, "fork": 409},
    "replay": {"record": 200, "steps/0": 200, "steps/end": 409, "fork": 409},
    "rules": {"record": 200, "steps/0": 200, "steps/end": 200, "fork": 409},
}


def test_every_endpoint_answers_a_stored_match_it_cannot_read_with_its_documented_status(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = LiveServer(data, FAST_LIMITS).start()
    created = {kind: create_match(first) for kind in DAMAGE}

    async def finish_all() -> dict[str, int]:
        ends = {}
        for kind, match in created.items():
            seats = {s: await Peer.seated(first, match["match_id"], t) for s, t in tokens_of(match).items()}
            ends[kind] = (await play_out(seats, [], random.Random(7)))["version"]
        return ends

    ends = arun(finish_all())
    assert first.stop() == 0
    with sqlite3.connect(data / "taktik.sqlite3") as db:
        for kind, sql in DAMAGE.items():
            assert db.execute(sql, (created[kind]["match_id"],)).rowcount == 1
        # a summary row naming no side must not take the lobby down with it
        db.execute("UPDATE matches SET winner='NOBODY', to_act='NOBODY' WHERE id=?", (created["replay"]["match_id"],))
    db.close()

    second = LiveServer(data, FAST_LIMITS).start()
    try:
        status, lobby = http_json(second, "GET", "/api/matches")
        assert status == 200 and len(lobby) == len(DAMAGE)
        assert {m["winner"] for m in lobby if m["match_id"] == created["replay"]["match_id"]} == {None}
        for kind, expected in EXPECTED.items():
            match_id = created[kind]["match_id"]
            base = f"/api/matches/{match_id}"
            assert http_json(second, "GET", base)[0] == 200
            got = {"record": http_json(second, "GET", f"{base}/record"),
                   "steps/0": http_json(second, "GET", f"{base}/steps/0"),
                   "steps/end": http_json(second, "GET", f"{base}/steps/{ends[kind]}"),
                   "fork": http_json(second, "POST", f"{base}/fork", {})}
            assert {name: answer[0] for name, answer in got.items()} == expected, (kind, got)
            for name, (status, answer) in got.items():
                assert status != 409 or answer["code"] == "unavailable", (kind, name, answer)

        async def visit() -> int:  # the live socket of a match whose start cannot be built
            peer = await Peer.open(second, created["config"]["match_id"])
            return await closes_with(peer)

        assert arun(visit()) == 4410
    finally:
        assert second.stop() == 0
    assert "Traceback" not in second.log_text() and "internal_error" not in second.log_text()


# -- what already held: decoding and framing ---------------------------------------------


def test_malformed_wrongly_typed_unknown_and_invalid_messages_are_bad_messages(server: LiveServer) -> None:
    """The class in full: test_ws.test_bad_shapes_are_rejected_with_the_path_and_change_nothing."""

    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        attacker = seats["ATTACKER"]
        for text, words in (("{nope", "malformed"),
                            ('{"type": "act", "version": "0", "seq": 1, "action": {"type": "DRAW_CARD"}}', "$.version"),
                            ('{"type": "sync", "please": 1}', "please"),
                            ('{"type": "act", "version": 0, "seq": 1, "action": {"type": "WITHDRAW_ATTACK", '
                             '"attacker_id": "A99"}}', "A99")):  # decodes, but the engine's InvalidAction
            await attacker.send(text)
            reply = await attacker.reply()
            assert reply["code"] == "bad_message" and words in reply["reason"], (text, reply)
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_http_bodies_too_large_or_not_json_are_refused(server: LiveServer) -> None:
    """More in test_api.test_oversized_bodies_and_creation_floods_are_refused and test_errors.py."""
    status, answer = http_json(server, "POST", "/api/matches", b" " * (1024 * 1024 + 1))
    assert (status, answer["code"]) == (413, "too_large")
    status, answer = http_json(server, "POST", "/api/matches", b"{}", headers={"content-type": "text/plain"})
    assert (status, answer["code"]) == (415, "unsupported_media_type")


# -- one huge board must not stall every match -------------------------------------------


def test_boards_over_the_budget_are_refused_naming_the_limit(server: LiveServer) -> None:
    for config in ({"width": 300, "height": 300}, {"width": 61, "height": 100}, {"width": 300},
                   {"terrain": "\n".join(["." * 100] * 61)}):
        status, answer = http_json(server, "POST", "/api/matches", {"config": config})
        assert (status, answer["code"]) == (400, "bad_request") and "max_board_cells" in answer["reason"], answer
        assert str(BUDGET) in answer["reason"]
    assert create_match(server, config=LARGEST)["summary"]["status"] == "live"


async def _act_latency(seats: dict[str, Peer], rng: random.Random) -> float:
    """Seconds from one act's send to the acting seat's update (then every seat catches up)."""
    state = next(iter(seats.values())).state
    assert state is not None and state["status"] == "live", state
    actor = seats[state["to_act"]]
    assert actor.state is not None
    start = time.perf_counter()
    seq = await actor.act(rng.choice(actor.state["legal_actions"]))
    await actor.until_version(state["version"] + 1)
    elapsed = time.perf_counter() - start
    assert (await actor.reply(seq))["type"] == "ack"
    for peer in seats.values():
        await peer.until_version(state["version"] + 1)
    return elapsed


async def latency_while_a_big_board_acts(live: LiveServer, board: dict[str, int],
                                         acts: int = 40) -> tuple[list[float], list[float], int]:
    """Another match's act->update latencies before, and while ``board`` is created and played at full speed.

    Returns (normal latencies, latencies meanwhile, actions the big board played meanwhile).
    """
    rng = random.Random(5)
    long_game = {"seed": 5, "victory": {"round_limit": {"max_rounds": 20}}}
    _, other, _ = await two_seats(live, config=long_game)
    normal = [await _act_latency(other, rng) for _ in range(acts // 2)]
    played = 0
    stop = asyncio.Event()

    async def big_board() -> None:
        nonlocal played
        created = await asyncio.to_thread(create_match, live, config={**long_game, **board})
        seats = {s: await Peer.seated(live, created["match_id"], t) for s, t in tokens_of(created).items()}
        while not stop.is_set():
            await play_out(seats, [], rng, steps=1)
            played += 1

    churn = asyncio.create_task(big_board())
    meanwhile: list[float] = []
    while (len(meanwhile) < acts or played < 12) and not churn.done():  # 12: well into its first move phase
        meanwhile.append(await _act_latency(other, rng))
    stop.set()
    await churn
    return normal, meanwhile, played


def test_another_match_keeps_being_served_while_the_largest_allowed_board_acts(server: LiveServer) -> None:
    normal, meanwhile, played = arun(latency_while_a_big_board_acts(server, LARGEST))
    assert played >= 10  # the big board really was being created and played meanwhile
    # Behaviour, not time: the other match's actions were each acknowledged and answered while
    # the big board played, interleaved with it (neither starves). How long they took is a
    # figure for a quiet machine, not a test: 1-4 ms normally, worst 50-60 ms meanwhile on
    # 60x100 (docs/server.md).
    assert len(normal) == 20 and len(meanwhile) >= 40


# -- questions over the socket: malformed, odd, and over the address's budget --------------

QUESTIONS: list[tuple[dict[str, Any], str]] = [  # malformed: a bad_message naming what is wrong
    ({"type": "threats", "id": 0}, "$.id"),
    ({"type": "threats", "id": 1, "side": "NOBODY"}, "$.side"),
    ({"type": "threats", "id": 2, "side": "DEFENDER", "radius": 3}, "radius"),
    ({"type": "hint", "id": "3"}, "$.id"),
    ({"type": "hint", "id": 2**53}, "$.id"),
    ({"type": "preview_move", "id": 4, "unit_id": "A" * 17}, "$.unit_id"),
    ({"type": "preview_attack", "id": 5, "attacker_id": "A7"}, "target_id"),
    ({"type": "explain", "id": 6, "action": {"type": "FIRE_NUKES"}}, "FIRE_NUKES"),
    ({"type": "rematch", "choice": "maybe"}, "$.choice"),
]
ODD: list[tuple[dict[str, Any], dict[str, Any]]] = [  # well-formed but odd: the answer with its problem
    ({"type": "preview_move", "id": 7, "unit_id": "Z99"}, {"type": "move_preview", "preview": None}),
    ({"type": "preview_attack", "id": 8, "attacker_id": "A7", "target_id": "A7"}, {"type": "attack_preview"}),
    ({"type": "threats", "id": 2**53 - 1, "side": "ATTACKER"}, {"type": "threat_map", "problem": None}),
    ({"type": "hint", "id": 9}, {"type": "hint", "action": None, "problem": "ATTACKER must decide now, not DEFENDER"}),
    ({"type": "explain", "id": 10, "action": {"type": "RESIGN", "side": "ATTACKER"}},
     {"type": "explanation", "legal": False, "code": "forbidden"}),
    ({"type": "rematch", "choice": "offer"},
     {"type": "reject", "code": "bad_message", "reason": "a rematch can be offered once the game is over"}),
]


def test_questions_refuse_malformed_ones_naming_the_path_and_answer_odd_ones_with_their_problem(
        server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server, config=QUERY_GAME)
        defender = seats["DEFENDER"]
        for question, words in QUESTIONS:
            await defender.send(question)
            reply = await defender.expect("reject")
            assert reply["code"] == "bad_message" and words in reply["reason"], (question, reply)
        for question, expected in ODD:
            await defender.send(question)
            reply = await defender.expect(expected["type"])
            assert {key: reply.get(key) for key in expected} == expected, (question, reply)
            assert reply.get("id") == question.get("id"), reply
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def _post_from(server: LiveServer, host: str, path: str, body: Any) -> tuple[int, dict[str, str], Any]:
    """A JSON POST from loopback address ``host``: (status, headers, decoded answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(host, 0))
    try:
        conn.request("POST", path, body=json.dumps(body).encode(), headers={"content-type": "application/json"})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(response.read())
    finally:
        conn.close()


def test_costly_requests_over_an_addresses_budget_are_refused_naming_when_to_retry(tmp_path: Path) -> None:
    """One threat map overdraws a budget of a millisecond; kept answers stay free, other addresses unaffected."""
    live = LiveServer(tmp_path / "data", {**FAST_LIMITS, "cpu_budget_burst": 0.001, "cpu_budget_rate": 0.001}).start()
    record = {"config": QUERY_GAME, "actions": [], "rules_version": RULES_VERSION}

    async def run() -> None:
        created = create_match(live, config=QUERY_GAME)
        attacker = await Peer.seated(live, created["match_id"], tokens_of(created)["ATTACKER"])
        mine = await ask(attacker, {"type": "threats", "id": 1}, "threat_map")
        await attacker.send({"type": "threats", "id": 2, "side": "DEFENDER"})  # not kept: it must be worked out
        refused = await attacker.expect("reject")
        assert refused["code"] == "rate_limited" and refused["id"] == 2 and "retry in" in refused["reason"]
        assert refused["retry_after"] >= 1.0 and f"{refused['retry_after']:g} s" in refused["reason"]
        assert (await ask(attacker, {"type": "threats", "id": 3}, "threat_map"))["threats"] == mine["threats"]
        spectator = await Peer.open(live, created["match_id"], local_addr=("127.0.0.2", 0))
        await spectator.send({"type": "hello"})
        await spectator.expect("state")
        assert (await ask(spectator, {"type": "threats", "id": 4, "side": "DEFENDER"}, "threat_map"))["threats"]

    try:
        arun(run())
        status, headers, answer = _post_from(live, "127.0.0.1", "/api/replays", {"record": record})
        assert status == 429 and answer["code"] == "rate_limited" and "retry in" in answer["reason"]
        assert int(headers["retry-after"]) >= answer["retry_after"] >= 1.0
        assert _post_from(live, "127.0.0.3", "/api/replays", {"record": record})[0] == 200
    finally:
        assert live.stop() == 0
    assert "Traceback" not in live.log_text()


# -- the HTTP endpoints added since: evaluation, history, challenges, catalogues -----------


def test_the_evaluation_endpoint_refuses_bad_bodies_naming_the_problem_and_judges_what_replays(
        server: LiveServer) -> None:
    path = "/api/replays/evaluation"
    config = {**QUICK_GAME, "seed": 3}
    for body, words in ((b"{nope", "malformed"), (b"{}", "record"), (b'{"record": {"config": 5}}', "$.record"),
                        (b'{"record": {"config": {}, "actions": []}, "record": {"config": {}, "actions": []}}',
                         "'record'"),
                        (json.dumps({"record": {"config": config, "actions": [], "rules_version": "0.0ldrul3s"}})
                         .encode(), "0.0ldrul3s")):
        status, answer = http_json(server, "POST", path, body)
        assert (status, answer["code"]) == (400, "bad_request") and words in answer["reason"], (body, answer)
    assert http_json(server, "POST", path, b"{}", headers={"content-type": "text/plain"})[0] == 415
    assert http_json(server, "POST", path, b" " * (1024 * 1024 + 1))[0] == 413
    illegal = {"config": config, "actions": [{"type": "NEXT_PHASE"}] * 3, "rules_version": RULES_VERSION}
    status, judged = http_json(server, "POST", path, {"record": illegal})
    assert status == 200 and [p["step"] for p in judged["points"]] == [0]  # judged as far as it replays


def test_the_history_endpoint_answers_odd_ids_with_a_404(server: LiveServer) -> None:
    for match_id in ("nope", "%2e%2e", "x" * 65, "%F0%9F%82%A1"):
        status, answer = http_json(server, "GET", f"/api/matches/{match_id}/history")
        assert (status, answer["code"]) == (404, "not_found"), (match_id, answer)
    status, history = http_json(server, "GET", f"/api/matches/{create_match(server)['match_id']}/history")
    assert status == 200 and history["steps"] == 0 and history["rolls"] == []


def test_joining_a_challenge_refuses_bodies_odd_ids_and_matches_that_wait_for_nobody(server: LiveServer) -> None:
    challenge = create_match(server, open=True)["match_id"]
    ordinary = create_match(server)["match_id"]
    join = f"/api/challenges/{challenge}/join"
    for body, status, code in ((b'{"seat": "DEFENDER"}', 400, "bad_request"), (b"[]", 400, "bad_request"),
                               (b"{nope", 400, "bad_request")):
        got, answer = http_json(server, "POST", join, body)
        assert (got, answer["code"]) == (status, code), (body, answer)
    assert http_json(server, "POST", join, b"{}", headers={"content-type": "text/plain"})[0] == 415
    assert http_json(server, "POST", "/api/challenges/%2e%2e/join", b"{}")[1]["code"] == "not_found"
    assert http_json(server, "POST", f"/api/challenges/{ordinary}/join", b"{}")[1]["code"] == "taken"
    assert http_json(server, "POST", join, b"{}")[0] == 201
    assert http_json(server, "POST", join, b"{}")[1]["code"] == "taken"  # once only


def test_the_catalogues_ignore_query_strings_and_refuse_other_methods(server: LiveServer) -> None:
    for path in ("/api/bots", "/api/cards", "/api/units", "/api/challenges", "/rules"):
        assert http_json(server, "GET", path + "?x=%00&y=" + "9" * 5000)[0] == 200, path
        assert http_json(server, "POST", path, b"{}")[0] == 405, path
