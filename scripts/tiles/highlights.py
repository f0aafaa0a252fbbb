"""Highlight tiles: translucent marks that fill only a cell's top face.

The four §12 highlights keep their §12 colour; that colour at its stated alpha draws the
defining feature (border, bands, quadrants, halves), and the open interior uses the same
colour more lightly so the terrain underneath stays readable.
"""

from __future__ import annotations

from PIL import Image

from . import palette as pal
from .geometry import RGBA, TILE_H_PX, TILE_W_PX, Canvas, Point, clip, face_mask, iso, shade, with_alpha

HIGHLIGHT_KINDS = ("move", "move_adv", "attack", "target_confirm", "hover", "selected")


def _square(inset: float, h: float = 0.0) -> list[Point]:
    """The top face shrunk by ``inset`` world units on every side."""
    a = 0.5 - inset
    return [iso(-a, -a, h), iso(a, -a, h), iso(a, a, h), iso(-a, a, h)]


def _ring(c: Canvas, outer: float, inner: float, colour: RGBA) -> None:
    """A diamond-shaped band between two insets, replacing the pixels under it."""
    o, i = c.pts(_square(outer)), c.pts(_square(inner))
    c.draw.polygon([*o, o[0], i[0], *i[::-1]], fill=colour)


def _fill(c: Canvas, pts: list[Point], colour: RGBA) -> None:
    c.draw.polygon(c.pts(pts), fill=colour)


def draw_highlight(*, kind: str, scale: int = 1, colours: pal.Palette = pal.HIGHLIGHT) -> Image.Image:
    """The highlight tile ``kind`` (one of `HIGHLIGHT_KINDS`), clipped to the top face."""
    if kind not in HIGHLIGHT_KINDS:
        raise ValueError(f"unknown highlight {kind!r}; expected one of {', '.join(HIGHLIGHT_KINDS)}")
    colour = colours[kind]
    soft = with_alpha(colour, colour[3] // 3)
    c = Canvas(TILE_W_PX, TILE_H_PX, scale=scale)
    if kind == "move":
        _fill(c, _square(0.0), soft)
        _ring(c, 0.045, 0.09, colour)
    elif kind == "move_adv":
        _fill(c, _square(0.0), soft)
        for k in range(3):
            _ring(c, 0.03 + k * 0.055, 0.05 + k * 0.055, colour)
    elif kind == "attack":
        centre = iso(0, 0)
        mids = [iso(0, -0.5), iso(0.5, 0), iso(0, 0.5), iso(-0.5, 0)]
        corners = [iso(0.5, -0.5), iso(0.5, 0.5), iso(-0.5, 0.5), iso(-0.5, -0.5)]
        tints = (1.18, 1.0, 0.82, 1.0)
        for i, f in enumerate(tints):
            quad = [centre, mids[i], corners[i], mids[(i + 1) % 4]]
            _fill(c, quad, shade(colour, f, alpha=colour[3] if i % 2 == 0 else colour[3] * 3 // 4))
        _ring(c, 0.0, 0.035, shade(colour, 0.7, alpha=230))
    elif kind == "target_confirm":
        top, right, bottom, left = iso(-0.5, -0.5), iso(0.5, -0.5), iso(0.5, 0.5), iso(-0.5, 0.5)
        _fill(c, [top, bottom, left], colour)
        _fill(c, [top, right, bottom], shade(colour, 0.86, alpha=colour[3] * 3 // 5))
        _ring(c, 0.03, 0.06, shade(colour, 1.2, alpha=230))
    elif kind == "hover":
        _fill(c, _square(0.0), with_alpha(colour, 56))
        _ring(c, 0.02, 0.06, colour)
    else:  # selected: a bright double frame with corner brackets
        _fill(c, _square(0.0), with_alpha(colour, 60))
        _ring(c, 0.02, 0.07, colour)
        _ring(c, 0.1, 0.12, with_alpha(colour, 170))
    return clip(c.image(), face_mask(scale))
