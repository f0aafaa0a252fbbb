"""The thinking budget: a share of the seat's time that always leaves a reserve."""

from __future__ import annotations

import msgspec
import pytest

from client import think_budget
from client.budget import SEARCHES_PER_TURN, TURNS_AHEAD
from client.messages import ClockView, SeatTimes
from engine import GameConfig, Side, new_game, player_view

VIEW = player_view(new_game(GameConfig(seed=1)), Side.ATTACKER)  # turn 1 of 25 rounds, the ATTACKER active


def chess(attacker_ms: int, increment_ms: int = 0, running: Side | None = Side.ATTACKER) -> ClockView:
    return ClockView(initial_ms=600_000, increment_ms=increment_ms, per_turn_ms=None,
                     remaining_ms=SeatTimes(attacker=attacker_ms, defender=600_000), running=running, server_time=0.0)


def per_turn(attacker_ms: int) -> ClockView:
    return ClockView(initial_ms=None, increment_ms=None, per_turn_ms=120_000,
                     remaining_ms=SeatTimes(attacker=attacker_ms, defender=120_000), running=Side.ATTACKER,
                     server_time=0.0)


def test_no_clock_no_budget() -> None:
    assert think_budget(None, Side.ATTACKER, VIEW, waited=5.0) is None


def test_a_chess_clock_is_shared_over_the_turns_to_the_round_limit_plus_the_increment() -> None:
    budget = think_budget(chess(600_000, 5_000), Side.ATTACKER, VIEW, waited=0.0)
    assert budget == pytest.approx((600 - 3) / (SEARCHES_PER_TURN * 25) + 5 / SEARCHES_PER_TURN)
    late = msgspec.structs.replace(VIEW, turn=49)  # the ATTACKER's last turn: its searches share all it has
    assert think_budget(chess(60_000), Side.ATTACKER, late, waited=0.0) == pytest.approx((60 - 3) / SEARCHES_PER_TURN)


def test_without_a_round_limit_the_budget_plans_for_a_fixed_number_of_turns() -> None:
    rules = msgspec.structs.replace(VIEW.rules, victory=msgspec.structs.replace(VIEW.rules.victory, round_limit=None))
    endless = msgspec.structs.replace(VIEW, rules=rules)
    assert think_budget(chess(600_000), Side.ATTACKER, endless, waited=0.0) == pytest.approx(
        597 / (SEARCHES_PER_TURN * TURNS_AHEAD))


def test_a_turn_clock_is_shared_by_the_turns_searches() -> None:
    assert think_budget(per_turn(120_000), Side.ATTACKER, VIEW, waited=0.0) == pytest.approx(117 / SEARCHES_PER_TURN)


def test_time_waited_counts_only_while_the_seats_own_clock_runs() -> None:
    running = think_budget(chess(20_000), Side.ATTACKER, VIEW, waited=10.0)
    stopped = think_budget(chess(20_000, running=None), Side.ATTACKER, VIEW, waited=10.0)
    assert running is not None and stopped is not None and running < stopped
    assert running == think_budget(chess(10_000), Side.ATTACKER, VIEW, waited=0.0)


@pytest.mark.parametrize("left_ms", [0, 300, 1_000, 5_000, 30_000, 600_000, 10**9])
def test_the_budget_keeps_a_reserve_and_never_bets_more_than_a_quarter(left_ms: int) -> None:
    for clock in (chess(left_ms, 30_000), per_turn(left_ms)):
        budget = think_budget(clock, Side.ATTACKER, VIEW, waited=0.0)
        assert budget is not None and 0 <= budget <= max(0.0, (left_ms / 1000 - 0.5)) / 4
    assert think_budget(chess(400), Side.ATTACKER, VIEW, waited=0.0) == 0.0  # under the reserve: play at once
    assert think_budget(chess(10_000), Side.ATTACKER, VIEW, waited=60.0) == 0.0  # already over: at once
