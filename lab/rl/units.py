"""The units of an observation: the unit planes, and how many units each side has on the board.

Both are pure functions of the units tuple, the observer, the game's tables and the
board. The units tuple is the very same object from step to step until a unit changes,
so a layer is remembered by the identity of the tuple (`lab.rl.memo`). When the tuple is
new (after every move: about two steps in three), most of its units are still the
objects of the tuple before, at the same places: the new layer is the last one with
only the changed units rewritten, their old marks cleared and their new ones set.

That is exact because two units never share a cell (rules §5: a unit moves, deploys or
enters only onto a free cell), so a mark belongs to one unit. A tuple of another length
or with many changed units (a new turn clears every ``has_moved``) is encoded whole.

The unit planes are planes 10-17 of `lab.rl.observation`: 10-12 own units by type and
13-15 enemy units by type (HP / the game's max HP), 16 and 17 own units that moved /
attacked this turn.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import Any, NamedTuple

import numpy as np

from engine import Board, Side, TableOverrides, Unit, UnitType, board_info, unit_stats

from .memo import LIMIT, by_identity, memo_table

__all__ = ["FIRST_PLANE", "UNIT_PLANES", "UnitLayer", "unit_layer"]

FIRST_PLANE = 10
"""The board plane the unit planes start at."""
UNIT_PLANES = 8
"""How many planes they are (10-17)."""

_TYPES = (UnitType.LIGHT_INFANTRY, UnitType.MECHANIZED, UnitType.SPECIAL)
_OWN_PLANE = {unit_type: k for k, unit_type in enumerate(_TYPES)}  # counted from FIRST_PLANE
_ENEMY_PLANE = {unit_type: 3 + k for k, unit_type in enumerate(_TYPES)}
_MOVED, _ATTACKED = 6, 7
_REWRITE_LIMIT = 8  # more changed units than this: encode the tuple whole

_Marks = tuple[tuple[tuple[int, float], ...], int, int]  # (flat position, value)..., own / enemy on the board


class UnitLayer(NamedTuple):
    """What an observation shows of one units tuple (``planes`` is shared and read-only)."""

    units: tuple[Unit, ...]  # the tuple it encodes (held, so identity checks stay valid)
    planes: np.ndarray[Any, np.dtype[np.float32]]  # (UNIT_PLANES, H, W)
    mine: int  # the observer's units on the board
    theirs: int  # the opponent's units on the board


_CONTEXT: dict[Any, Any] = memo_table()  # (side, tables, board) -> [last layer, {id(unit): (unit, marks)}]


def unit_layer(units: tuple[Unit, ...], side: Side, tables: TableOverrides | None, board: Board) -> UnitLayer:
    """The `UnitLayer` of ``units`` seen by ``side`` in a game with ``tables`` on ``board``."""
    context: list[Any] = by_identity(_CONTEXT, (side, tables, board), lambda: [None, {}])
    last: UnitLayer | None = context[0]
    if last is not None and last.units is units:  # the layer holds its tuple: the very same units
        return last
    known: dict[int, tuple[Unit, _Marks]] = context[1]
    if len(known) >= LIMIT:
        known.clear()

    def marks(unit: Unit) -> _Marks:
        entry = known.get(id(unit))  # the entry holds its unit: no other object can have this id
        if entry is None:
            entry = known[id(unit)] = (unit, _marks(unit, side, tables, board))
        return entry[1]

    changed = _changed(last.units, units) if last is not None else None
    if last is None or changed is None:
        info = board_info(board)
        flat = np.zeros(UNIT_PLANES * info.size, dtype=np.float32)
        mine = theirs = 0
        for unit in units:
            at, own, enemy = marks(unit)
            for position, value in at:
                flat[position] = value
            mine, theirs = mine + own, theirs + enemy
    else:
        flat = last.planes.reshape(-1).copy()
        mine, theirs = last.mine, last.theirs
        for k in changed:  # first clear every old mark, then set the new ones
            at, own, enemy = marks(last.units[k])
            for position, _ in at:
                flat[position] = 0.0
            mine, theirs = mine - own, theirs - enemy
        for k in changed:
            at, own, enemy = marks(units[k])
            for position, value in at:
                flat[position] = value
            mine, theirs = mine + own, theirs + enemy
    out = flat.reshape(UNIT_PLANES, board.height, board.width)
    out.flags.writeable = False
    layer = context[0] = UnitLayer(units, out, mine, theirs)
    return layer


def _changed(old: tuple[Unit, ...], new: tuple[Unit, ...]) -> list[int] | None:
    """Places where ``new`` holds another unit object than ``old``; None when it is not worth a rewrite."""
    if len(old) != len(new):
        return None
    changed = list(compress(range(len(new)), map(is_not, old, new)))  # all in C
    return changed if len(changed) <= _REWRITE_LIMIT else None


def _marks(unit: Unit, side: Side, tables: TableOverrides | None, board: Board) -> _Marks:
    """What ``unit`` sets on the unit planes (nothing while it is off the board), and adds to the counts."""
    if unit.cell is None:
        return (), 0, 0
    info = board_info(board)
    size, i = info.size, info.index[unit.cell]
    share = unit.hp / unit_stats(unit.type, tables).hp  # the game's own max HP
    if unit.side is not side:
        return ((_ENEMY_PLANE[unit.type] * size + i, share),), 0, 1
    at = [(_OWN_PLANE[unit.type] * size + i, share)]
    if unit.has_moved:
        at.append((_MOVED * size + i, 1.0))
    if unit.has_attacked:
        at.append((_ATTACKED * size + i, 1.0))
    return tuple(at), 1, 0
