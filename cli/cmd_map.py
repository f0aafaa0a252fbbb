"""`taktik map --seed N [--size WxH] [--png FILE]`: show the map a game is played on.

``--seed`` is the game seed, as for ``taktik new`` and ``taktik play``: the map is the one
`new_game` generates for that seed and size (after the deck shuffle and the tactic hands,
rules §1.4), so ``taktik map --seed 7`` shows the board of game seed 7.

Prints the map one character per cell, with column letters and row numbers, the legend
and the generator's statistics; ``--png`` also writes a small top-down preview.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw

from engine import Board, GameConfig
from engine.data import GeneratedTerrain, game_terrain, label

from .game_options import parse_seed, parse_size

__all__ = ["LEGEND", "add_parser", "render_png", "render_text", "run"]

DEFAULT_SEED = 1
DEFAULT_SIZE = (20, 30)

LEGEND = (
    (".", "plain"),
    ("r", "rough"),
    ("f", "forest"),
    ("h", "hill"),
    ("u", "urban"),
    ("i", "industrial"),
    ("w", "water"),
    ("=", "road"),
    ("~", "river"),
    ("#", "bridge (road over river)"),
)

Colour = tuple[int, int, int]
BASE_COLOURS: dict[str, Colour] = {
    "PLAIN": (202, 214, 150),
    "ROUGH": (181, 160, 118),
    "FOREST": (52, 112, 58),
    "URBAN": (160, 160, 168),
    "INDUSTRIAL": (122, 98, 128),
    "HILL": (139, 100, 64),
    "WATER": (44, 104, 184),
}
RIVER_COLOUR: Colour = (86, 170, 220)
ROAD_COLOUR: Colour = (58, 58, 56)
BRIDGE_COLOUR: Colour = (139, 90, 43)
_ORTHOGONAL = ((0, -1), (1, 0), (0, 1), (-1, 0))


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``map`` sub-command."""
    parser = commands.add_parser("map", help="print a generated map and its statistics")
    parser.add_argument("--seed", type=parse_seed, default=DEFAULT_SEED, help="game seed (0..2^32-1; default 1)")
    parser.add_argument(
        "--size",
        type=parse_size,
        default=DEFAULT_SIZE,
        metavar="WxH",
        help="columns x rows, 8..300 each (default 20x30)",
    )
    parser.add_argument("--png", type=Path, default=None, metavar="FILE", help="also write a PNG preview here")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Generate, print and optionally draw the map; the exit code."""
    width, height = args.size
    try:
        terrain, next_seed = game_terrain(GameConfig(seed=args.seed, width=width, height=height))
    except ValueError as err:
        print(f"taktik map: {err}", file=sys.stderr)
        return 2
    print(render_text(terrain, args.seed, next_seed))
    if args.png is not None:
        image = render_png(terrain.board)
        try:
            image.save(args.png, format="PNG")
        except (OSError, ValueError) as err:
            print(f"taktik map: cannot write {args.png}: {err}", file=sys.stderr)
            return 1
        print(f"\nwrote {args.png} ({image.width}x{image.height} px)")
    return 0


def render_text(terrain: GeneratedTerrain, seed: int, next_seed: int) -> str:
    """The map with coordinates, the legend and the statistics, as printed by ``taktik map``."""
    board, stats = terrain.board, terrain.stats
    lines = [f"Map {board.width}x{board.height} of game seed {seed}", ""]
    lines += _framed_rows(board)
    lines += ["", "Legend: " + "  ".join(f"{char} {name}" for char, name in LEGEND), ""]
    lines.append(f"{'terrain':<12}{'cells':>7}{'regions':>9}{'largest':>9}")
    for entry in stats.terrain:
        lines.append(f"{entry.terrain.value.lower():<12}{entry.cells:>7}{entry.regions:>9}{entry.largest_region:>9}")
    lines += [
        "",
        f"roads:   {stats.road_cells} cells (target {stats.road_target}), {stats.road_regions} network(s)",
        f"rivers:  {stats.river_cells} cells (target {stats.river_target}), {stats.river_regions} system(s)",
        f"bridges: {len(stats.bridges)}" + (f" ({' '.join(stats.bridges)})" if stats.bridges else ""),
        f"minimums met: hill {stats.minimum_hill}, rough {stats.minimum_rough}, forest {stats.minimum_forest}",
        f"rng: {stats.rng_steps} steps consumed, next seed {next_seed}",
    ]
    return "\n".join(lines)


def render_png(board: Board, cell: int | None = None) -> Image.Image:
    """A top-down picture: one ``cell``-pixel square per cell, rivers and roads as bands."""
    if cell is None:
        cell = max(3, min(12, 960 // max(board.width, board.height)))
    image = Image.new("RGB", (board.width * cell, board.height * cell), BASE_COLOURS["PLAIN"])
    draw = ImageDraw.Draw(image)
    for y in range(board.height):
        for x in range(board.width):
            colour = BASE_COLOURS[board.terrain_at(x, y).value]
            draw.rectangle((x * cell, y * cell, (x + 1) * cell - 1, (y + 1) * cell - 1), fill=colour)
    river_band = max(1, cell // 2)
    road_band = max(1, cell // 4)
    for y in range(board.height):
        for x in range(board.width):
            if board.is_river(x, y):
                _band(draw, board, x, y, cell, river_band, RIVER_COLOUR, board.is_river)
            if board.is_bridge(x, y):
                inset = max(0, cell // 8)
                box = (x * cell + inset, y * cell + inset, (x + 1) * cell - 1 - inset, (y + 1) * cell - 1 - inset)
                draw.rectangle(box, fill=BRIDGE_COLOUR)
            if board.is_road(x, y):
                _band(draw, board, x, y, cell, road_band, ROAD_COLOUR, board.is_road)
    return image


def _band(
    draw: ImageDraw.ImageDraw,
    board: Board,
    x: int,
    y: int,
    cell: int,
    width: int,
    colour: Colour,
    joined: Callable[[int, int], bool],
) -> None:
    """A centred square plus an arm towards every orthogonal neighbour in the same layer."""
    lo = x * cell + (cell - width) // 2
    top = y * cell + (cell - width) // 2
    draw.rectangle((lo, top, lo + width - 1, top + width - 1), fill=colour)
    for dx, dy in _ORTHOGONAL:
        nx, ny = x + dx, y + dy
        if not (board.contains(nx, ny) and joined(nx, ny)):
            continue
        if dx:
            x0, x1 = (lo + width, (x + 1) * cell - 1) if dx > 0 else (x * cell, lo - 1)
            draw.rectangle((x0, top, x1, top + width - 1), fill=colour)
        else:
            y0, y1 = (top + width, (y + 1) * cell - 1) if dy > 0 else (y * cell, top - 1)
            draw.rectangle((lo, y0, lo + width - 1, y1), fill=colour)


def _framed_rows(board: Board) -> list[str]:
    """Column letters above (two lines past column Z), row numbers on the left."""
    letters = [label(x, 0)[:-1] for x in range(board.width)]
    depth = max(len(text) for text in letters)
    margin = len(str(board.height)) + 1
    header = [" " * margin + "".join(text.rjust(depth)[k] for text in letters) for k in range(depth)]
    rows = [f"{y + 1:>{margin - 1}} {row}" for y, row in enumerate(board.rows)]
    return header + rows
