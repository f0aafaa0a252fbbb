"""On a touch screen a first tap previews (odds, path and cost) and a second tap or a button commits;
the pending attack is framed above the open sheet."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, shot
from .driver import Board
from .test_score import KILL

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def tap(board: Board, cell: str) -> None:
    x, y = board.point(cell)
    board.page.touchscreen.tap(x, y)


def uncovered(board: Board, cells: list[str]) -> bool:
    """Whether every cell's centre is on the canvas, with nothing of the page over it."""
    return bool(board.page.evaluate("""(cells) => cells.every((c) => {
      const p = window.taktik.cellToClient(c);
      return p && document.elementFromPoint(p.x, p.y) === document.querySelector('canvas.board-canvas');
    })""", cells))


def test_a_tap_on_an_enemy_previews_the_odds_and_the_button_declares_the_attack(web: WebServer, new_page: Any) -> None:
    created = web.create(config=KILL)
    att = Board(new_page(PHONE["width"], PHONE["height"], has_touch=True, is_mobile=True)).open(
        web.base + created["seats"][0]["path"])
    att.wait_legal("NEXT_PHASE")
    att.press("Next: Attack")
    att.wait_legal("DECLARE_ATTACK")
    tap(att, att.units()["A7"]["cell"])
    att.wait("s.selected === 'A7'")
    version = att.state()["version"]
    tap(att, att.units()["D1"]["cell"])
    bar = att.page.locator(".decision .armedbar")
    bar.wait_for()
    att.page.wait_for_function("document.querySelector('.armed-figures')?.textContent.includes('to hit')")
    text = bar.inner_text()
    assert "Attack D1 with A7" in text and "% to hit" in text and "a hit destroys D1" in text
    assert att.state()["version"] == version  # nothing was sent: the tap only previewed
    assert "needs" in att.page.evaluate("window.taktik.tip()")  # the odds tip by the target
    shot(att, "touch-attack-preview-360")
    # Cancel drops the preview; the unit stays selected.
    bar.get_by_role("button", name="Cancel").tap()
    bar.wait_for(state="detached")
    assert att.state()["selected"] == "A7" and att.state()["version"] == version
    tap(att, att.units()["D1"]["cell"])
    bar.get_by_role("button", name="Attack").tap()
    att.wait_version(version + 1)
    assert att.page.evaluate("window.taktik.legal().some(a => a.type === 'WITHDRAW_ATTACK')")

    # At the roll the sheet stands open over the foot of the page: the attack is framed above it.
    for _ in range(3):
        att.page.locator(".zoombar [data-zoom=in]").tap()
    att.page.evaluate("window.taktik.reveal('J12')")
    att.press("Next: Dice")
    att.wait_legal("ROLL_DICE")
    sheet = att.page.locator(".decision")
    assert "collapsed" not in (sheet.get_attribute("class") or "")
    att.page.locator(".decision .odds-slot .odds").wait_for()
    cells = [att.units()["A7"]["cell"], att.units()["D1"]["cell"]]
    att.page.wait_for_function("""(cells) => cells.every((c) => {
      const p = window.taktik.cellToClient(c);
      return p && document.elementFromPoint(p.x, p.y) === document.querySelector('canvas.board-canvas');
    })""", arg=cells, timeout=5000)
    assert uncovered(att, cells)
    shot(att, "touch-roll-framed-360")
    assert att.page.errors == []


def test_a_mouse_click_still_commits_at_once(web: WebServer, new_page: Any) -> None:
    created = web.create(config=KILL)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    att.wait_legal("MOVE_UNIT")
    att.move("A1", "C3")  # select, click: one click sends the move (the hover showed its path first)
    assert att.units()["A1"]["cell"] == "C3" and att.page.locator(".decision .armedbar").count() == 0
