"""Pure board geometry: cell labels, directions, distance and quadrants (rules §2.1).

>>> label(10, 15)
'K16'
>>> parse_label("K16")
(10, 15)
>>> label(27, 0)
'AB1'
>>> chebyshev((0, 0), (3, -2))
3
"""

from __future__ import annotations

import re

from ..types import Quadrant

__all__ = [
    "DIRECTIONS",
    "ORTHOGONAL",
    "chebyshev",
    "column_letters",
    "label",
    "parse_label",
    "quadrant_of",
]

ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""N, E, S, W as ``(dx, dy)``; ``y`` grows southwards (row 1 is the north edge)."""

DIRECTIONS: tuple[tuple[int, int], ...] = (*ORTHOGONAL, (1, -1), (1, 1), (-1, 1), (-1, -1))
"""The eight neighbour directions: N, E, S, W, then NE, SE, SW, NW."""

_LABEL = re.compile(r"([A-Z]{1,3})([1-9][0-9]{0,3})")


def column_letters(x: int) -> str:
    """Spreadsheet letters of column ``x`` (0 → ``A``, 25 → ``Z``, 26 → ``AA``)."""
    if x < 0:
        raise ValueError(f"column {x} is negative")
    letters = ""
    n = x + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def label(x: int, y: int) -> str:
    """Label of the cell at column ``x``, row ``y`` (0-based): ``label(10, 15) == "K16"``."""
    if y < 0:
        raise ValueError(f"row {y} is negative")
    return f"{column_letters(x)}{y + 1}"


def parse_label(text: str) -> tuple[int, int]:
    """Inverse of `label`: ``parse_label("K16") == (10, 15)``; ValueError on a bad label.

    The label is checked for form only; whether it lies on a given board is the
    caller's business (see ``Board.index_of``).
    """
    match = _LABEL.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a cell label (letters then a row number, like 'K16')")
    x = 0
    for ch in match.group(1):
        x = x * 26 + (ord(ch) - 64)
    return x - 1, int(match.group(2)) - 1


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Chebyshev distance ``max(|dx|, |dy|)``, used for range and hit chance."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def quadrant_of(x: int, y: int, width: int, height: int) -> Quadrant:
    """Quadrant of a cell: west is ``x < W // 2``, north is ``y < H // 2``."""
    west = x < width // 2
    north = y < height // 2
    if north:
        return Quadrant.NW if west else Quadrant.NE
    return Quadrant.SW if west else Quadrant.SE
