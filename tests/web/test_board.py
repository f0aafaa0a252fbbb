"""The board itself: projection round trips, exact picking, pan and zoom, hi-DPI, phones."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, shot
from .driver import Board

pytestmark = pytest.mark.browser

ROUND_TRIP = """async () => {
  const iso = await import('/static/js/iso.js');
  const manifest = await (await fetch('/assets/tiles/manifest.json')).json();
  const failures = [];
  let checked = 0;
  for (const [w, h] of [[20, 30], [7, 11], [30, 4], [28, 27]]) {
    const g = iso.makeGrid(w, h, manifest.tile);
    for (let x = 0; x < w; x++) for (let y = 0; y < h; y++) {
      const [wx, wy] = iso.cellToWorld(g, x, y);
      const back = iso.worldToCell(g, wx, wy);
      const [fx, fy] = iso.faceCentre(g, x, y);
      const picked = iso.pickCell(g, fx, fy);
      const label = iso.label(x, y);
      const parsed = iso.parseLabel(label);
      // Just inside each corner of the lattice diamond still picks the cell (worldToCell),
      // and just outside picks the neighbour across that corner.
      const e = 1e-6, hw = g.halfW, hs = g.stepY;
      const inside = [[wx + hw - e * hw, wy], [wx - hw + e * hw, wy], [wx, wy + hs - e * hs], [wx, wy - hs + e * hs]];
      const outside = [[wx + hw + e * hw, wy, [x + 1, y - 1]], [wx - hw - e * hw, wy, [x - 1, y + 1]],
                       [wx, wy + hs + e * hs, [x + 1, y + 1]], [wx, wy - hs - e * hs, [x - 1, y - 1]]];
      const ok = back[0] === x && back[1] === y && picked && picked[0] === x && picked[1] === y
        && parsed[0] === x && parsed[1] === y
        && inside.every(([a, b]) => { const c = iso.worldToCell(g, a, b); return c[0] === x && c[1] === y; })
        && outside.every(([a, b, n]) => { const c = iso.worldToCell(g, a, b); return c[0] === n[0] && c[1] === n[1]; });
      checked += 1;
      if (!ok) failures.push([w, h, x, y, label]);
    }
  }
  const g = iso.makeGrid(20, 30, manifest.tile);
  const check = [[19, 0], [0, 29], [19, 29]]
    .map(([x, y]) => iso.cellToWorld(g, x, y).map((v) => Math.round(v * 10) / 10));
  const labels = [iso.label(0, 0), iso.label(19, 29), iso.label(10, 15), iso.label(27, 0)];
  return { failures, checked, check, labels, origin: g.originX, faceDy: g.faceDy };
}"""


def test_projection_round_trips_on_every_cell_and_at_diamond_edges(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/static/index.html")
    result = page.evaluate(ROUND_TRIP)
    assert result["failures"] == [] and result["checked"] == 20 * 30 + 7 * 11 + 30 * 4 + 28 * 27
    # rules §12 check values, with the origin (H − 1) × TILE_W/2 = 1856 added to x.
    assert result["check"] == [[1216 + 1856, 609.9], [-1856 + 1856, 930.9], [-640 + 1856, 1540.8]]
    assert result["labels"] == ["A1", "T30", "K16", "AB1"] and result["origin"] == 1856
    assert result["faceDy"] == pytest.approx(-7.6)


def test_clicks_pick_the_cell_and_unit_under_the_pointer_after_pan_and_zoom(web: WebServer, new_page: Any) -> None:
    created = web.create()
    board = Board(new_page()).open(web.base + created["seats"][0]["path"])
    page = board.page
    before = page.evaluate("window.taktik.camera()")
    x, y = board.point("E6")
    page.mouse.move(x, y)
    page.mouse.wheel(0, -400)
    page.wait_for_function("(z) => window.taktik.camera().zoom > z", arg=before["zoom"])
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 120, y - 60, steps=4)
    page.mouse.up()
    after = page.evaluate("window.taktik.camera()")
    assert after["zoom"] > before["zoom"] and (after["cx"], after["cy"]) != (before["cx"], before["cy"])
    # A drag is not a click: nothing got selected.
    assert board.state()["selected"] is None
    for cell in ("C2", "G2", "E1"):
        board.click_cell(cell)
        unit = next(u for u, v in board.units().items() if v["cell"] == cell)
        board.wait("s.selected === arg", unit)
    for cell in ("B3", "H4", "A12", "J1"):
        x, y = board.point(cell)
        page.mouse.move(x, y)
        page.wait_for_function("(c) => document.querySelector('.hoverinfo').textContent.startsWith(c)", arg=cell)
    page.mouse.move(*board.point("B3"))
    page.wait_for_function("document.querySelector('.hoverinfo').textContent.includes('Hill')")
    page.get_by_role("button", name="⤢").click()
    assert page.evaluate("window.taktik.camera().zoom") < after["zoom"]


def test_the_backing_store_follows_the_device_pixel_ratio(web: WebServer, new_page: Any) -> None:
    created = web.create()
    page = new_page(device_scale_factor=2)
    board = Board(page).open(web.base + created["spectator"]["path"])
    size = page.evaluate("(() => { const c = document.querySelector('canvas.board-canvas');"
                         " return [c.width, c.height, c.clientWidth, c.clientHeight]; })()")
    assert size[0] == size[2] * 2 and size[1] == size[3] * 2
    assert board.state()["seat"] is None
    shot(page, "board-spectator-hidpi")


def test_a_phone_taps_units_and_cells(web: WebServer, new_page: Any) -> None:
    created = web.create()
    page = new_page(390, 844, is_mobile=True, has_touch=True, device_scale_factor=3)
    board = Board(page).open(web.base + created["seats"][0]["path"])
    shot(page, "board-390x844")
    board.press("Draw a card")
    board.wait_legal("STORE_BONUS")
    shot(page, "phone-drawn-card")
    board.press("Store it")
    board.press("Next")
    board.wait("s.toAct === 'DEFENDER'")
    shot(page, "phone-waiting")
    page.get_by_role("button", name="Log").click()
    assert page.locator(".log").is_visible() and not page.locator(".cards").is_visible()
    x, y = board.point("G2")
    page.touchscreen.tap(x, y)
    board.wait("s.selected === 'A7'")


def test_a_two_finger_pinch_zooms_and_keys_drive_the_game(web: WebServer, new_page: Any) -> None:
    created = web.create()
    board = Board(new_page()).open(web.base + created["seats"][0]["path"])
    page = board.page
    before = page.evaluate("window.taktik.camera().zoom")
    page.evaluate("""() => {
      const c = document.querySelector('canvas.board-canvas');
      const r = c.getBoundingClientRect();
      const at = (id, type, x, y) => c.dispatchEvent(new PointerEvent(type, {pointerId: id, pointerType: 'touch',
        clientX: r.left + x, clientY: r.top + y, bubbles: true, isPrimary: id === 1}));
      at(1, 'pointerdown', 300, 300); at(2, 'pointerdown', 340, 300);
      for (let i = 1; i <= 10; i++) { at(1, 'pointermove', 300 - 8 * i, 300); at(2, 'pointermove', 340 + 8 * i, 300); }
      at(1, 'pointerup', 220, 300); at(2, 'pointerup', 420, 300);
    }""")
    assert page.evaluate("window.taktik.camera().zoom") > before * 2
    assert board.state()["selected"] is None  # a pinch is not a tap
    page.keyboard.press("d")
    board.wait_legal("STORE_BONUS")
    page.keyboard.press("s")
    board.wait_legal("NEXT_PHASE")
    board.select("A7")
    page.keyboard.press("Escape")
    board.wait("s.selected === null")
    page.keyboard.press("Enter")  # the primary button: Next
    board.wait("s.phase === 'MOVEMENT'")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_full_size_board_opens_readable_around_your_units(web: WebServer, new_page: Any, width: int,
                                                             height: int) -> None:
    created = web.create({"seed": 7})
    board = Board(new_page(width, height)).open(web.base + created["seats"][0]["path"])
    shot(board, f"board-20x30-{width}x{height}")
    # The first view zooms to where this seat's units are; the fit button shows everything.
    units = [u for u in board.units().values() if u["side"] == "ATTACKER"]
    visible = [u for u in units if board.page.evaluate(
        "([c, w, h]) => { const p = window.taktik.cellToClient(c); return p.x > 0 && p.x < w && p.y > 0 && p.y < h; }",
        [u["cell"], width, height])]
    assert len(visible) >= len(units) // 2
    zoom = board.page.evaluate("window.taktik.camera().zoom")
    board.page.get_by_role("button", name="⤢").click()
    assert board.page.evaluate("window.taktik.camera().zoom") < zoom
