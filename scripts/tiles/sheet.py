"""The review contact sheet: a sample board composited like the client does, plus every image.

The board uses the §12 projection and painter's order: tiles sorted by ``3 * depth + offset``
(equal keys, lower depth first), then units by depth and row. It is shown at 2x, 1x and
0.25x of the in-game size so legibility can be judged at every zoom.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw, ImageFont

from . import geometry as geo
from .catalog import HIGHLIGHT_LAYER, LAYERS, TERRAIN_IMAGES
from .overlays import DIRECTIONS
from .units import TWEAK, badge_point, display_size

SAMPLE_BOARD = (
    "ff..hhr.",
    "f..=====",
    "..u=uu.i",
    "~~~#~~.i",
    "w..=.~ri",
    "ww.=h~~.",
    "w.r=.f~f",
    "..r=.f~.",
)
"""An 8 x 8 board in the engine's map characters (``=`` road, ``~`` river, ``#`` bridge)."""

_TERRAIN_BY_CHAR = {
    ".": "PLAIN",
    "r": "ROUGH",
    "f": "FOREST",
    "u": "URBAN",
    "i": "INDUSTRIAL",
    "h": "HILL",
    "w": "WATER",
    "=": "PLAIN",
    "~": "PLAIN",
    "#": "PLAIN",
}
SAMPLE_UNITS = (  # (kind, side, x, y, damaged)
    ("special", "a", 0, 1, False),
    ("light", "a", 1, 2, False),
    ("light", "a", 2, 5, False),
    ("mechanized", "a", 4, 4, False),
    ("light", "b", 4, 2, False),
    ("light", "b", 5, 0, False),
    ("mechanized", "b", 7, 1, True),
    ("special", "b", 7, 6, False),
    ("light", "b", 6, 4, True),
)
SAMPLE_HIGHLIGHTS = (
    ("selected", [(4, 4)]),
    ("move_adv", [(4, 3), (3, 4), (5, 4), (4, 5), (3, 3), (5, 3), (3, 5), (5, 5), (4, 6), (2, 4)]),
    ("attack", [(4, 2), (6, 4)]),
    ("target_confirm", [(7, 6)]),
    ("hover", [(2, 7)]),
    ("move", [(1, 6)]),
)
BACKGROUND = (34, 36, 44, 255)
INK = (232, 228, 214, 255)
DIM = (150, 150, 160, 255)


def _mask(cells: set[tuple[int, int]], x: int, y: int) -> str:
    return "".join(d for d in DIRECTIONS if (x + geo.DIR_UV[d][0], y + geo.DIR_UV[d][1]) in cells)


def board_items(board: tuple[str, ...] = SAMPLE_BOARD) -> list[tuple[int, int, int, int, str]]:
    """Tile images of ``board`` and `SAMPLE_HIGHLIGHTS` as ``(key, depth, x, y, name)`` in painter's order.

    ``key = 3 * depth + offset`` (rules §12); equal keys draw the lower depth first.
    """
    road = {(x, y) for y, row in enumerate(board) for x, ch in enumerate(row) if ch in "=#"}
    river = {(x, y) for y, row in enumerate(board) for x, ch in enumerate(row) if ch in "~#"}
    terrain_name = {terrain: name for name, terrain, _ in TERRAIN_IMAGES}
    items: list[tuple[int, int, int, int, str]] = []

    def add(x: int, y: int, layer: str, name: str) -> None:
        items.append((3 * (x + y) + LAYERS[layer], x + y, x, y, name))

    for y, row in enumerate(board):
        for x, ch in enumerate(row):
            add(x, y, "terrain", terrain_name[_TERRAIN_BY_CHAR[ch]])
            if (x, y) in river:
                add(x, y, "river", f"river_{_mask(river, x, y) or 'NS'}")
            if (x, y) in road:
                add(x, y, "road", f"road_{_mask(road, x, y) or 'NS'}")
            if (x, y) in road and (x, y) in river:
                add(x, y, "bridge", "bridge_square")
    for kind, cells in SAMPLE_HIGHLIGHTS:
        for x, y in cells:
            add(x, y, HIGHLIGHT_LAYER[kind], f"highlight_{kind}")
    return sorted(items, key=lambda item: (item[0], item[1]))


def draw_board(
    images: Mapping[str, Image.Image], *, scale: int, zoom: float, board: tuple[str, ...] = SAMPLE_BOARD
) -> Image.Image:
    """Composite the sample ``board`` and its units at ``zoom`` times the in-game size."""
    rows, cols = len(board), len(board[0])
    tile_w, tile_h, step_y = geo.TILE_W * zoom, geo.TILE_H * zoom, geo.STEP_Y * zoom
    top = round(70 * zoom)  # room for the sprites standing on the back row
    origin_x = (rows - 1) * tile_w / 2 + tile_w / 2
    out = Image.new(
        "RGBA", (round((cols + rows) * tile_w / 2), round((cols + rows) * step_y + tile_h) + top), BACKGROUND
    )
    cache: dict[tuple[str, float], Image.Image] = {}

    def sized(name: str, f: float) -> Image.Image:
        if (name, f) not in cache:
            im = images[name]
            cache[name, f] = im.resize(
                (max(1, round(im.width * f)), max(1, round(im.height * f))), Image.Resampling.LANCZOS
            )
        return cache[name, f]

    def screen(x: int, y: int) -> tuple[float, float]:
        return origin_x + (x - y) * tile_w / 2, top + tile_h / 2 + (x + y) * step_y

    tile_factor = zoom * geo.DISPLAY_SCALE / scale
    for _, _, x, y, name in board_items(board):
        sx, sy = screen(x, y)
        out.alpha_composite(sized(name, tile_factor), (round(sx - tile_w / 2), round(sy - tile_h / 2)))
    for kind, side, x, y, damaged in sorted(SAMPLE_UNITS, key=lambda u: (u[2] + u[3], u[3])):
        sx, sy = screen(x, y)
        off_x, off_y, _ = TWEAK[kind]
        f = display_size(kind) * zoom / (geo.UNIT_PX * scale)
        im = sized(f"{kind}_{side}", f)
        left = round(sx + off_x * zoom - im.width / 2)
        bottom = sy + (geo.UNIT_BOTTOM_FACTOR * geo.TILE_H + off_y) * zoom
        out.alpha_composite(im, (left, round(bottom - im.height)))
        if damaged:
            badge = sized("badge_damaged", f)
            bx, by = badge_point(kind)
            out.alpha_composite(
                badge,
                (
                    round(left + bx * scale * f - badge.width / 2),
                    round(bottom - im.height + by * scale * f - badge.height / 2),
                ),
            )
    return out


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def draw_sheet(
    images: Mapping[str, Image.Image], *, scale: int, backdrop: str = "terrain-01-plain"
) -> Image.Image:
    """The contact sheet: the sample board at 2x, 1x and 25% zoom, then every image, labelled.

    Images are listed in the order of ``images``; overlays and highlights are shown on the
    ``backdrop`` tile, since alone they are only fragments.
    """
    big = draw_board(images, scale=scale, zoom=2.0)
    normal = draw_board(images, scale=scale, zoom=1.0)
    small = draw_board(images, scale=scale, zoom=0.25)
    magnified = small.resize((small.width * 3, small.height * 3), Image.Resampling.NEAREST)
    pad, cols, cell_w, cell_h = 40, 8, 260, 250
    rows = -(-len(images) // cols)
    middle = max(normal.height, magnified.height)
    width = max(big.width, normal.width + small.width + magnified.width + 2 * pad, cols * cell_w) + 2 * pad
    grid_top = pad + 50 + big.height + pad + 40 + middle + pad + 40
    out = Image.new("RGBA", (width, grid_top + rows * cell_h + pad), BACKGROUND)
    draw = ImageDraw.Draw(out)
    draw.text((pad, pad), "Taktik tile set: sample board at 2x in-game size", fill=INK, font=_font(28))
    out.alpha_composite(big, (pad, pad + 50))
    y = pad + 50 + big.height + pad
    x_small = pad + normal.width + pad
    x_magnified = x_small + small.width + pad
    draw.text((pad, y), "in-game size (TILE_W 128)", fill=INK, font=_font(22))
    draw.text((x_small, y), "25% zoom", fill=INK, font=_font(22))
    draw.text((x_magnified, y), "25% zoom, pixels magnified 3x", fill=INK, font=_font(22))
    out.alpha_composite(normal, (pad, y + 40))
    out.alpha_composite(small, (x_small, y + 40))
    out.alpha_composite(magnified, (x_magnified, y + 40))
    draw.text(
        (pad, grid_top - 40),
        "every image (overlays and highlights shown on the plain tile)",
        fill=INK,
        font=_font(22),
    )
    fragments = {"road", "river", "bridge", "highlight"}
    for i, (name, im) in enumerate(images.items()):
        cx, cy = pad + (i % cols) * cell_w, grid_top + (i // cols) * cell_h
        shown = im
        if name.split("_")[0] in fragments:
            shown = images[backdrop].copy()
            shown.alpha_composite(im)
        f = min((cell_w - 20) / shown.width, (cell_h - 50) / shown.height)
        size = (max(1, round(shown.width * f)), max(1, round(shown.height * f)))
        thumb = shown.resize(size, Image.Resampling.LANCZOS)
        draw.rectangle((cx + 4, cy + 4, cx + cell_w - 8, cy + cell_h - 8), outline=(60, 62, 72, 255))
        out.alpha_composite(
            thumb, (cx + (cell_w - thumb.width) // 2, cy + 12 + (cell_h - 50 - thumb.height) // 2)
        )
        draw.text((cx + 12, cy + cell_h - 36), name, fill=INK, font=_font(16))
        draw.text((cx + 12, cy + cell_h - 20), f"{im.width}x{im.height}", fill=DIM, font=_font(12))
    return out
