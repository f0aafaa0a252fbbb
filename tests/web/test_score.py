"""The score is always in sight: VP of both sides, what wins, the round, and a cue when it changes."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SCENARIO, WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]
# Seed 2, A7 next to D1: the first roll hits and destroys D1 (a light infantry, 1 VP).
UNITS = [{**u, "cell": "C6"} if u["id"] == "A7" else u for u in SCENARIO["units"]]
KILL = scenario(seed=2, start_phase="MOVEMENT", draw_pile=[], tactics={"attacker": [], "defender": []}, units=UNITS,
                victory={"round_limit": {"max_rounds": 6}})


def open_seat(web: WebServer, new_page: Any, created: dict[str, Any], seat: int, size: dict[str, int]) -> Board:
    phone = size["width"] < 400
    page = new_page(size["width"], size["height"], **({"has_touch": True, "is_mobile": True} if phone else {}))
    return Board(page).open(web.base + created["seats"][seat]["path"])


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_score_and_the_goal_are_always_in_the_top_bar_and_light_up_when_they_change(
        web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    created = web.create(config=KILL)
    att = open_seat(web, new_page, created, 0, size)
    dfn = open_seat(web, new_page, created, 1, size)
    score = att.page.locator(".topbar .score")
    assert score.is_visible()
    words = " ".join(score.inner_text().split())
    if size["width"] > 400:
        assert words == "VP 0 – 0 first to 5 · round 1 of 6"
    else:  # a phone says the same in short: "0 – 0 /5 · R1/6"
        assert words == "0 – 0 /5 · R1/6"
    title = score.get_attribute("title") or ""
    assert "first to 5 · round 1 of 6" in (score.get_attribute("aria-label") or "")
    assert "destroy enemy units worth 5 VP first" in title and "light infantry 1" in title
    assert "After round 6 the side with more VP wins" in title
    # The top bar stays two rows on a phone, one on a desktop.
    bar = att.page.locator(".topbar").bounding_box()
    assert bar is not None and bar["height"] <= (90 if size["width"] < 400 else 52)

    att.wait_legal("NEXT_PHASE")
    att.press("Next: Attack")
    att.declare("A7", "D1")
    att.press("Next: Dice")
    att.press("Roll the die")
    att.press("Apply the result")
    att.wait("s.log.some(l => l.includes('D1 was destroyed'))")
    # The cue: the box lights up and "+1" stands beside the Attacker's points, on both screens.
    for board in (att, dfn):
        board.page.locator(".topbar .score.scored .vp-gain").wait_for()
        assert board.page.locator(".topbar .score .vp.side-ATTACKER").inner_text() == "1"
        assert board.page.locator(".topbar .score .vp-gain").inner_text() == "+1"
    shot(att, f"score-cue-{size['width']}")
    att.page.locator(".topbar .score .vp-gain").wait_for(state="detached", timeout=10_000)  # the cue fades
    assert att.page.errors == [] and dfn.page.errors == []
