"""Unit tags never overlap in a crowd of units, and a HIT / MISS word fades instead of staying for turns."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

# Seven units packed into a 3 x 4 corner: every tag wants the same spot.
CROWD = [
    {"id": "A1", "side": "ATTACKER", "type": "LIGHT_INFANTRY", "cell": "C3"},
    {"id": "A2", "side": "ATTACKER", "type": "LIGHT_INFANTRY", "cell": "D2"},
    {"id": "A7", "side": "ATTACKER", "type": "MECHANIZED", "cell": "D3"},
    {"id": "A10", "side": "ATTACKER", "type": "SPECIAL", "cell": "C4"},
    {"id": "D1", "side": "DEFENDER", "type": "LIGHT_INFANTRY", "cell": "D5"},
    {"id": "D9", "side": "DEFENDER", "type": "MECHANIZED", "cell": "E5"},
    {"id": "D14", "side": "DEFENDER", "type": "SPECIAL", "cell": "E4"},
]
CLUSTER = scenario(seed=4, start_phase="MOVEMENT", draw_pile=[], tactics={"attacker": [], "defender": []}, units=CROWD)


def overlapping(tags: list[dict[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(tags):
        for b in tags[i + 1:]:
            apart = a["x"] >= b["x"] + b["w"] or b["x"] >= a["x"] + a["w"] or a["y"] >= b["y"] + b["h"] \
                or b["y"] >= a["y"] + a["h"]
            if not apart:
                out.append((a["id"], b["id"]))
    return out


SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_tags_in_a_crowd_never_overlap_at_any_zoom(web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    created = web.create(config=CLUSTER)
    att = Board(new_page(size["width"], size["height"])).open(web.base + created["seats"][0]["path"])
    att.wait_legal("MOVE_UNIT")
    att.move("A2", "E2")  # a MOVED chip makes its tag longer
    att.move("A1", "B3")
    att.select("A7")
    att.page.evaluate("window.taktik.reveal('D4')")
    for zoom in ("+", "+", "-", "-", "-"):
        att.page.keyboard.press(zoom)
        att.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        tags = att.page.evaluate("window.taktik.tags()")
        if not tags:
            continue  # zoomed out past where tags show
        assert overlapping(tags) == [], (zoom, tags)
        assert {t["id"] for t in tags} >= {"A7", "D9"}  # the selected unit and its target keep theirs
    att.page.keyboard.press("+")
    att.page.keyboard.press("+")
    shot(att, f"tags-crowd-{size['width']}")
    assert att.page.errors == []


def test_a_hit_word_fades_and_the_last_attack_leaves_with_its_turn(web: WebServer, new_page: Any) -> None:
    created = web.create(config=CLUSTER)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    att.wait_legal("NEXT_PHASE")
    att.press("Next: Attack")
    att.declare("A7", "D9")
    att.press("Next: Dice")
    att.press("Roll the die")
    att.press("Apply the result")
    att.wait("!s.legal.includes('RESOLVE_ATTACK')")
    assert att.page.evaluate("window.taktik.resultWord()") == 1  # HIT or MISS stands over the target now...
    att.page.wait_for_function("window.taktik.resultWord() === 0", timeout=10_000)  # ...and then fades away
    assert att.page.errors == []
