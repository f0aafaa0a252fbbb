"""Tile geometry (rules §12), the isometric projection and a supersampled drawing canvas.

All drawing code works in *base pixels*: the coordinates of a 1x image (a tile is 640 x 396,
a unit sprite 700 x 700). A `Canvas` multiplies them by ``scale`` (1 for the standard set,
2 for ``@2x``) and by `SUPERSAMPLE`, draws, and `Canvas.image` box-filters back down, so
the same drawing code gives every resolution.

A tile's top face is the diamond with corners (320, 0), (640, 160), (320, 320), (0, 160);
its side walls hang `WALL` pixels below the two lower edges. In world units a cell is the
square ``u, v in [-0.5, 0.5]`` (``u`` grows east, ``v`` south) projected by `iso`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter

Point = tuple[float, float]
RGBA = tuple[int, int, int, int]

# --- rules §12 facts --------------------------------------------------------------------------
TILE_W_PX = 640
"""Width of a tile image (and of its top-face diamond)."""
TILE_H_PX = 396
"""Height of a tile image: the 320 px top face plus the side walls."""
FACE_H_PX = 320
"""Height of the top-face diamond."""
WALL = TILE_H_PX - FACE_H_PX
"""Side-wall thickness (76 px, §12's "≈ 0.12 x 640")."""
CENTRE: Point = (320.0, 160.0)
"""Centre of the top face in a tile image."""
SOURCE_CANVAS = 1024
"""§12 draws on a 1024 x 1024 canvas with the diamond centred at `SOURCE_CENTRE` ..."""
SOURCE_CENTRE = (512, 430)
"""... and crops 640 x 396 from the diamond's top, which puts the diamond where `CENTRE` says."""

DISPLAY_SCALE = 0.2
TILE_W = 128
TILE_H = 79.2
ROW_OVERLAP = 7.5
STEP_Y = 32.1
UNIT_PX = 700
"""Unit sprites are square, 700 x 700."""
UNIT_WIDTH_FACTOR = 0.52
UNIT_BOTTOM_FACTOR = 0.3
BADGE_PX = 220

SUPERSAMPLE = 2
"""Every image is drawn this many times larger, then box-filtered down (anti-aliasing)."""

# Edge midpoints of the top face, by grid direction; N is up-right on screen (§12).
EDGE_MID: dict[str, Point] = {
    "N": (480.0, 80.0),
    "E": (480.0, 240.0),
    "S": (160.0, 240.0),
    "W": (160.0, 80.0),
}
# World (u, v) unit step of each grid direction.
DIR_UV: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def iso(u: float, v: float, h: float = 0.0) -> Point:
    """Base-pixel position of world point ``(u, v)`` of a cell, raised ``h`` pixels."""
    return (CENTRE[0] + (u - v) * 320.0, CENTRE[1] + (u + v) * 160.0 - h)


def lerp(a: float, b: float, t: float) -> float:
    """Linear interpolation from ``a`` to ``b``."""
    return a + (b - a) * t


def mix(c1: Sequence[int], c2: Sequence[int], t: float) -> RGBA:
    """Colour ``t`` of the way from ``c1`` to ``c2`` (alpha 255 when neither has one)."""
    a1 = c1[3] if len(c1) > 3 else 255
    a2 = c2[3] if len(c2) > 3 else 255
    return (
        round(lerp(c1[0], c2[0], t)),
        round(lerp(c1[1], c2[1], t)),
        round(lerp(c1[2], c2[2], t)),
        round(lerp(a1, a2, t)),
    )


def shade(c: Sequence[int], f: float, alpha: int | None = None) -> RGBA:
    """Colour ``c`` with its RGB multiplied by ``f`` (clamped)."""
    a = alpha if alpha is not None else (c[3] if len(c) > 3 else 255)
    return (min(255, round(c[0] * f)), min(255, round(c[1] * f)), min(255, round(c[2] * f)), a)


def with_alpha(c: Sequence[int], alpha: int) -> RGBA:
    """Colour ``c`` with alpha ``alpha``."""
    return (c[0], c[1], c[2], alpha)


class Canvas:
    """A transparent RGBA layer drawn in base pixels, ``scale * SUPERSAMPLE`` times larger.

    Shapes with an opaque fill replace pixels; translucent ones are blended over what is
    already there (Pillow's ``ImageDraw`` alone would overwrite the alpha channel).
    """

    def __init__(self, w: int, h: int, *, scale: int, ss: int = SUPERSAMPLE) -> None:
        self.w, self.h, self.scale, self.ss = w, h, scale, ss
        self.k = scale * ss
        self.im = Image.new("RGBA", (w * self.k, h * self.k), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.im)

    def set_image(self, im: Image.Image) -> None:
        """Replace the layer's pixels with ``im`` (same supersampled size)."""
        self.im = im
        self.draw = ImageDraw.Draw(im)

    def pts(self, pts: Iterable[Point]) -> list[Point]:
        return [(x * self.k, y * self.k) for x, y in pts]

    def _blend(
        self,
        box: tuple[float, float, float, float],
        paint: Callable[[ImageDraw.ImageDraw, float, float], None],
    ) -> None:
        x0, y0 = max(0, math.floor(box[0]) - 2), max(0, math.floor(box[1]) - 2)
        x1, y1 = min(self.im.width, math.ceil(box[2]) + 2), min(self.im.height, math.ceil(box[3]) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        scratch = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
        paint(ImageDraw.Draw(scratch), -x0, -y0)
        self.im.alpha_composite(scratch, (x0, y0))

    def polygon(
        self, pts: Sequence[Point], fill: RGBA | None, outline: RGBA | None = None, width: float = 0
    ) -> None:
        """Fill (and optionally outline) a polygon given in base pixels."""
        if fill is not None:
            spts = self.pts(pts)
            if fill[3] == 255:
                self.draw.polygon(spts, fill=fill)
            else:
                xs, ys = [p[0] for p in spts], [p[1] for p in spts]
                self._blend(
                    (min(xs), min(ys), max(xs), max(ys)),
                    lambda d, dx, dy: d.polygon([(x + dx, y + dy) for x, y in spts], fill=fill),
                )
        if outline is not None and width > 0:
            self.line([*pts, pts[0], pts[1]], outline, width)

    def line(self, pts: Sequence[Point], fill: RGBA, width: float, joint: bool = True) -> None:
        """Stroke a polyline ``width`` base pixels wide."""
        w = max(1, round(width * self.k))
        spts = self.pts(pts)
        j = "curve" if joint else None
        if fill[3] == 255:
            self.draw.line(spts, fill=fill, width=w, joint=j)
            return
        xs, ys = [p[0] for p in spts], [p[1] for p in spts]
        self._blend(
            (min(xs) - w, min(ys) - w, max(xs) + w, max(ys) + w),
            lambda d, dx, dy: d.line([(x + dx, y + dy) for x, y in spts], fill=fill, width=w, joint=j),
        )

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        fill: RGBA | None,
        outline: RGBA | None = None,
        width: float = 0,
    ) -> None:
        """An ellipse centred at ``(cx, cy)`` with radii ``rx``, ``ry`` (base pixels)."""
        k = self.k
        box = ((cx - rx) * k, (cy - ry) * k, (cx + rx) * k, (cy + ry) * k)
        w = max(1, round(width * k)) if outline is not None else 0
        opaque = (fill is None or fill[3] == 255) and (outline is None or outline[3] == 255)
        if opaque:
            self.draw.ellipse(box, fill=fill, outline=outline, width=w)
            return
        self._blend(
            box,
            lambda d, dx, dy: d.ellipse(
                (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy), fill=fill, outline=outline, width=w
            ),
        )

    def arc(
        self, cx: float, cy: float, rx: float, ry: float, start: float, end: float, fill: RGBA, width: float
    ) -> None:
        """Part of an ellipse outline, from angle ``start`` to ``end`` (degrees, clockwise)."""
        k = self.k
        box = ((cx - rx) * k, (cy - ry) * k, (cx + rx) * k, (cy + ry) * k)
        w = max(1, round(width * k))
        self._blend(
            box,
            lambda d, dx, dy: d.arc(
                (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy), start, end, fill=fill, width=w
            ),
        )

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: RGBA) -> None:
        """An axis-aligned rectangle from ``(x0, y0)`` to ``(x1, y1)``."""
        self.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], fill)

    def over(self, other: Canvas, opacity: float = 1.0) -> None:
        """Composite another canvas of the same size over this one, at ``opacity``."""
        layer = other.im
        if opacity < 1.0:
            r, g, b, a = layer.split()
            layer = Image.merge("RGBA", (r, g, b, a.point(lambda i: round(i * opacity))))
        self.im.alpha_composite(layer)

    def blurred(self, radius: float) -> Canvas:
        """A copy of this canvas blurred by ``radius`` base pixels (soft shadows, glows)."""
        out = Canvas(self.w, self.h, scale=self.scale, ss=self.ss)
        out.set_image(blur_region(self.im, radius * self.k))
        return out

    def image(self) -> Image.Image:
        """The finished layer at ``scale``: box-filtered down by the supersampling factor."""
        return self.im.reduce(self.ss) if self.ss > 1 else self.im.copy()


def blur_region(im: Image.Image, radius: float) -> Image.Image:
    """Gaussian blur of ``im``, computed only around its non-transparent (non-zero) content."""
    box = im.getbbox()
    if box is None:
        return im.copy()
    m = math.ceil(3 * radius) + 2
    x0, y0 = max(0, box[0] - m), max(0, box[1] - m)
    x1, y1 = min(im.width, box[2] + m), min(im.height, box[3] + m)
    out = Image.new(im.mode, im.size, 0)
    out.paste(im.crop((x0, y0, x1, y1)).filter(ImageFilter.GaussianBlur(radius)), (x0, y0))
    return out


# --- exact region masks (binary, sampled at pixel centres) --------------------------------------
def _rows_mask(w: int, h: int, spans: Iterable[tuple[int, int, int]]) -> Image.Image:
    rows = bytearray(w * h)
    for y, x0, x1 in spans:
        x0, x1 = max(0, x0), min(w, x1)
        if x1 > x0:
            rows[y * w + x0 : y * w + x1] = b"\xff" * (x1 - x0)
    return Image.frombytes("L", (w, h), bytes(rows))


@functools.cache
def _face_mask(scale: int) -> Image.Image:
    w, h = TILE_W_PX * scale, TILE_H_PX * scale
    half_w, half_h = 320 * scale, 160 * scale
    spans = []
    for j in range(h):
        # pixel centre (i + .5, j + .5) is inside when |2i+1-2hw| + 2|2j+1-2hh| < 2hw (never equal)
        r = 2 * half_w - 2 * abs(2 * j + 1 - 2 * half_h)
        if r <= 0:
            continue
        # |2i + 1 - 2hw| < r  <=>  (2hw - r - 1)/2 < i < (2hw + r - 1)/2
        lo = (2 * half_w - r - 1) // 2 + 1
        hi = -((-(2 * half_w + r - 1)) // 2)  # ceil
        spans.append((j, lo, hi))
    return _rows_mask(w, h, spans)


@functools.cache
def _wall_mask(scale: int, side: str) -> Image.Image:
    w, h = TILE_W_PX * scale, TILE_H_PX * scale
    half_w, half_h, wall = 320 * scale, 160 * scale, WALL * scale
    spans = []
    for j in range(h):
        # left wall: pixel centre (i + .5, j + .5) with hh + x/2 < y < hh + wall + x/2 and x < hw,
        # i.e. 2j + 1 - 2hh - 2wall <= i < 2j + 1 - 2hh (the bounds are never hit exactly)
        x0 = max(0, 2 * j + 1 - 2 * half_h - 2 * wall)
        x1 = min(half_w, 2 * j + 1 - 2 * half_h)
        if side == "right":  # mirror image: pixel i on the left is pixel w - 1 - i on the right
            x0, x1 = w - x1, w - x0
        spans.append((j, x0, x1))
    return _rows_mask(w, h, spans)


def face_mask(scale: int) -> Image.Image:
    """Binary mask ("L") of the top face of a tile image at ``scale``: a fresh copy."""
    return _face_mask(scale).copy()


def wall_mask(scale: int, side: str) -> Image.Image:
    """Binary mask of the ``"left"`` (south-facing) or ``"right"`` (east-facing) wall."""
    return _wall_mask(scale, side).copy()


def clip(im: Image.Image, mask: Image.Image) -> Image.Image:
    """``im`` with its alpha multiplied by a binary ``mask``."""
    r, g, b, a = im.split()
    return Image.merge("RGBA", (r, g, b, ImageChops.multiply(a, mask)))
