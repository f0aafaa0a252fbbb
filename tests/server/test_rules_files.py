"""Playtesting a rules file (issue 35): checked on upload with every problem's JSON path, carried by the match.

A real server: ``POST /api/rules/check`` checks a card or variant file, ``POST /api/matches``
with ``rules`` creates a match that plays with it, the match's own cards (with their
``warning``) come in its `Welcome`, and ``taktik serve --rules FILE`` makes every new match
play with a file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import QUICK_GAME, LiveServer, Peer, arun, http_json, tokens_of

PARTIAL = {
    "id": "steady_hands",
    "name": "Steady Hands",
    "kind": "bonus",
    "class": "generic",
    "category": "Morale",
    "timing": "stored",
    "copies_60": 4,
    "copies_90": 5,
    "text": "This turn, a missed attack die is thrown again once, and the first one each turn hits.",
    "warning": "Only the reroll is played: 'the first one each turn hits' has no rule yet.",
    "effects": [{"hook": "reroll_attack_die", "op": "reroll_miss", "scope": "own_attacks", "duration": "end_of_turn"}],
}
CARD_FILE = {"common": [PARTIAL], "tactics": []}


def test_a_card_file_is_checked_and_summarised(server: LiveServer) -> None:
    status, summary = http_json(server, "POST", "/api/rules/check?name=My%20Cards", CARD_FILE)
    assert status == 200, summary
    assert summary["name"] == "my_cards"
    assert [(c["id"], c["warning"]) for c in summary["cards"]] == [("steady_hands", PARTIAL["warning"])]


def test_every_problem_of_a_bad_file_is_named_with_its_json_path(server: LiveServer) -> None:
    bad = {
        "common": [
            {**PARTIAL, "effects": [{**PARTIAL["effects"][0], "op": "reroll_twice"}]},
            {**PARTIAL, "id": "other", "effects": [{**PARTIAL["effects"][0], "scope": "own_units"}]},
        ],
        "tactics": [],
    }
    status, answer = http_json(server, "POST", "/api/rules/check", bad)
    assert status == 400 and answer["code"] == "bad_rules"
    lines = answer["reason"].splitlines()
    assert [line.split(":")[0] for line in lines] == ["$.common[0].effects[0].op", "$.common[1].effects[0].scope"]
    status, answer = http_json(server, "POST", "/api/rules/check", {"name": "v", "cards": {"remove": ["nope"]}})
    assert status == 400 and answer["reason"].startswith("$.cards.remove[0]: unknown card 'nope'")


def test_hostile_nesting_is_refused_before_any_decoder_recurses(server: LiveServer) -> None:
    deep = b'{"a": ' * 5000 + b"1" + b"}" * 5000
    for path in ("/api/rules/check", "/api/matches"):
        status, answer = http_json(server, "POST", path, b'{"rules": ' + deep + b"}")
        assert status == 400 and "nests deeper" in answer["reason"], answer
    shallow_but_too_deep = b'{"common": [' + b"[" * 40 + b"]" * 40 + b'], "tactics": []}'
    status, answer = http_json(server, "POST", "/api/rules/check", shallow_but_too_deep)
    assert (
        status == 400 and answer["reason"] == "$: the file nests deeper than any rules file needs (at most 32 levels)"
    )  # no decoder recursed into a 500


def test_a_match_made_with_an_uploaded_file_plays_with_it_and_sends_its_cards(server: LiveServer) -> None:
    body: dict[str, Any] = {"config": {**QUICK_GAME, "seed": 5}, "rules": CARD_FILE, "rules_name": "steady"}
    status, created = http_json(server, "POST", "/api/matches", body)
    assert status == 201, created
    match_id = created["match_id"]
    status, record = http_json(server, "GET", f"/api/matches/{match_id}/record")
    assert record["record"]["config"]["rules"]["name"] == "steady"

    async def welcome() -> dict[str, Any]:
        peer = await Peer.seated(server, match_id, tokens_of(created)["ATTACKER"])
        try:
            return next(m for m in peer.messages if m["type"] == "welcome")
        finally:
            await peer.close()

    hello = arun(welcome())
    assert [(c["id"], c["warning"]) for c in hello["cards"]] == [("steady_hands", PARTIAL["warning"])]
    status, answer = http_json(
        server, "POST", "/api/matches", {**body, "rules": {"common": [{"id": "x"}], "tactics": []}}
    )
    assert status == 400 and answer["code"] == "bad_rules" and answer["reason"].startswith("$.common[0]")


@pytest.fixture(scope="module")
def rules_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("rules")
    path = folder / "steady.json"
    path.write_text(json.dumps(CARD_FILE))
    live = LiveServer(folder / "data", None, "--rules", str(path)).start()
    yield live
    assert live.stop() == 0, live.log_text()


def test_serve_with_a_rules_file_plays_every_new_match_with_it(rules_server: LiveServer) -> None:
    status, created = http_json(rules_server, "POST", "/api/matches", {"config": {**QUICK_GAME, "seed": 2}})
    assert status == 201, created
    status, record = http_json(rules_server, "GET", f"/api/matches/{created['match_id']}/record")
    assert [c["id"] for c in record["record"]["config"]["rules"]["cards"]] == ["steady_hands"]


def test_serve_refuses_a_bad_rules_file_before_it_starts(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"common": [{"id": "x"}], "tactics": []}))
    done = subprocess.run(
        [sys.executable, "-m", "cli", "serve", "--port", "0", "--data", str(tmp_path / "d"), "--rules", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "$.common[0]: card 'x': Object missing required field `name`" in done.stderr
    assert "Traceback" not in done.stderr
