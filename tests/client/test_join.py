"""`taktik join` against real `taktik serve` processes: whole games, restarts, clocks, limits, bad input.

Every run is the real command line in its own process, as a bot author runs it; the server
is a real uvicorn on a loopback port with its SQLite store.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest

from engine import GameConfig, GameRecord, Side, encode_record
from lab.bots import get_bot, seat_seed
from lab.selfplay import play_game
from tests.server.conftest import (
    FAST_LIMITS,
    QUICK_GAME,
    REPO,
    LiveServer,
    http_json,
)

from .conftest import finish, join, new_match

FAST = ("--rate", "0")  # the fast servers here lift the rate limits


def token_of(url: str) -> str:
    return url.split("#", 1)[1]


def assert_one_line(err: str, *secrets: str) -> None:
    """A failure is one line on stderr (after any progress lines), never a traceback nor a token."""
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("taktik join: "), err
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
        while http_json(server, "GET", f"/api/matches/{match_id}")[1]["version"] < 12:
            assert time.monotonic() < deadline, "the game did not start"
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
