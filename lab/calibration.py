"""How well the win estimate predicts: Brier score, log loss and a calibration table over game records.

The replay viewer's evaluation graph asks `lab.bots.win_chance` about the spectator's view at
the first position of every turn (server/replays.py). `points` takes the very same positions
from finished games, each with its outcome (did the ATTACKER win?); `report` says how good the
estimate is on them, and `fit` finds the estimate's coefficients (`lab.bots.advice.WinModel`)
by logistic regression on them. Fit on games of the tuning seeds, report on held-out games
(docs/bots.md, "Held-out seeds").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine import GameRecord, GameState, Side, player_view, replay

from .bots.advice import WinModel, win_features
from .rating import solve
from .selfplay import wilson_interval

__all__ = ["Bin", "Calibration", "Point", "fit", "points", "report"]


@dataclass(frozen=True)
class Point:
    """One judged position: the features the estimate reads, its turn, and whether the ATTACKER won."""

    turn: int
    features: tuple[float, ...]
    attacker_won: bool
    state: GameState


def points(records: Iterable[GameRecord]) -> list[Point]:
    """The first position of every turn of each finished game (the end left out), on the spectator's view."""
    out: list[Point] = []
    for record in records:
        states: list[GameState] = []
        previous: GameState | None = None
        final: GameState | None = None
        for state in replay(record):
            if previous is None or state.turn != previous.turn:
                states.append(state)
            previous = final = state
        if final is None or final.winner is None:
            continue
        won = final.winner is Side.ATTACKER
        for state in states:
            if state.to_act is None:
                continue
            view = player_view(state, None)
            out.append(Point(state.turn, win_features(view), won, view))
    return out


@dataclass(frozen=True)
class Bin:
    """Positions whose estimate fell in ``[low, high)``: how many, the mean estimate, and how often the ATTACKER won."""

    low: float
    high: float
    count: int
    predicted: float
    observed: float
    interval: tuple[float, float]  # 95 % Wilson interval of ``observed``


@dataclass(frozen=True)
class Calibration:
    """The estimate against the outcomes: Brier score, log loss, the table by estimate, the first turn's bias."""

    positions: int
    games: int
    brier: float
    log_loss: float
    base_brier: float  # the Brier score of always saying the ATTACKER's overall win rate
    bins: tuple[Bin, ...]
    first_turn_predicted: float  # mean estimate at turn 1
    first_turn_observed: float  # the share of these games the ATTACKER won


def report(judged: Sequence[Point], estimate: Callable[[GameState], float], bins: int = 10) -> Calibration:
    """How ``estimate`` (a state's ATTACKER win chance) fares on ``judged``."""
    if not judged:
        raise ValueError("no positions to judge")
    chances = [min(1.0, max(0.0, estimate(p.state))) for p in judged]
    outcomes = [1.0 if p.attacker_won else 0.0 for p in judged]
    n = len(judged)
    brier = sum((c - o) ** 2 for c, o in zip(chances, outcomes, strict=True)) / n
    eps = 1e-6
    log_loss = -sum(o * math.log(max(c, eps)) + (1 - o) * math.log(max(1 - c, eps))
                    for c, o in zip(chances, outcomes, strict=True)) / n
    rate = sum(outcomes) / n
    table = []
    for k in range(bins):
        low, high = k / bins, (k + 1) / bins
        members = [i for i, c in enumerate(chances) if low <= c < high or (k == bins - 1 and c == 1.0)]
        if not members:
            continue
        wins = sum(outcomes[i] for i in members)
        table.append(Bin(low, high, len(members), sum(chances[i] for i in members) / len(members),
                         wins / len(members), wilson_interval(wins, len(members))))
    first = [i for i, p in enumerate(judged) if p.turn == 1]
    games = len(first)
    return Calibration(
        positions=n,
        games=games,
        brier=brier,
        log_loss=log_loss,
        base_brier=sum((rate - o) ** 2 for o in outcomes) / n,
        bins=tuple(table),
        first_turn_predicted=sum(chances[i] for i in first) / games if games else float("nan"),
        first_turn_observed=sum(outcomes[i] for i in first) / games if games else float("nan"),
    )


def fit(judged: Sequence[Point], ridge: float = 1e-3, iterations: int = 50) -> WinModel:
    """Logistic regression of the outcome on the positions' features (Newton's method, a little ridge)."""
    if not judged:
        raise ValueError("no positions to fit")
    size = len(judged[0].features)
    w = [0.0] * size
    for _ in range(iterations):
        gradient = [-ridge * wi for wi in w]
        hessian = [[-ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
        for p in judged:
            z = sum(wi * xi for wi, xi in zip(w, p.features, strict=True))
            q = 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))
            residual = (1.0 if p.attacker_won else 0.0) - q
            for i, xi in enumerate(p.features):
                gradient[i] += residual * xi
                for j, xj in enumerate(p.features):
                    hessian[i][j] -= q * (1 - q) * xi * xj
        step = solve(hessian, [-g for g in gradient])
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return WinModel(tuple(round(wi, 4) for wi in w))

