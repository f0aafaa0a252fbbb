"""The camera follows the game: the opponent-turn recap, framing the targets to choose, cycling units with "."."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]
QUIET = scenario(start_phase="MOVEMENT", draw_pile=[], tactics={"attacker": [], "defender": []})


def to_movement(board: Board) -> None:
    """Press "Next" until the seat may move (the draw pile is empty, nothing to resolve)."""
    board.wait("s.legal.includes('MOVE_UNIT') || s.legal.includes('NEXT_PHASE')")
    while "MOVE_UNIT" not in board.state()["legal"]:
        board.press("Next")
        board.wait("s.legal.includes('MOVE_UNIT') || s.legal.includes('NEXT_PHASE')")


def move(board: Board, unit: str, cell: str) -> None:
    board.click_unit(unit)
    board.wait(f"s.selected === '{unit}'")
    version = board.state()["version"]
    board.click_cell(cell)
    board.wait_version(version + 1)


def inside_canvas(board: Board, cell: str) -> bool:
    return bool(board.page.evaluate("""(c) => {
        const p = window.taktik.cellToClient(c);
        const r = document.querySelector('canvas.board-canvas').getBoundingClientRect();
        const d = document.querySelector('.decision').getBoundingClientRect();
        const underPanel = p.x > d.left && p.x < d.right && p.y > d.top && p.y < d.bottom;
        return p.x > r.left && p.x < r.right && p.y > r.top && p.y < r.bottom && !underPanel;
    }""", cell))


def test_the_opponents_turn_is_recapped_at_the_start_of_yours_and_can_be_skipped(web: WebServer,
                                                                                  new_page: Any) -> None:
    created = web.create(config=QUIET)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    dfn = Board(new_page()).open(web.base + created["seats"][1]["path"])
    att.page.evaluate("window.taktik.setAnimations(true)")
    att.wait_legal("MOVE_UNIT")
    att.end_turn()
    # The attacker looks at its own corner, close up: the defender's moves happen off-screen.
    for _ in range(4):
        att.page.keyboard.press("+")
    att.page.evaluate("window.taktik.reveal('A1')")
    to_movement(dfn)
    move(dfn, "D1", "C8")
    dfn.end_turn()
    att.page.wait_for_function("window.taktik.recap().running", timeout=10_000)
    banner = att.page.evaluate("window.taktik.recap().text")
    assert "Defender's turn 2 · VP 0 – 0 · 1/1" in banner and "Defender moved D1 from C7 to C8" in banner
    att.page.wait_for_timeout(450)  # the camera has glided to the move
    assert inside_canvas(att, "C8")
    shot(att, "recap")
    att.page.keyboard.press("Escape")
    att.page.wait_for_function("!window.taktik.recap().running")
    assert not inside_canvas(att, "C8")  # back where the player was looking
    assert att.page.locator(".recap").is_hidden()
    assert att.page.errors == [] and dfn.page.errors == []


def test_the_dot_key_cycles_through_the_units_that_can_act(web: WebServer, new_page: Any) -> None:
    created = web.create(config=QUIET)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    att.wait_legal("MOVE_UNIT")
    for _ in range(4):
        att.page.keyboard.press("+")
    att.page.evaluate("window.taktik.reveal('J12')")
    seen = []
    for _ in range(3):
        att.page.keyboard.press(".")
        att.wait("s.selected !== null")
        unit = att.state()["selected"]
        seen.append(unit)
        assert inside_canvas(att, att.units()[unit]["cell"])
    assert seen == ["A1", "A7", "A10"]
    att.page.keyboard.press(".")
    att.wait("s.selected === 'A1'")
    att.page.keyboard.press(",")
    att.wait("s.selected === 'A10'")
    version = att.state()["version"]
    att.click_cell("E2")  # A10 is selected: a click on one of its cells moves it
    att.wait_version(version + 1)
    att.page.keyboard.press(".")  # A10 has moved: it is no longer among the units that can act
    att.wait("s.selected === 'A1'")
    att.page.keyboard.press(",")
    att.wait("s.selected === 'A7'")
    assert att.page.errors == []


def test_the_camera_frames_every_victim_to_choose(web: WebServer, new_page: Any) -> None:
    created = web.create(config=scenario(draw_pile=["enemy_disinformation#1", "artillery_support#1"]))
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    dfn = Board(new_page()).open(web.base + created["seats"][1]["path"])
    for _ in range(4):
        dfn.page.keyboard.press("+")
    dfn.page.evaluate("window.taktik.reveal('J12')")
    victims = [u["cell"] for u in att.units().values() if u["side"] == "ATTACKER"]
    assert not all(inside_canvas(dfn, cell) for cell in victims)
    att.press("Draw a card")
    att.wait_legal("ACCEPT_MALUS")
    att.press("Accept the malus")
    dfn.wait_legal("CHOOSE_MALUS_TARGETS")
    dfn.wait("s.aiming !== null")
    dfn.page.wait_for_timeout(150)
    assert all(inside_canvas(dfn, cell) for cell in victims)
    shot(dfn, "victims-framed")
    assert dfn.page.errors == []


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_first_turn_and_a_reload_are_recapped_and_what_happened_shows_it_again(
        web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    phone = size["width"] < 400
    created = web.create(config=QUIET)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    dfn = Board(new_page(size["width"], size["height"], **({"has_touch": True, "is_mobile": True} if phone else {}))
                ).open(web.base + created["seats"][1]["path"])
    for _ in range(4):  # the defender looks at its own corner: the attacker's moves happen off-screen
        dfn.page.keyboard.press("+")
    dfn.page.evaluate("window.taktik.reveal('B11')")
    att.wait_legal("MOVE_UNIT")
    move(att, "A7", "G4")
    move(att, "A1", "C3")
    att.end_turn()
    # The defender's first turn starts with the recap (animations off: it waits on its first step).
    dfn.page.wait_for_function("window.taktik.recap().open")
    text = dfn.page.evaluate("window.taktik.recap().text")
    assert "Attacker's turn 1 · VP 0 – 0 · 1/2" in text and "Attacker moved A7 from G2 to G4" in text
    assert inside_canvas(dfn, "G4")  # the camera went to it
    shot(dfn, f"recap-first-turn-{size['width']}")
    dfn.page.locator(".recap").get_by_role("button", name="Next").click()
    dfn.page.wait_for_function("window.taktik.recap().text.includes('A1 from C2 to C3')")
    dfn.page.locator(".recap").get_by_role("button", name="Close").click()
    dfn.page.wait_for_function("!window.taktik.recap().open")
    # After a reload the turn comes from the server: the recap is there again.
    dfn.page.reload()
    dfn.wait_ready()
    dfn.page.evaluate("window.taktik.setAnimations(false)")
    dfn.page.wait_for_function("window.taktik.recap().open")
    assert "Attacker moved A7 from G2 to G4" in dfn.page.evaluate("window.taktik.recap().text")
    assert any("Attacker moved A1 from C2 to C3" in line for line in dfn.state()["log"])  # the log's context too
    dfn.page.keyboard.press("Escape")
    dfn.page.wait_for_function("!window.taktik.recap().open")
    assert dfn.state()["selected"] is None
    # On demand: the "What happened" button (or W) shows the last recap again.
    dfn.page.get_by_role("button", name="What happened").click()
    dfn.page.wait_for_function("window.taktik.recap().open")
    dfn.page.keyboard.press("Escape")
    dfn.page.wait_for_function("!window.taktik.recap().open")
    dfn.page.keyboard.press("w")
    dfn.page.wait_for_function("window.taktik.recap().open")
    assert att.page.errors == [] and dfn.page.errors == []
