"""The units of an observation: the unit planes on top of the static ones, and the units on the board.

Every step needs a fresh copy of the board planes with the units written in, and the
units tuple is the very same object from step to step until a unit changes. So each
observer and game keeps one private *base*: the static planes with the unit planes of
the last units tuple written in. A step copies the base out; only when the units tuple
is new (after every move: about two steps in three) is the base brought up to date
first, by rewriting just the units that changed (their old marks cleared, their new ones
set; most of a new tuple's units are still the objects of the tuple before, at the same
places). The base is never handed out, and a lock keeps threads from updating it at once.

That is exact because two units never share a cell (rules §5: a unit moves, deploys or
enters only onto a free cell), so a mark belongs to one unit. A tuple of another length,
or with many changed units (a new turn clears every ``has_moved``), is written whole.

The unit planes are planes 10-17 of `lab.rl.observation`: 10-12 own units by type and
13-15 enemy units by type (HP / the game's max HP), 16 and 17 own units that moved /
attacked this turn.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not
from threading import Lock
from typing import Any

import numpy as np

from engine import Board, Side, TableOverrides, Unit, UnitType
from engine.data import board_info, unit_stats

from .memo import LIMIT, by_identity, memo_table

__all__ = ["planes_with_units", "units_on_board"]

_FIRST, _COUNT = 10, 8  # the unit planes: 10-17
_TYPES = (UnitType.LIGHT_INFANTRY, UnitType.MECHANIZED, UnitType.SPECIAL)
_OWN_PLANE = {unit_type: 10 + k for k, unit_type in enumerate(_TYPES)}
_ENEMY_PLANE = {unit_type: 13 + k for k, unit_type in enumerate(_TYPES)}
_MOVED, _ATTACKED = 16, 17
_REWRITE_LIMIT = 8  # more changed units than this: write the tuple whole

_Marks = tuple[tuple[tuple[int, float], ...], int, int]  # (flat position, value)..., own / enemy on the board
_Planes = np.ndarray[Any, np.dtype[np.float32]]


class _Base:
    """The static planes with one units tuple's unit planes written in (private: only copies leave)."""

    __slots__ = ("flat", "known", "lock", "mine", "planes", "theirs", "units")

    def __init__(self, static: _Planes) -> None:
        self.planes = static.copy()
        self.flat = self.planes.reshape(-1)  # a view: writes land in ``planes``
        self.units: tuple[Unit, ...] | None = None
        self.mine = self.theirs = 0
        self.known: dict[int, tuple[Unit, _Marks]] = {}  # id(unit) -> (unit, its marks)
        self.lock = Lock()


_BASES: dict[Any, Any] = memo_table()  # (side, tables, board, static) -> _Base


def planes_with_units(
    units: tuple[Unit, ...], side: Side, tables: TableOverrides | None, board: Board, static: _Planes
) -> tuple[_Planes, int, int]:
    """A fresh copy of ``static`` with the unit planes of ``units`` seen by ``side``; own / enemy units on the board.

    ``static`` is the static planes of ``board`` for ``side`` (zero on the unit planes),
    an array that never changes; ``tables`` gives the units' max HP.
    """
    base: _Base = by_identity(_BASES, (side, tables, board, static), lambda: _Base(static))
    with base.lock:
        if base.units is not units:  # the base holds its tuple: ``is`` means the very same units
            _update(base, units, side, tables, board)
        return base.planes.copy(), base.mine, base.theirs


def units_on_board(units: tuple[Unit, ...], side: Side) -> tuple[int, int]:
    """How many units ``side`` and its opponent have on the board."""
    mine = sum(1 for u in units if u.cell is not None and u.side is side)
    return mine, sum(1 for u in units if u.cell is not None) - mine


def _update(base: _Base, units: tuple[Unit, ...], side: Side, tables: TableOverrides | None, board: Board) -> None:
    known, flat = base.known, base.flat
    if len(known) >= LIMIT:
        known.clear()

    def marks(unit: Unit) -> _Marks:
        entry = known.get(id(unit))  # the entry holds its unit: no other object can have this id
        if entry is None:
            entry = known[id(unit)] = (unit, _marks(unit, side, tables, board))
        return entry[1]

    old = base.units
    changed = _changed(old, units) if old is not None else None
    if old is None or changed is None:
        base.planes[_FIRST : _FIRST + _COUNT] = 0.0
        mine = theirs = 0
        for unit in units:
            at, own, enemy = marks(unit)
            for position, value in at:
                flat[position] = value
            mine, theirs = mine + own, theirs + enemy
    else:
        mine, theirs = base.mine, base.theirs
        for k in changed:  # first clear every old mark, then set the new ones
            at, own, enemy = marks(old[k])
            for position, _ in at:
                flat[position] = 0.0
            mine, theirs = mine - own, theirs - enemy
        for k in changed:
            at, own, enemy = marks(units[k])
            for position, value in at:
                flat[position] = value
            mine, theirs = mine + own, theirs + enemy
    base.units, base.mine, base.theirs = units, mine, theirs


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
