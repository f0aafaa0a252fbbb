"""The MCTS bot's leaf value: the evaluation read as a chance to win a race that is running out.

`evaluate` counts in VP, and a VP counts the same whenever it falls. But the default game
is a race (the first side to destroy `threshold` VP of enemy units wins, a round limit
behind it, where a level count goes to the DEFENDER): one VP ahead at 4–3 is nearly a
won game, one VP ahead at 1–0 with twenty rounds to go is not, and a level count late in
the game is lost for the ATTACKER. So a simulation's end position is scored as a chance
to win, a logistic curve of the VP score whose spread narrows as the game nears its end —
either side close to the threshold, or few rounds left:

    chance = 1 / (1 + exp(-score / (SPREAD * sqrt(left))))

where ``left`` (0..1) is the smaller of the share of the threshold the leading side still
needs and the share of the rounds still to play. The value is ``WIN_SCORE * (2 chance - 1)``,
on the same scale as a finished game (±`WIN_SCORE`), so a simulation that ends the game
and one that stops short are compared fairly.

Averaged over sampled worlds, the chance is what a plan is judged by: a plan that risks a
likely loss for a little more VP scores worse than under the plain VP average, and a side
that is behind late prefers the plans that give it a chance to catch up.
"""

from __future__ import annotations

import math

from engine import GameState, Phase, Side
from engine.analysis import unit_vp

from .evaluate import BALANCED, WIN_SCORE, Style, evaluate

__all__ = ["SPREAD", "race_left", "race_value"]

SPREAD = 3.0  # VP per logistic unit at the start of a game (as `lab.bots.win_chance`)
_FLOOR = 0.04  # the smallest ``left``: the last decisions still have some spread (0.2 of SPREAD)


def race_left(state: GameState) -> float:
    """How much of the game is still to play (1 at the start, towards 0 at its end)."""
    victory = state.rules.victory
    left = 1.0
    points = victory.victory_points
    if points is not None and points.threshold > 0:
        leading = max(unit_vp(state, Side.ATTACKER), unit_vp(state, Side.DEFENDER))
        left = min(left, max(0, points.threshold - leading) / points.threshold)
    limit = victory.round_limit
    if limit is not None and limit.max_rounds > 0:
        left = min(left, max(0.0, 1.0 - state.turn / (2 * limit.max_rounds)))
    return max(_FLOOR, left)


def race_value(state: GameState, side: Side, spread: float = SPREAD, style: Style = BALANCED) -> float:
    """The leaf value of ``state`` for ``side``: ``WIN_SCORE * (2 chance - 1)`` (``style`` for `evaluate`)."""
    if state.phase is Phase.VICTORY:
        return WIN_SCORE if state.winner is side else -WIN_SCORE
    score = evaluate(state, side, style=style)
    scale = spread * math.sqrt(race_left(state))
    chance = 1.0 / (1.0 + math.exp(-max(-WIN_SCORE, min(WIN_SCORE, score)) / scale))
    return WIN_SCORE * (2.0 * chance - 1.0)
