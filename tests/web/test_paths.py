"""Moves you can read: the range, the engine's path and cost on hover, its reasons for a refused cell, the threats."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine import GameConfig, MoveUnit, Side, new_game, player_view
from engine.analysis import explain, move_preview, threat_map

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

# The attacker moves first; the defender holds no tactic, so no reaction window comes first.
MOVING = scenario(start_phase="MOVEMENT", draw_pile=[], tactics={"attacker": ["precision_shot"], "defender": []})


def engine_state() -> Any:
    return new_game(msgspec.convert(MOVING, GameConfig))


def open_seat(web: WebServer, new_page: Any, seat: int = 0) -> Board:
    created = web.create(config=MOVING)
    board = Board(new_page()).open(web.base + created["seats"][seat]["path"])
    return board


def hover(board: Board, cell: str) -> None:
    board.page.mouse.move(*board.point(cell))


def tip(board: Board, contains: str) -> str:
    board.page.wait_for_function("(t) => window.taktik.tip().includes(t)", arg=contains, timeout=10_000)
    text: str = board.page.evaluate("window.taktik.tip()")
    return text


def test_hovering_a_reachable_cell_shows_the_engines_path_and_cost(web: WebServer, new_page: Any) -> None:
    board = open_seat(web, new_page)
    board.wait_legal("MOVE_UNIT")
    board.select("A7")
    preview = move_preview(player_view(engine_state(), Side.ATTACKER), "A7")
    far = max(preview.cells, key=lambda c: (c.cost, c.cell))
    hover(board, far.cell)
    text = tip(board, f"A7 → {far.cell}")
    assert f"{far.mp:g} MP" in text and " → ".join(far.path) in text
    shot(board, "move-path")
    # Zoomed out to the whole board the range is still drawn (and the path with it).
    board.page.keyboard.press("0")
    hover(board, far.cell)
    tip(board, f"A7 → {far.cell}")
    shot(board, "move-path-fit")
    assert board.page.errors == []


def test_a_refused_cell_or_unit_says_why_in_the_engines_words(web: WebServer, new_page: Any) -> None:
    board = open_seat(web, new_page)
    board.wait_legal("MOVE_UNIT")
    board.select("A1")
    state = engine_state()
    problem = explain(state, MoveUnit(unit_id="A1", to="C6"))
    assert problem is not None
    hover(board, "C6")
    text = tip(board, "A1 → C6")
    assert problem.reason in text
    shot(board, "move-refused")
    # Moved units say why they glow no more.
    version = board.state()["version"]
    board.click_cell("C3")
    board.wait_version(version + 1)
    hover(board, "C3")
    text = tip(board, "A1 cannot move")
    assert "A1 has already moved this turn" in text and "moved this turn" in text
    assert board.page.errors == []


def test_the_threat_overlay_shows_the_engines_threat_map(web: WebServer, new_page: Any) -> None:
    board = open_seat(web, new_page)
    board.wait_legal("MOVE_UNIT")
    assert board.page.evaluate("window.taktik.threats()") is None  # off until asked for
    board.page.keyboard.press("t")
    board.page.wait_for_function("window.taktik.threats() !== null", timeout=10_000)
    shown = board.page.evaluate("window.taktik.threats()")
    expected = threat_map(player_view(engine_state(), Side.ATTACKER), Side.ATTACKER)
    assert shown == msgspec.json.decode(msgspec.json.encode(expected))
    board.page.keyboard.press("0")
    hover(board, "G6")
    text = tip(board, "Next turn")
    g6 = next(c for c in expected.cells if c.cell == "G6")
    assert all(unit in text for unit in g6.fire + g6.reach)
    shot(board, "threat-overlay")
    board.page.locator(".threat-toggle").click()
    board.page.wait_for_function("window.taktik.threats() === null")
    assert board.page.errors == []
