"""`taktik ladder`: a round robin with ratings, records, JSON and HTML; outside programs over the wire; bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from cli.main import main
from engine import GameConfig, VictoryConfig, decode_record, replay
from tests.server.conftest import FAST_LIMITS, QUICK_GAME, REPO, LiveServer

SMALL = GameConfig(terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=400))


def write_config(tmp_path: Path, config: object = SMALL) -> Path:
    path = tmp_path / "game.json"
    path.write_bytes(msgspec.json.encode(config))
    return path


def test_a_ladder_rates_its_entries_and_writes_records_json_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ladder"
    code = main(["ladder", "--bots", "random,greedy,quick=greedy", "--option", "quick.move_limit=4", "--games", "2",
                 "--seed", "5", "--config", str(write_config(tmp_path)), "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    assert printed.startswith("ladder: 3 entries, 2 games per pair, seeds 5..6")
    assert "greedy" in printed and "(anchor)" in printed
    document = json.loads((out / "ladder.json").read_text())
    assert document["anchor"] == "greedy" and len(document["games"]) == 6
    assert {e["label"]: e["options"] for e in document["entries"]}["quick"] == {"move_limit": 4}
    assert (out / "ladder.txt").read_text().strip() == printed.split("\nrecords,")[0].strip()
    assert "<svg" in (out / "ladder.html").read_text()
    for game in document["games"]:
        record = decode_record((out / game["record"]).read_bytes())
        final = list(replay(record))[-1]  # every stored hash checked
        assert final.winner is not None and final.winner.value == game["winning_side"]
        assert record.config.seed == game["seed"]


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "greedy"], "at least two entries"),
    (["--bots", "greedy,chess"], "unknown bot 'chess'"),
    (["--bots", "greedy,Big=random"], "'Big' is not an entry label"),
    (["--bots", "greedy,greedy"], "every entry needs its own label"),
    (["--bots", "greedy,random", "--option", "nobody.move_limit=3"], "not LABEL.OPTION=VALUE for one of"),
    (["--bots", "greedy,random", "--option", "greedy.speed=3"], "greedy (greedy) has no option 'speed'"),
    (["--bots", "greedy,random", "--option", "greedy.move_limit=0"], "bad options for greedy"),
    (["--bots", "greedy,random", "--anchor", "mcts"], "--anchor 'mcts' is not an entry"),
    (["--bots", "greedy", "--outside", "mine=taktik join -"], "give --server"),
    (["--bots", "greedy", "--outside", "mine="], "is not LABEL=COMMAND"),
    (["--bots", "greedy,random", "--games", "0"], "0 is outside 1..100000"),
])
def test_bad_arguments_are_one_line_and_exit_code_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    try:
        code = main(["ladder", *args, "--out", str(tmp_path / "out")])
    except SystemExit as stopped:  # argparse's own refusals
        code = stopped.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()  # refused before anything was played or written


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("ladder") / "data", FAST_LIMITS).start()
    yield live
    assert live.stop() == 0, live.log_text()
    assert "Traceback" not in live.log_text(), live.log_text()


def ladder(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", "ladder", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, check=False)


def test_an_outside_program_joins_over_the_wire_and_gets_a_rating(server: LiveServer, tmp_path: Path) -> None:
    joined = f"{sys.executable} -m cli join - --bot random --rate 0 --quiet"
    done = ladder("--bots", "greedy", "--outside", f"outsider={joined}", "--server", f"http://127.0.0.1:{server.port}",
                  "--rate", "0", "--games", "2", "--seed", "11", "--config", str(write_config(tmp_path, QUICK_GAME)),
                  "--out", str(tmp_path / "wire"))
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "wire" / "ladder.json").read_text())
    assert {r["entry"] for r in document["ratings"]} == {"greedy", "outsider"}
    assert [e["outside"] for e in document["entries"]] == [False, True]
    assert document["run"]["server"] == f"http://127.0.0.1:{server.port}"
    for game in document["games"]:
        record = decode_record((tmp_path / "wire" / game["record"]).read_bytes())
        assert record.config.seed == game["seed"] and list(replay(record))[-1].winner is not None
    assert "/play/" not in done.stdout + done.stderr  # no seat link (its token is the secret) is ever printed


def test_an_outside_program_that_fails_stops_the_ladder_in_one_line(server: LiveServer, tmp_path: Path) -> None:
    failing = f"{sys.executable} -c \"import sys; print('cannot think', file=sys.stderr); sys.exit(3)\""
    done = ladder("--bots", "greedy", "--outside", f"broken={failing}", "--server", f"http://127.0.0.1:{server.port}",
                  "--games", "1", "--config", str(write_config(tmp_path, QUICK_GAME)))
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert "--outside broken failed in game 0 (exit code 3): cannot think" in last and "Traceback" not in done.stderr


def test_a_server_that_cannot_be_reached_is_one_line(tmp_path: Path) -> None:
    done = ladder("--bots", "greedy", "--outside", "x=true", "--server", "http://127.0.0.1:9", "--games", "1",
                  "--config", str(write_config(tmp_path, QUICK_GAME)), timeout=120)
    assert done.returncode == 1
    assert "cannot reach the server at http://127.0.0.1:9" in done.stderr and "Traceback" not in done.stderr
