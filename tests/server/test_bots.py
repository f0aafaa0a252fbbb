"""Bot seats: the roster a host hands the server, its default and its fallback."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from engine import Action, GameState
from server.bots import BotRoster
from server.settings import Settings


def first(view: GameState, legal: Sequence[Action], seed: int) -> tuple[Action, int]:
    return legal[0], seed


def test_the_default_bot_is_the_chosen_one_or_the_rosters_first() -> None:
    roster = BotRoster(policies={"first": first, "also": first}, about={"first": "Plays the first action"})
    assert Settings(data_dir=Path("."), bots=roster).default_bot == "first"
    assert Settings(data_dir=Path("."), bots=roster, bot_policy="also").default_bot == "also"
    assert roster.describe("first") == "Plays the first action" and roster.describe("also") == "also"


def test_a_server_without_bots_has_no_default_and_refuses_an_unknown_one() -> None:
    assert Settings(data_dir=Path(".")).default_bot is None
    with pytest.raises(ValueError, match="unknown bot 'greedy'; this server seats: none"):
        Settings(data_dir=Path("."), bot_policy="greedy")


def test_the_fallback_must_be_on_the_roster() -> None:
    with pytest.raises(ValueError, match="fallback bot 'random' is not one of first"):
        BotRoster(policies={"first": first}, fallback="random")
