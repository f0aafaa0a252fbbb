"""The board: base terrain plus road and river overlays, as compact ASCII rows.

A board is stored as one string per row with one character per cell, so a map reads
the same in a test, a record file, a state's JSON and the browser:

=====  =====================================  =====
char   meaning                                base
=====  =====================================  =====
``.``  plain                                  PLAIN
``r``  rough                                  ROUGH
``f``  forest                                 FOREST
``u``  urban                                  URBAN
``i``  industrial                             INDUSTRIAL
``h``  hill                                   HILL
``w``  water (blocks movement)                WATER
``=``  road                                   PLAIN
``~``  river                                  PLAIN
``#``  bridge (a cell that is road and river)  PLAIN
=====  =====================================  =====

Road and river cells always have PLAIN base terrain (as every generated map has), and a
bridge is exactly a cell that is both road and river (rules §2.2).

>>> board = parse_terrain_map('''
...     ..f
...     =#=
...     .~.
... ''')
>>> board.width, board.height
(3, 3)
>>> board.terrain_at(2, 0).value, board.is_road(1, 1), board.is_river(1, 1)
('FOREST', True, True)
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..types import TerrainType
from .grid import label, parse_label

__all__ = [
    "MAX_BOARD_SIDE",
    "MIN_BOARD_SIDE",
    "TERRAIN_CHARS",
    "TERRAIN_LEGEND",
    "Board",
    "TerrainChar",
    "board_from_layers",
    "parse_terrain_map",
]

MIN_BOARD_SIDE = 2
MAX_BOARD_SIDE = 300

TERRAIN_CHARS: dict[str, tuple[TerrainType, bool, bool]] = {
    ".": (TerrainType.PLAIN, False, False),
    "r": (TerrainType.ROUGH, False, False),
    "f": (TerrainType.FOREST, False, False),
    "u": (TerrainType.URBAN, False, False),
    "i": (TerrainType.INDUSTRIAL, False, False),
    "h": (TerrainType.HILL, False, False),
    "w": (TerrainType.WATER, False, False),
    "=": (TerrainType.PLAIN, True, False),
    "~": (TerrainType.PLAIN, False, True),
    "#": (TerrainType.PLAIN, True, True),
}
"""ASCII map character → ``(base terrain, road?, river?)``."""


class TerrainChar(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the map legend: what a cell drawn with ``char`` is."""

    char: str  # the map character
    terrain: TerrainType  # base terrain
    road: bool
    river: bool  # road and river: a bridge


TERRAIN_LEGEND: tuple[TerrainChar, ...] = tuple(
    TerrainChar(char=char, terrain=terrain, road=road, river=river)
    for char, (terrain, road, river) in TERRAIN_CHARS.items()
)
"""`TERRAIN_CHARS` as data for a client that draws boards (sent with every state, docs/protocol.md)."""

_BASE_CHAR = {
    TerrainType.PLAIN: ".",
    TerrainType.ROUGH: "r",
    TerrainType.FOREST: "f",
    TerrainType.URBAN: "u",
    TerrainType.INDUSTRIAL: "i",
    TerrainType.HILL: "h",
    TerrainType.WATER: "w",
}


class Board(msgspec.Struct, frozen=True, weakref=True):
    """Static terrain of a game: ``rows[y][x]`` is the map character of cell ``(x, y)``."""

    width: int  # columns, x = 0 .. width-1 (letters A ..)
    height: int  # rows, y = 0 .. height-1 (numbers 1 ..); row 1 is the north edge
    rows: tuple[str, ...]  # one string of `width` map characters per row, north first

    def char_at(self, x: int, y: int) -> str:
        """Map character of cell ``(x, y)``."""
        return self.rows[y][x]

    def terrain_at(self, x: int, y: int) -> TerrainType:
        """Base terrain of cell ``(x, y)``."""
        return TERRAIN_CHARS[self.rows[y][x]][0]

    def is_road(self, x: int, y: int) -> bool:
        """True when cell ``(x, y)`` carries a road (bridges included)."""
        return TERRAIN_CHARS[self.rows[y][x]][1]

    def is_river(self, x: int, y: int) -> bool:
        """True when cell ``(x, y)`` carries a river (bridges included)."""
        return TERRAIN_CHARS[self.rows[y][x]][2]

    def is_bridge(self, x: int, y: int) -> bool:
        """True when cell ``(x, y)`` is both road and river."""
        return self.rows[y][x] == "#"

    def contains(self, x: int, y: int) -> bool:
        """True when ``(x, y)`` lies on the board."""
        return 0 <= x < self.width and 0 <= y < self.height

    def cell_of(self, cell_label: str) -> tuple[int, int]:
        """``(x, y)`` of a label on this board; ValueError when malformed or off the board."""
        x, y = parse_label(cell_label)
        if not self.contains(x, y):
            raise ValueError(
                f"cell {cell_label} is off the board ({label(0, 0)}..{label(self.width - 1, self.height - 1)})"
            )
        return x, y

    def to_text(self) -> str:
        """The board as an ASCII map, one row per line (the inverse of `parse_terrain_map`)."""
        return "\n".join(self.rows)


def parse_terrain_map(text: str) -> Board:
    """Parse an ASCII map (see the module docstring) into a `Board`.

    Leading/trailing blank lines and the indentation common to all lines are ignored, so
    maps can be written as indented triple-quoted strings. Raises ValueError naming the row
    and column of the first bad character, or the first row of the wrong length.
    """
    lines = [line.strip() for line in text.strip("\n").splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise ValueError("terrain map is empty")
    width = len(lines[0])
    for y, line in enumerate(lines):
        if len(line) != width:
            raise ValueError(f"terrain map row {y + 1} has {len(line)} cells, expected {width} like row 1")
        for x, ch in enumerate(line):
            if ch not in TERRAIN_CHARS:
                known = "".join(TERRAIN_CHARS)
                raise ValueError(
                    f"terrain map cell {label(x, y)} (row {y + 1}, column {x + 1}) has unknown "
                    f"character {ch!r}; use one of {known!r}"
                )
    _check_size(width, len(lines))
    return Board(width=width, height=len(lines), rows=tuple(lines))


def board_from_layers(
    width: int,
    height: int,
    base: Iterable[TerrainType],
    roads: Iterable[tuple[int, int]],
    rivers: Iterable[tuple[int, int]],
) -> Board:
    """Build a `Board` from a row-major base grid and road/river cell sets.

    Road and river cells must have PLAIN base terrain; ValueError otherwise.
    """
    _check_size(width, height)
    grid = [_BASE_CHAR[t] for t in base]
    if len(grid) != width * height:
        raise ValueError(f"base grid has {len(grid)} cells, expected {width}x{height}")
    road_set = set(roads)
    river_set = set(rivers)
    for x, y in road_set | river_set:
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"overlay cell ({x}, {y}) is off the {width}x{height} board")
        i = y * width + x
        if grid[i] != ".":
            raise ValueError(f"overlay cell {label(x, y)} has base {grid[i]!r}; roads and rivers need PLAIN")
        on_road, on_river = (x, y) in road_set, (x, y) in river_set
        grid[i] = "#" if on_road and on_river else "=" if on_road else "~"
    rows = tuple("".join(grid[y * width : (y + 1) * width]) for y in range(height))
    return Board(width=width, height=height, rows=rows)


def _check_size(width: int, height: int) -> None:
    for name, value in (("width", width), ("height", height)):
        if not MIN_BOARD_SIDE <= value <= MAX_BOARD_SIDE:
            raise ValueError(f"board {name} {value} is outside {MIN_BOARD_SIDE}..{MAX_BOARD_SIDE}")
