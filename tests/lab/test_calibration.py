"""The win estimate's calibration (`lab.calibration`): points from records, the report and the fit."""

from __future__ import annotations

import math

import pytest

from engine import GameConfig, GameState, RoundLimit, Side, VictoryConfig, new_game
from lab.bots import get_bot
from lab.bots.advice import WinModel
from lab.calibration import Point, fit, points, report
from lab.selfplay import play_game


def synthetic(model: WinModel, copies: int = 200) -> list[Point]:
    """Positions on a grid of features whose outcomes follow ``model`` exactly (in proportion)."""
    state = new_game(GameConfig(seed=1))
    out = []
    for score in (-2.0, -1.0, 0.0, 1.0, 2.0):
        for gone in (0.0, 0.5, 1.0):
            features = (1.0, score, score * gone, gone)
            wins = round(copies * model.chance(features))
            out += [Point(1, features, n < wins, state) for n in range(copies)]
    return out


def test_the_fit_recovers_the_model_the_outcomes_follow() -> None:
    truth = WinModel((0.2, 1.5, -0.8, -1.0))
    found = fit(synthetic(truth))
    assert found.weights == pytest.approx(truth.weights, abs=0.05)


def test_the_report_scores_an_estimate_against_the_outcomes() -> None:
    state = new_game(GameConfig(seed=1))
    judged = [Point(1, (1.0,), True, state), Point(2, (1.0,), False, state)]
    sure = report(judged, lambda _: 0.75, bins=4)
    assert sure.brier == pytest.approx((0.25**2 + 0.75**2) / 2)
    assert sure.base_brier == pytest.approx(0.25)
    assert sure.log_loss == pytest.approx(-(math.log(0.75) + math.log(0.25)) / 2)
    assert [(b.low, b.count, b.observed) for b in sure.bins] == [(0.75, 2, 0.5)]
    assert sure.games == 1 and sure.first_turn_predicted == 0.75 and sure.first_turn_observed == 1.0
    with pytest.raises(ValueError, match="no positions"):
        report([], lambda _: 0.5)


def test_points_are_the_first_position_of_every_turn_on_the_spectators_view() -> None:
    config = GameConfig(seed=3, width=12, height=15, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=3)))
    record, final = play_game(config, {Side.ATTACKER: get_bot("greedy"), Side.DEFENDER: get_bot("greedy")})
    judged = points([record])
    turns = [p.turn for p in judged]
    assert turns == sorted(set(turns)) and turns[0] == 1
    assert all(p.attacker_won == (final.winner is Side.ATTACKER) for p in judged)
    assert all(isinstance(p.state, GameState) and p.state.rng == 0 for p in judged)  # a view: no seed
