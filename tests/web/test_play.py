"""Two people play turns by clicking the canvas, a spectator watches, a reload resumes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser


def seats(web: WebServer, new_page: Any, **body: Any) -> tuple[dict[str, Any], Board, Board]:
    created = web.create(**body)
    attacker = Board(new_page()).open(web.base + created["seats"][0]["path"])
    defender = Board(new_page()).open(web.base + created["seats"][1]["path"])
    return created, attacker, defender


def test_a_first_turn_played_with_the_mouse(web: WebServer, new_page: Any) -> None:
    created, att, dfn = seats(web, new_page)
    spectator = Board(new_page()).open(web.base + created["spectator"]["path"])
    assert att.state()["seat"] == "ATTACKER" and dfn.state()["seat"] == "DEFENDER"
    assert spectator.state()["seat"] is None and spectator.state()["legal"] == []
    shot(att, "board-1280x800")

    # Draw a card: the only choice is a labelled button.
    assert "draw the turn's card" in att.decision_text()
    att.press("Draw a card")
    att.wait_legal("STORE_BONUS")
    assert "Artillery Support" in att.decision_text()
    shot(att, "drawn-card")

    # Store it, then go on to movement: the defender gets a reaction window first.
    att.press("Store it")
    att.wait_legal("NEXT_PHASE")
    assert "Artillery Support" in att.page.locator(".cards").inner_text()
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    assert "reaction window before the first move" in dfn.decision_text()
    assert "Waiting for Defender" in att.decision_text()
    shot(dfn, "reaction-window")
    dfn.press("Pass")

    # Select A7 and move it to G4 by clicking on the board.
    att.wait_legal("MOVE_UNIT")
    att.select("A7")
    shot(att, "move-range")
    version = att.state()["version"]
    att.click_cell("G4")
    att.wait_version(version + 1)
    assert att.units()["A7"]["cell"] == "G4"
    spectator.wait_version(version + 1)
    assert spectator.units()["A7"]["cell"] == "G4"

    # Declare A7 -> D9 by selecting the attacker and clicking the glowing enemy.
    att.press("Next: Attack")
    att.wait_legal("DECLARE_ATTACK")
    att.select("A7")
    att.page.mouse.move(*att.point("H7"))
    shot(att, "attack-arrow")
    version = att.state()["version"]
    att.click_unit("D9")
    att.wait_version(version + 1)
    assert att.page.evaluate("window.taktik.legal().some(a => a.type === 'WITHDRAW_ATTACK')")

    # Resolve: the defender reacts before the roll with a tactic, by its card button.
    att.press("Next: Dice")
    dfn.wait_legal("PLAY_TACTIC")
    assert "You (Defender): reaction window before the attack roll of A7 → D9" in dfn.decision_text()
    assert "Defender: reaction window before the attack roll of A7 → D9" in att.decision_text()
    shot(dfn, "reaction-before-roll")
    dfn.page.locator(".decision").get_by_role("button", name="Play Dense Fog").click()
    att.wait_legal("ROLL_DICE")
    att.press("Roll the die")
    # The roll misses D9: no tactic could help the defender after it, so it is not asked.
    att.wait_legal("RESOLVE_ATTACK")
    dfn.wait("s.notice && s.notice.includes('Passed for you')")
    roll = att.page.locator(".roll").inner_text()
    assert "Dense Fog" in roll and "needs" in roll
    shot(att, "dice-roll")
    att.press("Apply the result")
    att.wait_legal("END_TURN")
    att.press("End turn")
    dfn.wait("s.toAct === 'DEFENDER' && s.turn === 2 && s.legal.includes('DRAW_CARD')")
    log = dfn.state()["log"]
    assert any("moved A7 from G2 to G4" in line for line in log)
    assert any("played Dense Fog" in line for line in log)
    for board in (att, dfn, spectator):
        assert board.page.errors == []


def test_a_hit_is_animated_and_leaves_the_target_marked_damaged(web: WebServer, new_page: Any) -> None:
    _, att, dfn = seats(web, new_page)
    att.press("Draw a card")
    att.press("Store it")
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("MOVE_UNIT")
    att.click_unit("A7")
    att.click_cell("H6")  # across the bridge, next to D9
    att.wait("s.log.some(l => l.includes('to H6'))")
    att.press("Next: Attack")
    att.click_unit("A7")
    att.click_unit("D9")
    att.wait_legal("WITHDRAW_ATTACK")
    att.press("Next: Dice")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.press("Roll the die")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("RESOLVE_ATTACK")
    assert "HIT" in att.page.locator(".roll").inner_text()
    att.page.evaluate("window.taktik.setAnimations(true)")
    att.button("Apply the result").click()
    att.wait("s.log.some(l => l.includes('D9 took 1 damage'))")
    att.page.wait_for_timeout(250)
    shot(att, "hit-animation")
    att.page.keyboard.press(" ")  # skips the animation
    assert att.units()["D9"]["hp"] == 1
    att.page.mouse.move(*att.point("H7"))
    att.page.wait_for_function("document.querySelector('.hoverinfo').textContent.includes('damaged')")
    shot(att, "damaged-badge")


def test_the_opponent_chooses_the_victims_of_an_accepted_malus(web: WebServer, new_page: Any) -> None:
    config = scenario(draw_pile=["enemy_disinformation#1", "artillery_support#1"])
    _, att, dfn = seats(web, new_page, config=config)
    att.press("Draw a card")
    att.wait_legal("ACCEPT_MALUS")
    assert "You (Attacker): accept Enemy Disinformation" in att.decision_text()  # nothing stored to cancel with
    assert "Attacker: accept or cancel Enemy Disinformation" in dfn.decision_text()
    att.press("Accept the malus")
    dfn.wait_legal("CHOOSE_MALUS_TARGETS")
    assert "You (Defender): choose the victims of Enemy Disinformation" in dfn.decision_text()
    assert "Defender: choose the victims of Enemy Disinformation" in att.decision_text()
    assert "Waiting for Defender" in att.decision_text()
    shot(dfn, "malus-victims")
    shot(att, "malus-victims-waiting")
    version = dfn.state()["version"]
    dfn.click_unit("A7")
    dfn.wait_version(version + 1)
    assert any("A7" in line for line in dfn.state()["log"][-3:])
    assert dfn.page.errors == [] and att.page.errors == []


def test_a_bonus_card_is_aimed_at_a_highlighted_unit(web: WebServer, new_page: Any) -> None:
    _, att, _ = seats(web, new_page)
    att.press("Draw a card")
    att.wait_legal("PLAY_BONUS")
    att.button("Play Artillery Support").click()
    att.wait("s.aiming === 'PLAY_BONUS:drawn'")
    assert "pick a highlighted target" in att.decision_text()
    shot(att, "card-target")
    att.click_cell("F3")  # not a target: aiming is cancelled, nothing is sent
    att.wait("s.aiming === null")
    att.button("Play Artillery Support").click()
    att.wait("s.aiming === 'PLAY_BONUS:drawn'")
    version = att.state()["version"]
    att.click_unit("A7")
    att.wait_version(version + 1)
    assert any("played Artillery Support on A7" in line for line in att.state()["log"])


def test_a_reload_mid_game_resumes_the_seat(web: WebServer, new_page: Any) -> None:
    created, att, _ = seats(web, new_page)
    att.press("Draw a card")
    att.press("Store it")
    att.wait_legal("NEXT_PHASE")
    att.page.reload()
    att.wait_ready()
    state = att.state()
    assert state["seat"] == "ATTACKER" and state["version"] == 2 and "NEXT_PHASE" in state["legal"]
    # The log gets its context back: the draw happened before the reload.
    att.wait("s.log.some(l => l.includes('Attacker drew'))")
    assert "Artillery Support" in att.page.locator(".cards").inner_text()
    # The token is remembered: the same page without its fragment still opens the seat.
    att.page.goto(web.base + f"/play/{created['match_id']}")
    att.wait_ready()
    assert att.state()["seat"] == "ATTACKER"


def test_a_whole_match_ends_on_the_victory_screen(web: WebServer, new_page: Any) -> None:
    # Two cards only: the end-of-turn shuffle of the one left cannot change what the defender draws.
    config = scenario(victory={"round_limit": {"max_rounds": 1}},
                      draw_pile=["artillery_support#1", "supply_interruption#1"])
    _, att, dfn = seats(web, new_page, config=config)
    att.press("Draw a card")
    att.press("Store it")
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("END_TURN")
    att.end_turn()  # units could still move: the panel asks first
    dfn.wait_legal("DRAW_CARD")
    dfn.press("Draw a card")
    dfn.wait_legal("ACCEPT_MALUS")
    assert "Supply Interruption" in dfn.decision_text()
    shot(dfn, "malus-question")
    dfn.press("Accept the malus")
    dfn.wait_legal("NEXT_PHASE")
    dfn.press("Next: Move")
    dfn.wait_legal("END_TURN")
    dfn.end_turn()
    for board in (att, dfn):
        board.page.locator(".overlay.victory").wait_for()
        assert board.state()["phase"] == "VICTORY" and board.state()["legal"] == []
    assert "Victory!" in dfn.page.locator(".overlay").inner_text()
    assert "Defeat" in att.page.locator(".overlay").inner_text()
    assert "The last round is over" in dfn.page.locator(".overlay").inner_text()
    shot(dfn, "victory")
    dfn.page.get_by_role("link", name="Watch the replay").click()
    dfn.page.locator(".replaybar").wait_for()
    assert "/replay/" in dfn.page.url


def test_a_rejected_action_shows_its_reason_and_the_page_recovers(web: WebServer, new_page: Any) -> None:
    created, att, _ = seats(web, new_page)
    stale = Board(new_page())
    held: list[Any] = []
    routes: list[Any] = []

    def route(ws: Any) -> None:  # hold this tab's news from the server while `routes` says so
        server = ws.connect_to_server()
        routes.append(ws)
        server.on_message(lambda message: held.append(message) if len(routes) > 1 else ws.send(message))
        ws.on_message(server.send)

    stale.page.route_web_socket(re.compile(r"/ws/matches/"), route)
    stale.open(web.base + created["seats"][0]["path"])
    att.press("Draw a card")
    stale.wait_legal("DISCARD_BONUS")
    routes.append("hold")
    att.press("Store it")  # another tab of the same seat moves the match on...
    stale.button("Discard it").click()  # ...which this tab has not heard of yet
    stale.wait("s.busy")
    stale.page.wait_for_timeout(200)
    routes.pop()
    for message in held:
        routes[0].send(message)
    stale.wait("s.notice !== null && s.version === 2 && !s.busy")
    assert "version" in stale.state()["notice"]
    assert stale.page.locator(".notice").is_visible()
    shot(stale, "rejected")
    assert "Artillery Support" in stale.page.locator(".cards").inner_text()  # stored, not discarded
    stale.press("Next: Move")
    stale.wait("s.version === 3")
    assert stale.page.errors == []


def test_the_socket_reconnects_by_itself_and_resyncs(web: WebServer, new_page: Any) -> None:
    _, att, dfn = seats(web, new_page)
    # Record the connection badge's classes: the reconnect (a 240-400 ms backoff) may be over
    # before a check after the press could look.
    dfn.page.evaluate("""() => { const el = document.querySelector('.conn'); window.connSeen = [];
      new MutationObserver(() => window.connSeen.push(el.className)).observe(el, {attributes: true}); }""")
    dfn.page.evaluate("window.taktik.drop()")
    att.press("Draw a card")
    dfn.wait("s.conn === 'online' && s.version === 1")
    assert any("conn-reconnecting" in c for c in dfn.page.evaluate("window.connSeen"))
    assert dfn.state()["seat"] == "DEFENDER"
    assert "online" in dfn.page.locator(".conn").inner_text()


def test_manual_deployment_is_played_from_the_offered_cells(web: WebServer, new_page: Any) -> None:
    config = {"seed": 3, "width": 12, "height": 15, "deployment": "manual"}
    _, att, dfn = seats(web, new_page, config=config)
    dfn.wait("s.phase === 'DEPLOYMENT' && s.aiming === 'pick:DEPLOY_UNIT'")
    cell = next(a["cell"] for a in dfn.legal() if a["type"] == "DEPLOY_UNIT" and a["unit_id"] == "D1")
    shot(dfn, "deployment")
    dfn.button("^D1$").click()
    dfn.click_cell(cell)
    dfn.wait("s.log.some(l => l.includes('deployed D1'))")
    assert dfn.units()["D1"]["cell"] == cell
    dfn.press("Deploy the rest")
    dfn.wait_legal("CONFIRM_DEPLOYMENT")
    dfn.press("Confirm deployment")
    att.wait_legal("AUTO_DEPLOY")
    att.press("Deploy the rest")
    att.press("Confirm deployment")
    att.wait("s.phase === 'CARD_DRAW' && s.legal.includes('DRAW_CARD')")
