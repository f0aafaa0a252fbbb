"""The lobby's clock presets and open challenges, and the claim of an abandoned seat.

Two browser contexts are two strangers: one creates an open challenge with a clock, the other
finds it in the lobby and joins with a click. A server started with a short ``--abandon-after``
lets the claim of an abandoned seat be shown without waiting minutes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import WebServer, shot
from .driver import Board

pytestmark = pytest.mark.browser

WAIT = 30_000


def small_board(page: Any) -> None:
    page.locator("details.advanced summary").click()
    page.fill("[name=width]", "12")
    page.fill("[name=height]", "15")


def test_an_open_challenge_with_a_clock_is_listed_and_a_stranger_joins_it_with_a_click(
        web: WebServer, new_page: Any) -> None:
    creator = new_page()
    creator.goto(web.base + "/")
    creator.locator(".clockpick").wait_for()
    small_board(creator)
    creator.get_by_label("Blitz 5 + 3").check()
    creator.get_by_label(re.compile("Open challenge")).check()
    shot(creator, "lobby-clock-and-challenge")
    creator.get_by_role("button", name="Against a person").click()
    creator.wait_for_url(re.compile(r"/play/"), timeout=WAIT)
    board = Board(creator)
    board.wait_ready()
    match_id = creator.url.split("/play/")[1].split("#")[0]
    assert board.state()["seat"] == "ATTACKER"
    assert creator.locator(".matchbar .clockface").first.get_attribute("title") == "Attacker's clock: 5 min + 3 s"
    # Nobody in the other seat yet, and no clock runs before both seats are there.
    creator.locator(".matchbar .clockface[data-side='DEFENDER'] .presence.off").wait_for(timeout=WAIT)
    assert creator.locator(".matchbar .running").count() == 0
    assert creator.locator(".matchbar .clockface[data-side='ATTACKER'] .time").inner_text() == "5:00"

    # The creator's own lobby lists it as theirs; a stranger's lists it with a Join button.
    creator_lobby = creator.context.new_page()
    creator_lobby.goto(web.base + "/")
    row = creator_lobby.locator(f"tr[data-challenge='{match_id}']")
    row.wait_for(timeout=WAIT)
    assert "yours" in row.inner_text() and row.get_by_role("button", name="Join").count() == 0
    creator_lobby.close()

    stranger = new_page()
    stranger.goto(web.base + "/")
    row = stranger.locator(f"tr[data-challenge='{match_id}']")
    row.wait_for(timeout=WAIT)
    assert "Defender" in row.inner_text() and "5 min + 3 s" in row.inner_text()
    shot(stranger, "lobby-open-challenges")
    row.get_by_role("button", name="Join").click()
    stranger.wait_for_url(re.compile(r"/play/" + re.escape(match_id)), timeout=WAIT)
    joined = Board(stranger)
    joined.wait_ready()
    assert joined.state()["seat"] == "DEFENDER"

    # Both seats are there now: the creator sees the stranger arrive and the attacker's clock starts.
    creator.locator(".matchbar .clockface[data-side='DEFENDER'] .presence.on").wait_for(timeout=WAIT)
    creator.locator(".matchbar .clockface[data-side='ATTACKER'].running").wait_for(timeout=WAIT)
    # Taken: the challenge is gone from the lobby.
    stranger.goto(web.base + "/")
    stranger.locator(".challenges-list p, .challenges-list table").first.wait_for(timeout=WAIT)
    assert stranger.locator(f"tr[data-challenge='{match_id}']").count() == 0
    assert creator.errors == [] and stranger.errors == []


def test_the_correspondence_preset_creates_a_clock_of_days_per_turn(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/")
    page.locator(".clockpick").wait_for()
    small_board(page)
    page.get_by_label("Correspondence").check()
    page.select_option("[name=days]", "5")
    page.get_by_role("button", name="Against a person").click()
    page.locator(".created .link").first.wait_for(timeout=WAIT)
    match_id = page.locator(".created h2").inner_text().split()[-1]
    summary = web.get(f"/api/matches/{match_id}")
    assert summary["clock"] == {"initial": None, "increment": None, "per_turn": 5 * 86400}
    assert summary["open_seat"] is None
    page.locator(".created .link").first.get_by_role("link", name="Open").click()
    board = Board(page)
    board.wait_ready()
    assert page.locator(".matchbar .clockface").first.get_attribute("title") == "Attacker's clock: 5 days per turn"
    assert page.locator(".matchbar .clockface[data-side='ATTACKER'] .time").inner_text() == "5d 00h"


@pytest.fixture(scope="module")
def quick_abandon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server where a seat away on its turn for 2 s counts as abandoned."""
    server = WebServer(Path(tmp_path_factory.mktemp("abandon")) / "data", extra_args=["--abandon-after", "2"])
    yield server
    server.stop()


def test_the_other_seat_may_claim_the_win_once_a_seat_abandoned_its_turn_or_keep_waiting(
        quick_abandon: WebServer, new_page: Any) -> None:
    web = quick_abandon
    created = web.create()
    attacker = Board(new_page()).open(web.base + created["seats"][0]["path"])
    defender = Board(new_page()).open(web.base + created["seats"][1]["path"])
    claim = defender.page.locator(".claimbox")
    assert claim.is_hidden()  # everybody is here

    # The attacker leaves on its own turn: first a countdown, then the claim.
    attacker.page.close()
    claim.filter(has_text="Attacker is away on their turn").wait_for(timeout=WAIT)
    shot(defender, "claim-countdown")
    claim.get_by_role("button", name="Claim the win").wait_for(timeout=WAIT)
    assert "has not come back" in claim.inner_text()
    # The buttons are not rebuilt by the clock's ticks: a press and its release must land on one button.
    assert defender.page.evaluate("""async () => {
        const before = document.querySelector('.claimbox [data-claim]');
        await new Promise((done) => setTimeout(done, 1500));
        return before === document.querySelector('.claimbox [data-claim]');
    }""")
    shot(defender, "claim-allowed")
    claim.get_by_role("button", name="Keep waiting").click()
    assert claim.is_hidden() and defender.state()["status"] == "live"

    # Still away after a reload: the choice comes back; this time the defender claims.
    defender.page.reload()
    defender.wait_ready()
    claim.get_by_role("button", name="Claim the win").click()
    defender.page.locator(".overlay.victory").wait_for(timeout=WAIT)
    text = defender.page.locator(".overlay.victory").inner_text()
    assert "Victory!" in text and "Attacker left the game and did not come back" in text
    shot(defender, "victory-by-claim")
    assert defender.page.errors == []


def test_the_creator_of_an_open_challenge_is_told_it_waits_and_its_link_brings_a_friend_to_it(
        web: WebServer, new_page: Any) -> None:
    created = web.create(open=True, side="ATTACKER")
    creator = Board(new_page()).open(web.base + created["seats"][0]["path"])
    box = creator.page.locator(".waitingbox")
    box.wait_for(timeout=WAIT)
    assert "Waiting for an opponent" in box.inner_text() and "Defender" in box.inner_text()
    link = box.locator(".invite-link").inner_text()
    assert link == f"{web.base}/?join={created['match_id']}"
    shot(creator, "challenge-waiting")

    friend = new_page(360, 740, has_touch=True, is_mobile=True)
    friend.goto(link)
    invite = friend.locator(".lobby .invite")
    invite.get_by_role("button", name="Join and play").wait_for(timeout=WAIT)
    assert "You are invited to a game" in invite.inner_text() and "Defender" in invite.inner_text()
    shot(friend, "challenge-invite-360")
    invite.get_by_role("button", name="Join and play").click()
    friend.wait_for_url(re.compile(r"/play/" + re.escape(created["match_id"])), timeout=WAIT)
    Board(friend).wait_ready()
    box.wait_for(state="hidden", timeout=WAIT)  # the friend is there: no more waiting

    late = new_page()
    late.goto(link)
    late.locator(".lobby .invite").filter(has_text="no longer open").wait_for(timeout=WAIT)
    assert creator.page.errors == [] and friend.errors == [] and late.errors == []
