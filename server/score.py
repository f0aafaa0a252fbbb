"""The score as a player reads it, sent with every position: victory points, what wins, the round.

Rules §10 decide how a game ends; the client shows "VP 2 – 3 · first to 5 · round 3 of 25"
from this and never counts points itself (it derives no rules). ``vp`` is what the
victory-point condition counts: enemy units destroyed (by the unit table's VP) plus points
scored from held cells. ``conditions`` names the ways this game can still be won or end
(the `victory_reason` values of rules §10), so the client can say how to win in words.
"""

from __future__ import annotations

import msgspec

from engine import GameState, Side
from engine.analysis import unit_vp

__all__ = ["Score", "score_of"]


class Score(msgspec.Struct, frozen=True, kw_only=True):
    """Victory points of both sides, the threshold that wins at once, and where the game is in its rounds."""

    vp: dict[str, int]  # "ATTACKER" / "DEFENDER" -> victory points now
    goal: int | None  # the victory points that win at once (None: no such condition in this game)
    round: int  # rules §4.2: (turn + 1) // 2
    rounds: int | None  # the round after which the game is decided on points (None: no round limit)
    conditions: tuple[str, ...]  # the victory reasons (rules §10) this game's config switches on


def score_of(state: GameState) -> Score:
    """The score of ``state`` (a real state or any `player_view` of it: points are public)."""
    victory = state.rules.victory
    points = victory.victory_points
    limit = victory.round_limit
    on = {
        "annihilation": True,
        "target_elimination": victory.leaders is not None,
        "victory_points": points is not None,
        "capture_and_hold": victory.capture_and_hold is not None,
        "territorial_control": victory.territorial_control is not None,
        "timed_resistance": victory.timed_resistance is not None,
        "round_limit": limit is not None,
    }
    return Score(
        vp={side.value: unit_vp(state, side) + state.player(side).point_vp for side in Side},
        goal=points.threshold if points is not None else None,
        round=(state.turn + 1) // 2,
        rounds=limit.max_rounds if limit is not None else None,
        conditions=tuple(reason for reason, active in on.items() if active),
    )
