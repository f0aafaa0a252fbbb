"""Sound made with Web Audio: cues for dice, hits and misses and your turn; a remembered mute toggle."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

CUES = "import('/static/js/sound.js').then((m) => m.played.map((p) => p.cue))"
HEARD = "import('/static/js/sound.js').then((m) => m.played.filter((p) => p.heard).map((p) => p.cue))"


def test_the_game_sounds_its_events_and_your_turn(web: WebServer, new_page: Any) -> None:
    created = web.create(scenario(seed=1))  # A7's attack on D9 misses
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    dfn = Board(new_page()).open(web.base + created["seats"][1]["path"])
    assert att.page.evaluate(CUES) == ["turn"]  # the attacker's first decision chimes
    assert dfn.page.evaluate(CUES) == []
    # A click is the gesture that lets the page play audio: from then on cues are heard.
    att.press("Draw a card")
    assert att.page.evaluate("import('/static/js/sound.js').then(() => window.AudioContext !== undefined)")
    att.press("Store it")
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    assert dfn.page.evaluate(CUES) == ["turn"]
    dfn.press("Pass")
    att.wait_legal("MOVE_UNIT")
    att.move("A7", "G4")
    att.press("Next: Attack")
    att.declare("A7", "D9")
    att.press("Next: Dice")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("ROLL_DICE")
    att.press("Roll the die")
    att.wait_legal("RESOLVE_ATTACK")  # the roll misses D9: the defender's useless window is passed for it
    att.press("Apply the result")
    att.wait_legal("END_TURN")
    cues = att.page.evaluate(CUES)
    assert "dice" in cues and "miss" in cues and "hit" not in cues
    assert "dice" in att.page.evaluate(HEARD), "after a click the audio context runs"
    assert att.page.errors == [] and dfn.page.errors == []


def test_mute_is_a_toggle_remembered_across_reloads(web: WebServer, new_page: Any) -> None:
    created = web.create()
    page = new_page(390, 844, has_touch=True, is_mobile=True)
    board = Board(page).open(web.base + created["seats"][0]["path"])
    mute = page.locator("[data-mute]")
    assert mute.get_attribute("aria-pressed") == "false"
    mute.tap()
    assert mute.get_attribute("aria-pressed") == "true"
    shot(board, "muted-390x844")
    page.reload()
    board.wait_ready()
    assert page.locator("[data-mute]").get_attribute("aria-pressed") == "true"
    board.press("Draw a card")
    assert page.evaluate(HEARD) == []  # muted: asked for, not played
    page.keyboard.press("m")
    assert page.locator("[data-mute]").get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('taktik.muted')") == "0"
