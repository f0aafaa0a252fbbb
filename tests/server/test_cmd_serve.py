"""`taktik serve` as a process: kill -9 and restart, clean stops, one server per data dir, broken logs,
matches stored under other rules."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine import RULES_VERSION

from .conftest import FAST_LIMITS, REPO, LiveServer, Peer, arun, create_match, http_json, tokens_of
from .test_ws import closes_with, play_out


def test_kill_9_mid_game_loses_no_acknowledged_action_and_play_resumes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = LiveServer(data, FAST_LIMITS).start()
    created = create_match(first)
    match_id, tokens = created["match_id"], tokens_of(created)

    async def before_crash() -> int:
        seats = {seat: await Peer.seated(first, match_id, token) for seat, token in tokens.items()}
        state = await play_out(seats, [], random.Random(21), steps=12)
        actor = seats[state["to_act"]]
        seq = await actor.act(random.Random(1).choice(actor.state["legal_actions"]))  # type: ignore[index]
        reply = await actor.reply(seq)  # acknowledged: it must survive the crash
        assert reply["type"] == "ack"
        return int(reply["version"])

    acknowledged = arun(before_crash())
    first.kill()
    second = LiveServer(data, FAST_LIMITS).start()
    try:
        status, summary = http_json(second, "GET", f"/api/matches/{match_id}")
        assert status == 200 and summary["version"] == acknowledged

        async def after_restart() -> dict[str, object]:
            seats = {seat: await Peer.seated(second, match_id, token) for seat, token in tokens.items()}
            assert all(p.version == acknowledged for p in seats.values())
            return await play_out(seats, [], random.Random(22))

        final = arun(after_restart())
        assert final["status"] == "over"
        status, body = http_json(second, "GET", f"/api/matches/{match_id}/record")
        assert body["status"] == "over" and body["seed"] is not None
        assert len(body["record"]["hashes"]) == final["version"]
    finally:
        assert second.stop() == 0


def test_sigterm_and_ctrl_c_stop_cleanly_and_release_the_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for sig in (signal.SIGTERM, signal.SIGINT):
        live = LiveServer(data, FAST_LIMITS).start()
        created = create_match(live)

        async def stop_while_connected(live: LiveServer, match_id: str, sig: int) -> int:
            peer = await Peer.seated(live, match_id, None)
            assert await asyncio.to_thread(live.stop, sig) == 0
            return await closes_with(peer)

        assert arun(stop_while_connected(live, created["match_id"], sig)) == 1012  # "service restart"
        assert "Taktik server stopped." in live.log_text()
        assert "Traceback" not in live.log_text()
    with sqlite3.connect(data / "taktik.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM matches").fetchone() == (2,)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


def test_a_second_server_on_the_same_data_dir_refuses_to_start(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data").start()
    try:
        other = subprocess.run([sys.executable, "-m", "cli", "serve", "--port", "0", "--data",
                                str(tmp_path / "data")], cwd=REPO, capture_output=True, text=True, timeout=60)
        assert other.returncode == 1 and "in use by another taktik server" in other.stderr
        assert "Traceback" not in other.stderr
    finally:
        assert live.stop() == 0


def test_an_invalid_limits_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "limits.json").write_text('{"action_rate": "fast"}')
    result = subprocess.run([sys.executable, "-m", "cli", "serve", "--data", str(tmp_path / "data"),
                             "--limits", str(tmp_path / "limits.json")], cwd=REPO, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and "$.action_rate" in result.stderr


def test_a_match_whose_log_no_longer_replays_is_served_read_only_and_the_rest_works(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = LiveServer(data, FAST_LIMITS).start()
    damaged, healthy = create_match(first), create_match(first)

    async def play_some(live: LiveServer, created: dict[str, object], steps: int) -> None:
        seats = {s: await Peer.seated(live, created["match_id"], t)  # type: ignore[arg-type]
                 for s, t in tokens_of(created).items()}  # type: ignore[arg-type]
        await play_out(seats, [], random.Random(3), steps=steps)

    arun(play_some(first, damaged, 6))
    assert first.stop() == 0
    with sqlite3.connect(data / "taktik.sqlite3") as db:
        db.execute("UPDATE actions SET state_hash=? WHERE match_id=? AND ply=3", ("0" * 64, damaged["match_id"]))
    db.close()

    second = LiveServer(data, FAST_LIMITS).start()
    try:
        async def visit() -> None:
            token = tokens_of(damaged)["ATTACKER"]
            peer = await Peer.seated(second, str(damaged["match_id"]), token)
            assert peer.state is not None and peer.state["status"] == "broken"
            assert peer.state["version"] == 3 and peer.state["legal_actions"] == []
            assert "step 3" in peer.state["broken_reason"]
            seq = await peer.act({"type": "NEXT_PHASE"}, version=3)
            reply = await peer.reply(seq)
            assert reply["code"] == "forbidden"
            await play_some(second, healthy, 3)

        arun(visit())
        status, summary = http_json(second, "GET", f"/api/matches/{damaged['match_id']}")
        assert summary["status"] == "broken"
        status, record = http_json(second, "GET", f"/api/matches/{damaged['match_id']}/record")
        assert status == 200 and record["seed"] is None and len(record["record"]["actions"]) == 6
    finally:
        assert second.stop() == 0
    assert "is broken" in second.log_text()


def test_a_match_stored_under_other_rules_is_served_read_only_and_labelled_so_never_broken(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = LiveServer(data, FAST_LIMITS).start()
    older, current = create_match(first), create_match(first)

    async def play_some(live: LiveServer, created: dict[str, Any], steps: int) -> None:
        seats = {s: await Peer.seated(live, created["match_id"], t) for s, t in tokens_of(created).items()}
        await play_out(seats, [], random.Random(3), steps=steps)

    arun(play_some(first, older, 4))
    assert first.stop() == 0
    with sqlite3.connect(data / "taktik.sqlite3") as db:  # as a server of other rules would have stored it
        db.execute("UPDATE matches SET rules_version='0.0ldrul3s' WHERE id=?", (older["match_id"],))
    db.close()
    both = f"rules version 0.0ldrul3s; this server plays {RULES_VERSION}"

    second = LiveServer(data, FAST_LIMITS).start()
    try:
        status, summary = http_json(second, "GET", f"/api/matches/{older['match_id']}")
        assert status == 200 and summary["status"] == "other_rules" and summary["rules_version"] == "0.0ldrul3s"
        assert summary["broken_reason"] is None and summary["version"] == 4
        status, lobby = http_json(second, "GET", "/api/matches")
        assert {m["match_id"]: m["status"] for m in lobby} == {older["match_id"]: "other_rules",
                                                              current["match_id"]: "live"}

        async def visit() -> None:
            peer = await Peer.open(second, str(older["match_id"]))
            await peer.send({"type": "hello", "token": tokens_of(older)["ATTACKER"]})
            welcome = await peer.expect("welcome")
            assert welcome["rules_version"] == "0.0ldrul3s"
            state = await peer.expect("state")
            assert state["status"] == "other_rules" and state["version"] == 4 and state["legal_actions"] == []
            assert state["to_act"] is None and both in state["broken_reason"] and "read only" in state["broken_reason"]
            seq = await peer.act({"type": "NEXT_PHASE"}, version=4)
            reply = await peer.reply(seq)
            assert reply["code"] == "forbidden" and both in reply["reason"]
            await play_some(second, current, 3)  # the server and every other match carry on

        arun(visit())
        status, record = http_json(second, "GET", f"/api/matches/{older['match_id']}/record")
        assert status == 200 and record["status"] == "other_rules"
        assert record["record"]["rules_version"] == "0.0ldrul3s" and len(record["record"]["actions"]) == 4
        status, answer = http_json(second, "POST", f"/api/matches/{older['match_id']}/fork", {})
        assert status == 409 and answer["code"] == "unavailable" and both in answer["reason"]
    finally:
        assert second.stop() == 0
    assert "is broken" not in second.log_text()
    with sqlite3.connect(data / "taktik.sqlite3") as db:
        assert db.execute("SELECT status FROM matches WHERE id=?", (older["match_id"],)).fetchone() == ("live",)
    db.close()


def test_compress_turns_on_permessage_deflate_and_the_default_leaves_it_off(tmp_path: Path) -> None:
    async def negotiated(live: LiveServer) -> str:
        created = create_match(live)
        peer = await Peer.seated(live, created["match_id"], tokens_of(created)["ATTACKER"])  # offers deflate
        assert peer.state is not None and peer.state["legal_actions"]
        assert peer.conn.response is not None
        extensions = peer.conn.response.headers.get("Sec-WebSocket-Extensions", "")
        await peer.close()
        return extensions

    for flags, expected in (((), False), (("--compress",), True)):
        live = LiveServer(tmp_path / f"data{len(flags)}", FAST_LIMITS, *flags).start()
        try:
            assert ("permessage-deflate" in arun(negotiated(live))) is expected
        finally:
            assert live.stop() == 0
