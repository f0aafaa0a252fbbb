"""The end screen's "Download record" file replays with `taktik replay`, which checks the revealed seed.

A real server plays a match; the answer of ``GET /api/matches/<id>/record`` is saved as the
browser saves it and handed to the real command line: while the match runs (no seed yet),
once it is over (seed and salt open the commitment), and after tampering.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, LiveServer, Peer, arun, create_match, http_json, tokens_of

pytestmark = pytest.mark.parametrize("server", ["sqlite"], indirect=True)  # storage is not what is tested


def taktik_replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", "replay", str(path), "--quiet"], capture_output=True,
                          text=True, timeout=120, cwd=REPO, stdin=subprocess.DEVNULL)


def downloaded(server: LiveServer, match_id: str, folder: Path, name: str) -> tuple[Path, dict[str, Any]]:
    status, answer = http_json(server, "GET", f"/api/matches/{match_id}/record")
    assert status == 200, answer
    path = folder / name
    path.write_text(json.dumps(answer))
    return path, answer


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stdout[-500:]
    assert "Traceback" not in result.stderr and result.stderr.startswith("taktik replay: "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


def test_a_finished_match_file_replays_and_its_seed_opens_the_commitment(server: LiveServer, tmp_path: Path) -> None:
    created = create_match(server, seed=None)  # the server draws the seed and publishes only its commitment
    match_id, tokens = created["match_id"], tokens_of(created)

    async def play_then_resign() -> int:
        attacker = await Peer.seated(server, match_id, tokens["ATTACKER"])
        for _ in range(4):  # a card drawn and resolved: the deck order is in play
            assert attacker.state is not None
            if attacker.state["to_act"] != "ATTACKER":
                break
            before = attacker.version
            seq = await attacker.act(attacker.state["legal_actions"][0])
            assert (await attacker.reply(seq))["type"] == "ack"
            await attacker.until_version(before + 1)
        live_version = attacker.version
        path, answer = downloaded(server, match_id, tmp_path, "live.json")
        assert answer["status"] == "live" and answer["seed"] is None
        said = one_line_error(taktik_replay(path))
        assert said == (f"taktik replay: match {match_id} is live and the server reveals its seed only once the "
                        "game is over (download the record again then); without the seed the map, the cards and "
                        "the dice cannot be rebuilt\n")
        seq = await attacker.act({"type": "RESIGN", "side": "ATTACKER"})
        assert (await attacker.reply(seq))["type"] == "ack"
        return live_version

    played = arun(play_then_resign())
    assert played >= 1
    path, answer = downloaded(server, match_id, tmp_path, f"taktik-{match_id}.json")
    assert answer["status"] == "over" and answer["seed_commitment"] == created["summary"]["seed_commitment"]
    result = taktik_replay(path)
    assert result.returncode == 0, result.stderr
    assert f"replayed {played + 1} actions (verified against stored hashes)" in result.stdout
    assert (f"dice verified: seed {answer['seed']} and salt {answer['salt']} open the commitment "
            f"{answer['seed_commitment']} published when match {match_id} began") in result.stdout

    wrong_salt = tmp_path / "salted.json"
    wrong_salt.write_text(json.dumps({**answer, "salt": "0" * 32}))
    assert "do not open the published commitment" in one_line_error(taktik_replay(wrong_salt))

    other_seed = (answer["seed"] + 1) % 2**32
    swapped = {**answer, "record": {**answer["record"], "config": {**answer["record"]["config"], "seed": other_seed}}}
    wrong_record = tmp_path / "swapped.json"
    wrong_record.write_text(json.dumps(swapped))
    said = one_line_error(taktik_replay(wrong_record))
    assert f"the record is played from seed {other_seed}, not from the revealed seed {answer['seed']}" in said
