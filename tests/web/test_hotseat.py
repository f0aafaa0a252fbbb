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


# The Defender's turn at its attacks: D1 and D9 both in range, seed 2 hits twice. The Attacker
# holds reactions for before the roll and after it; the Defender holds no card at all.
TWO_ATTACKS = scenario(seed=2, start_phase="ATTACK", start_side="DEFENDER", draw_pile=[], units=[
    {"id": "A1", "side": "ATTACKER", "type": "LIGHT_INFANTRY", "cell": "C5"},
    {"id": "A7", "side": "ATTACKER", "type": "MECHANIZED", "cell": "G5"},
    {"id": "A10", "side": "ATTACKER", "type": "SPECIAL", "cell": "E1"},
    {"id": "D1", "side": "DEFENDER", "type": "LIGHT_INFANTRY", "cell": "C7"},
    {"id": "D9", "side": "DEFENDER", "type": "MECHANIZED", "cell": "H7"},
    {"id": "D14", "side": "DEFENDER", "type": "SPECIAL", "cell": "E9"},
], tactics={"attacker": ["dense_fog", "natural_cover", "suppressive_fire"], "defender": []})


def hotseat(web: WebServer, page: Any, config: dict[str, Any]) -> Board:
    created = web.create(config, hotseat=True)
    tokens = ".".join(seat["token"] for seat in created["seats"])
    page.goto(f"{web.base}/play/{created['match_id']}#{tokens}")
    page.wait_for_function("window.taktik && window.taktik.state && window.taktik.state().version >= 0")
    page.evaluate("window.taktik.setAnimations(false)")
    return Board(page)


SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_one_curtain_per_change_of_hands_and_a_roll_and_its_result_stay_together(
        web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    phone = size["width"] < 400
    options = {"has_touch": True, "is_mobile": True} if phone else {}
    board = hotseat(web, new_page(size["width"], size["height"], **options), TWO_ATTACKS)
    page = board.page
    curtains: list[str] = []
    page.expose_function("countCurtain", lambda text: curtains.append(text))
    page.evaluate("""() => new MutationObserver(() => {
        const o = document.querySelector('.overlay');
        if (!o.hidden && o.classList.contains('pass') && o.dataset.counted !== o.textContent) {
          o.dataset.counted = o.textContent;
          window.countCurtain(o.textContent);
        }
      }).observe(document.querySelector('.overlay'), {attributes: true, childList: true, subtree: true})""")
    # The Defender needs no hidden card to declare: a public screen, no curtain.
    board.wait("s.seat === 'DEFENDER' && s.legal.includes('DECLARE_ATTACK')")
    assert page.locator(".decision .detail.public").is_visible() and page.locator(".overlay.pass").is_hidden()
    assert "No hidden card is needed" in board.decision_text()
    shot(board, f"hotseat-public-{size['width']}")
    for attacker, target in (("D1", "A1"), ("D9", "A7")):
        board.select(attacker)
        version = board.state()["version"]
        if phone:  # a touch previews first, then commits
            x, y = board.point(board.units()[target]["cell"])
            page.touchscreen.tap(x, y)
            page.locator(".decision .armedbar").get_by_role("button", name="Attack").tap()
        else:
            board.click_unit(target)
        board.wait_version(version + 1)
    board.press("Next: Dice")
    for attack in (1, 2):
        # The Attacker's reaction before the roll needs its hand: the curtain, once.
        if attack == 1:
            page.locator(".overlay.pass").wait_for()
            text = page.locator(".overlay.pass").inner_text()
            assert "Pass the device to Attacker" in text and "Defender declared an attack: D1 → A1" in text
            shot(board, f"hotseat-curtain-since-{size['width']}")
            if phone:
                page.get_by_role("button", name="I am Attacker").tap()
            else:
                page.keyboard.press("Enter")
        board.wait("s.seat === 'ATTACKER' && s.legal.includes('PASS_REACTION')")
        board.press("Pass")
        # The roll and its result are the Defender's, with no card: they stay on a public screen.
        board.wait("s.seat === 'DEFENDER' && s.legal.includes('ROLL_DICE')")
        assert page.locator(".overlay.pass").is_hidden() and page.locator(".decision .detail.public").is_visible()
        board.press("Roll the die")
        board.wait("s.seat === 'ATTACKER' && s.legal.includes('PASS_REACTION')")  # Natural Cover after a hit
        assert page.locator(".overlay.pass").is_hidden()
        board.press("Pass")
        board.wait("s.seat === 'DEFENDER' && s.legal.includes('RESOLVE_ATTACK')")
        board.press("Apply the result")
    board.wait("s.legal.includes('END_TURN')")
    assert len(curtains) == 1, curtains  # the old client drew 9 here
    # "Show my cards" on a public screen brings the curtain after all.
    page.get_by_role("button", name="Show Defender's cards").click()
    page.locator(".overlay.pass").wait_for()
    assert page.errors == []


def test_a_player_may_pass_reactions_unless_their_own_unit_is_attacked(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/static/index.html")
    page.evaluate("localStorage.setItem('taktik.passUnlessTarget', JSON.stringify({ATTACKER: true}))")
    config = {**TWO_ATTACKS, "start_phase": "MOVEMENT"}  # the Attacker may react before the first move
    board = hotseat(web, page, config)
    board.wait("s.seat === 'DEFENDER' && s.legal.includes('MOVE_UNIT')")  # passed for the Attacker: no curtain
    assert any("Attacker passed (before the first move)" in line for line in board.state()["log"])
    assert "its unit is not the one attacked" in page.locator(".hsprompt.quiet").inner_text()
    assert page.locator(".overlay.pass").is_hidden() and page.errors == []
