"""The lobby: start a match three ways, share its links, list recent matches, hot-seat curtain."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, WebServer, shot
from .driver import Board

pytestmark = pytest.mark.browser


def advanced(page: Any, seed: int = 7) -> None:
    page.locator("details.advanced summary").click()
    page.fill("[name=seed]", str(seed))
    page.fill("[name=width]", "12")
    page.fill("[name=height]", "15")


def test_a_match_against_a_person_shows_both_seat_links_and_the_spectator_link(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/")
    page.wait_for_selector(".recent table, .recent p")
    shot(page, "lobby")
    advanced(page)
    page.get_by_role("button", name="Against a person").click()
    links = page.locator(".created .link")
    links.first.wait_for()
    assert links.count() == 3
    texts = [links.nth(i).inner_text() for i in range(3)]
    assert "Attacker" in texts[0] and "/play/" in texts[0] and "#" in texts[0]
    assert "Defender" in texts[1] and "Spectators" in texts[2] and "/watch/" in texts[2]
    assert page.locator(".created [data-copy]").count() == 3
    shot(page, "lobby-links")
    attacker_url = page.locator(".created .link code").first.inner_text()
    page.locator(".created .link").first.get_by_role("link", name="Open").click()
    board = Board(page)
    board.wait_ready()
    assert board.state()["seat"] == "ATTACKER" and page.url == attacker_url
    # The lobby now lists the match with a Resume link for the seat this browser opened.
    match_id = attacker_url.split("/play/")[1].split("#")[0]
    page.goto(web.base + "/")
    row = page.locator(f"tr[data-match='{match_id}']")
    row.wait_for()
    assert row.get_by_role("link", name="Resume").count() == 1 and row.get_by_role("link", name="Watch").count() == 1


def test_a_match_against_your_own_bot_shows_the_command_that_plays_its_seat(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/")
    page.wait_for_selector(".recent table, .recent p")
    advanced(page)
    page.select_option("[name=side]", "DEFENDER")
    page.get_by_role("button", name="Against your own bot").click()
    bot_row = page.locator(".created .link.bot-seat")
    bot_row.wait_for()
    assert "Your bot: Attacker" in bot_row.inner_text()
    command = bot_row.locator("code").inner_text()
    assert command.startswith("taktik join 'http://") and "/play/" in command and command.endswith("' --bot greedy")
    assert bot_row.locator("[data-copy]").get_attribute("data-copy") == command
    mine = page.locator(".created .link").nth(1)
    assert "You: Defender" in mine.inner_text() and mine.get_by_role("link", name="Open").count() == 1
    page.locator(".created").scroll_into_view_if_needed()
    shot(page, "lobby-own-bot")
    # The command plays the seat: the bot (ATTACKER) joins and moves first.
    link = command.split("'")[1]
    match_id = link.split("/play/")[1].split("#")[0]
    assert web.get(f"/api/matches/{match_id}")["mode"] == "outside_bot"
    bot = subprocess.Popen([sys.executable, "-m", "cli", "join", link, "--bot", "greedy", "--rate", "0"], cwd=REPO,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        mine.get_by_role("link", name="Open").click()
        board = Board(page)
        board.wait_ready()
        assert board.state()["seat"] == "DEFENDER"
        deadline = time.monotonic() + 60
        while web.get(f"/api/matches/{match_id}")["version"] == 0:
            assert time.monotonic() < deadline and bot.poll() is None, bot.communicate()
            time.sleep(0.1)
    finally:
        bot.kill()
        bot.communicate()
    page.goto(web.base + "/")
    row = page.locator(f"tr[data-match='{match_id}']")
    row.wait_for()
    assert "outside bot" in row.inner_text()


def test_hot_seat_hides_each_side_behind_a_pass_the_device_curtain(web: WebServer, new_page: Any) -> None:
    created = web.create(hotseat=True)
    tokens = ".".join(seat["token"] for seat in created["seats"])
    page = new_page()
    page.goto(f"{web.base}/play/{created['match_id']}#{tokens}")
    curtain = page.locator(".overlay.pass")
    curtain.wait_for()
    assert "Pass the device to Attacker" in curtain.inner_text()
    page.get_by_role("button", name="I am Attacker").click()
    board = Board(page)
    board.wait_ready()
    page.evaluate("window.taktik.setAnimations(false)")
    assert board.state()["seat"] == "ATTACKER"
    board.press("Draw a card")
    board.wait_legal("STORE_BONUS")
    board.press("Store it")
    board.wait_legal("NEXT_PHASE")
    board.button("Next: Move").click()
    curtain.wait_for()
    assert "Pass the device to Defender" in curtain.inner_text()
    shot(page, "hotseat-pass")
    # Behind the curtain nothing of either hand is on screen.
    assert page.locator(".overlay.pass").is_visible()
    page.keyboard.press("Enter")
    board.wait("s.seat === 'DEFENDER' && s.legal.includes('PASS_REACTION')")
    assert "Suppressive Fire" in page.locator(".cards").inner_text()
    board.press("Pass")
    curtain.wait_for()
    page.get_by_role("button", name="I am Attacker").click()
    board.wait("s.seat === 'ATTACKER' && s.legal.includes('MOVE_UNIT')")
    assert "Artillery Support" in page.locator(".cards").inner_text()


def test_against_the_bot_the_server_plays_the_other_side(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/")
    advanced(page, seed=11)
    picker = page.locator("[name=bot]")
    picker.locator("option[value=strong]").wait_for(state="attached")  # the server's bots are listed
    assert picker.input_value() == "greedy"  # the server's default comes selected
    about = page.locator("label.wide .about")
    assert about.inner_text() == "Greedy: quick, takes the best-looking action"  # the chosen bot, described
    assert picker.locator("option[value=strong]").inner_text() == "Strong"  # short enough for a phone
    picker.select_option("strong")
    assert about.inner_text() == "Strong: plans its whole turn (slower)"
    page.get_by_role("button", name="Against the bot").click()
    board = Board(page)
    board.wait_ready()
    page.evaluate("window.taktik.setAnimations(false)")
    assert board.state()["seat"] == "ATTACKER"
    match_id = page.url.split("/play/")[1].split("#")[0]
    assert web.get(f"/api/matches/{match_id}")["bot"] == "strong"
    # Whatever comes, move on as fast as possible (and pass in the bot's reaction windows)
    # until the bot has played its whole turn and it is the attacker's turn 3.
    for _ in range(40):
        board.wait("s.toAct === 'ATTACKER' && !s.busy && s.legal.length > 0", timeout=30_000)
        state = board.state()
        if state["turn"] >= 3:
            break
        names = {a["type"] for a in board.legal()}
        for kind, label in (("DRAW_CARD", "Draw"), ("END_TURN", "End turn"), ("NEXT_PHASE", "Next|Finish"),
                            ("DISCARD_BONUS", "Discard"), ("ACCEPT_MALUS", "Accept"), ("PASS_REACTION", "Pass"),
                            ("CHOOSE_MALUS_TARGETS", "")):
            if kind in names:
                if kind == "END_TURN":
                    board.end_turn()
                elif label:
                    board.press(label)
                else:
                    victims = next(a for a in board.legal() if a["type"] == kind)["unit_ids"]
                    version = state["version"]
                    for unit in victims:
                        board.click_unit(unit)
                    board.wait_version(version + 1)
                break
        else:
            raise AssertionError(f"no way forward from {names}")
    assert board.state()["turn"] >= 3
    assert any("Defender" in line for line in board.state()["log"])


def test_a_match_of_other_rules_is_listed_and_shown_as_read_only_not_broken(tmp_path: Path, new_page: Any) -> None:
    data = tmp_path / "data"
    first = WebServer(data)
    try:
        created = first.create()
    finally:
        first.stop()
    with sqlite3.connect(data / "taktik.sqlite3") as db:  # as a server of other rules would have stored it
        db.execute("UPDATE matches SET rules_version='0.0ldrul3s'")
    db.close()
    server = WebServer(data)
    try:
        page = new_page()
        page.goto(server.base + "/")
        row = page.locator(f"tr[data-match='{created['match_id']}']")
        row.wait_for()
        status = row.locator(".status-other_rules")
        assert " ".join(status.inner_text().split()) == "other rules — read only"
        assert "broken" not in row.inner_text()
        assert "0.0ldrul3s" in (status.get_attribute("title") or "")
        shot(page, "lobby-other-rules")
        phone = new_page(360, 740, is_mobile=True, has_touch=True)  # the table becomes one card per match
        phone.goto(server.base + "/")
        phone.locator(f"tr[data-match='{created['match_id']}'] .status-other_rules").wait_for()
        overflowing = phone.eval_on_selector_all(  # a cell squeezed narrower than its words spills onto its neighbour
            f"tr[data-match='{created['match_id']}'] td",
            "tds => tds.filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.innerText)",
        )
        assert overflowing == []
        phone.locator(f"tr[data-match='{created['match_id']}']").scroll_into_view_if_needed()
        shot(phone, "lobby-other-rules-phone")
        row.get_by_role("link", name="Watch").click()
        board = Board(page)
        board.wait_ready()
        assert board.state()["status"] == "other_rules"
        decision = page.locator(".decision").inner_text()
        assert "Played under other rules — read only" in decision and "0.0ldrul3s" in decision
        assert page.errors == []
    finally:
        server.stop()


STEADY = {
    "id": "steady_hands", "name": "Steady Hands", "kind": "bonus", "class": "generic", "category": "Morale",
    "timing": "stored", "copies_60": 4, "copies_90": 5,
    "text": "This turn, a missed attack die is thrown again once.",
    "warning": "A test warning: the text says more than this card does.",
    "effects": [{"hook": "reroll_attack_die", "op": "reroll_miss", "scope": "own_attacks", "duration": "end_of_turn"}],
}


def test_a_rules_file_is_checked_on_choosing_it_and_played_by_the_next_match(
    web: WebServer, new_page: Any, tmp_path: Path
) -> None:
    import json

    page = new_page()
    page.goto(web.base + "/")
    page.wait_for_selector(".recent table, .recent p")
    advanced(page)
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps({"common": [{**STEADY, "effects": [{**STEADY["effects"][0], "op": "reroll_twice"}]},
                                          {**STEADY, "id": "other", "timing": "reaction"}], "tactics": []}))
    page.set_input_files("[name=rules]", str(bad))
    error = page.locator(".lobby .error")
    error.wait_for(state="visible")
    text = error.inner_text()
    assert "$.common[0].effects[0].op" in text and "$.common[1].timing" in text  # every problem, by its path
    error.scroll_into_view_if_needed()
    shot(page, "lobby-rules-errors")
    good = tmp_path / "steady.json"
    good.write_text(json.dumps({"common": [STEADY], "tactics": []}))
    page.set_input_files("[name=rules]", str(good))
    page.wait_for_selector(".rules-summary:has-text('1 card')")
    assert page.locator(".lobby .error").is_hidden(), page.locator(".lobby .error").inner_text()
    summary = page.locator(".rules-summary")
    assert "1 card" in summary.inner_text() and "1 with a warning" in summary.inner_text()
    summary.scroll_into_view_if_needed()
    shot(page, "lobby-rules-chosen")
    page.get_by_role("button", name="Hot-seat on this device").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function("window.taktik && window.taktik.state && window.taktik.state().version >= 0")
    assert Board(page).state()["legal"] == ["DRAW_CARD"]
    match_id = page.url.split("/play/")[1].split("#")[0]
    record = web.get(f"/api/matches/{match_id}/record")
    assert [c["id"] for c in record["record"]["config"]["rules"]["cards"]] == ["steady_hands"]
