"""The replay viewer's evaluation graph: the bot's win estimate per turn, turning points that jump."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SCENARIO, WebServer, shot
from .driver import Board, play_out

pytestmark = pytest.mark.browser

SHORT = {**SCENARIO, "victory": {"round_limit": {"max_rounds": 3}}}


@pytest.fixture(scope="module")
def finished(web: WebServer) -> tuple[dict[str, Any], int]:
    """A short random game that the DEFENDER resigns in its second turn: the estimate jumps to 1 there,
    a turning point (a random game often ends at its round limit as the estimate already expected)."""
    created = web.create(SHORT)
    return created, play_out(web.base, created, seed=7, resign_at=("DEFENDER", 30))


def test_the_graph_shows_the_servers_estimate_and_a_turning_point_jumps_to_its_step(
        web: WebServer, new_page: Any, finished: Any) -> None:
    created, steps = finished
    record = web.get(f"/api/matches/{created['match_id']}/record")["record"]
    expected = web.post("/api/replays/evaluation", {"record": record})
    assert expected["points"][0]["step"] == 0 and expected["points"][-1]["step"] == steps
    assert expected["turning"]

    page = new_page()
    page.goto(f"{web.base}/replay/{created['match_id']}")
    board = Board(page)
    board.wait_ready()
    page.evaluate("window.taktik.setAnimations(false)")
    page.get_by_role("button", name="More").click()  # the graph is in the bar's folded part
    graph = page.locator(".evalgraph:not([hidden])")
    graph.wait_for()
    assert graph.get_attribute("data-points") == str(len(expected["points"]))
    turning = page.locator(".evalgraph button.turning")
    assert [int(s) for s in turning.evaluate_all("els => els.map(e => e.dataset.step)")] == expected["turning"]
    shot(page, "evalgraph")

    first = expected["turning"][0]
    label = turning.first.get_attribute("aria-label") or ""
    assert f"Turning point at step {first}" in label and "attacker's chances" in label
    turning.first.click()
    board.wait("s.version === arg", first)
    assert f"Step {first} of {steps}" in page.locator(".stepinfo").inner_text()
    here = page.locator(".evalgraph line.here")
    assert float(here.get_attribute("x1") or "0") == pytest.approx(1000 * first / steps, abs=0.1)
    assert page.errors == []
