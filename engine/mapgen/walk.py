"""The axis-persistent walk that grows rivers (rules §11 steps 1-2).

A walk keeps the axis of its last move for at least ``min_run`` moves, then draws a float
and switches axis when it is below ``turn_prob``. It never moves against its *forward*
direction, never reverses its last move, refuses the fourth move of an A-B-A-B zig-zag and
the third move of an A-B-A whose forced continuation would be blocked. Among the allowed
moves on the wanted axis (any allowed move if none) it takes the one closest (Manhattan) to
its goal, drawing among ties. The caller says which cells are allowed and when the walk
has arrived.
"""

from __future__ import annotations

from collections.abc import Callable

from .geometry import ORTHO, Grid
from .stream import Draws

__all__ = ["Allowed", "AxisWalk", "Step"]

Step = tuple[int, int]
Allowed = Callable[[int, int, tuple[int, int]], bool]
"""``allowed(x, y, head)``: may the walk step from ``head`` onto ``(x, y)``?"""


class AxisWalk:
    """The move choice of one river walk: axis persistence, no zig-zag, greedy towards a goal."""

    __slots__ = ("draws", "forward", "goal", "grid", "min_run", "moves", "run", "strict", "turn_prob")

    def __init__(
        self, grid: Grid, goal: tuple[int, int], forward: Step, turn_prob: float, min_run: int, draws: Draws
    ) -> None:
        self.grid = grid
        self.goal = goal
        self.forward = forward
        self.turn_prob = turn_prob
        self.min_run = min_run
        self.draws = draws
        self.moves: list[Step] = []  # every move so far
        self.run = 0  # length of the current run of moves on one axis
        self.strict = False  # refuse sideways moves away from the goal line (tributaries)

    def record(self, step: Step) -> None:
        """Append ``step`` to the moves and update the run length."""
        if self.moves and (self.moves[-1][0] != 0) == (step[0] != 0):
            self.run += 1
        else:
            self.run = 1
        self.moves.append(step)

    def _zig_zag(self, d: Step) -> bool:
        """True when ``d`` would be the fourth move of an A-B-A-B zig-zag."""
        moves = self.moves
        return len(moves) >= 3 and moves[-3] == moves[-1] != d == moves[-2]

    def _dead_end(self, d: Step, head: tuple[int, int], allowed: Allowed) -> bool:
        """True when ``d`` makes A-B-A, after which only A may follow, and A is then blocked."""
        moves = self.moves
        if len(moves) < 2 or moves[-2] != d or moves[-1] in (d, (-d[0], -d[1])):
            return False
        x, y = head[0] + d[0], head[1] + d[1]
        return not (self.grid.contains(x + d[0], y + d[1]) and allowed(x + d[0], y + d[1], (x, y)))

    def finishing_step(self, forward: Step, head: tuple[int, int], allowed: Allowed) -> Step:
        """``forward``, unless that would zig-zag and the sideways run can go on: then that."""
        if self._zig_zag(forward):
            side = self.moves[-1]
            x, y = head[0] + side[0], head[1] + side[1]
            if self.grid.contains(x, y) and allowed(x, y, head):
                return side
        return forward

    def choose(self, head: tuple[int, int], allowed: Allowed) -> Step | None:
        """Pick the next move from ``head`` and record it; None when no move is allowed."""
        moves = self.moves
        back = (-self.forward[0], -self.forward[1])
        last = moves[-1] if moves else self.forward
        reverse = (-last[0], -last[1])
        x, y = head
        gx, gy = self.goal
        away: tuple[Step, ...] = ()
        if self.strict:  # sideways only back towards the goal line, and never across it
            sideways_last = (last[0] != 0) != (self.forward[0] != 0)
            if self.forward[0]:
                away = ((0, 1), (0, -1)) if y == gy and sideways_last else ((0, 1 if y > gy else -1),)
            else:
                away = ((1, 0), (-1, 0)) if x == gx and sideways_last else ((1 if x > gx else -1, 0),)
        candidates = [
            d
            for d in ORTHO
            if d != back
            and d != reverse
            and d not in away
            and not self._zig_zag(d)
            and self.grid.contains(x + d[0], y + d[1])
            and allowed(x + d[0], y + d[1], head)
            and not self._dead_end(d, head, allowed)
        ]
        if not candidates:
            return None
        horizontal = last[0] != 0
        if moves and self.run >= self.min_run and self.draws.fraction() < self.turn_prob:
            horizontal = not horizontal
        pool = [d for d in candidates if (d[0] != 0) == horizontal] or candidates
        distances = [abs(x + dx - gx) + abs(y + dy - gy) for dx, dy in pool]
        best = min(distances)
        ties = [d for d, dist in zip(pool, distances, strict=True) if dist == best]
        step = ties[self.draws.index(len(ties))] if len(ties) > 1 else ties[0]
        self.record(step)
        return step
