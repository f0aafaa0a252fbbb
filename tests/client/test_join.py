"""`taktik join` against real `taktik serve` processes: whole games, restarts, clocks, limits, bad input.

Every run is the real command line in its own process, as a bot author runs it; the server
is a real uvicorn on a loopback port with its SQLite store.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from client import LinkError, connection, parse_seat_link
from engine import GameConfig, GameRecord, Side, encode_record
from lab.bots import get_bot, seat_seed
from lab.selfplay import play_game
from tests.server.conftest import (
    FAST_LIMITS,
    QUICK_GAME,
    REPO,
    STRICT_LIMITS,
    LiveServer,
    Peer,
    arun,
    free_port,
    http_json,
)

from .conftest import finish, join, new_match

FAST = ("--rate", "0")  # the fast servers here lift the rate limits


def token_of(url: str) -> str:
    return url.split("#", 1)[1]


def assert_one_line(err: str, *secrets: str) -> None:
    """A failure is one line on stderr (after any progress lines; with an indented hint at most), never a
    traceback nor a token."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    if lines[-1].startswith("  "):  # the hint of the line before
        lines.pop()
    assert lines[-1].startswith("taktik join: ") and not lines[-1].startswith("taktik join:  "), err
    for secret in secrets:
        assert secret not in err


def record_of(server: LiveServer, match_id: str) -> GameRecord:
    status, body = http_json(server, "GET", f"/api/matches/{match_id}/record")
    assert status == 200 and body["status"] == "over", body
    return msgspec.convert(body["record"], GameRecord)


@pytest.mark.parametrize(("bots", "options"), [
    (("greedy", "random"), ()),
    (("mcts", "greedy"), ("mcts.iterations=6",)),
], ids=["greedy-random", "mcts-greedy"])
def test_seats_joined_over_the_wire_play_byte_identical_records_to_selfplay(
    live: LiveServer, tmp_path: Path, bots: tuple[str, str], options: tuple[str, ...]
) -> None:
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps(QUICK_GAME))
    seed, games = 41, 2
    selfplay = subprocess.run(
        [sys.executable, "-m", "cli", "selfplay", "--bots", ",".join(bots), "--games", str(games), "--seed", str(seed),
         "--config", str(config_file), "--out", str(tmp_path / "selfplay"),
         *(arg for option in options for arg in ("--option", option))],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    assert selfplay.returncode == 0, selfplay.stderr
    for game in range(games):
        names = {Side.ATTACKER: bots[game % 2], Side.DEFENDER: bots[(game + 1) % 2]}  # sides swap every game
        match_id, links = new_match(live, seed + game)
        runs = {}
        for side, name in names.items():
            own = [option.partition(".")[2] for option in options if option.startswith(f"{name}.")]
            args = ["--bot", name, "--bot-seed", str(seat_seed(seed + game, side)), *FAST, "--quiet"]
            args += [arg for option in own for arg in ("--option", option)]
            if side is Side.ATTACKER:
                args += ["--out", str(tmp_path / f"joined-{game}.json")]
            runs[side] = join(links[side.value], *args)
        results = {side: finish(run) for side, run in runs.items()}
        for side, (code, out, err) in results.items():
            assert code in (0, 1) and err == "", err
            assert f"this seat ({side.value}) {'won' if code == 0 else 'lost'}" in out
            assert token_of(links[side.value]) not in out
        assert {code for code, _, _ in results.values()} == {0, 1}
        joined = (tmp_path / f"joined-{game}.json").read_bytes()
        assert joined == (tmp_path / "selfplay" / f"game-{game:04d}.json").read_bytes()
        assert encode_record(record_of(live, match_id)) == joined


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "restart"])
def test_join_reconnects_across_a_server_restart_and_the_game_is_the_same(tmp_path: Path, stop: int) -> None:
    server = LiveServer(tmp_path / "data", FAST_LIMITS).start()
    config = {"victory": {"round_limit": {"max_rounds": 4}}, "seed": 77}
    match_id, links = new_match(server, config=config)
    for side in Side:  # the link through stdin: it stays out of the process list
        (tmp_path / f"{side.value}.link").write_text(links[side.value] + "\n")
    runs = {}
    for side in Side:
        with (tmp_path / f"{side.value}.link").open() as link_file:
            runs[side] = join("-", "--bot", "greedy", "--bot-seed", str(seat_seed(77, side)), *FAST,
                              "--reconnect-for", "60", stdin=link_file)
    try:
        deadline = time.monotonic() + 120

        def under_way() -> bool:  # both clients connected (a loaded machine starts one late) and play going on
            summary = http_json(server, "GET", f"/api/matches/{match_id}")[1]
            online = summary["online"]
            return summary["version"] >= 12 and online["attacker"] >= 1 and online["defender"] >= 1

        while not under_way():
            assert time.monotonic() < deadline, "the game did not start with both seats connected"
            time.sleep(0.05)
        if stop == signal.SIGKILL:
            server.kill()
        else:
            assert server.stop(stop) == 0
        time.sleep(1.0)  # the clients find the server gone and keep trying
        server.start()  # at the same address, from the same data
        results = {side: finish(run) for side, run in runs.items()}
        record = record_of(server, match_id)
    finally:
        for run in runs.values():
            if run.poll() is None:
                run.kill()
                run.communicate()
        server.kill()
    for side, (code, out, err) in results.items():
        assert code in (0, 1), err
        assert "reconnecting" in err and "reconnected at version" in err and "Traceback" not in err
        assert token_of(links[side.value]) not in out + err
    expected, _ = play_game(msgspec.convert(config, GameConfig), {side: get_bot("greedy") for side in Side})
    assert encode_record(record) == encode_record(expected)  # nothing lost, nothing played twice


def test_a_bot_thinks_within_its_clock(live: LiveServer) -> None:
    # Without the clock's budget, 100,000 iterations a search would take hours; with 20 s on the
    # clock for a two-round game the search stops in time and the game ends by its rules.
    match_id, links = new_match(live, seed=9, clock={"initial": 20})
    thinker = join(links["ATTACKER"], "--bot", "mcts", "--option", "iterations=100000", *FAST)
    quick = join(links["DEFENDER"], "--bot", "greedy", *FAST)
    (code, out, err), (other, _, _) = finish(thinker), finish(quick)
    assert code in (0, 1) and other == 1 - code, err
    status, body = http_json(live, "GET", f"/api/matches/{match_id}/record")
    assert status == 200 and body["record"]["actions"][-1]["type"] != "TIMEOUT"
    assert "by round_limit" in out or "by victory_points" in out or "by annihilation" in out, out
    spent = 20_000 - body["clocks"][-1]["attacker"]
    assert 1_000 < spent < 20_000  # it did think, and within its time


def test_join_keeps_under_the_servers_default_rate_limits(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data", STRICT_LIMITS).start()
    try:
        match_id, links = new_match(server, seed=5)
        runs = [join(links[side.value], "--bot", "greedy") for side in Side]  # the default pace
        results = [finish(run) for run in runs]
        assert sorted(code for code, _, _ in results) == [0, 1]
        for _, _, err in results:
            assert "too fast" not in err, err
        assert http_json(server, "GET", f"/api/matches/{match_id}")[1]["status"] == "over"
    finally:
        assert server.stop() == 0


def test_a_wrong_link_is_one_line_and_exit_code_2(live: LiveServer) -> None:
    match_id, links = new_match(live)
    token = token_of(links["ATTACKER"])
    for link, words in (
        (links["ATTACKER"].split("#")[0], "no #<token>"),
        (f"{live.base}/play/NoSuchMatch123#{token}", "there is no match NoSuchMatch123"),
        (f"{live.base}/play/{match_id}#{token[::-1]}", "opens no seat"),
        (f"{live.base}/watch/{match_id}#{token}", "/play/<match>"),
    ):
        code, out, err = finish(join(link, *FAST))
        assert code == 2 and out == "" and words in err, err
        assert_one_line(err, token, token[::-1])


def test_an_unreachable_server_is_exit_code_4(live: LiveServer) -> None:
    _, links = new_match(live)
    token = token_of(links["ATTACKER"])
    code, _, err = finish(join(f"http://127.0.0.1:{free_port()}/play/m1#{token}", "--reconnect-for", "1"))
    assert code == 4 and "cannot reach the server at http://127.0.0.1:" in err
    assert_one_line(err, token)


def test_a_finished_match_is_an_expired_seat_exit_code_3(live: LiveServer) -> None:
    match_id, links = new_match(live)

    async def resign() -> None:
        peer = await Peer.seated(live, match_id, token_of(links["DEFENDER"]))
        seq = await peer.act({"type": "RESIGN", "side": "DEFENDER"})
        assert (await peer.reply(seq))["type"] == "ack"

    arun(resign())
    for side in ("ATTACKER", "DEFENDER"):
        code, out, err = finish(join(links[side], *FAST))
        assert code == 3 and out == "" and "is already over: ATTACKER won by resignation" in err, err
        assert_one_line(err, token_of(links[side]))


def test_a_server_that_goes_away_is_exit_code_4(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data", FAST_LIMITS).start()
    match_id, links = new_match(server, config={"victory": {"round_limit": {"max_rounds": 10}}, "seed": 3})
    runs = {side: join(links[side.value], "--bot", "greedy", *FAST, "--reconnect-for", "2") for side in Side}
    try:
        deadline = time.monotonic() + 120
        while http_json(server, "GET", f"/api/matches/{match_id}")[1]["version"] < 6:
            assert time.monotonic() < deadline, "the game did not start"
            time.sleep(0.05)
        server.kill()
        for side, run in runs.items():
            code, _, err = finish(run, timeout=60)
            assert code == 4 and f"lost match {match_id}" in err and "could not reconnect within 2 s" in err, err
            assert_one_line(err, token_of(links[side.value]))
    finally:
        for run in runs.values():
            if run.poll() is None:
                run.kill()
                run.communicate()
        server.kill()


POLICIES = '''
def raises(turn):
    raise RuntimeError("out of ideas\\nsecond line")

def illegal(turn):
    return {"type": "MOVE_UNIT", "unit_id": "A1", "to": "A1"}

def nothing(turn):
    return None

not_callable = 42
'''


@pytest.mark.parametrize(("spec", "code", "words"), [
    ("policies:raises", 5, "the policy raised RuntimeError: out of ideas"),
    ("policies:illegal", 5, 'the policy chose {"type":"MOVE_UNIT","unit_id":"A1","to":"A1"}, which is not one'),
    ("policies:nothing", 5, "the policy returned None, not an action"),
    ("policies:not_callable", 2, "is a int, not a policy or a bot"),
    ("policies:missing", 2, "'policies' has no 'missing'"),
    ("no_such_module:policy", 2, "no module 'no_such_module'"),
    ("policies", 2, "is not MODULE:CALLABLE"),
])
def test_a_failing_policy_is_one_line_and_its_action_is_never_sent(
    live: LiveServer, tmp_path: Path, spec: str, code: int, words: str
) -> None:
    (tmp_path / "policies.py").write_text(POLICIES)
    match_id, links = new_match(live)
    got, out, err = finish(join(links["ATTACKER"], "--policy", spec, *FAST, cwd=tmp_path))
    assert got == code and out == "" and words in err, err
    assert_one_line(err, token_of(links["ATTACKER"]))
    assert http_json(live, "GET", f"/api/matches/{match_id}")[1]["version"] == 0  # nothing was played


@pytest.mark.parametrize(("args", "words"), [
    (("--bot", "chess"), "unknown bot 'chess'"),
    (("--bot", "mcts", "--option", "depth=3"), "bot 'mcts' has no option 'depth'"),
    (("--bot", "mcts", "--option", "iterations=0"), "iterations must be at least 1"),
    (("--bot", "greedy", "--option", "mcts.iterations=3"), "is not BOT.OPTION=VALUE for one of greedy"),
    (("--policy", "policies:raises", "--option", "x=1"), "--option goes with --bot"),
    (("--rate", "-1"), "'-1' is not a number from 0 up"),
    (("--reconnect-for", "nan"), "'nan' is not a number from 0 up"),
])
def test_bad_arguments_are_exit_code_2_before_anything_is_played(live: LiveServer, args: tuple[str, ...],
                                                                   words: str) -> None:
    _, links = new_match(live)
    code, out, err = finish(join(links["DEFENDER"], *args))
    assert code == 2 and out == "" and words in err, err
    assert_one_line(err, token_of(links["DEFENDER"]))


def test_a_server_that_closes_before_the_hello_is_sent_is_read_as_its_close_code(
        live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # The server closes a socket to a match it does not have at once, without reading hello:
    # when that close arrives before the client's hello goes out, the client reads the close
    # code as it does when it arrives after (a race the fresh-clone CI once lost: exit 70).
    real_connect = connection.connect

    async def connect_then_wait_for_the_close(*args: Any, **kwargs: Any) -> Any:
        ws = await real_connect(*args, **kwargs)
        await asyncio.wait_for(ws.wait_closed(), 10)
        return ws

    monkeypatch.setattr(connection, "connect", connect_then_wait_for_the_close)
    link = parse_seat_link(f"{live.base}/play/NoSuchMatch123#{'t' * 43}")
    with pytest.raises(LinkError, match="there is no match NoSuchMatch123"):
        asyncio.run(connection.open_connection(link, timeout=10))
