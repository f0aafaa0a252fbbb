"""The "Hint" button: the server's bot names its choice for this seat, with the reason in words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import WebServer, shot
from .driver import Board

pytestmark = pytest.mark.browser


def test_a_hint_names_one_of_the_seats_legal_actions_and_says_why(web: WebServer, new_page: Any) -> None:
    created = web.create()
    attacker = Board(new_page()).open(web.base + created["seats"][0]["path"])
    defender = Board(new_page()).open(web.base + created["seats"][1]["path"])
    spectator = Board(new_page()).open(web.base + created["spectator"]["path"])
    assert spectator.page.locator(".hintbox").count() == 0  # spectators get no hint button
    assert not defender.page.locator(".hintbox").is_visible()  # not the defender's decision

    attacker.press("Draw a card")
    attacker.wait_legal("STORE_BONUS")
    hint = attacker.page.get_by_role("button", name="Hint")
    assert hint.is_visible()
    hint.click()
    answer = attacker.page.locator(".hint-answer[data-action]")
    answer.wait_for()
    chosen = json.loads(answer.get_attribute("data-action") or "null")
    assert chosen in attacker.legal()
    words = answer.inner_text()
    assert "Bot's choice" in words and "% to win" in words
    shot(attacker, "hint")

    # The hint is advice only: nothing was played, and it is gone once the match moves on.
    version = attacker.state()["version"]
    attacker.press("Store it")
    attacker.wait_version(version + 1)
    assert not attacker.page.locator(".hint-answer").is_visible()
    assert attacker.page.errors == [] and defender.page.errors == []
