"""Bradley-Terry ratings on the Elo scale (lab/rating.py): the fit, its intervals, the ATTACKER's edge, bad input."""

from __future__ import annotations

import math

import pytest

from lab.rating import ELO, Game, expected_score, fit_ratings, solve


def games(a: str, b: str, won_attacking: int, attacking: int, won_defending: int, defending: int) -> list[Game]:
    """``a`` against ``b``: as ATTACKER ``a`` won ``won_attacking`` of ``attacking`` games, as DEFENDER likewise."""
    out = [Game(a, b, i < won_attacking) for i in range(attacking)]
    out += [Game(b, a, i >= won_defending) for i in range(defending)]
    return out


def test_a_three_to_one_score_is_close_to_191_elo_and_its_interval_holds_it() -> None:
    fit = fit_ratings(games("a", "b", 150, 200, 150, 200), anchor="b", prior=1.0)
    truth = 400 * math.log10(3)  # 75 % is 190.8 Elo
    a = next(r for r in fit.ratings if r.name == "a")
    assert a.elo == pytest.approx(truth, abs=3)  # a little shrunk by the one virtual even game
    assert a.low < truth < a.high and a.high - a.low < 120
    assert fit.rating("b") == 0 and abs(fit.edge) < 1
    assert (a.games, a.wins, a.score) == (400, 300, 0.75)


def test_the_anchor_only_shifts_the_ratings() -> None:
    played = games("a", "b", 30, 40, 25, 40) + games("b", "c", 28, 40, 30, 40) + games("a", "c", 35, 40, 33, 40)
    by_b, by_c = fit_ratings(played, anchor="b"), fit_ratings(played, anchor="c")
    for name in "abc":
        assert by_b.rating(name) - by_b.rating("b") == pytest.approx(by_c.rating(name) - by_c.rating("b"), abs=1e-6)
    assert [r.name for r in by_b.ratings] == ["a", "b", "c"]  # best first


def test_the_attackers_edge_is_fitted_apart_from_the_ratings() -> None:
    # Two equal players; the ATTACKER wins 70 % whoever it is.
    fit = fit_ratings(games("a", "b", 70, 100, 30, 100), anchor="b")
    assert fit.rating("a") == pytest.approx(0, abs=1)
    assert fit.edge == pytest.approx(400 * math.log10(0.7 / 0.3), abs=10)
    assert fit.edge_interval[0] > 0


def test_a_clean_sweep_gets_a_large_but_finite_gap() -> None:
    fit = fit_ratings(games("strong", "random", 50, 50, 50, 50), anchor="random")
    strong = fit.rating("strong")
    assert 500 < strong < 1500 and math.isfinite(strong)
    assert expected_score(strong) > 0.98


def test_bad_input_names_the_problem() -> None:
    with pytest.raises(ValueError, match="no games"):
        fit_ratings([], anchor="a")
    with pytest.raises(ValueError, match="anchor 'z' played no game"):
        fit_ratings(games("a", "b", 1, 1, 1, 1), anchor="z")
    with pytest.raises(ValueError, match="groups that never played each other: a, b; c, d"):
        fit_ratings(games("a", "b", 1, 2, 1, 2) + games("c", "d", 1, 2, 1, 2), anchor="a")
    with pytest.raises(ValueError, match="prior"):
        fit_ratings(games("a", "b", 1, 2, 1, 2), anchor="a", prior=0)


def test_expected_score_and_the_scale() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    assert pytest.approx(173.72, abs=0.01) == ELO


def test_solve_solves_a_small_system() -> None:
    assert solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])
    with pytest.raises(ValueError, match="singular"):
        solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0])
