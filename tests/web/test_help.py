"""How to play: a first-turn walkthrough, a glossary of the screen's words and the rules from docs/rules.md."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, shot
from .driver import Board

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}], ids=["1280", "390"])
def test_help_opens_over_the_game_with_a_walkthrough_a_glossary_and_the_rules(
        web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    created = web.create()
    board = Board(new_page(**size)).open(web.base + created["seats"][0]["path"])
    page = board.page
    page.locator("[data-help]").click()
    panel = page.locator(".helppanel")
    panel.wait_for()
    walk = panel.locator("[data-help-pane='turn']").inner_text()
    assert "Draw a card" in walk and "End turn" in walk and "Next: Move" in walk
    shot(board, f"help-turn-{size['width']}")

    panel.get_by_role("button", name="Words").click()
    words = panel.locator(".glossary").inner_text()
    for word in ("Reaction window", "Active / reacting", "VP", "Needs 4+"):
        assert word in words
    shot(board, f"help-words-{size['width']}")

    panel.get_by_role("button", name="Rules in brief").click()
    brief = panel.locator("[data-help-pane='brief'] .rules")
    brief.locator("table").first.wait_for()
    text = brief.inner_text()
    for part in ("How to win", "Units", "Moving", "Attacking", "Cards", "Light infantry", "3+"):
        assert part in text
    shot(board, f"help-brief-{size['width']}")
    brief.get_by_role("link", name="the full rules").click()  # opens the full rules' tab, not another page

    rules = panel.locator("[data-help-pane='rules'] .rules")
    rules.locator("#s9-1").wait_for()
    assert "Reaction windows" in rules.inner_text() and "Hit threshold by distance" in rules.inner_text()
    # A section mark jumps to its section inside the panel.
    rules.locator("a[href='#s9-3']").first.click()
    page.wait_for_function("""() => {
      const pane = document.querySelector("[data-help-pane='rules']");
      const target = document.getElementById('s9-3');
      const r = target.getBoundingClientRect(), p = pane.getBoundingClientRect();
      return r.top >= p.top - 2 && r.top < p.top + 60;
    }""")
    shot(board, f"help-rules-{size['width']}")
    assert "/play/" in page.url

    page.keyboard.press("Escape")
    panel.wait_for(state="hidden")
    page.keyboard.press("?")
    panel.wait_for()
    page.keyboard.press("Escape")
    assert board.state()["legal"] == ["DRAW_CARD"] and page.errors == []


def test_the_rules_page_stands_on_its_own(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/rules")
    assert page.title() == "Rules · Taktik"
    assert page.locator("main.rules h2").count() >= 10 and page.locator("main.rules table").count() >= 10
    page.locator("a[href='#s6-4']").first.click()
    assert page.url.endswith("#s6-4")
    assert page.errors == []
