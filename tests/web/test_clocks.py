"""Two people with a clock: both clocks count down in turn, the low-time warning, presence,
a resignation ending on the victory screen of the other seat, a rematch, the replay's clocks.

Two browser contexts (each its own storage, like two people) against a real server. The
server keeps time; these tests read what the page shows and never measure how long
anything took: a clock "counts down" when its figure is smaller a moment later.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

WAIT = 30_000


def seconds(text: str) -> float:
    """A clock face back to seconds: "1:02:03", "4:59", "9.3"."""
    if ":" not in text:
        return float(text)
    total = 0.0
    for part in text.split(":"):
        total = total * 60 + float(part)
    return total


def face(board: Board, side: str) -> Any:
    return board.page.locator(f".matchbar .clockface[data-side='{side}']")


def clock(board: Board, side: str) -> float:
    return seconds(face(board, side).locator(".time").inner_text())


def counts_down(board: Board, side: str) -> bool:
    """The figure of ``side``'s clock is smaller a moment later (it ticks between messages)."""
    before = clock(board, side)
    board.page.wait_for_function(
        "([side, before]) => { const t = document.querySelector(`.matchbar .clockface[data-side='${side}'] .time`)"
        ".textContent; const s = t.includes(':') ? t.split(':').reduce((a, p) => a * 60 + Number(p), 0) : Number(t);"
        " return s < before; }", arg=[side, before], timeout=WAIT)
    return True


def presence(board: Board, side: str) -> str:
    cls: str = face(board, side).locator(".presence").get_attribute("class") or ""
    return "on" if " on" in cls else "off" if " off" in cls else "unknown"


def wait_presence(board: Board, side: str, state: str) -> None:
    face(board, side).locator(f".presence.{state}").wait_for(timeout=WAIT)


def test_both_clocks_count_down_warn_when_low_show_presence_and_a_resignation_ends_the_game(
        web: WebServer, new_page: Any) -> None:
    created = web.create(clock={"initial": 25, "increment": 0})
    attacker = Board(new_page()).open(web.base + created["seats"][0]["path"])
    defender = Board(new_page()).open(web.base + created["seats"][1]["path"])
    spectator = Board(new_page()).open(web.base + created["spectator"]["path"])

    # Presence: both seats are there, for each player and for the spectator.
    for board in (attacker, defender, spectator):
        wait_presence(board, "ATTACKER", "on")
        wait_presence(board, "DEFENDER", "on")
    assert face(attacker, "DEFENDER").get_attribute("title") == "Defender's clock: 25 s"

    # The attacker's clock runs (outlined) and counts down on every page; the defender's holds.
    for board in (attacker, defender, spectator):
        face(board, "ATTACKER").and_(board.page.locator(".running")).wait_for(timeout=WAIT)
        assert "running" not in (face(board, "DEFENDER").get_attribute("class") or "")
    assert counts_down(attacker, "ATTACKER") and counts_down(defender, "ATTACKER")
    assert clock(defender, "DEFENDER") == 25
    shot(attacker, "clocks-attacker-running")

    # The defender goes away: the others see it at once; back, and the dot is green again.
    defender.page.close()
    wait_presence(attacker, "DEFENDER", "off")
    wait_presence(spectator, "DEFENDER", "off")
    assert "away" in (face(attacker, "DEFENDER").locator(".presence").get_attribute("title") or "")
    shot(attacker, "presence-away")
    defender = Board(new_page()).open(web.base + created["seats"][1]["path"])
    wait_presence(attacker, "DEFENDER", "on")

    # The attacker moves on to movement: the defender's reaction window runs the defender's clock.
    attacker.press("Draw a card")
    attacker.wait_legal("STORE_BONUS")
    attacker.press("Store it")
    attacker.wait_legal("NEXT_PHASE")
    attacker.press("Next: Move")
    defender.wait_legal("PASS_REACTION")
    face(attacker, "DEFENDER").and_(attacker.page.locator(".running")).wait_for(timeout=WAIT)
    held = clock(attacker, "ATTACKER")
    assert counts_down(attacker, "DEFENDER") and counts_down(defender, "DEFENDER")
    assert clock(attacker, "ATTACKER") == held  # the attacker's clock stopped where it was

    # The defender's clock goes below 10 s: red, blinking, and the defender's tab title says so.
    face(defender, "DEFENDER").and_(defender.page.locator(".low.running")).wait_for(timeout=WAIT)
    defender.page.wait_for_function("document.title.startsWith('⚠ ')", timeout=WAIT)
    assert re.match(r"⚠ \d\.\d left · ", defender.page.title())
    assert not attacker.page.title().startswith("⚠")  # not the attacker's clock: no alarm in their tab
    shot(defender, "clocks-low-time")

    # The defender resigns (its turn or not: this is a reaction window), after confirming.
    defender.page.get_by_role("button", name="Resign").click()
    dialog = defender.page.locator(".confirm-resign")
    dialog.wait_for()
    assert "cannot be taken back" in dialog.inner_text()
    shot(defender, "resign-confirm")
    dialog.get_by_role("button", name="Keep playing").click()
    assert dialog.is_hidden() and defender.state()["status"] == "live"
    defender.page.get_by_role("button", name="Resign").click()
    dialog.get_by_role("button", name="Resign").click()

    attacker.page.locator(".overlay.victory").wait_for(timeout=WAIT)
    text = attacker.page.locator(".overlay.victory").inner_text()
    assert "Victory!" in text and "Defender resigned" in text
    defender.page.locator(".overlay.victory").wait_for(timeout=WAIT)
    assert "Defeat" in defender.page.locator(".overlay.victory").inner_text()
    spectator.page.locator(".overlay.victory").wait_for(timeout=WAIT)
    assert "Attacker wins" in spectator.page.locator(".overlay.victory").inner_text()
    for board in (attacker, defender):  # the clocks stop with the game
        assert board.page.locator(".matchbar .running").count() == 0
        assert board.page.get_by_role("button", name="Resign").count() == 0
    shot(attacker, "victory-by-resignation")
    assert attacker.page.errors == [] and defender.page.errors == []

    # The replay names the resignation and shows the clocks at each step.
    attacker.page.goto(web.base + f"/replay/{created['match_id']}")
    attacker.page.locator(".replaybar .replayclocks").wait_for(timeout=WAIT)
    attacker.page.evaluate("window.taktik.replay.go(window.taktik.replay.total() - 1)")
    info = attacker.page.locator(".replaybar .stepinfo")
    info.filter(has_text="Defender resigned").wait_for(timeout=WAIT)
    assert re.search(r"Attacker \d:\d\d · Defender \d\.\d", info.inner_text())
    shot(attacker, "replay-clocks")


def test_a_rematch_offered_and_accepted_takes_both_players_to_the_new_match_with_sides_swapped(
        web: WebServer, new_page: Any) -> None:
    created = web.create(clock={"per_turn": 120})
    attacker = Board(new_page()).open(web.base + created["seats"][0]["path"])
    defender = Board(new_page()).open(web.base + created["seats"][1]["path"])
    attacker.page.get_by_role("button", name="Resign").click()
    attacker.page.locator(".confirm-resign").get_by_role("button", name="Resign").click()
    for board in (attacker, defender):
        board.page.locator(".overlay.victory").wait_for(timeout=WAIT)
    assert "Attacker resigned" in defender.page.locator(".overlay.victory").inner_text()

    box = defender.page.locator(".rematchbox")
    box.get_by_role("button", name="Offer a rematch").click()
    box.filter(has_text="Waiting for the answer").wait_for(timeout=WAIT)
    other = attacker.page.locator(".rematchbox")
    other.filter(has_text="Defender offers a rematch").wait_for(timeout=WAIT)
    shot(attacker, "rematch-offered")
    # A decline, then a second offer, accepted.
    other.get_by_role("button", name="Decline").click()
    box.filter(has_text="Attacker declined the rematch").wait_for(timeout=WAIT)
    box.get_by_role("button", name="Offer a rematch").click()
    other.get_by_role("button", name="Accept the rematch").click()

    old = created["match_id"]
    for board, seat in ((attacker, "DEFENDER"), (defender, "ATTACKER")):
        board.page.wait_for_url(re.compile(r"/play/(?!" + re.escape(old) + ")"), timeout=WAIT)
        board.wait_ready()
        assert board.state()["seat"] == seat
    new = attacker.page.url.split("/play/")[1].split("#")[0]
    assert new != old and defender.page.url.split("/play/")[1].split("#")[0] == new
    assert face(attacker, "ATTACKER").get_attribute("title") == "Attacker's clock: 2 min per turn"
    shot(attacker, "rematch-new-match")


def test_a_turn_ended_by_its_clock_is_said_to_both_players(web: WebServer, new_page: Any) -> None:
    quiet = scenario(start_phase="MOVEMENT", draw_pile=[], tactics={"attacker": [], "defender": []})
    created = web.create(config=quiet, clock={"per_turn": 10})
    attacker = Board(new_page()).open(web.base + created["seats"][0]["path"])
    defender = Board(new_page(360, 740, has_touch=True, is_mobile=True)).open(web.base + created["seats"][1]["path"])
    attacker.wait_legal("MOVE_UNIT")
    # The attacker lets its 10 s run out: the server ends its turn, and both are told why.
    attacker.wait("s.notice && s.notice.includes('Your turn clock ran out')", timeout=30_000)
    defender.wait("s.notice && s.notice.includes(arg) && s.notice.includes('Your move')",
                  "Attacker's turn clock ran out", timeout=30_000)
    assert defender.state()["turn"] == 2 and defender.page.locator(".notice").is_visible()
    shot(defender, "turn-clock-ran-out-360")
    assert attacker.page.errors == [] and defender.page.errors == []
