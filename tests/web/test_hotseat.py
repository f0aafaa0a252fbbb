"""Hot-seat passes the device only when the other person has a real choice (engine `decision.useful`)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

# Seed 1 of the test scenario: A7's attack on D9 from G4 rolls a 1 and misses, and the defender
# still holds Natural Cover and Commander's Luck: a reaction window in which nothing can help.
MISS = scenario(seed=1)


def reveal(board: Board, side: str) -> None:
    curtain = board.page.locator(".overlay.pass")
    curtain.wait_for()
    assert f"Pass the device to {side}" in curtain.inner_text()
    board.page.keyboard.press("Enter")
    board.wait(f"s.seat === '{side.upper()}' && !s.busy")


def to_the_roll(web: WebServer, new_page: Any, page: Any = None) -> Board:
    """A hot-seat match played up to A7's missed roll against D9; returns the board (the attacker's turn)."""
    created = web.create(MISS, hotseat=True)
    tokens = ".".join(seat["token"] for seat in created["seats"])
    board = Board(page or new_page())
    board.page.goto(f"{web.base}/play/{created['match_id']}#{tokens}")
    reveal(board, "Attacker")
    board.page.evaluate("window.taktik.setAnimations(false)")
    board.press("Draw a card")
    board.press("Store it")
    board.button("Next: Move").click()
    reveal(board, "Defender")  # Suppressive Fire could matter: a real choice
    board.press("Pass")
    reveal(board, "Attacker")
    board.move("A7", "G4")
    board.press("Next: Attack")
    board.declare("A7", "D9")
    board.button("Next: Dice").click()
    reveal(board, "Defender")  # Dense Fog or Tactical Block before the roll: a real choice
    board.press("Pass")
    reveal(board, "Attacker")
    board.button("Roll the die").click()
    return board


def test_a_useless_reaction_asks_in_place_instead_of_passing_the_device(web: WebServer, new_page: Any) -> None:
    board = to_the_roll(web, new_page)
    prompt = board.page.locator(".hsprompt")
    prompt.wait_for()
    assert "No tactic can help Defender here (the attack already misses)" in prompt.inner_text()
    assert board.page.locator(".overlay.pass").is_hidden() and board.state()["seat"] == "ATTACKER"
    assert "Natural Cover" not in board.page.locator(".side").inner_text()  # the defender's hand stays hidden
    shot(board, "hotseat-useless-reaction-1280x800")
    # The defender may still want to look: then the device is passed after all.
    board.page.get_by_role("button", name="Defender wants to choose").click()
    reveal(board, "Defender")
    assert "PASS_REACTION" in board.state()["legal"] and "Natural Cover" in board.page.locator(".cards").inner_text()
    board.press("Pass")
    reveal(board, "Attacker")
    board.wait_legal("RESOLVE_ATTACK")
    assert board.page.errors == []


def test_pass_for_them_and_a_remembered_setting_that_passes_without_asking(web: WebServer, new_page: Any) -> None:
    page = new_page(390, 844, has_touch=True, is_mobile=True)
    board = to_the_roll(web, new_page, page)
    prompt = board.page.locator(".hsprompt")
    prompt.wait_for()
    shot(board, "hotseat-useless-reaction-390x844")
    board.page.get_by_role("checkbox", name="Always pass these for us").click()
    board.wait_legal("RESOLVE_ATTACK")  # passed for the defender at once, no curtain
    assert board.page.locator(".overlay.pass").is_hidden()
    assert board.page.evaluate("localStorage.getItem('taktik.autopass')") == "1"

    # The next game on this device remembers it: the window is passed without a prompt.
    second = to_the_roll(web, new_page, page)
    second.wait_legal("RESOLVE_ATTACK")
    assert second.page.locator(".overlay.pass").is_hidden() and second.state()["seat"] == "ATTACKER"
    assert any("Defender passed (after the roll)" in line for line in second.state()["log"])
    assert second.page.errors == []
