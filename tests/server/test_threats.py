"""The `threats` query: engine.threat_map over the socket, for the asking seat or a named side."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from engine import GameConfig, Side, new_game, player_view
from engine.analysis import threat_map

from .conftest import LiveServer, Peer, arun, create_match, tokens_of
from .test_ws import QUERY_GAME, ask


def test_threats_answer_each_seat_about_its_own_cells_and_a_spectator_must_name_a_side(server: LiveServer) -> None:
    state = new_game(msgspec.convert(QUERY_GAME, GameConfig))

    async def run() -> list[dict[str, Any]]:
        created = create_match(server, config=QUERY_GAME)
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        spectator = await Peer.seated(server, created["match_id"], None)
        answers = [
            await ask(attacker, {"type": "threats", "id": 3}, "threat_map"),
            await ask(spectator, {"type": "threats", "id": 4, "side": "DEFENDER"}, "threat_map"),
            await ask(spectator, {"type": "threats", "id": 5}, "threat_map"),
        ]
        for peer in (attacker, spectator):
            await peer.close()
        return answers

    own, named, unnamed = arun(run())
    expected = json.loads(msgspec.json.encode(threat_map(player_view(state, Side.ATTACKER), Side.ATTACKER)))
    assert own["threats"] == expected and own["version"] == 0
    assert own["threats"]["by"] == "DEFENDER" and any("D9" in c["fire"] for c in own["threats"]["cells"])
    assert named["threats"]["side"] == "DEFENDER" and any("A7" in c["reach"] for c in named["threats"]["cells"])
    assert unnamed["threats"] is None and "name a side" in unnamed["problem"]
