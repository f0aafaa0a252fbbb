"""The evolutionary planner (`lab.bots.oep`, registered as ``oep``)."""

from __future__ import annotations

import pytest

from engine import (
    Action,
    GameConfig,
    GameState,
    MoveUnit,
    NextPhase,
    Phase,
    RoundLimit,
    Side,
    VictoryConfig,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from lab.bots import Bot, EvolutionBot, GreedyBot, get_bot, seat_seed
from tests.support import config, play


def at_movement(unit_specs: tuple[str, ...]) -> tuple[GameState, list[Action]]:
    """The ATTACKER's first MOVEMENT decision of a scenario with these units, and its legal actions."""
    state = new_game(config(unit_specs=unit_specs, draw=[]))
    while state.phase is not Phase.MOVEMENT:
        state = play(state, NextPhase())
    return state, list(legal_actions(state))


@pytest.mark.timeout(60)
def test_a_search_with_fewer_turns_than_its_budget_ends_having_tried_them_all() -> None:
    # One unit with two candidate cells has three distinct turns: the search used to breed the
    # same ones forever, never spending its budget (a ladder game hung on it).
    state, legal = at_movement(("A1 L B2", "D1 L B8"))
    bot = EvolutionBot(cells=2, evaluations=100_000)
    action, stats = bot.search(player_view(state, Side.ATTACKER), legal, 7)
    assert action in legal
    assert 1 <= stats.evaluations < 100 and stats.generations >= 1


def test_the_planned_turn_moves_towards_the_enemy_and_a_fresh_bot_plans_the_same() -> None:
    state, legal = at_movement(("A1 L B2", "D1 L B9"))
    bot = EvolutionBot(evaluations=40)
    view = player_view(state, Side.ATTACKER)
    first, seed = bot.choose(view, legal, 11)
    assert isinstance(first, MoveUnit) and first.unit_id == "A1"
    assert int(first.to[1:]) > 2  # closer to D1 (row 9) than B2
    again = EvolutionBot(evaluations=40).choose(view, legal, 11)
    assert again == (first, seed)  # a fresh bot: the same inputs, the same choice


def test_bad_options_are_refused_with_their_names() -> None:
    for options, words in (
        ({"evaluations": 0}, "evaluations must be a whole number >= 1"),
        ({"population": 4, "elite": 4}, "elite must be smaller than population"),
        ({"threat": -1}, "threat must be a number from 0 to 10"),
        ({"draft": "yes"}, "draft must be true or false"),
        ({"time_budget": 0.5}, "a time budget needs a clock"),
    ):
        with pytest.raises(ValueError, match=words):
            get_bot("oep", **options)


def test_the_planner_plays_a_whole_game_legally_and_reproducibly() -> None:
    short = GameConfig(seed=5, width=12, height=15, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=4)))

    def game() -> list[Action]:
        state = new_game(short)
        bots: dict[Side, Bot] = {Side.ATTACKER: EvolutionBot(evaluations=24), Side.DEFENDER: GreedyBot()}
        seeds = {side: seat_seed(5, side) for side in Side}
        played = []
        while state.to_act is not None:
            side, legal = state.to_act, legal_actions(state)
            action, seeds[side] = bots[side].choose(player_view(state, side), legal, seeds[side])
            assert action in legal
            played.append(action)
            state = reduce(state, action)
        assert state.winner is not None
        return played

    assert game() == game()
