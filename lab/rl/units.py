"""The units of an observation: their marks on the unit planes, and how many each side has on the board.

Both are pure functions of the units tuple, the observer and the game's tables, and the
units tuple is the very same object from step to step until a unit changes, so a whole
layer is remembered by the identity of the tuple (`lab.rl.memo`). When the tuple is new
(after every move, about two steps in three), most of its units are still the objects of
the tuple before: a unit's marks are remembered by the identity of the unit, and only
the units that changed are encoded again.

Marks are flat positions ``plane * cells + cell`` on the board planes with their values:
planes 10-12 own units by type and 13-15 enemy units by type (HP / the game's max HP),
16 and 17 own units that moved / attacked this turn (see `lab.rl.observation`).
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any, NamedTuple, cast

import numpy as np

from engine import Board, Side, TableOverrides, Unit, UnitType, board_info, unit_stats

from .memo import LIMIT, by_identity, memo_table

__all__ = ["UnitLayer", "unit_layer"]

_TYPES = (UnitType.LIGHT_INFANTRY, UnitType.MECHANIZED, UnitType.SPECIAL)
_OWN_PLANE = {unit_type: 10 + k for k, unit_type in enumerate(_TYPES)}
_ENEMY_PLANE = {unit_type: 13 + k for k, unit_type in enumerate(_TYPES)}

_Entry = tuple[Unit, tuple[int, ...], tuple[float, ...], int, int]  # the unit, its marks, own / enemy on the board
_AT, _VALUES, _MINE, _THEIRS = itemgetter(1), itemgetter(2), itemgetter(3), itemgetter(4)


class UnitLayer(NamedTuple):
    """What an observation shows of one units tuple (the arrays are shared: never write to them)."""

    at: np.ndarray[Any, np.dtype[np.intp]]  # flat positions on the board planes
    values: np.ndarray[Any, np.dtype[np.float32]]  # the value at each position
    mine: int  # the observer's units on the board
    theirs: int  # the opponent's units on the board


_LAYERS: dict[Any, Any] = memo_table()  # (units, side, tables, board) -> UnitLayer
_PER_UNIT: dict[Any, Any] = memo_table()  # (side, tables, board) -> {id(unit): entry}


def unit_layer(units: tuple[Unit, ...], side: Side, tables: TableOverrides | None, board: Board) -> UnitLayer:
    """The `UnitLayer` of ``units`` seen by ``side`` in a game with ``tables`` on ``board``."""
    layer: UnitLayer = by_identity(_LAYERS, (units, side, tables, board), lambda: _build(units, side, tables, board))
    return layer


def _build(units: tuple[Unit, ...], side: Side, tables: TableOverrides | None, board: Board) -> UnitLayer:
    known: dict[int, _Entry] = by_identity(_PER_UNIT, (side, tables, board), dict)
    # The entries hold their units, so while one lives no other object can have its id.
    entries: list[_Entry | None] = list(map(known.get, map(id, units)))
    k = -1
    while True:  # visit only the units not seen yet (found by a scan in C)
        try:
            k = entries.index(None, k + 1)
        except ValueError:
            break
        if len(known) >= LIMIT:
            known.clear()
        unit = units[k]
        entries[k] = known[id(unit)] = _entry(unit, side, tables, board)
    seen = cast("list[_Entry]", entries)  # every None was replaced
    return UnitLayer(
        np.fromiter(chain.from_iterable(map(_AT, seen)), dtype=np.intp),
        np.fromiter(chain.from_iterable(map(_VALUES, seen)), dtype=np.float32),
        sum(map(_MINE, seen)),
        sum(map(_THEIRS, seen)),
    )


def _entry(unit: Unit, side: Side, tables: TableOverrides | None, board: Board) -> _Entry:
    """What ``unit`` adds to the unit planes (nothing while it is off the board), and to the counts."""
    if unit.cell is None:
        return unit, (), (), 0, 0
    info = board_info(board)
    size, i = info.size, info.index[unit.cell]
    share = unit.hp / unit_stats(unit.type, tables).hp  # the game's own max HP
    if unit.side is not side:
        return unit, (_ENEMY_PLANE[unit.type] * size + i,), (share,), 0, 1
    at, values = [_OWN_PLANE[unit.type] * size + i], [share]
    if unit.has_moved:
        at.append(16 * size + i)
        values.append(1.0)
    if unit.has_attacked:
        at.append(17 * size + i)
        values.append(1.0)
    return unit, tuple(at), tuple(values), 1, 0

