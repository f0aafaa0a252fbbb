"""Pack the whole 1x tile set into one atlas image, so the browser fetches one file, not fifty.

Shelf packing in a fixed order (tallest first, then widest, then by name) into rows of a
fixed width; every image keeps its exact pixels (pasted, never blended or resampled), with a
transparent gutter around it, so the client, which draws each image from its rectangle of the
atlas (keeping the browser's mipmaps of the one decoded image), never picks up a
neighbour's pixels when it draws an image small. The same images always give the same atlas, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

ATLAS_NAME = "atlas"
ATLAS_WIDTH = 3900  # six tiles or five unit sprites per row; well under every browser's image limit
GUTTER = 8  # transparent pixels between images: wider than the blur of the mip levels the board uses


def layout(sizes: Mapping[str, tuple[int, int]], width: int = ATLAS_WIDTH) -> tuple[dict[str, list[int]], int]:
    """Where each image goes, as ``[x, y, w, h]`` by name, and the atlas height.

    Images with even sides land on even coordinates (the width and the gutter are even), so the
    atlas halves cleanly (`halve`).
    """
    order = sorted(sizes, key=lambda n: (-sizes[n][1], -sizes[n][0], n))
    rects: dict[str, list[int]] = {}
    x = y = row = 0
    for name in order:
        w, h = sizes[name]
        if w > width:
            raise ValueError(f"{name} is {w} px wide, wider than the atlas ({width} px)")
        if x + w > width:
            x, y, row = 0, y + row + GUTTER, 0
        rects[name] = [x, y, w, h]
        x += w + GUTTER
        row = max(row, h)
    return rects, y + row


def pack(images: Mapping[str, Image.Image]) -> tuple[Image.Image, dict[str, list[int]]]:
    """The atlas image and each image's rectangle in it."""
    rects, height = layout({name: im.size for name, im in images.items()})
    atlas = Image.new("RGBA", (ATLAS_WIDTH, height), (0, 0, 0, 0))
    for name in sorted(rects):
        x, y, _, _ = rects[name]
        atlas.paste(images[name].convert("RGBA"), (x, y))
    return atlas, rects


def halve(atlas: Image.Image) -> Image.Image:
    """The atlas at half its size, each pixel the mean of a 2 x 2 block, weighted by alpha.

    Every rectangle of the layout starts and ends on even pixels, so no block straddles two
    images: the half atlas holds each image at half size in the rectangle's halves.
    """
    if atlas.width % 2 or atlas.height % 2:
        raise ValueError(f"the atlas is {atlas.width} x {atlas.height} px: it halves only with even sides")
    return atlas.convert("RGBa").reduce(2).convert("RGBA")
