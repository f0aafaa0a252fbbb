"""The smaller things a new player trips on (issue 32, point 11): a drawn bonus that cannot be played
says why, a quarter to choose is shown on the board with the target's marked, "could still move"
never counts past the turn's limit, and the lobby's scene draws."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]


def seat(web: WebServer, new_page: Any, config: dict[str, Any], size: dict[str, int], which: int = 0) -> Board:
    created = web.create(config=config)
    phone = size["width"] < 400
    page = new_page(size["width"], size["height"], **({"has_touch": True, "is_mobile": True} if phone else {}))
    return Board(page).open(web.base + created["seats"][which]["path"])


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_drawn_bonus_that_cannot_be_played_says_why(web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    att = seat(web, new_page, scenario(draw_pile=["air_cover#1"]), size)
    att.press("Draw a card")
    att.wait_legal("STORE_BONUS")
    assert "PLAY_BONUS" not in att.state()["legal"]
    assert "You (Attacker): store or discard Air Cover" in att.decision_text()
    why = att.page.locator(".decision [data-drawn-why]")
    att.page.wait_for_function("document.querySelector('[data-drawn-why]')?.textContent.length > 0")
    assert why.inner_text() == ("Air Cover cannot be played now: it has nothing to act on now (no legal target). "
                                "Store it for later, or discard it.")
    shot(att, f"drawn-bonus-why-{size['width']}")
    assert att.page.errors == []


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_quarter_to_choose_is_named_drawn_and_the_targets_marked(web: WebServer, new_page: Any,
                                                                    size: dict[str, int]) -> None:
    config = scenario(start_phase="MOVEMENT", draw_pile=[],
                      tactics={"attacker": ["enemy_recon_detection"], "defender": []})
    att = seat(web, new_page, config, size)
    att.wait_legal("MOVE_UNIT")
    phone = size["width"] < 400

    def commit(unit: str, cell: str, button: str) -> None:
        att.select(unit)
        version = att.state()["version"]
        if phone:  # a touch previews first; its button commits
            x, y = att.point(cell)
            att.page.touchscreen.tap(x, y)
            att.page.locator(".decision .armedbar").get_by_role("button", name=button).tap()
        else:
            att.click_cell(cell)
        att.wait_version(version + 1)

    commit("A7", "G4", "Move here")
    att.press("Next: Attack")
    att.wait_legal("DECLARE_ATTACK")
    target = "D9"
    commit("A7", att.units()[target]["cell"], "Attack")
    att.press("Next: Dice")
    att.wait_legal("ROLL_DICE")
    att.page.locator(".decision").get_by_role("button", name="Play Enemy Recon Detection").click()
    att.wait("s.aiming !== null")
    choices = att.page.locator(".decision button.choice")
    labels = choices.all_inner_texts()
    assert [label.split(" · ")[0] for label in labels] == [
        "North-west quarter", "North-east quarter", "South-west quarter", "South-east quarter"]
    marked = [label for label in labels if f"{target} is here" in label]
    assert len(marked) == 1  # the quarter the attack's target stands in
    button = choices.nth(labels.index(marked[0]))
    if size["width"] > 400:
        button.hover()  # the pointer on a choice tints its quarter on the board
    else:
        button.focus()  # so does the focus
    att.page.wait_for_function("window.taktik.pointed() !== null")
    shot(att, f"quarters-{size['width']}")
    assert att.page.errors == []


def test_could_still_move_counts_no_more_than_the_turn_allows(web: WebServer, new_page: Any) -> None:
    config = scenario(start_phase="MOVEMENT", draw_pile=[], tactics={"attacker": [], "defender": []},
                      rules={"name": "two_moves", "tables": {"max_moves": 2}})
    att = seat(web, new_page, config, SIZES[0])
    att.wait_legal("MOVE_UNIT")
    att.move("A1", "C3")  # one move left, two units that could make it
    assert "1 more possible" in att.page.locator(".panel.status").inner_text()
    att.button("^End turn").click()
    confirm = att.page.locator(".decision .confirm")
    confirm.wait_for()
    assert "1 more unit could still move" in confirm.inner_text()
    assert att.page.errors == []


def test_the_lobby_scene_draws_without_an_error(web: WebServer, new_page: Any) -> None:
    page = new_page()
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type in ("warning", "error") else None)
    page.goto(web.base + "/")
    page.wait_for_function("""() => {
      const c = document.querySelector('canvas.showcase');
      if (!c || !c.width) return false;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4 * 97) if (d[i] > 0) return true;
      return false;
    }""")
    assert page.locator("canvas.showcase").bounding_box()["height"] > 100  # type: ignore[index]
    # (the readbacks above are this test's own: the browser's hint about them is not the page's)
    assert page.errors == [] and [w for w in warnings if "willReadFrequently" not in w] == []
