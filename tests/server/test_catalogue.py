"""The live game's catalogue (server/catalogue.py): card and unit data, against a real server."""

from __future__ import annotations

from engine.data import CARDS

from .conftest import LiveServer, http_json


def test_cards_lists_every_card_with_its_name_kind_and_text(server: LiveServer) -> None:
    status, cards = http_json(server, "GET", "/api/cards")
    assert status == 200
    assert [c["id"] for c in cards] == list(CARDS)
    fog = next(c for c in cards if c["id"] == "dense_fog")
    assert fog["name"] == "Dense Fog" and fog["kind"] == "tactic" and fog["window"] == "beforeAttackRoll"
    assert fog["text"] == CARDS["dense_fog"].text and fog["side"] == "reacting"
    assert {c["kind"] for c in cards} == {"bonus", "malus", "tactic"}


def test_units_gives_the_unit_table(server: LiveServer) -> None:
    status, units = http_json(server, "GET", "/api/units")
    assert status == 200
    assert {kind: row["hp"] for kind, row in units.items()} == {"LIGHT_INFANTRY": 1, "MECHANIZED": 2, "SPECIAL": 2}
    assert units["SPECIAL"] == {"hp": 2, "movement_mp": 3, "range": 4, "damage": 1, "vp": 3,
                                "tags": ["special", "move_or_fire"]}
