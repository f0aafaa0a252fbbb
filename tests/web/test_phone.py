"""A phone at 390×844: the bottom sheet folds while aiming so every target can be tapped; the lobby fits."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board, play_out

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}

# Every element of the lobby's match list and seat links whose box leaves the viewport (or its row).
CLIPPED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.matches td, .matches .btn, .links .link > *, .box')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(el.className + ' ' + el.textContent.trim().slice(0, 30));
    const scroller = el.closest('.recent');
    if (scroller && scroller.scrollWidth > scroller.clientWidth + 1) out.push('the match list scrolls sideways');
  }
  for (const b of document.querySelectorAll('.matches .btn')) {
    if (b.scrollWidth > b.clientWidth + 1) out.push('clipped label: ' + b.textContent.trim());
  }
  return [...new Set(out)];
}"""


def test_the_sheet_folds_to_one_line_while_aiming_and_every_target_can_be_tapped(
        web: WebServer, new_page: Any) -> None:
    created = web.create()
    att = Board(new_page(**PHONE)).open(web.base + created["seats"][0]["path"])
    dfn = Board(new_page()).open(web.base + created["seats"][1]["path"])
    att.press("Draw a card")
    att.press("Store it")
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("MOVE_UNIT")
    sheet = att.page.locator(".decision")
    assert "collapsed" not in (sheet.get_attribute("class") or "")
    shot(att, "phone-sheet-open-390x844")

    x, y = att.point(att.units()["A7"]["cell"])
    att.page.touchscreen.tap(x, y)
    att.wait("s.selected === 'A7'")
    att.page.wait_for_function("document.querySelector('.decision').classList.contains('collapsed')")
    assert sheet.bounding_box()["height"] < 60
    shot(att, "phone-sheet-folded-390x844")
    # Every highlighted cell on screen is the board's to tap: nothing of the HUD lies over it.
    targets = [a["to"] for a in att.legal() if a["type"] == "MOVE_UNIT" and a["unit_id"] == "A7"]
    covered = att.page.evaluate("""(cells) => {
      const canvas = document.querySelector('canvas.board-canvas');
      const box = canvas.getBoundingClientRect();
      return cells.filter((c) => {
        const p = window.taktik.cellToClient(c);
        if (!p || p.x < box.left || p.x > box.right || p.y < box.top || p.y > box.bottom) return false;
        return document.elementFromPoint(p.x, p.y) !== canvas;
      });
    }""", targets)
    assert targets and covered == []
    # The handle opens the folded sheet; tapping the selected unit again unfolds it by itself.
    att.page.locator(".decision .sheetbar").tap()
    att.page.wait_for_function("!document.querySelector('.decision').classList.contains('collapsed')")
    att.page.touchscreen.tap(x, y)
    att.wait("s.selected === null")
    assert "collapsed" not in (sheet.get_attribute("class") or "")
    # Moving with taps through the folded sheet: the first tap on a cell previews the move (its path
    # and cost, and a button to commit it), a second tap on the same cell commits it.
    att.page.touchscreen.tap(x, y)
    att.wait("s.selected === 'A7'")
    version = att.state()["version"]
    gx, gy = att.point("G4")
    att.page.touchscreen.tap(gx, gy)
    bar = att.page.locator(".decision .armedbar")
    bar.wait_for()
    att.page.wait_for_function("document.querySelector('.armed-figures')?.textContent.includes('MP')")
    assert "Move A7 to G4" in bar.inner_text() and att.state()["version"] == version
    assert bar.get_by_role("button", name="Move here").is_visible()
    shot(att, "phone-move-preview-390x844")
    att.page.touchscreen.tap(gx, gy)
    att.wait_version(version + 1)
    assert att.units()["A7"]["cell"] == "G4" and att.page.errors == []


@pytest.mark.parametrize("size", [PHONE, {"width": 1280, "height": 800}], ids=["390", "1280"])
def test_the_lobby_list_and_seat_links_fit_without_clipping(
        web: WebServer, new_page: Any, size: dict[str, Any]) -> None:
    live = [web.create(**body) for body in ({}, {"opponent": "bot"}, {"hotseat": True}, {}, {"opponent": "bot"})]
    finished = web.create(scenario(victory={"round_limit": {"max_rounds": 1}}))
    play_out(web.base, finished)
    page = new_page(**size)
    page.goto(web.base + live[0]["seats"][0]["path"])  # this browser remembers the seat: Resume too
    page.wait_for_function("window.taktik && window.taktik.state().version >= 0")
    page.goto(web.base + "/")
    page.locator(".matches tbody tr").first.wait_for()
    row = page.locator(f".matches tr[data-match='{live[0]['match_id']}']")
    assert len(row.locator(".btn").all_inner_texts()) >= 2, row.inner_text()  # Resume and Watch
    assert page.locator(f".matches tr[data-match='{finished['match_id']}'] .btn").all_inner_texts() == ["Replay"]
    assert page.evaluate(CLIPPED) == []
    page.get_by_role("button", name="Against a person").click()
    page.locator(".links .link").first.wait_for()
    page.locator(".links").scroll_into_view_if_needed()
    assert page.evaluate(CLIPPED) == []
    shot(page, f"lobby-links-{size['width']}")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
