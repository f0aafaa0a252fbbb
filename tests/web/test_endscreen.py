"""The end screen: why the game ended, the final VP and a turn-by-turn summary linking into the replay."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser


def one_round(web: WebServer, new_page: Any, **size: Any) -> tuple[dict[str, Any], Board, Board]:
    """A one-round match played to its end: A7 moves and misses D9, then both sides end their turns."""
    config = scenario(seed=1, victory={"round_limit": {"max_rounds": 1}},
                      draw_pile=["artillery_support#1", "supply_interruption#1"])
    created = web.create(config)
    att = Board(new_page(**size)).open(web.base + created["seats"][0]["path"])
    dfn = Board(new_page(**size)).open(web.base + created["seats"][1]["path"])
    att.press("Draw a card")
    att.press("Store it")
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("MOVE_UNIT")
    att.move("A7", "G4")
    att.press("Next: Attack")
    att.declare("A7", "D9")
    att.press("Next: Dice")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.press("Roll the die")
    att.wait_legal("RESOLVE_ATTACK")  # the roll misses: the defender's useless window is passed for it
    att.press("Apply the result")
    att.end_turn()
    dfn.wait_legal("DRAW_CARD")
    dfn.press("Draw a card")
    dfn.press("Accept the malus")
    dfn.wait_legal("NEXT_PHASE")
    dfn.press("Next: Move")
    dfn.wait_legal("END_TURN")
    dfn.end_turn()
    return created, att, dfn


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}], ids=["1280", "390"])
def test_the_end_screen_says_why_shows_the_vp_and_each_turn_links_into_the_replay(
        web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    created, att, dfn = one_round(web, new_page, **size)
    screen = dfn.page.locator(".overlay.victory")
    screen.locator(".turns tbody tr").nth(1).wait_for()
    assert "Victory!" in screen.inner_text() and "Defeat" in att.page.locator(".overlay").inner_text()
    assert screen.locator(".reason").get_attribute("data-reason") == "round_limit"
    assert "The last round is over: Defender wins on victory points" in screen.locator(".reason").inner_text()
    assert " ".join(screen.locator(".finalvp").inner_text().split()) == "VP Attacker 0 – Defender 0"
    rows = screen.locator(".turns tbody tr")
    assert rows.count() == 2
    first = rows.nth(0).inner_text()
    assert "Turn 1" in first and "Attacker" in first and "1 miss" in first
    assert "Turn 2" in rows.nth(1).inner_text() and "Defender" in rows.nth(1).inner_text()
    shot(dfn, f"end-screen-{size['width']}")

    # "Turn 2" opens the replay at the first step of turn 2.
    link = rows.nth(1).get_by_role("link", name="Turn 2")
    step = int((link.get_attribute("href") or "").split("#step=")[1])
    history = web.get(f"/api/matches/{created['match_id']}/history")
    assert step == history["turns"][1]["step"] and step > 0
    link.click()
    dfn.page.wait_for_function("(s) => window.taktik && window.taktik.replay && window.taktik.replay.index() === s",
                               arg=step)
    assert dfn.state()["turn"] == 2
    assert att.page.errors == [] and dfn.page.errors == []


def test_an_ending_the_client_has_no_words_for_still_reads(
        web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/static/index.html")
    words = page.evaluate("""async () => {
      const m = await import('/static/js/words.js');
      return [m.endReason('conceded', 'DEFENDER'), m.endReason('resignation', 'DEFENDER'),
              m.endReason('annihilation', 'ATTACKER')];
    }""")
    assert words == ["Defender wins (conceded).", "Attacker resigned: Defender wins.",
                     "Attacker destroyed every unit of Defender."]
