"""Panels that leave the board free, fewer and safer clicks, worded cards and dice history (issue 16)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

# Seed 1 of the test scenario: A7's attack on D9 from G4 rolls a 1 and misses.
MISS = scenario(seed=1)


def seats(web: WebServer, new_page: Any, config: dict[str, Any], **size: int) -> tuple[dict[str, Any], Board, Board]:
    created = web.create(config)
    attacker = Board(new_page(**size)).open(web.base + created["seats"][0]["path"])
    defender = Board(new_page(**size)).open(web.base + created["seats"][1]["path"])
    return created, attacker, defender


def rect(board: Board, selector: str) -> dict[str, float]:
    found: dict[str, float] = board.page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }", selector)
    return found


def to_movement(att: Board, dfn: Board) -> None:
    att.press("Draw a card")
    att.press("Store it")
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("MOVE_UNIT")


def test_the_panel_is_docked_beside_the_board_and_end_turn_stands_apart_and_asks_first(
        web: WebServer, new_page: Any) -> None:
    created, att, dfn = seats(web, new_page, MISS)
    to_movement(att, dfn)
    panel, canvas = rect(att, ".decision"), rect(att, "canvas.board-canvas")
    assert panel["left"] >= canvas["right"] - 1, "the decision panel covers the board"
    # End turn sits apart from the primary action, which leads on.
    assert att.page.locator(".decision .apart .btn").inner_text().startswith("End turn")
    assert att.page.locator(".decision .btn.primary").inner_text().startswith("Next: Attack")
    shot(att, "panel-docked-1280x800")

    # Ending the turn with units that could still move asks first, and "Keep playing" keeps it.
    version = att.state()["version"]
    att.button("^End turn").click()
    confirm = att.page.locator(".decision .confirm")
    confirm.wait_for()
    assert "could still move" in confirm.inner_text()
    shot(att, "end-turn-confirm")
    att.button("Keep playing").click()
    assert confirm.count() == 0 and att.state()["version"] == version

    # After declaring an attack, the panel offers the next step, not "withdraw".
    att.move("A7", "G4")
    att.press("Next: Attack")
    att.wait_legal("DECLARE_ATTACK")
    att.declare("A7", "D9")
    assert att.state()["aiming"] is None and "Withdraw" not in att.page.locator(".decision .aim").all_inner_texts()
    assert att.page.locator(".decision .btn.primary").inner_text().startswith("Next: Dice")
    shot(att, "after-declaring")

    # Before the roll: Roll is primary, End turn apart and it would drop the declared attack.
    att.press("Next: Dice")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("ROLL_DICE")
    assert att.page.locator(".decision .btn.primary").inner_text().startswith("Roll the die")
    att.button("^End turn").click()
    assert "1 declared attack will not be resolved" in confirm.inner_text()
    att.page.keyboard.press("Escape")
    confirm.wait_for(state="detached")

    # The roll misses; once applied, one End turn and no "Next: End of turn" beside it.
    att.press("Roll the die")
    att.wait_legal("RESOLVE_ATTACK")  # the roll misses D9: the defender's useless window is passed for it
    att.press("Apply the result")
    att.wait_legal("END_TURN")
    labels = att.page.locator(".decision .btn").all_inner_texts()
    assert not any(label.startswith("Next") for label in labels), labels
    assert sum(label.startswith("End turn") for label in labels) == 1

    # Dice history survives a reload and reaches a late spectator.
    dfn.page.reload()
    dfn.wait_ready()
    spectator = Board(new_page()).open(web.base + created["spectator"]["path"])
    for board in (dfn, spectator):
        board.page.locator(".roll .outcome").wait_for()
        text = board.page.locator(".roll").inner_text()
        assert "A7 → D9" in text and "MISS" in text and "No roll yet" not in text
    shot(spectator, "dice-history-spectator")
    for board in (att, dfn, spectator):
        assert board.page.errors == []


def test_victims_are_counted_and_the_card_speaks_to_its_reader(web: WebServer, new_page: Any) -> None:
    config = scenario(draw_pile=["disrupted_supply_lines#1", "artillery_support#1", "troop_motivation#1"])
    created, att, dfn = seats(web, new_page, config)
    spectator = Board(new_page()).open(web.base + created["spectator"]["path"])
    att.press("Draw a card")
    att.wait_legal("ACCEPT_MALUS")
    assert "Your opponent picks two of your units" in att.page.locator(".decision").inner_text()
    att.press("Accept the malus")
    dfn.wait_legal("CHOOSE_MALUS_TARGETS")
    panel = dfn.page.locator(".decision")
    assert "pick 2 highlighted units on the board — 0 of 2 picked" in panel.inner_text()
    assert "You pick two of the Attacker's units" in dfn.page.locator(".cards").inner_text()
    spectator.wait_version(dfn.state()["version"])
    assert "The Defender picks two of the Attacker's units" in spectator.page.locator(".cards").inner_text()
    first, second = next(a for a in dfn.legal() if a["type"] == "CHOOSE_MALUS_TARGETS")["unit_ids"]
    version = dfn.state()["version"]
    dfn.click_unit(first)
    dfn.page.wait_for_function("(u) => document.querySelector('.decision').innerText.includes('1 of 2 picked (' + u)",
                               arg=first)
    shot(dfn, "victims-1-of-2")
    dfn.click_unit(second)
    dfn.wait_version(version + 1)
    assert dfn.page.errors == [] and att.page.errors == []


def test_while_the_bot_thinks_the_panel_and_the_title_say_so(web: WebServer, new_page: Any) -> None:
    created = web.create(opponent="bot")
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    assert att.page.title().startswith("▶ Your move")
    # Record every wording the panel and the title take while the bot answers.
    att.page.evaluate("""() => {
      window.seen = [];
      const note = () => window.seen.push(document.querySelector('.decision').innerText + ' | ' + document.title);
      new MutationObserver(note).observe(document.querySelector('.decision'), {childList: true, subtree: true});
    }""")
    att.press("Draw a card")
    att.press("Store it")
    att.press("Next: Move")
    att.wait_legal("MOVE_UNIT")  # the bot (Defender) has decided its reaction window
    seen = att.page.evaluate("window.seen")
    thinking = [s for s in seen if "The bot (Defender) is thinking" in s]
    assert thinking and all(s.endswith("The bot is thinking… · Taktik") for s in thinking), seen
    assert att.page.title().startswith("▶ Your move") and att.page.errors == []
