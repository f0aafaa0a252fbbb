"""The headless game commands: `taktik new`, `taktik play` and `taktik replay`.

`taktik replay` of a file downloaded from a real server is tested in
tests/server/test_record_download.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import decode_record, encode_record, replay, state_hash
from server.seeds import commitment


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
    result = taktik("play", "--seed", "3", "--size", "12x15", "--quiet", "--out", str(out))
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
    result = taktik("play", "--config", str(config))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("== step ") == 12 and "game over after 12 actions" in result.stdout
    assert "by action_cap" in result.stdout


def test_replay_names_the_first_step_whose_hash_differs(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    assert taktik("play", "--seed", "4", "--size", "12x15", "--quiet", "--out", str(out)).returncode == 0
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
        ("", "is empty: there is no game record in it"),
        (" \n", "is empty: there is no game record in it"),
        ('{"match_id": "m1", "status": "over"}', "invalid match file: Object missing required field"),
    ],
)
def test_replay_reports_bad_records(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = taktik("replay", str(path))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert message in result.stderr and len(result.stderr.splitlines()) == 1


def test_replay_of_a_missing_file_fails_cleanly(tmp_path: Path) -> None:
    result = taktik("replay", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr and "No such file" in result.stderr


def test_play_needs_no_mode_flag_and_still_accepts_the_old_one(tmp_path: Path) -> None:
    plain = taktik("play", "--seed", "3", "--size", "12x15", "--quiet", "--out", str(tmp_path / "a.json"))
    old = taktik("play", "--seed", "3", "--size", "12x15", "--random", "--quiet", "--out", str(tmp_path / "b.json"))
    assert plain.returncode == 0 and old.returncode == 0, plain.stderr + old.stderr
    assert plain.stdout.replace("a.json", "b.json") == old.stdout
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def match_file(tmp_path: Path, **fields: object) -> Path:
    """A match file as ``GET /api/matches/<id>/record`` answers, around a record `taktik play` wrote."""
    played = tmp_path / "game.json"
    assert taktik("play", "--seed", "6", "--size", "12x15", "--quiet", "--out", str(played)).returncode == 0
    answer = {"match_id": "m1", "status": "over", "seed_commitment": commitment(6, "ab" * 16), "seed": 6,
              "salt": "ab" * 16, "record": json.loads(played.read_text()), "elapsed_ms": None, "clocks": None}
    path = tmp_path / "match.json"
    path.write_text(json.dumps({**answer, **fields}))
    return path


def test_replay_of_a_match_file_checks_the_revealed_seed(tmp_path: Path) -> None:
    result = taktik("replay", str(match_file(tmp_path)), "--quiet")
    assert result.returncode == 0, result.stderr
    assert "verified against stored hashes" in result.stdout
    assert f"dice verified: seed 6 and salt {'ab' * 16} open the commitment {commitment(6, 'ab' * 16)}" in result.stdout


def test_a_match_file_without_a_revealed_seed_replays_unchecked_when_its_record_has_the_seed(tmp_path: Path) -> None:
    result = taktik("replay", str(match_file(tmp_path, status="live", seed=None, salt=None)), "--quiet")
    assert result.returncode == 0, result.stderr
    assert ("dice not verified: match m1 is live, so the server has not revealed the seed and salt that open "
            "its commitment") in result.stdout


def test_a_match_file_that_hides_its_seed_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = match_file(tmp_path, seed=None, salt=None)
    answer = json.loads(path.read_text())
    answer["record"]["config"]["seed"] = None
    path.write_text(json.dumps(answer))
    result = taktik("replay", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == ("taktik replay: match m1 is over but this file does not reveal its seed; without the "
                             "seed the map, the cards and the dice cannot be rebuilt\n")
