"""Flat-grid geometry shared by the generator steps.

Cells are numbered row-major, ``i = y * width + x``, so sorting indices is sorting by
``(y, x)``: the fixed tie-break order of rules §11. Masks are ``bytearray``s indexed the
same way; neighbour tables are precomputed once per board size.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import floor

__all__ = ["ORTHO", "Grid", "label_regions", "round_half_up"]

ORTHO: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""N, E, S, W as ``(dx, dy)``, the order of `engine.grid.ORTHOGONAL`."""


def round_half_up(value: float) -> int:
    """``round(x)`` as rules §11 defines it: ``floor(x + 0.5)``."""
    return floor(value + 0.5)


class Grid:
    """Size, index arithmetic and neighbour tables of a ``width x height`` board."""

    __slots__ = ("_squares", "height", "n4", "n8", "size", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        n4: list[tuple[int, ...]] = []
        n8: list[tuple[int, ...]] = []
        for y in range(height):
            north, south = y > 0, y < height - 1
            for x in range(width):
                i = y * width + x
                west, east = x > 0, x < width - 1
                if north and south and west and east:
                    n4.append((i - width, i + 1, i + width, i - 1))
                    n8.append(
                        (i - width - 1, i - width, i - width + 1, i - 1, i + 1, i + width - 1, i + width, i + width + 1)
                    )
                    continue
                n4.append(
                    tuple(n for n, ok in ((i - width, north), (i + 1, east), (i + width, south), (i - 1, west)) if ok)
                )
                n8.append(
                    tuple(
                        n
                        for n, ok in (
                            (i - width - 1, north and west),
                            (i - width, north),
                            (i - width + 1, north and east),
                            (i - 1, west),
                            (i + 1, east),
                            (i + width - 1, south and west),
                            (i + width, south),
                            (i + width + 1, south and east),
                        )
                        if ok
                    )
                )
        self.n4: tuple[tuple[int, ...], ...] = tuple(n4)  # on-board orthogonal neighbours, N E S W order
        self.n8: tuple[tuple[int, ...], ...] = tuple(n8)  # on-board 8-neighbourhood, ascending
        self._squares: tuple[tuple[tuple[int, int, int], ...], ...] | None = None

    @property
    def squares(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """Per cell, the other three cells of each on-board 2x2 block holding it (NW, NE, SE, SW), made when
        first asked: a road route asks about blocks at most of its steps."""
        if self._squares is None:
            w, h = self.width, self.height
            self._squares = tuple(
                tuple(
                    (y * w + x + dx, (y + dy) * w + x, (y + dy) * w + x + dx)
                    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
                    if 0 <= x + dx < w and 0 <= y + dy < h
                )
                for y in range(h)
                for x in range(w)
            )
        return self._squares

    def index(self, x: int, y: int) -> int:
        """Flat index of ``(x, y)``."""
        return y * self.width + x

    def xy(self, i: int) -> tuple[int, int]:
        """``(x, y)`` of flat index ``i``."""
        return i % self.width, i // self.width

    def contains(self, x: int, y: int) -> bool:
        """True when ``(x, y)`` lies on the board."""
        return 0 <= x < self.width and 0 <= y < self.height

    def is_edge(self, i: int) -> bool:
        """True for a cell in the outer ring of the board."""
        x, y = i % self.width, i // self.width
        return x == 0 or y == 0 or x == self.width - 1 or y == self.height - 1

    def manhattan(self, a: int, b: int) -> int:
        """Manhattan distance between two flat indices."""
        w = self.width
        return abs(a % w - b % w) + abs(a // w - b // w)

    def chebyshev(self, a: int, b: int) -> int:
        """Chebyshev distance between two flat indices."""
        w = self.width
        return max(abs(a % w - b % w), abs(a // w - b // w))

    def edge_cells(self) -> list[int]:
        """The outer ring, clockwise from the north-west corner (a fixed order)."""
        w, h = self.width, self.height
        north = [x for x in range(w)]
        east = [y * w + w - 1 for y in range(1, h)]
        south = [(h - 1) * w + x for x in range(w - 2, -1, -1)]
        west = [y * w for y in range(h - 2, 0, -1)]
        return north + east + south + west

    def completes_square(self, mask: bytearray | Sequence[int], i: int) -> bool:
        """True when adding ``i`` to ``mask`` would fill some 2x2 block entirely."""
        w = self.width
        x, y = i % w, i // w
        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < self.height and mask[ny * w + nx] and mask[ny * w + x] and mask[y * w + nx]:
                return True
        return False


def label_regions(grid: Grid, codes: Sequence[int]) -> list[int]:
    """4-connected regions of equal codes: ``labels[i]`` numbers them from 0 in scan order.

    Cells with a negative code belong to no region and are labelled -1.
    """
    labels = [-1] * grid.size
    n4 = grid.n4
    count = 0
    for start in range(grid.size):
        code = codes[start]
        if code < 0 or labels[start] != -1:
            continue
        labels[start] = count
        stack = [start]
        while stack:
            i = stack.pop()
            for n in n4[i]:
                if labels[n] == -1 and codes[n] == code:
                    labels[n] = count
                    stack.append(n)
        count += 1
    return labels
