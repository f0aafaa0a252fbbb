"""What the reachability search returns and what is kept of it: objects the cyclic collector never tracks.

A server keeps thousands of search results (the memo of `engine.movement`) and a kept
derivation per unit (`engine.move_lists`). As NamedTuples or plain objects they were
tracked, and a NamedTuple is never untracked (CPython untracks exact tuples only), so
every collection scanned all of them and the tuples holding them. They are msgspec
Structs with ``gc=False``: never tracked. That is safe because none of them can be part
of a reference cycle (each says why), and nobody changes what they hold; the tuples of
them in the memo leave the collector at the first collection they meet.

They live here, not beside the code that makes them, because a module with class
keywords stays pure Python in the compiled build (setup.py): the search beside them is
compiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from .actions import MoveUnit
from .boardinfo import StepTable
from .grid import DIRECTIONS
from .state import Unit

if TYPE_CHECKING:
    from .move_lists import Basis

__all__ = ["Derivation", "Reach", "SearchEntry"]


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


class Derivation(msgspec.Struct, gc=False):
    """One unit's moves as `engine.move_lists` derived them, with what they read: kept until one of those changes.

    Nothing it holds refers back to a derivation (a unit, the per-board step tables, a
    `Reach`, moves, the movement effects' key and a units tuple), so it can be part of no
    reference cycle.
    """

    unit: Unit
    basis: Basis  # the board's and rules' step tables (`engine.move_lists`)
    allowance: int
    examined: int  # the cells whose occupancy the search examined, as an occupancy mask
    seen: int  # their occupancy then
    reach: Reach
    moves: tuple[MoveUnit, ...] | None = None  # built when first listed (a draw only counts them)
    # How ``allowance`` is known to hold for this unit object: (the `movement_key`, what its rules read,
    # the units then, the allowance, the radius of what they read; see `allowance_and_reads`), so later
    # listings need not ask again.
    held: tuple[object, int, tuple[Unit, ...], int, int] | None = None
