"""Things that stand on a tile: trees, boulders, houses, blocks, tanks and stacks.

Each helper draws onto a `Canvas` in base pixels at a ground position, lit like the tiles:
sun from the upper left, south-facing (screen-left) faces at `palette.LIT_WALL`, east-facing
(screen-right) faces at `palette.SHADE_WALL`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from . import palette as pal
from .geometry import RGBA, Canvas, iso, shade


def iso_box(
    c: Canvas,
    u0: float,
    v0: float,
    u1: float,
    v1: float,
    h: float,
    *,
    top: RGBA | None,
    side: RGBA,
    base: float = 0.0,
    lit: float = pal.LIT_WALL,
    shaded: float = pal.SHADE_WALL,
) -> None:
    """A box on the ground from ``(u0, v0)`` to ``(u1, v1)``, ``h`` px tall: two lit walls and a top."""
    c.polygon(
        [iso(u0, v1, base), iso(u1, v1, base), iso(u1, v1, base + h), iso(u0, v1, base + h)], shade(side, lit)
    )
    c.polygon(
        [iso(u1, v0, base), iso(u1, v1, base), iso(u1, v1, base + h), iso(u1, v0, base + h)],
        shade(side, shaded),
    )
    if top is not None:
        c.polygon(
            [iso(u0, v0, base + h), iso(u1, v0, base + h), iso(u1, v1, base + h), iso(u0, v1, base + h)], top
        )


_CYLINDER_LIGHT = (0.86, 0.98, 1.0, 0.95, 0.88, 0.8, 0.72, 0.66, 0.61, 0.58)
"""Brightness of the vertical strips of a cylinder, left to right (sun from the left)."""


def cylinder(
    c: Canvas,
    u: float,
    v: float,
    r: float,
    h: float,
    colour: RGBA,
    *,
    base: float = 0.0,
    top: RGBA | None = None,
    bands: Sequence[tuple[float, float, RGBA]] = (),
) -> None:
    """An upright cylinder of world radius ``r`` standing on ``(u, v)``, shaded in vertical strips.

    ``bands`` are ``(z0, z1, colour)`` rings painted round it between heights ``z0`` and ``z1``.
    """
    x, y = iso(u, v, base)
    rx, ry = 320 * math.sqrt(2) * r, 160 * math.sqrt(2) * r
    n = len(_CYLINDER_LIGHT)

    def front(px: float) -> float:  # how far the front of the base ellipse dips below its centre
        d = max(-1.0, min(1.0, (px - x) / rx))
        return ry * math.sqrt(1 - d * d)

    def strip(z0: float, z1: float, paint: RGBA) -> None:
        for i, f in enumerate(_CYLINDER_LIGHT):
            xa, xb = x - rx + 2 * rx * i / n, x - rx + 2 * rx * (i + 1) / n
            steps = [xa + (xb - xa) * j / 4 for j in range(5)]
            bottom = [(px, y - z0 + front(px)) for px in steps]
            upper = [(px, y - z1 + front(px)) for px in reversed(steps)]
            c.polygon(bottom + upper, shade(paint, f))

    strip(0, h, colour)
    for z0, z1, paint in bands:
        strip(z0, z1, paint)
    c.ellipse(x, y - h, rx, ry, top or shade(colour, 1.06))


def windows(
    c: Canvas,
    *,
    face: str,
    span: tuple[float, float],
    fixed: float,
    floors: tuple[float, ...],
    count: int,
    colour: RGBA,
    size: tuple[float, float] = (0.035, 9.0),
) -> None:
    """Rows of window panes on a south (``"s"``) or east (``"e"``) wall."""
    a, b = span
    for z in floors:
        for i in range(count):
            m = a + (b - a) * (i + 0.5) / count
            w, hgt = size
            if face == "s":
                pts = [
                    iso(m - w / 2, fixed, z),
                    iso(m + w / 2, fixed, z),
                    iso(m + w / 2, fixed, z + hgt),
                    iso(m - w / 2, fixed, z + hgt),
                ]
            else:
                pts = [
                    iso(fixed, m - w / 2, z),
                    iso(fixed, m + w / 2, z),
                    iso(fixed, m + w / 2, z + hgt),
                    iso(fixed, m - w / 2, z + hgt),
                ]
            c.polygon(pts, colour)


def facade_windows(
    c: Canvas, u0: float, v0: float, u1: float, v1: float, *, floors: tuple[float, ...], spacing: float, colour: RGBA
) -> None:
    """Windows on both visible walls of a box, one every ``spacing``; the east wall in shade."""
    count_s = max(1, round((u1 - u0) / spacing))
    count_e = max(1, round((v1 - v0) / spacing))
    windows(c, face="s", span=(u0 + 0.02, u1 - 0.02), fixed=v1, floors=floors, count=count_s, colour=colour)
    windows(c, face="e", span=(v0 + 0.02, v1 - 0.02), fixed=u1, floors=floors, count=count_e, colour=shade(colour, 0.8))


def gable_house(
    c: Canvas,
    u0: float,
    v0: float,
    u1: float,
    v1: float,
    h: float,
    rise: float,
    *,
    wall: RGBA,
    roof: RGBA,
    roof_light: RGBA,
    ridge_u: bool,
    window: RGBA,
) -> None:
    """A house with a pitched roof whose ridge runs east-west (``ridge_u``) or north-south."""
    iso_box(c, u0, v0, u1, v1, h, top=None, side=wall)
    floors = tuple(z for z in (h * 0.18, h * 0.56) if z + 10 < h)
    facade_windows(c, u0, v0, u1, v1, floors=floors, spacing=0.09, colour=window)
    eave = 0.018
    if ridge_u:
        vm = (v0 + v1) / 2
        c.polygon(
            [
                iso(u0 - eave, v0 - eave, h),
                iso(u1 + eave, v0 - eave, h),
                iso(u1 + eave, vm, h + rise),
                iso(u0 - eave, vm, h + rise),
            ],
            shade(roof, 0.85),
        )
        c.polygon([iso(u1, v0, h), iso(u1, v1, h), iso(u1, vm, h + rise)], shade(wall, pal.SHADE_WALL))
        c.polygon(
            [
                iso(u0 - eave, vm, h + rise),
                iso(u1 + eave, vm, h + rise),
                iso(u1 + eave, v1 + eave, h),
                iso(u0 - eave, v1 + eave, h),
            ],
            roof_light,
        )
        c.line([iso(u0 - eave, vm, h + rise), iso(u1 + eave, vm, h + rise)], shade(roof, 0.6), 2.5)
    else:
        um = (u0 + u1) / 2
        c.polygon(
            [
                iso(u0 - eave, v0 - eave, h),
                iso(um, v0 - eave, h + rise),
                iso(um, v1 + eave, h + rise),
                iso(u0 - eave, v1 + eave, h),
            ],
            roof_light,
        )
        c.polygon([iso(u0, v1, h), iso(u1, v1, h), iso(um, v1, h + rise)], shade(wall, pal.LIT_WALL))
        c.polygon(
            [
                iso(um, v0 - eave, h + rise),
                iso(u1 + eave, v0 - eave, h),
                iso(u1 + eave, v1 + eave, h),
                iso(um, v1 + eave, h + rise),
            ],
            shade(roof, 0.72),
        )
        c.line([iso(um, v0 - eave, h + rise), iso(um, v1 + eave, h + rise)], shade(roof, 0.55), 2.5)


def flat_block(
    c: Canvas, u0: float, v0: float, u1: float, v1: float, h: float, *, wall: RGBA, roof: RGBA, window: RGBA
) -> None:
    """A flat-roofed block with a parapet and a small roof hut."""
    iso_box(c, u0, v0, u1, v1, h, top=roof, side=wall)
    floors = tuple(z for z in (h * 0.12, h * 0.4, h * 0.68) if z + 10 < h)
    facade_windows(c, u0, v0, u1, v1, floors=floors, spacing=0.08, colour=window)
    inset = 0.025
    c.polygon(
        [
            iso(u0 + inset, v0 + inset, h),
            iso(u1 - inset, v0 + inset, h),
            iso(u1 - inset, v1 - inset, h),
            iso(u0 + inset, v1 - inset, h),
        ],
        shade(roof, 0.86),
    )
    um, vm = (u0 + u1) / 2, (v0 + v1) / 2
    iso_box(
        c,
        um - 0.04,
        vm - 0.05,
        um + 0.03,
        vm + 0.02,
        10,
        top=shade(roof, 1.12),
        side=shade(roof, 1.05),
        base=h,
    )


def round_tree(c: Canvas, x: float, y: float, r: float, palette: pal.Palette) -> None:
    """A deciduous tree: trunk and a shaded round crown standing on ``(x, y)``."""
    cy = y - r * 1.05
    c.rect(x - r * 0.13, cy, x + r * 0.13, y + 1, palette["trunk"])
    c.ellipse(x + r * 0.04, cy + r * 0.04, r * 1.06, r * 0.96, shade(palette["crown_dark"], 0.62))
    c.ellipse(x, cy, r, r * 0.9, palette["crown_dark"])
    c.ellipse(x - r * 0.12, cy - r * 0.12, r * 0.84, r * 0.74, palette["crown"])
    c.ellipse(x - r * 0.3, cy - r * 0.3, r * 0.5, r * 0.42, palette["crown_light"])
    c.ellipse(x - r * 0.42, cy - r * 0.44, r * 0.2, r * 0.16, palette["crown_glint"])


def pine_tree(c: Canvas, x: float, y: float, r: float, palette: pal.Palette) -> None:
    """A conifer: three stacked shaded tiers standing on ``(x, y)``."""
    h = r * 3.0
    c.rect(x - r * 0.13, y - r * 0.5, x + r * 0.13, y + 1, palette["trunk"])
    for i, f in enumerate((1.0, 0.78, 0.54)):
        bottom = y - r * 0.35 - i * h * 0.24
        top = bottom - h * 0.42
        w = r * f
        c.polygon(
            [(x - w * 1.08, bottom + 2.5), (x, top - 3.5), (x + w * 1.08, bottom + 2.5)],
            shade(palette["pine_dark"], 0.62),
        )
        c.polygon([(x - w, bottom), (x, top), (x + w, bottom)], palette["pine"])
        c.polygon([(x - w, bottom), (x, top), (x - w * 0.08, bottom)], palette["pine_light"])


def rock(c: Canvas, rng: random.Random, x: float, y: float, r: float, palette: pal.Palette) -> None:
    """A boulder with a lit top facet and a dark flank, resting on ``(x, y)``."""
    n = 8
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
    radii = [rng.uniform(0.82, 1.12) for _ in range(n)]
    body = [
        (x + math.cos(a) * r * k, y - r * 0.4 + math.sin(a) * r * 0.62 * k)
        for a, k in zip(angles, radii, strict=True)
    ]
    c.polygon(body, shade(palette["rock_dark"], 0.7))
    inner = [(x + (px - x) * 0.92, y - r * 0.4 + (py - y + r * 0.4) * 0.9) for px, py in body]
    c.polygon(inner, palette["rock_dark"])
    top = [(x - r * 0.14 + (px - x) * 0.74, y - r * 0.66 + (py - y + r * 0.4) * 0.62) for px, py in body]
    c.polygon(top, palette["rock"])
    c.ellipse(x - r * 0.36, y - r * 0.84, r * 0.3, r * 0.16, palette["rock_light"])


def sawtooth_shed(
    c: Canvas,
    u0: float,
    v0: float,
    u1: float,
    v1: float,
    h: float,
    *,
    palette: pal.Palette,
    window: RGBA,
    bays: int = 5,
) -> None:
    """A factory shed whose roof is a row of ``bays`` north-lit sawtooth ridges."""
    iso_box(c, u0, v0, u1, v1, h, top=None, side=palette["shed"])
    windows(
        c,
        face="s",
        span=(u0 + 0.03, u1 - 0.03),
        fixed=v1,
        floors=(10,),
        count=5,
        colour=window,
        size=(0.05, 14),
    )
    rise = 20
    for i in range(bays):
        a = v0 + (v1 - v0) * i / bays
        b = v0 + (v1 - v0) * (i + 1) / bays
        slope = palette["roof"] if i % 2 == 0 else shade(palette["roof"], 0.94)
        c.polygon([iso(u0, a, h), iso(u1, a, h), iso(u1, b, h + rise), iso(u0, b, h + rise)], slope)
        c.polygon(
            [iso(u1, a, h), iso(u1, b, h), iso(u1, b, h + rise)], shade(palette["shed"], pal.SHADE_WALL)
        )
        c.polygon(
            [iso(u0, b, h), iso(u1, b, h), iso(u1, b, h + rise), iso(u0, b, h + rise)],
            shade(palette["roof_light"], 1.05),
        )
        c.line([iso(u0, b, h + 12), iso(u1, b, h + 12)], shade(palette["roof"], 0.7), 1.5)
