"""Unit status on the board: damage, moved and fired marks, and the cards acting on a unit, named in the tip."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SCENARIO, WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

UNITS = [dict(u, hp=1) if u["id"] == "D9" else u for u in SCENARIO["units"]]
CONFIG = scenario(units=UNITS, draw_pile=["artillery_support#1"], tactics={"attacker": [], "defender": []})


def tip_of(board: Board, cell: str, contains: str) -> str:
    board.page.mouse.move(*board.point(cell))
    board.page.wait_for_function("(t) => window.taktik.tip().includes(t)", arg=contains, timeout=10_000)
    text: str = board.page.evaluate("window.taktik.tip()")
    return text


def test_damage_moves_and_card_effects_are_marked_and_named(web: WebServer, new_page: Any) -> None:
    created = web.create(config=CONFIG)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    text = tip_of(att, att.units()["D9"]["cell"], "damaged")
    assert "damaged: 1 of 2 HP" in text

    # A bonus aimed at A7: the unit carries its mark, and the tip names the card and how long it lasts.
    att.press("Draw a card")
    att.wait_legal("PLAY_BONUS")
    att.button("Play Artillery Support").click()
    att.wait("s.aiming === 'PLAY_BONUS:drawn'")
    version = att.state()["version"]
    att.click_unit("A7")
    att.wait_version(version + 1)
    text = tip_of(att, att.units()["A7"]["cell"], "Artillery Support")
    assert "▲ Artillery Support Bonus · until the end of this turn" in text

    # A moved unit says so on the board and in the tip.
    att.press("Next: Move")
    att.wait_legal("MOVE_UNIT")
    att.move("A1", "C3")
    text = tip_of(att, "C3", "moved this turn")
    assert "A1" in text
    att.page.evaluate("window.taktik.reveal('E3')")
    att.page.mouse.move(*att.point("E3"))
    att.page.keyboard.press("+")
    shot(att, "unit-status")
    assert att.page.errors == []
