"""The replay viewer: scrub a finished match, verify its dice, fork it, open a record file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import SCENARIO, WebServer, shot
from .driver import Board, play_out

pytestmark = pytest.mark.browser

QUICK = {**SCENARIO, "victory": {"round_limit": {"max_rounds": 2}}}


@pytest.fixture(scope="module")
def finished(web: WebServer) -> tuple[dict[str, Any], int]:
    created = web.create(QUICK)
    return created, play_out(web.base, created, seed=5)


def open_replay(page: Any, url: str) -> Board:
    page.goto(url)
    board = Board(page)
    board.wait_ready()
    page.evaluate("window.taktik.setAnimations(false)")
    page.locator(".replay-check:not([hidden])").wait_for()
    return board


def more(page: Any) -> None:
    """Open the bar's "More" part (speed, eyes, continue from here, the dice check)."""
    if page.locator(".replay-more").is_hidden():
        page.get_by_role("button", name="More").click()
    page.locator(".replay-more").wait_for()


def test_the_viewer_scrubs_through_every_step_as_it_was(web: WebServer, new_page: Any, finished: Any) -> None:
    created, steps = finished
    page = new_page()
    board = open_replay(page, f"{web.base}/replay/{created['match_id']}")
    assert page.locator(".replay-check").inner_text() == "✓ checked"
    assert "This record replays exactly" in (page.locator(".verify").text_content() or "")
    assert board.state()["version"] == 0 and board.state()["legal"] == []
    page.keyboard.press("End")
    board.wait("s.version === arg", steps)
    assert board.state()["phase"] == "VICTORY"
    final_log = board.state()["log"]
    assert any("victory points" in line or "wins" in line for line in final_log)  # why the game ended
    shot(page, "replay")
    page.keyboard.press("ArrowLeft")
    board.wait("s.version === arg", steps - 1)
    middle = steps // 2
    slider = page.locator(".replaybar input[type=range]")
    slider.evaluate("(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input')); }", middle)
    board.wait("s.version === arg", middle)
    step = web.get(f"/api/matches/{created['match_id']}/steps/{middle}")
    cells = {u["id"]: u["cell"] for u in step["state"]["units"]}
    assert {u: v["cell"] for u, v in board.units().items()} == cells
    log = board.state()["log"]
    assert log == final_log[: len(log)] and len(log) < len(final_log)
    assert f"Step {middle} of {steps}" in page.locator(".stepinfo").inner_text()
    page.get_by_role("button", name="Play", exact=True).click()
    board.wait("s.version > arg", middle)
    page.keyboard.press(" ")


def test_verify_dice_checks_the_revealed_seed_against_the_commitment(web: WebServer, new_page: Any,
                                                                    finished: Any) -> None:
    created, _ = finished
    page = new_page()
    open_replay(page, f"{web.base}/replay/{created['match_id']}")
    more(page)
    page.get_by_role("button", name="Verify dice").click()
    page.locator(".verify[data-dice]").wait_for()
    assert page.locator(".verify").get_attribute("data-dice") == "ok"
    words = page.locator(".verify").inner_text()
    assert "The dice were fair" in words and "sha256" not in words and "commitment" not in words
    shot(page, "replay-verified")


def test_continue_from_here_forks_a_hot_seat_match_at_the_shown_step(web: WebServer, new_page: Any,
                                                                      finished: Any) -> None:
    created, _ = finished
    page = new_page()
    board = open_replay(page, f"{web.base}/replay/{created['match_id']}")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    board.wait("s.version === 6")
    more(page)
    page.get_by_role("button", name="Continue from here").click()
    # Hot-seat: a curtain when the next decision needs a hand, else a public screen with both hands hidden.
    page.locator(".overlay.pass, .decision .detail.public").first.wait_for()
    assert "/play/" in page.url and created["match_id"] not in page.url
    if page.locator(".overlay.pass").is_visible():
        page.keyboard.press("Enter")
    board.wait_ready()
    assert board.state()["version"] == 6 and board.state()["status"] == "live"


def test_a_record_file_opens_in_the_viewer(web: WebServer, new_page: Any, finished: Any, tmp_path: Path) -> None:
    created, steps = finished
    record = web.get(f"/api/matches/{created['match_id']}/record")
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    page = new_page()
    page.goto(web.base + "/")
    page.set_input_files("input[name=record]", str(path))
    board = Board(page)
    board.wait_ready()
    page.locator(".replay-check:not([hidden])").wait_for()
    assert page.url.endswith("/replay/file")
    assert "This record replays exactly" in (page.locator(".verify").text_content() or "")
    page.keyboard.press("End")
    board.wait("s.version === arg", steps)


def test_a_live_match_has_no_replay_yet(web: WebServer, new_page: Any) -> None:
    created = web.create()
    page = new_page()
    page.goto(f"{web.base}/replay/{created['match_id']}")
    page.get_by_text("still being played").wait_for()
    assert page.get_by_role("link", name="Watch it live").get_attribute("href") == f"/watch/{created['match_id']}"


SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_bar_is_docked_at_the_boards_foot_and_folds_to_one_row(web: WebServer, new_page: Any, finished: Any,
                                                                   size: dict[str, int]) -> None:
    created, _ = finished
    phone = size["width"] < 400
    page = new_page(size["width"], size["height"], **({"has_touch": True, "is_mobile": True} if phone else {}))
    open_replay(page, f"{web.base}/replay/{created['match_id']}")
    bar = page.locator(".replaybar").bounding_box()
    board = page.locator("canvas.board-canvas").bounding_box()
    assert bar is not None and board is not None
    assert abs((bar["y"] + bar["height"]) - (board["y"] + board["height"])) <= 14  # docked at the foot
    assert bar["height"] <= 0.3 * board["height"]  # folded: most of the board stays in view
    assert page.locator(".replay-more").is_hidden()
    shot(page, f"replay-bar-{size['width']}")
    more(page)
    assert page.get_by_role("button", name="Continue from here").is_visible()
    page.get_by_role("button", name="Less").click()
    assert page.locator(".replay-more").is_hidden()
    assert page.errors == []
