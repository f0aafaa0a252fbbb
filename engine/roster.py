"""Which units a game fields, apart from where they stand: what a move leaves unchanged.

A MOVE_UNIT changes one unit's cell and ``has_moved`` and nothing else of any unit: the
same units keep their ids, sides, types, hit points and their place on the board or off
it. A fact derived from those alone (a bonus's own-unit targets, say) holds for the units
after a move as it held before; one that also reads which cells are free need only look
at the two cells the move changed. The movement page records each move (`note_move`); a
kept fact asks `moved_since` whether the units it was derived from are the units now or
the ones the last move started from, and which cells that move left and entered.

One slot, replaced in one step: a server's bot thread may move in another game meanwhile,
and then a kept fact is derived again, never taken for the wrong game.
"""

from __future__ import annotations

from typing import Final

from .state import Unit

__all__ = ["NO_MOVE", "moved_since", "note_move"]

NO_MOVE: Final = (-1, -1)
"""`moved_since` of a units tuple and itself: no cell changed."""

_last_move: tuple[tuple[Unit, ...], tuple[Unit, ...], tuple[int, int]] | None = None


def note_move(before: tuple[Unit, ...], after: tuple[Unit, ...], left: int, entered: int) -> None:
    """Record that a move made the units tuple ``after`` from ``before``: one unit went from cell index ``left``
    to ``entered`` (its ``has_moved`` set); nothing else of any unit changed."""
    global _last_move
    _last_move = (before, after, (left, entered))  # holds both tuples: their ids are not reused meanwhile


def moved_since(kept: tuple[Unit, ...], units: tuple[Unit, ...]) -> tuple[int, int] | None:
    """The cells (indices) the last move left and entered if it made ``units`` from ``kept``, `NO_MOVE` if
    ``units`` is ``kept``, else None: not known to be the same units (ids, sides, types, hit points, on the
    board or off it)."""
    if kept is units:
        return NO_MOVE
    last = _last_move  # one read: another thread may replace it meanwhile
    return last[2] if last is not None and last[0] is kept and last[1] is units else None
