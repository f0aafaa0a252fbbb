"""Reachable cells of a unit (rules §5.2-§5.4): least-cost search over static step tables.

Step costs never change during a game (`BoardInfo.steps`), so the search only adds
occupancy: units never enter or pass through an occupied cell. Costs are small whole
half-points, so the search is Dial's bucket-queue variant of Dijkstra.

One search decides everything about movement: the offers, the legality and cost of a
MOVE_UNIT, and the cheapest paths `engine.move_preview` shows (rebuilt from its costs).

Results are memoised. A search only depends on the cells whose occupancy it examined,
so a stored result is reused exactly when none of those cells changed occupancy; this
is what keeps move generation cheap while units around the board stand still. Both the
occupancy and the examined cells are kept as one byte per cell read as one integer, so
that check is a single AND of two integers however large the board.
"""

from __future__ import annotations

from typing import Final

import msgspec

from ..board.grid import DIRECTIONS
from ..board.info import BoardInfo, StepTable, board_info
from ..board.terrain_map import Board
from ..cards.abilities import step_abilities
from ..cards.hooks import can_move_unit
from ..state import GameState, Unit
from .allowance import movement_allowance

__all__ = [
    "NO_REACH",
    "Occupancy",
    "Reach",
    "SearchEntry",
    "movable_reach",
    "move_cost",
    "occupancy",
    "occupancy_after_move",
    "occupied_cells",
    "reachable_cells",
    "search_entry",
    "search_reachable",
    "unit_reach",
]


def occupied_cells(state: GameState) -> frozenset[int]:
    """Indices of every cell holding a unit."""
    index = board_info(state.board).index
    return frozenset(index[u.cell] for u in state.units if u.cell is not None)


class Reach(msgspec.Struct, frozen=True, gc=False):
    """What the search found for one unit: the least cost of every reachable cell.

    Paths are not recorded while searching (the search is hot); `path` rebuilds one
    cheapest path afterwards from the costs and the same step table.

    It holds only its own dict of ints, a step table of ints and ints: no reference cycle.
    """

    costs: dict[int, int]  # cell index → least cost in half-points (the start cell excluded)
    steps: StepTable
    start: int
    width: int
    height: int

    def path(self, cell: int) -> list[int]:
        """The cells of one cheapest path to ``cell``, the start excluded, ``cell`` last.

        Walks back from ``cell``: each step goes to the first neighbour (in `DIRECTIONS`
        order) from which the step's cost leads exactly to the cost of the cell it
        enters, so every path is a real sequence of steps whose costs add up to
        ``costs[cell]``, and the choice among equally cheap paths is fixed.
        """
        path = [cell]
        while cell != self.start:
            need = self.costs[cell]
            x, y = cell % self.width, cell // self.width
            for dx, dy in DIRECTIONS:
                qx, qy = x + dx, y + dy
                if not (0 <= qx < self.width and 0 <= qy < self.height):
                    continue
                q = qy * self.width + qx
                spent = 0 if q == self.start else self.costs.get(q)
                if spent is not None and any(n == cell and spent + c == need for n, c in self.steps[q]):
                    cell = q
                    break
            else:  # pragma: no cover - the search reached ``cell`` by some step
                raise AssertionError(f"no cheapest step into cell {cell}")
            path.append(cell)
        path.pop()  # the start
        path.reverse()
        return path


class SearchEntry(msgspec.Struct, frozen=True, gc=False):
    """One memoised search: what it read and found. Its result holds while ``mask & examined == seen``
    for the occupancy mask now. It holds a table of ints, a `Reach` and ints: no reference cycle."""

    steps: StepTable
    reach: Reach
    examined: int  # the cells whose occupancy the search examined, as an occupancy mask
    seen: int  # their occupancy then


class Occupancy:
    """Which cells hold a unit, in the two forms the search reads. Treat as immutable."""

    __slots__ = ("flags", "mask")

    def __init__(self, flags: bytes, mask: int) -> None:
        self.flags = flags  # one byte per cell index, 1 where a unit stands
        self.mask = mask  # ``flags`` read as one little-endian integer: byte i is cell i

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Occupancy) and self.flags == other.flags and self.mask == other.mask

    def __hash__(self) -> int:
        return hash(self.flags)

    def __repr__(self) -> str:
        return f"Occupancy(cells={self.flags.count(1)})"


_last_occupancy: tuple[tuple[Unit, ...], Board, Occupancy] | None = None


def occupancy(state: GameState) -> Occupancy:
    """The `Occupancy` of ``state`` (the last one asked for is remembered: listing then applying reuse it).

    Kept by the identity of the units tuple and the board, all it reads: `reduce` applies
    an action to a copy of the state (its events cleared) that shares both.
    """
    global _last_occupancy
    last = _last_occupancy  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is state.units and last[1] is state.board:
        return last[2]
    info = board_info(state.board)
    index = info.index
    flags = bytearray(info.size)
    for unit in state.units:
        if unit.cell is not None:
            flags[index[unit.cell]] = 1
    found = Occupancy(bytes(flags), int.from_bytes(flags, "little"))
    _last_occupancy = (state.units, state.board, found)  # holds both: their ids are not reused meanwhile
    return found


def occupancy_after_move(state: GameState, units: tuple[Unit, ...], left: int, entered: int) -> None:
    """Remember the `Occupancy` of ``units``: those of ``state`` after one unit went from cell ``left`` to ``entered``.

    Derived from the occupancy of ``state`` when it is the one remembered (two bytes
    flipped instead of every unit placed again); the next listing then finds it.
    """
    global _last_occupancy
    last = _last_occupancy  # one read: another thread may replace it meanwhile
    if last is None or last[0] is not state.units or last[1] is not state.board:
        return  # nothing to derive from; `occupancy` builds it when asked
    flags = bytearray(last[2].flags)
    flags[left], flags[entered] = 0, 1
    mask = last[2].mask ^ (1 << (8 * left)) ^ (1 << (8 * entered))
    _last_occupancy = (units, state.board, Occupancy(bytes(flags), mask))


_UNREACHED: Final = 1 << 30  # a cost no search reaches: the scratch lists' "not reached"
_SCRATCH: Final[list[list[int]]] = []  # cost lists to reuse, all _UNREACHED; each search takes its own (threads)


def search_reachable(steps: StepTable, start: int, allowance: int, occupied: bytes) -> tuple[dict[int, int], int]:
    """Least cost (half-points) of every cell reachable from ``start`` within ``allowance``.

    ``occupied`` has one byte per cell, non-zero where a unit stands (`Occupancy.flags`).
    Returns the costs (the start cell excluded, cells ascending) and the cells whose
    occupancy the search examined, as a mask like `Occupancy.mask`: the result depends
    on no other cell's occupancy.
    """
    # Flat per-cell lists: a list lookup is cheaper than a dict's. The cost list is taken
    # from `_SCRATCH` and put back with only the settled cells reset (a new one per search
    # cost more to fill and free than the search itself); list pop and append are atomic,
    # so two threads never share one.
    size = len(steps)
    scratch = _SCRATCH
    best = scratch.pop() if scratch else [_UNREACHED] * size
    if len(best) != size:
        best = [_UNREACHED] * size
    best[start] = 0
    examined = bytearray(size)
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
    buckets[0].append(start)
    settled: list[int] = []
    for spent, bucket in enumerate(buckets):
        for cell in bucket:
            if best[cell] != spent:
                continue  # a cheaper route reached it first
            settled.append(cell)
            examined[cell] = 1
            for neighbour, cost in steps[cell]:
                total = spent + cost
                if total > allowance:
                    break  # a cell's steps come cheapest first: the rest cost more still
                if total < best[neighbour]:
                    if occupied[neighbour]:
                        examined[neighbour] = 1
                    else:
                        best[neighbour] = total
                        buckets[total].append(neighbour)
    # Every unoccupied cell looked at within the allowance was settled, so the examined
    # cells are the settled ones (the start included) and the occupied ones marked above;
    # and only settled cells got a cost, so resetting them leaves the list all _UNREACHED.
    settled.sort()
    costs: dict[int, int] = {}
    for cell in settled:
        costs[cell] = best[cell]
        best[cell] = _UNREACHED
    del costs[start]
    scratch.append(best)
    return costs, int.from_bytes(examined, "little")


NO_REACH = Reach({}, (), -1, 0, 0)
"""The `Reach` of a unit that cannot move (off the board, forbidden, no allowance)."""


# (id of the step table, start, allowance) → entries
_MEMO: Final[dict[tuple[int, int, int], tuple[SearchEntry, ...]]] = {}
_MEMO_LIMIT: Final = 5_000  # start cells; up to `_PER_START` results each
_PER_START: Final = 4


def unit_reach(state: GameState, unit: Unit, occupied: Occupancy | None = None) -> Reach:
    """Every cell ``unit`` can reach this turn, with its least cost and a cheapest path (rules §5.4).

    Ignores the move limit. Empty when the unit is off the board, ``can_move_unit`` is
    false or its allowance is 0. Whether the unit may still move at all (``has_moved``,
    the per-turn move limit, the phase) is the movement page's business. This one search
    decides legality (`reachable_cells`, `move_cost`) and feeds `engine.move_preview`.
    The result is shared: do not change it.
    """
    if unit.cell is None or not can_move_unit(state, unit):
        return NO_REACH
    return movable_reach(state, unit, occupied)


def movable_reach(state: GameState, unit: Unit, occupied: Occupancy | None = None) -> Reach:
    """`unit_reach` of a unit ``can_move_unit`` allows to move (the caller asked; nothing asks twice)."""
    if unit.cell is None:
        return NO_REACH
    allowance = movement_allowance(state, unit)
    if allowance <= 0:
        return NO_REACH
    info = board_info(state.board)
    tables = state.rules.tables
    steps = info.steps(unit.type, step_abilities(state.rules), None if tables is None else tables.overlay_costs())
    return _reach(steps, info, info.index[unit.cell], allowance, occupancy(state) if occupied is None else occupied)


def _reach(steps: StepTable, info: BoardInfo, start: int, allowance: int, occupied: Occupancy) -> Reach:
    """The memoised search: a stored result whose examined cells kept their occupancy, else a new search."""
    return search_entry(steps, info, start, allowance, occupied).reach


def search_entry(steps: StepTable, info: BoardInfo, start: int, allowance: int, occupied: Occupancy) -> SearchEntry:
    """`_reach` with what the result read (`engine.move_lists` keeps it per unit)."""
    key = (id(steps), start, allowance)
    entries = _MEMO.get(key, ())
    mask = occupied.mask
    for entry in entries:
        # An entry holds `steps`, so its id cannot be reused by another table while it lives.
        if entry.steps is steps and mask & entry.examined == entry.seen:
            return entry
    costs, examined = search_reachable(steps, start, allowance, occupied.flags)
    found = SearchEntry(steps, Reach(costs, steps, start, info.width, info.height), examined, mask & examined)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()  # one atomic step: a server's bot thread may use the memo at the same time
    # A few results per start: a search tree comes back to the same surroundings again and again.
    _MEMO[key] = (found, *entries[: _PER_START - 1])
    return found


def reachable_cells(state: GameState, unit: Unit, occupied: Occupancy | None = None) -> dict[int, int]:
    """Cells ``unit`` can reach this turn with their least cost (`unit_reach`); do not change the dict."""
    return unit_reach(state, unit, occupied).costs


def move_cost(state: GameState, unit: Unit, goal: int) -> int | None:
    """Least cost for ``unit`` to reach cell index ``goal`` this turn, or None if it cannot."""
    return unit_reach(state, unit).costs.get(goal)
