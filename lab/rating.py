"""Ratings from game results: a Bradley–Terry fit on the Elo scale, with confidence intervals.

Every game has a winner (the rules leave no draw), and the ATTACKER may have an edge, so
the model of one game between entries ``a`` (ATTACKER) and ``d`` (DEFENDER) is

    P(a wins) = 1 / (1 + 10 ** (-(R_a - R_d + H) / 400))

with one rating ``R`` per entry and one ``H``, the ATTACKER's edge, all in Elo points. The
ratings are the maximum of the likelihood times a weak prior: every pair of entries that
played also counts ``prior`` virtual games split evenly (so a pair with only wins on one
side, say the strongest bot against random, gets a large but finite gap instead of an
infinite one). One entry, the ``anchor``, is fixed at 0: a rating is how far above or below
the anchor an entry plays. The intervals come from the curvature of the fit at its maximum
(the Laplace approximation): ``R ± 1.96 σ``, the 95 % interval of the gap to the anchor.

>>> games = [Game("a", "b", True)] * 30 + [Game("a", "b", False)] * 10 + \\
...         [Game("b", "a", False)] * 30 + [Game("b", "a", True)] * 10
>>> fit = fit_ratings(games, anchor="b")
>>> round(fit.rating("a")), round(fit.rating("b")), round(fit.edge)
(188, 0, 0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ELO", "Fit", "Game", "Rating", "expected_score", "fit_ratings", "solve"]

ELO = 400 / math.log(10)
"""Elo points per natural logistic unit."""

_Z = 1.959963984540054  # the 97.5 % normal quantile
_ITERATIONS = 100
_TOLERANCE = 1e-10


@dataclass(frozen=True)
class Game:
    """One game's result: who played ATTACKER, who played DEFENDER, and whether the ATTACKER won."""

    attacker: str
    defender: str
    attacker_won: bool


@dataclass(frozen=True)
class Rating:
    """One entry's fitted rating (Elo points above the anchor) and its 95 % interval."""

    name: str
    elo: float
    low: float
    high: float
    games: int
    wins: int

    @property
    def score(self) -> float:
        """Share of its games the entry won."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Fit:
    """Every entry's rating, best first, and the ATTACKER's edge."""

    ratings: tuple[Rating, ...]
    anchor: str
    edge: float  # the ATTACKER's edge in Elo points
    edge_interval: tuple[float, float]
    prior: float

    def rating(self, name: str) -> float:
        """The rating of ``name``."""
        for rating in self.ratings:
            if rating.name == name:
                return rating.elo
        raise KeyError(name)


def expected_score(gap: float) -> float:
    """The expected score of a player ``gap`` Elo points above its opponent (400 points: 10 to 1)."""
    return 1.0 / (1.0 + 10 ** (-gap / 400))


def fit_ratings(games: Sequence[Game], anchor: str, prior: float = 1.0) -> Fit:
    """Fit ratings to ``games`` (see the module doc); ``anchor`` is fixed at 0.

    ValueError when there are no games, when the anchor played none, or when the entries do
    not all meet through games (two groups that never played each other cannot be compared).
    """
    if not games:
        raise ValueError("no games to rate")
    if prior <= 0:
        raise ValueError("prior must be a positive number of virtual games per pair")
    names = sorted({g.attacker for g in games} | {g.defender for g in games})
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game; entries: {', '.join(names)}")
    _require_connected(names, games)
    free = [n for n in names if n != anchor]
    slot = {name: i for i, name in enumerate(free)}
    size = len(free) + 1  # the last parameter is the ATTACKER's edge
    pairs = sorted({tuple(sorted((g.attacker, g.defender))) for g in games if g.attacker != g.defender})
    x = [0.0] * size
    for _ in range(_ITERATIONS):
        gradient, hessian = _derivatives(x, games, pairs, slot, size, prior)
        step = solve([row[:] for row in hessian], [-g for g in gradient])
        x = [xi + si for xi, si in zip(x, step, strict=True)]
        if max(abs(s) for s in step) < _TOLERANCE:
            break
    _, hessian = _derivatives(x, games, pairs, slot, size, prior)
    covariance = _inverse([[-h for h in row] for row in hessian])
    wins = {n: 0 for n in names}
    played = {n: 0 for n in names}
    for g in games:
        played[g.attacker] += 1
        played[g.defender] += 1
        wins[g.attacker if g.attacker_won else g.defender] += 1
    ratings = []
    for name in names:
        if name == anchor:
            ratings.append(Rating(name, 0.0, 0.0, 0.0, played[name], wins[name]))
            continue
        i = slot[name]
        elo, margin = x[i] * ELO, _Z * math.sqrt(max(0.0, covariance[i][i])) * ELO
        ratings.append(Rating(name, elo, elo - margin, elo + margin, played[name], wins[name]))
    ratings.sort(key=lambda r: (-r.elo, r.name))
    edge, margin = x[-1] * ELO, _Z * math.sqrt(max(0.0, covariance[-1][-1])) * ELO
    return Fit(tuple(ratings), anchor, edge, (edge - margin, edge + margin), prior)


def _derivatives(
    x: list[float], games: Sequence[Game], pairs: Sequence[tuple[str, ...]], slot: dict[str, int], size: int,
    prior: float,
) -> tuple[list[float], list[list[float]]]:
    """Gradient and Hessian of the log-posterior at ``x``."""
    gradient = [0.0] * size
    hessian = [[0.0] * size for _ in range(size)]

    def value(name: str) -> float:
        i = slot.get(name)
        return 0.0 if i is None else x[i]

    def add(a: str, d: str, result: float, weight: float, edge: bool) -> None:
        # d/dz of weight * log P(result | z), z = R_a - R_d (+ H): weight * (result - p), curvature -weight p (1 - p)
        z = value(a) - value(d) + (x[-1] if edge else 0.0)
        p = 1.0 / (1.0 + math.exp(-z))
        slope, curve = weight * (result - p), weight * p * (1 - p)
        terms = [(slot.get(a), 1.0), (slot.get(d), -1.0)] + ([(size - 1, 1.0)] if edge else [])
        for i, si in terms:
            if i is None:
                continue
            gradient[i] += si * slope
            for j, sj in terms:
                if j is not None:
                    hessian[i][j] -= si * sj * curve

    for g in games:
        if g.attacker != g.defender:
            add(g.attacker, g.defender, 1.0 if g.attacker_won else 0.0, 1.0, True)
    for a, d in pairs:
        add(a, d, 0.5, prior, False)  # `prior` virtual games, half won by each
    # The edge gets the same weak pull towards 0 (as if from `prior` virtual games on each side).
    z = x[-1]
    p = 1.0 / (1.0 + math.exp(-z))
    gradient[-1] += prior * (0.5 - p)
    hessian[-1][-1] -= prior * p * (1 - p)
    return gradient, hessian


def _require_connected(names: Sequence[str], games: Sequence[Game]) -> None:
    group = {name: name for name in names}

    def root(name: str) -> str:
        while group[name] != name:
            name = group[name]
        return name

    for g in games:
        group[root(g.attacker)] = root(g.defender)
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(root(name), []).append(name)
    if len(groups) > 1:
        shown = "; ".join(", ".join(members) for members in groups.values())
        raise ValueError(f"the entries fall into groups that never played each other: {shown}")


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ vector`` by Gaussian elimination with partial pivoting (small, dense systems; both are changed)."""
    n = len(vector)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(matrix[r][col]))
        if abs(matrix[pivot][col]) < 1e-300:
            raise ValueError("the ratings cannot be fitted (a singular system)")
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        vector[col], vector[pivot] = vector[pivot], vector[col]
        for row in range(col + 1, n):
            factor = matrix[row][col] / matrix[col][col]
            if factor:
                for k in range(col, n):
                    matrix[row][k] -= factor * matrix[col][k]
                vector[row] -= factor * vector[col]
    out = [0.0] * n
    for row in range(n - 1, -1, -1):
        out[row] = (vector[row] - sum(matrix[row][k] * out[k] for k in range(row + 1, n))) / matrix[row][row]
    return out


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [solve([row[:] for row in matrix], [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]
