"""Every subcommand answers bad arguments with a line or two on stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

BAD = [
    # (arguments, words the answer must contain); {tmp} is a fresh folder, {file} a regular file in it
    (["new", "--size", "5x5"], "width 5 is outside 8..300"),
    (["new", "--size", "0x5"], "width 0 is outside 8..300"),
    (["new", "--size", "0x0"], "width 0 is outside 8..300"),
    (["new", "--size", "301x30"], "width 301 is outside 8..300"),
    (["new", "--size", "²x30"], "is not a size like 20x30"),
    (["new", "--seed", "x"], "is not a whole number"),
    (["new", "--config", "{tmp}/missing.json"], "cannot read config"),
    (["new", "--config", "{tmp}/narrow.json"], "width 5 is outside 8..300"),
    (["new", "--config", "{file}"], "invalid config"),
    (["play", "--seed", "7", "--out", "/nonexistent/dir/g.json"], "does not exist"),
    (["play", "--seed", "7", "--size", "0x0"], "width 0 is outside"),
    (["replay", "{tmp}/missing.json"], "No such file"),
    (["replay", "{file}"], "cannot read"),
    (["map", "--size", "5x5"], "width 5 is outside 8..300"),
    (["map", "--seed", "-1"], "outside 0..4294967295"),
    (["map", "--png", "/proc/nope/map.png"], "cannot write"),
    (["selfplay", "--bots", "greedy", "--games", "1"], "--bots needs two bots, like mcts,greedy (known bots: greedy"),
    (["selfplay", "--bots", "greedy,stockfish"], "unknown bot 'stockfish'; known bots: greedy, mcts, oep, "
     "random, strong"),
    (["balance", "{file}", "--out", "{tmp}/o", "--bots", "alphazero,greedy"], "unknown bot 'alphazero'; known bots"),
    (["selfplay", "--bots", "random,random", "--games", "0"], "0 is outside 1..1000000"),
    (["selfplay", "--bots", "random,random", "--jobs", "0"], "0 is outside 1..256"),
    (["selfplay", "--bots", "random,random", "--out", "/proc/nope"], "cannot be used as a folder"),
    (["selfplay", "--bots", "random,random", "--size", "5x5"], "width 5 is outside"),
    (["selfplay", "--bots", "random,random", "--option", "random.depth=3"], "has no option"),
    (["fuzz", "--games", "0"], "0 is outside 1..1000000"),
    (["fuzz", "--out", "/proc/nope"], "cannot be used as a folder"),
    (["fuzz", "--maps", "default", "--size", "5x5"], "width 5 is outside"),
    (["fuzz", "--size", "20x30"], "--size goes with --maps default"),
    (["serve", "--port", "99999"], "99999 is outside 0..65535"),
    (["serve", "--port", "-5"], "-5 is outside 0..65535"),
    (["serve", "--data", "{file}", "--port", "0"], "is a file, not a folder"),
    (["serve", "--limits", "{tmp}/missing.json", "--port", "0"], "cannot read limits file"),
    (["serve", "--abandon-after", "0", "--port", "0"], "0 is outside 1..2592000"),
    (["serve", "--bot-think", "-1", "--port", "0"], "'-1' is not a number from 0 up"),
    (["serve", "--bot-think", "soon", "--port", "0"], "'soon' is not a number"),
    (["join", "http://127.0.0.1:9/play/m1"], "no #<token>"),
    (["join", "-"], "no #<token>"),
    (["join", "http://127.0.0.1:9/play/m1#tok", "--out", "/nonexistent/dir/g.json"], "does not exist"),
    (["join", "http://127.0.0.1:9/play/m1#tok", "--bot", "mcts", "--policy", "a:b"], "not allowed with argument"),
    (["nonsense"], "invalid choice"),
]


def taktik(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, timeout=120,
                          cwd=REPO, stdin=subprocess.DEVNULL)


def assert_short_error(result: subprocess.CompletedProcess[str], words: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode != 0, result.stdout[-500:]
    assert "Traceback" not in result.stderr, result.stderr
    assert 1 <= len(lines) <= 2, result.stderr
    assert lines[0].startswith("taktik"), result.stderr
    assert words in result.stderr, result.stderr
    assert "Taktik is running" not in result.stdout


@pytest.mark.parametrize(("arguments", "words"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_arguments_get_a_short_answer_on_stderr(tmp_path: Path, arguments: list[str], words: str) -> None:
    (tmp_path / "narrow.json").write_text(json.dumps({"seed": 1, "width": 5, "height": 30}))
    (tmp_path / "file").write_text("not json")
    given = [a.replace("{tmp}", str(tmp_path)).replace("{file}", str(tmp_path / "file")) for a in arguments]
    assert_short_error(taktik(*given), words)


def test_a_busy_port_is_named_with_what_to_do(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = taktik("serve", "--port", str(port), "--data", str(tmp_path / "data"))
    assert_short_error(result, f"port {port} on 127.0.0.1 is already in use")
    assert "--port" in result.stderr


def test_a_failed_output_check_happens_before_any_game_is_played(tmp_path: Path) -> None:
    result = taktik("play", "--seed", "7", "--out", str(tmp_path / "no" / "g.json"))
    assert_short_error(result, "does not exist")
    assert result.stdout == ""  # not a single step was played and lost


def test_fuzz_leaves_no_empty_failure_folder_behind(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "failures"
    result = taktik("fuzz", "--games", "1", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "deep").exists()
