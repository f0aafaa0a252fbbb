"""Clocks (server/clocks.py): timeouts at the boundary, increments, races, restarts, records.

A real uvicorn and real WebSockets; the time is a `ManualClock` the test moves, so nothing
waits for real seconds (except the kill -9 test, which needs a separate process).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import GameRecord, decode_record, replay, state_hash
from tests.server.conftest import FAST_LIMITS, QUICK_GAME, LiveServer, Peer, arun, create_match, http_json, tokens_of
from tests.server.manual_clock import InProcessServer, ManualClock


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[InProcessServer, ManualClock]]:
    clock = ManualClock()
    server = InProcessServer(tmp_path_factory.mktemp("clocks") / "data", clock).start()
    yield server, clock
    server.stop()


async def seated_pair(server: Any, clock: dict[str, int] | None, **body: Any) -> tuple[str, dict[str, Peer]]:
    """A match between two people with ``clock``, both seats connected (so its clock runs)."""
    created = create_match(server, clock=clock, **body)
    seats = {seat: await Peer.seated(server, created["match_id"], token) for seat, token in tokens_of(created).items()}
    return created["match_id"], seats


_MARKS = iter(range(1, 10**9))


async def synced(peer: Peer) -> dict[str, Any]:
    """A fresh `state`: the answer to a `sync`, told apart from older queued ones by a question sent after it."""
    mark = next(_MARKS)
    await peer.send({"type": "sync"})
    await peer.send({"type": "explain", "id": mark, "action": {"type": "NEXT_PHASE"}})
    latest: dict[str, Any] | None = None
    while True:
        message = await peer.recv()
        if message["type"] == "state":
            latest = message
        elif message["type"] == "explanation" and message["id"] == mark:
            assert latest is not None
            return latest


def left(state: dict[str, Any]) -> dict[str, int]:
    return dict(state["clock"]["remaining_ms"])


def test_an_act_a_millisecond_before_the_flag_counts_and_the_clock_falls_exactly_at_zero(
        timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> None:
        match_id, seats = await seated_pair(server, {"initial": 60})
        attacker, defender = seats["ATTACKER"], seats["DEFENDER"]
        state = await synced(attacker)
        assert state["clock"]["running"] == "ATTACKER" and left(state) == {"attacker": 60000, "defender": 60000}
        clock.advance(59.999)
        seq = await attacker.act({"type": "DRAW_CARD"})
        assert (await attacker.reply(seq))["type"] == "ack"
        state = await synced(attacker)
        assert left(state) == {"attacker": 1, "defender": 60000} and state["to_act"] == "ATTACKER"
        clock.advance(0.001)
        for peer in (attacker, defender):
            over = await peer.until_version(2)
            assert (over["view"]["winner"], over["view"]["victory_reason"]) == ("DEFENDER", "time")
            assert over["clock"]["running"] is None and left(over)["attacker"] == 0
        status, record = http_json(server, "GET", f"/api/matches/{match_id}/record")
        assert status == 200
        assert record["record"]["actions"][-1] == {"type": "TIMEOUT", "side": "ATTACKER", "clock": "game"}
        assert record["elapsed_ms"] == [59999, 1]
        assert record["clocks"][-1] == {"attacker": 0, "defender": 60000}
        hashes = [state_hash(s) for s in replay(decode_record(_record_bytes(record)))][1:]
        assert tuple(hashes) == tuple(record["record"]["hashes"])

    arun(run())


def _record_bytes(answer: dict[str, Any]) -> bytes:
    return json.dumps(answer["record"]).encode()


def _choose(state: dict[str, Any]) -> dict[str, Any]:
    """End the turn as soon as possible; otherwise the first legal action."""
    legal = state["legal_actions"]
    ending = [a for a in legal if a["type"] == "END_TURN"]
    return ending[0] if ending else legal[0]


async def play_until_turn(seats: dict[str, Peer], clock: ManualClock, turn: int,
                          seconds: dict[str, float]) -> tuple[dict[str, Any], dict[str, int]]:
    """Play until ``turn`` starts; each seat's decision takes ``seconds[seat]``. Returns the state and the actions
    each seat made."""
    made = {"ATTACKER": 0, "DEFENDER": 0}
    while True:
        state = await synced(seats["ATTACKER"])
        if state["view"]["turn"] >= turn or state["to_act"] is None:
            return state, made
        seat = state["to_act"]
        mine = await synced(seats[seat])
        clock.advance(seconds[seat])
        seq = await seats[seat].act(_choose(mine))
        assert (await seats[seat].reply(seq))["type"] == "ack"
        made[seat] += 1


def test_the_increment_is_given_once_per_turn_not_per_action(timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> None:
        _, seats = await seated_pair(server, {"initial": 600, "increment": 5})
        state, made = await play_until_turn(seats, clock, 2, {"ATTACKER": 1.0, "DEFENDER": 0.0})
        assert made["ATTACKER"] >= 2
        assert left(state) == {"attacker": 600_000 - 1000 * made["ATTACKER"] + 5000, "defender": 600_000}
        after_one = left(state)
        state, made = await play_until_turn(seats, clock, 3, {"ATTACKER": 0.0, "DEFENDER": 2.0})
        assert left(state) == {"attacker": after_one["attacker"],
                               "defender": 600_000 - 2000 * made["DEFENDER"] + 5000}

    arun(run())


def test_a_per_turn_clock_starts_each_turn_afresh_and_its_timeout_ends_the_turn(
        timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> None:
        match_id, seats = await seated_pair(server, {"per_turn": 30})
        attacker = seats["ATTACKER"]
        clock.advance(29.5)
        assert left(await synced(attacker)) == {"attacker": 500, "defender": 30000}
        clock.advance(0.5)  # the ATTACKER never drew: its turn ends without a card
        state = await attacker.until_version(1)
        assert state["view"]["turn"] == 2 and state["to_act"] == "DEFENDER"
        assert left(state) == {"attacker": 30000, "defender": 30000} and state["clock"]["running"] == "DEFENDER"
        _, record = http_json(server, "GET", f"/api/matches/{match_id}/record")
        assert {"type": "TIMEOUT", "side": "ATTACKER", "clock": "turn"} in record["record"]["actions"]

    arun(run())


def test_a_timeout_racing_a_last_moment_act_leaves_one_log_that_both_seats_see(
        timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> None:
        match_id, seats = await seated_pair(server, {"initial": 20})
        attacker, defender = seats["ATTACKER"], seats["DEFENDER"]
        clock.advance(19.999)
        await synced(attacker)
        ticking = threading.Thread(target=clock.advance, args=(0.001,))
        seq = await attacker.act({"type": "DRAW_CARD"})
        ticking.start()
        outcome = await attacker.reply(seq)
        ticking.join()
        _, record = http_json(server, "GET", f"/api/matches/{match_id}/record")
        while record["status"] != "over":
            await asyncio.sleep(0.01)
            _, record = http_json(server, "GET", f"/api/matches/{match_id}/record")
        kinds = [a["type"] for a in record["record"]["actions"]]
        if outcome["type"] == "ack":
            assert kinds == ["DRAW_CARD", "TIMEOUT"]
        else:
            assert outcome["code"] == "game_over" and kinds == ["TIMEOUT"]
        seen = [await peer.until_version(len(kinds)) for peer in (attacker, defender)]
        assert {(s["version"], s["view"]["winner"], s["view"]["victory_reason"]) for s in seen} == {
            (len(kinds), "DEFENDER", "time")}

    arun(run())


def test_no_clock_runs_until_both_seats_have_connected(timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> None:
        created = create_match(server, clock={"initial": 60})
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        clock.advance(3600)
        state = await synced(attacker)
        assert state["clock"]["running"] is None and left(state)["attacker"] == 60000
        await Peer.seated(server, created["match_id"], tokens["DEFENDER"])
        started = await attacker.expect("clock")
        assert started["clock"]["running"] == "ATTACKER" and started["clock"]["server_time"] == clock.now()

    arun(run())


def test_a_bad_clock_is_refused_naming_the_field(timed: tuple[InProcessServer, ManualClock]) -> None:
    server, _ = timed
    for clock, words in (({"initial": 5}, "initial"), ({"per_turn": 60, "initial": 60}, "not both"),
                         ({"increment": 5}, "needs initial"), ({"initial": 60, "delay": 1}, "delay"),
                         ({"per_turn": 10**9}, "per_turn")):
        status, answer = http_json(server, "POST", "/api/matches", {"clock": clock})
        assert status == 400 and answer["code"] == "bad_request" and words in answer["reason"], answer


def test_clocks_resume_from_the_log_after_kill_9(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", FAST_LIMITS).start()
    try:
        async def before() -> tuple[str, dict[str, str], dict[str, int]]:
            created = create_match(live, clock={"initial": 600})
            tokens = tokens_of(created)
            seats = {s: await Peer.seated(live, created["match_id"], t) for s, t in tokens.items()}
            while (await synced(seats["ATTACKER"]))["view"]["turn"] == 1:
                state = await synced(seats["ATTACKER"])
                mover = seats[state["to_act"]]
                seq = await mover.act(_choose(await synced(mover)))
                assert (await mover.reply(seq))["type"] == "ack"
            return created["match_id"], tokens, left(await synced(seats["ATTACKER"]))

        match_id, tokens, shown = arun(before())
        live.kill()
        with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
            elapsed = [e for (e,) in db.execute("SELECT elapsed_ms FROM actions WHERE match_id=? ORDER BY ply",
                                                 (match_id,))]
        assert all(isinstance(e, int) and e >= 0 for e in elapsed)
        live.start()

        async def after() -> dict[str, Any]:
            peer = await Peer.seated(live, match_id, tokens["ATTACKER"])
            return await synced(peer)

        state = arun(after())
        assert state["clock"]["running"] == state["to_act"]
        idle = "attacker" if state["to_act"] == "DEFENDER" else "defender"
        assert left(state)[idle] == shown[idle]  # exactly what the log says
        running = state["to_act"].lower()
        _, record = http_json(live, "GET", f"/api/matches/{match_id}/record")
        logged = record["clocks"][-1]  # both clocks after the last logged action
        assert logged[idle] == shown[idle] and left(state)[running] <= logged[running]
        assert sum(elapsed) >= 600_000 - shown[idle]  # the log holds at least the idle seat's spent time
    finally:
        live.kill()


def test_a_timed_out_record_replays_to_every_hash(timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> GameRecord:
        match_id, seats = await seated_pair(server, {"per_turn": 15}, config={**QUICK_GAME, "seed": 77})
        for _ in range(3):
            clock.advance(15)
            await seats["ATTACKER"].until_version(seats["ATTACKER"].version + 1)
        seq = await seats["DEFENDER"].act({"type": "RESIGN", "side": "DEFENDER"},
                                          version=(await synced(seats["DEFENDER"]))["version"])
        assert (await seats["DEFENDER"].reply(seq))["type"] == "ack"
        _, answer = http_json(server, "GET", f"/api/matches/{match_id}/record")
        assert len(answer["clocks"]) == len(answer["record"]["actions"]) + 1
        assert answer["clocks"][0] == {"attacker": 15000, "defender": 15000}
        for k, expected in enumerate(answer["clocks"]):  # the replay viewer's clocks, step by step
            status, step = http_json(server, "GET", f"/api/matches/{match_id}/steps/{k}")
            assert status == 200 and step["clock"] == expected
        return decode_record(_record_bytes(answer))

    record = arun(run())
    assert record.hashes is not None
    assert [state_hash(s) for s in replay(record)][1:] == list(record.hashes)
    assert record.actions[-1].__struct_config__.tag == "RESIGN"
