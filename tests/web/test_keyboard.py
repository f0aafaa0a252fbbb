"""A whole turn from the keyboard: pick a unit, go through its destinations and targets, confirm,
cancel; and Enter acts on the board only when the board (or a game button) has the focus."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, shot
from .driver import Board
from .test_score import KILL

pytestmark = pytest.mark.browser


def armed(board: Board) -> str:
    bar = board.page.locator(".decision .armedbar")
    bar.wait_for()
    return str(bar.inner_text())


def test_a_turn_played_with_keys_only(web: WebServer, new_page: Any) -> None:
    created = web.create(config=KILL)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    keys = att.page.keyboard
    att.wait_legal("MOVE_UNIT")
    keys.press(".")  # the first unit that can act
    att.wait("s.selected === 'A1'")
    keys.press("ArrowRight")  # its first destination, previewed: path, cost, a button
    first = armed(att)
    assert first.startswith("Move A1 to") and att.page.locator(".armed-figures").inner_text().endswith("MP")
    what = att.page.locator(".armedbar .armed-what").inner_text()
    keys.press("ArrowRight")
    att.page.wait_for_function("(t) => document.querySelector('.armedbar .armed-what').textContent !== t", arg=what)
    keys.press("ArrowLeft")  # back to the first
    att.page.wait_for_function("(t) => document.querySelector('.armedbar .armed-what').textContent === t", arg=what)
    shot(att, "keyboard-move-preview")
    keys.press("Escape")  # drops the preview, keeps the unit
    att.page.locator(".decision .armedbar").wait_for(state="detached")
    assert att.state()["selected"] == "A1"
    keys.press("ArrowRight")
    armed(att)
    version = att.state()["version"]
    keys.press("Enter")  # takes it
    att.wait_version(version + 1)
    assert att.units()["A1"]["cell"] != "C2"

    keys.press("n")  # Next: Attack
    att.wait_legal("DECLARE_ATTACK")
    keys.press(".")
    att.wait("s.selected !== null")
    while att.state()["selected"] != "A7":
        keys.press(".")
        att.page.wait_for_timeout(50)
    keys.press("ArrowRight")  # A7's only target comes first
    assert "Attack D1 with A7" in armed(att)
    att.page.wait_for_function("document.querySelector('.armed-figures').textContent.includes('to hit')")
    version = att.state()["version"]
    keys.press("Enter")
    att.wait_version(version + 1)
    keys.press("n")  # Next: Dice
    att.wait_legal("ROLL_DICE")
    keys.press("r")
    att.wait_legal("RESOLVE_ATTACK")
    keys.press("a")
    att.wait("!s.legal.includes('RESOLVE_ATTACK')")
    assert att.page.errors == []


def test_enter_on_a_focused_link_does_not_play(web: WebServer, new_page: Any) -> None:
    created = web.create(config=KILL)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    att.wait_legal("NEXT_PHASE")
    version = att.state()["version"]
    # A link of the page has the focus (the help's "open in its own tab" here): Enter is the link's.
    att.page.locator("[data-help]").click()
    att.page.get_by_role("button", name="Rules in brief").click()
    link = att.page.locator("[data-help-pane='brief'] a[target=_blank]").first
    link.wait_for()
    att.page.keyboard.press("Escape")
    att.page.evaluate("() => { const a = document.createElement('a'); a.href = '#nowhere'; a.textContent = 'a link';"
                      " document.querySelector('.side').prepend(a); a.focus(); }")
    att.page.keyboard.press("Enter")
    att.page.wait_for_function("location.hash === '#nowhere'")
    assert att.state()["version"] == version  # the primary button (Next: Attack) was not pressed
    # With the focus back on the board, Enter presses the primary button.
    att.page.locator("canvas.board-canvas").focus()
    att.page.keyboard.press("Enter")
    att.wait_version(version + 1)
    assert att.page.errors == []
