"""docs/cards.md: every complete card and ability it shows loads as written (issue 35).

A ```json block that parses as an object with a ``kind`` is a card: all of them are loaded
together as one card file, exactly as `taktik cards check` does, and there are at least 15.
A block with a ``hook`` and an ``id`` but no ``kind`` is an ability, checked as a variant's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.data import card_file_problems, config_abilities

PAGE = Path(__file__).resolve().parent.parent / "docs" / "cards.md"
BLOCK = re.compile(r"^```json\n(.*?)^```", re.S | re.M)


def blocks() -> list[Any]:
    found = []
    for text in BLOCK.findall(PAGE.read_text()):
        try:
            found.append(json.loads(text))
        except json.JSONDecodeError:
            continue  # a sketch of the language (`[A, B, ...]`), not a whole object
    return found


def test_every_complete_card_of_the_guide_is_valid_and_there_are_fifteen_or_more() -> None:
    cards = [b for b in blocks() if isinstance(b, dict) and "kind" in b]
    assert len(cards) >= 15
    assert len({c["id"] for c in cards}) == len(cards)
    data = {
        "common": [c for c in cards if c["kind"] != "tactic"],
        "tactics": [c for c in cards if c["kind"] == "tactic"],
    }
    assert card_file_problems(json.dumps(data).encode()) == []


def test_every_ability_of_the_guide_is_valid() -> None:
    abilities = [b for b in blocks() if isinstance(b, dict) and "hook" in b and "id" in b and "kind" not in b]
    assert len(abilities) >= 2
    assert config_abilities(abilities, ()) is not None
