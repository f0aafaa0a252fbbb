"""The headless game commands: `taktik new`, `taktik play --random` and `taktik replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import decode_record, encode_record, replay, state_hash


def taktik(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_new_prints_the_starting_position() -> None:
    result = taktik("new", "--seed", "7")
    assert result.returncode == 0, result.stderr
    assert "turn 1 (round 1), ATTACKER active, phase CARD_DRAW; to act: ATTACKER" in result.stdout
    assert "legend:" in result.stdout and "A10" in result.stdout and "D15" in result.stdout


def test_new_rejects_a_bad_seed_and_size() -> None:
    assert "is not a whole number" in taktik("new", "--seed", "x").stderr
    assert "outside 0..4294967295" in taktik("new", "--seed", "-3").stderr
    assert "is not a size like 20x30" in taktik("new", "--size", "big").stderr


def test_play_writes_a_record_that_replays_and_verifies(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = taktik("play", "--seed", "3", "--size", "12x15", "--random", "--quiet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "game over after" in result.stdout and f"record written to {out}" in result.stdout
    record = decode_record(out.read_bytes())
    assert record.config.seed == 3 and record.hashes is not None and len(record.hashes) == len(record.actions)
    final = list(replay(record))[-1]
    assert final.winner is not None
    verified = taktik("replay", str(out), "--quiet")
    assert verified.returncode == 0, verified.stdout
    assert f"final hash {state_hash(final)}" in verified.stdout
    assert "verified against stored hashes" in verified.stdout


def test_play_prints_every_step(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"seed": 5, "width": 12, "height": 15, "victory": {"max_actions": 12}}))
    result = taktik("play", "--config", str(config), "--random")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("== step ") == 12 and "game over after 12 actions" in result.stdout
    assert "by action_cap" in result.stdout


def test_replay_names_the_first_step_whose_hash_differs(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    assert taktik("play", "--seed", "4", "--size", "12x15", "--random", "--quiet", "--out", str(out)).returncode == 0
    record = decode_record(out.read_bytes())
    assert record.hashes is not None
    hashes = list(record.hashes)
    hashes[5] = "0" * 64
    import msgspec

    out.write_bytes(encode_record(msgspec.structs.replace(record, hashes=tuple(hashes))))
    result = taktik("replay", str(out))
    assert result.returncode == 1
    assert "MISMATCH at step 5:" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read"),
        ('{"config": {"seed": 1}, "actions": [{"type": "FLY"}]}', "cannot read"),
        ('{"config": {"seed": 1, "width": 12, "height": 15}, "actions": [{"type": "ROLL_DICE"}]}',
         "step 0 ({\"type\":\"ROLL_DICE\"}): ROLL_DICE is not legal in phase CARD_DRAW"),
    ],
)
def test_replay_reports_bad_records(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = taktik("replay", str(path))
    assert result.returncode != 0
    assert message in result.stderr


def test_replay_of_a_missing_file_fails_cleanly(tmp_path: Path) -> None:
    result = taktik("replay", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr and "No such file" in result.stderr
