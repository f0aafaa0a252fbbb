"""Several `taktik serve` processes sharing one real PostgreSQL and one real Redis: a game across three
processes, kill -9 of one, a Redis restart, a PostgreSQL outage, and `--workers`."""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cli.main import main
from engine import GameRecord, replay, state_hash

from .cluster import Postgres, Redis, require_cluster
from .conftest import FAST_LIMITS, LiveServer, Peer, arun, create_match, http_json, tokens_of
from .test_ws import play_out


@contextmanager
def processes(tmp_path: Path, database: str, bus: str, count: int = 3) -> Iterator[list[LiveServer]]:
    started: list[LiveServer] = []
    try:
        for i in range(count):
            started.append(LiveServer(tmp_path / f"p{i}", FAST_LIMITS, "--database", database, "--bus", bus).start())
        yield started
    finally:
        for live in started:
            if live.proc is not None and live.proc.poll() is None:
                assert live.stop() == 0, live.log_text()
            assert "Traceback" not in live.log_text(), live.log_text()


def final_hash_of_record(server: LiveServer, match_id: str) -> str:
    status, body = http_json(server, "GET", f"/api/matches/{match_id}/record")
    assert status == 200 and body["status"] == "over"
    record = msgspec.json.decode(json.dumps(body["record"]), type=GameRecord)
    states = list(replay(record))  # checks every stored hash on the way
    assert record.hashes is not None
    return state_hash(states[-1])


def versions_seen(peer: Peer) -> list[int]:
    return [m["version"] for m in peer.messages if m["type"] == "state"]


def test_a_game_across_three_processes_ends_in_victory_and_its_record_replays(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    with processes(tmp_path, postgres.new_database(), redis_server.url) as (one, two, three):
        created = create_match(one, seed=77)
        match_id, tokens = created["match_id"], tokens_of(created)

        async def run() -> dict[str, Any]:
            seats = {"ATTACKER": await Peer.seated(one, match_id, tokens["ATTACKER"]),
                     "DEFENDER": await Peer.seated(two, match_id, tokens["DEFENDER"])}
            spectator = await Peer.seated(three, match_id, None)
            final = await play_out(seats, [spectator], random.Random(5))
            assert spectator.state is not None and spectator.state["status"] == "over"
            for peer in [*seats.values(), spectator]:  # every version once, in order, on every process
                assert versions_seen(peer) == list(range(final["version"] + 1))
            return final

        final = arun(run())
        assert final["status"] == "over" and final["view"]["winner"] is not None
        hashes = {final_hash_of_record(live, match_id) for live in (one, two, three)}
        assert len(hashes) == 1


def test_kill_9_of_one_process_loses_no_acknowledged_action(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    with processes(tmp_path, postgres.new_database(), redis_server.url) as (one, two, three):
        created = create_match(one, seed=78)
        match_id, tokens = created["match_id"], tokens_of(created)

        async def until_crash() -> int:
            seats = {"ATTACKER": await Peer.seated(one, match_id, tokens["ATTACKER"]),
                     "DEFENDER": await Peer.seated(two, match_id, tokens["DEFENDER"])}
            await play_out(seats, [], random.Random(6), steps=10)
            attacker = seats["ATTACKER"]
            while attacker.state is not None and attacker.state["to_act"] != "ATTACKER":
                await play_out(seats, [], random.Random(7), steps=1)
            assert attacker.state is not None
            seq = await attacker.act(random.Random(1).choice(attacker.state["legal_actions"]))
            reply = await attacker.reply(seq)
            assert reply["type"] == "ack"  # acknowledged by process one, which dies next
            return int(reply["version"])

        acknowledged = arun(until_crash())
        one.kill()

        async def after_crash() -> dict[str, Any]:
            # The attacker reconnects to process three; the defender never left process two.
            seats = {"ATTACKER": await Peer.seated(three, match_id, tokens["ATTACKER"]),
                     "DEFENDER": await Peer.seated(two, match_id, tokens["DEFENDER"])}
            assert all(p.version == acknowledged for p in seats.values())
            return await play_out(seats, [], random.Random(8))

        final = arun(after_crash())
        assert final["status"] == "over"
        status, summary = http_json(two, "GET", f"/api/matches/{match_id}")
        assert status == 200 and summary["version"] == final["version"]
        assert final_hash_of_record(three, match_id) == final_hash_of_record(two, match_id)


def test_after_a_redis_restart_every_process_catches_up_and_no_viewer_misses_or_repeats(
        tmp_path: Path, postgres: Postgres) -> None:
    require_cluster()
    bus = Redis()
    bus.start()
    try:
        with processes(tmp_path, postgres.new_database(), bus.url) as (one, two, three):
            created = create_match(one, seed=79)
            match_id, tokens = created["match_id"], tokens_of(created)

            async def run() -> dict[str, Any]:
                seats = {"ATTACKER": await Peer.seated(one, match_id, tokens["ATTACKER"]),
                         "DEFENDER": await Peer.seated(two, match_id, tokens["DEFENDER"])}
                spectator = await Peer.seated(three, match_id, None)
                await play_out(seats, [spectator], random.Random(9), steps=8)
                bus.restart()  # every subscription drops; whatever is published meanwhile is lost
                final = await play_out(seats, [spectator], random.Random(10))
                for peer in [*seats.values(), spectator]:
                    assert versions_seen(peer) == list(range(final["version"] + 1))
                return final

            final = arun(run())
            assert final["status"] == "over"
            assert "resubscribing" in one.log_text() + two.log_text() + three.log_text()
    finally:
        bus.stop()


def test_while_postgresql_is_down_acts_are_refused_unavailable_and_service_resumes_by_itself(
        tmp_path: Path, redis_server: Redis) -> None:
    require_cluster()
    pg = Postgres()
    pg.start()
    try:
        with processes(tmp_path, pg.new_database(), redis_server.url, count=2) as (one, two):
            created = create_match(one, seed=80)
            match_id, tokens = created["match_id"], tokens_of(created)

            async def run() -> None:
                seats = {"ATTACKER": await Peer.seated(one, match_id, tokens["ATTACKER"]),
                         "DEFENDER": await Peer.seated(two, match_id, tokens["DEFENDER"])}
                await play_out(seats, [], random.Random(11), steps=4)
                state = seats["ATTACKER"].state
                assert state is not None
                actor = seats[state["to_act"]]
                assert actor.state is not None
                action = random.Random(2).choice(actor.state["legal_actions"])
                pg.stop()
                seq = await actor.act(action)
                refused = await actor.reply(seq, timeout=30)
                assert refused["type"] == "reject" and refused["code"] == "unavailable", refused
                assert actor.version == state["version"]  # nothing applied
                status, body = http_json(two, "GET", "/api/matches")
                assert (status, body["code"]) == (503, "unavailable"), body
                pg.start()
                for _ in range(60):  # the client resends the same seq until the database answers
                    await actor.act(action, seq=seq, version=state["version"])
                    reply = await actor.reply(seq, timeout=30)
                    if reply["type"] == "ack":
                        break
                    assert reply["code"] == "unavailable", reply
                assert reply == {"type": "ack", "seq": seq, "version": state["version"] + 1}
                for peer in seats.values():
                    await peer.until_version(state["version"] + 1, timeout=20)
                final = await play_out(seats, [], random.Random(12))
                assert final["status"] == "over"

            arun(run())
            status, summary = http_json(two, "GET", f"/api/matches/{match_id}")
            assert status == 200 and summary["status"] == "over"
    finally:
        pg.destroy()


def test_workers_share_one_port(tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    live = LiveServer(tmp_path / "w", FAST_LIMITS, "--database", postgres.new_database(), "--bus", redis_server.url,
                      "--workers", "2").start()
    try:
        created = create_match(live, seed=81)
        match_id, tokens = created["match_id"], tokens_of(created)

        async def run() -> dict[str, Any]:
            seats = {seat: await Peer.seated(live, match_id, token) for seat, token in tokens.items()}
            return await play_out(seats, [await Peer.seated(live, match_id, None)], random.Random(13))

        assert arun(run())["status"] == "over"
        assert live.log_text().count("Taktik is running") == 2
    finally:
        assert live.stop() == 0, live.log_text()


@pytest.mark.parametrize(("args", "problem"), [
    (["--bus", "redis://127.0.0.1:1/0"], "--bus needs --database"),
    (["--workers", "2"], "--workers needs --database and --bus"),
    (["--workers", "2", "--database", "postgresql://x@127.0.0.1:1/x"], "--workers needs --bus"),
    (["--database", "mysql://x"], "is not a postgresql://... URL"),
])
def test_impossible_storage_options_are_refused_saying_why(tmp_path: Path, args: list[str], problem: str) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["serve", "--data", str(tmp_path / "d"), "--port", "0", *args])
    assert code == 2 and problem in err.getvalue()
