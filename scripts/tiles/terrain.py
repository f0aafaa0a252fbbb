"""Base terrain tiles: a textured top face, objects standing on it, and earth side walls.

Every ``draw_<terrain>`` is a pure function of its keyword options: the layout comes from a
`random.Random` seeded with a fixed string, so the same call gives the same pixels.
"""

from __future__ import annotations

import math
import random

from PIL import Image, ImageChops

from . import palette as pal
from .geometry import (
    RGBA,
    TILE_H_PX,
    TILE_W_PX,
    Canvas,
    Point,
    clip,
    face_mask,
    iso,
    mix,
    shade,
    wall_mask,
    with_alpha,
)

SEED = "taktik-tiles-v1"
"""Seed prefix of every random layout; change it to reshuffle all details at once."""


def rng_for(name: str) -> random.Random:
    """The fixed random stream used to lay out image ``name``."""
    return random.Random(f"{SEED}/{name}")


# --- texture helpers ----------------------------------------------------------------------------
def noise(rng: random.Random, grid: tuple[int, int], size: tuple[int, int]) -> Image.Image:
    """Smooth value noise ("L"): a ``grid`` of random bytes resized to ``size``."""
    small = Image.frombytes("L", grid, rng.randbytes(grid[0] * grid[1]))
    return small.resize(size, Image.Resampling.BICUBIC)


def fractal_noise(
    rng: random.Random, size: tuple[int, int], grids: tuple[tuple[int, int], ...], weights: tuple[float, ...]
) -> Image.Image:
    """Octaves of `noise` blended with ``weights`` (the first one is the base)."""
    out = noise(rng, grids[0], size)
    total = weights[0]
    for grid, weight in zip(grids[1:], weights[1:], strict=True):
        total += weight
        out = Image.blend(out, noise(rng, grid, size), weight / total)
    return out


def tint(mask: Image.Image, dark: RGBA, light: RGBA) -> Image.Image:
    """RGBA image running from ``dark`` (mask 0) to ``light`` (mask 255)."""
    return Image.composite(Image.new("RGBA", mask.size, light), Image.new("RGBA", mask.size, dark), mask)


def stretch(mask: Image.Image, lo: int, hi: int) -> Image.Image:
    """Map grey levels ``lo..hi`` linearly onto 0..255 (clamping), for texture contrast."""
    span = max(1, hi - lo)
    return mask.point([max(0, min(255, (i - lo) * 255 // span)) for i in range(256)])


def textured_face(
    rng: random.Random,
    *,
    scale: int,
    dark: RGBA,
    light: RGBA,
    contrast: tuple[int, int] = (70, 190),
    fine: float = 0.35,
) -> Canvas:
    """A canvas filled with a two-colour fractal texture (still unclipped)."""
    c = Canvas(TILE_W_PX, TILE_H_PX, scale=scale)
    size = c.im.size
    n = fractal_noise(rng, size, ((7, 5), (26, 16), (110, 68)), (1.0, 0.7, fine))
    c.set_image(tint(stretch(n, *contrast), dark, light))
    return c


def face_point(rng: random.Random, margin: float = 0.06) -> tuple[float, float]:
    """A random world point ``(u, v)`` on the top face, ``margin`` away from its edges."""
    lim = 0.5 - margin
    return rng.uniform(-lim, lim), rng.uniform(-lim, lim)


def bevel(c: Canvas, *, light_alpha: int = 56, dark_alpha: int = 70, width: float = 5) -> None:
    """Catch the light on the two back edges of the face and darken the two front edges."""
    top, right, bottom, left = iso(-0.5, -0.5), iso(0.5, -0.5), iso(0.5, 0.5), iso(-0.5, 0.5)
    c.line([left, top, right], (255, 250, 230, light_alpha), width)
    c.line([left, bottom, right], (20, 24, 16, dark_alpha), width)


class Shadows:
    """Cast shadows collected on one layer, so overlaps do not darken twice, then softened."""

    def __init__(self, c: Canvas) -> None:
        self.layer = Canvas(c.w, c.h, scale=c.scale, ss=c.ss)
        self.target = c

    def ellipse(self, x: float, y: float, rx: float, ry: float) -> None:
        """An elliptical shadow, shifted to the lower right, away from the sun."""
        self.layer.ellipse(x + rx * 0.3, y + ry * 0.25, rx, ry, with_alpha(pal.SHADOW, 255))

    def polygon(self, pts: list[Point]) -> None:
        self.layer.polygon(pts, with_alpha(pal.SHADOW, 255))

    def cast(self, opacity: float | None = None, blur: float = 2.5) -> None:
        """Blend the collected shadows onto the target canvas."""
        self.target.over(self.layer.blurred(blur), (pal.SHADOW[3] / 255) if opacity is None else opacity)


# --- walls ---------------------------------------------------------------------------------
def wall_point(side: str, along: float, depth: float) -> Point:
    """Point ``along`` 0..320 px from the wall's outer end, ``depth`` px below the top edge."""
    if side == "left":
        return (along, 160 + along / 2 + depth)
    return (640 - along, 160 + along / 2 + depth)


def _wall_band(c: Canvas, side: str, d0: float, d1: float, colour: RGBA) -> None:
    c.polygon(
        [
            wall_point(side, -2, d0),
            wall_point(side, 322, d0),
            wall_point(side, 322, d1),
            wall_point(side, -2, d1),
        ],
        colour,
    )


def draw_walls(
    *, scale: int, rng: random.Random, palette: pal.Palette = pal.SOIL, lip: RGBA | None = None
) -> Image.Image:
    """Both side walls of a land tile: a grassy lip over layered soil and rock, lit from the left."""
    c = Canvas(TILE_W_PX, TILE_H_PX, scale=scale)
    lip_colour = lip or palette["lip"]
    for side, f in (("left", pal.LIT_WALL), ("right", pal.SHADE_WALL)):
        _wall_band(c, side, -4, 80, shade(palette["soil"], f))
        _wall_band(c, side, 30, 44, shade(palette["soil_dark"], f * 1.04))
        _wall_band(c, side, 52, 80, shade(palette["rock"], f))
        for _ in range(26):
            along, depth = rng.uniform(4, 316), rng.uniform(14, 70)
            r = rng.uniform(2.5, 6.5)
            x, y = wall_point(side, along, depth)
            c.ellipse(x, y, r * 1.3, r, shade(palette["pebble"], f * rng.uniform(0.8, 1.1)))
        _wall_band(c, side, -4, 12, shade(lip_colour, f))
        _wall_band(c, side, 12, 16, shade(lip_colour, f * 0.78))
        # darken towards the bottom so the slab reads as thick
        for i in range(6):
            _wall_band(c, side, 50 + i * 5, 80, (10, 8, 6, 16))
    return c.image()


def draw_water_walls(*, scale: int, palette: pal.Palette = pal.WATER) -> Image.Image:
    """Side walls of a water tile: a cross-section of water deepening towards its sandy bed."""
    c = Canvas(TILE_W_PX, TILE_H_PX, scale=scale)
    for side, f in (("left", pal.LIT_WALL + 0.08), ("right", pal.SHADE_WALL + 0.08)):
        steps = 10
        for i in range(steps):
            colour = mix(palette["light"], palette["deep"], i / (steps - 1))
            _wall_band(c, side, -4 + i * 6, 80, shade(colour, f))
        _wall_band(c, side, 62, 80, shade(palette["bed"], f))
        _wall_band(c, side, 60, 63, shade(palette["bed"], f * 0.75))
        _wall_band(c, side, -4, 4, shade(palette["ripple"], f, alpha=200))
    return c.image()


# --- assembly ------------------------------------------------------------------------------
def assemble(
    *, scale: int, face: Image.Image, walls: Image.Image, objects: Image.Image | None = None
) -> Image.Image:
    """Clip ``walls`` and ``face`` to their exact regions and stack walls, face, objects."""
    out = Image.new("RGBA", (TILE_W_PX * scale, TILE_H_PX * scale), (0, 0, 0, 0))
    both = ImageChops.lighter(wall_mask(scale, "left"), wall_mask(scale, "right"))
    out.alpha_composite(clip(walls, both))
    out.alpha_composite(clip(face, face_mask(scale)))
    if objects is not None:
        out.alpha_composite(objects)
    return out


# --- shared object drawing -------------------------------------------------------------------
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
) -> None:
    """An upright cylinder of world radius ``r`` standing on ``(u, v)``, lit from the left."""
    x, y = iso(u, v, base)
    rx, ry = 320 * math.sqrt(2) * r, 160 * math.sqrt(2) * r
    c.ellipse(x, y, rx, ry, shade(colour, pal.SHADE_WALL))
    c.rect(x - rx, y - h, x + rx, y, shade(colour, pal.SHADE_WALL))
    c.ellipse(x - rx * 0.2, y, rx * 0.8, ry * 0.8, shade(colour, 0.8))
    c.rect(x - rx, y - h, x + rx * 0.6, y, shade(colour, 0.8))
    c.rect(x - rx * 0.75, y - h, x - rx * 0.15, y - 1, shade(colour, 0.95))
    c.ellipse(x, y - h, rx, ry, top or colour)


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
    windows(
        c,
        face="s",
        span=(u0 + 0.02, u1 - 0.02),
        fixed=v1,
        floors=floors,
        count=max(1, round((u1 - u0) / 0.09)),
        colour=window,
    )
    windows(
        c,
        face="e",
        span=(v0 + 0.02, v1 - 0.02),
        fixed=u1,
        floors=floors,
        count=max(1, round((v1 - v0) / 0.09)),
        colour=shade(window, 0.8),
    )
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
    windows(
        c,
        face="s",
        span=(u0 + 0.02, u1 - 0.02),
        fixed=v1,
        floors=floors,
        count=max(1, round((u1 - u0) / 0.08)),
        colour=window,
    )
    windows(
        c,
        face="e",
        span=(v0 + 0.02, v1 - 0.02),
        fixed=u1,
        floors=floors,
        count=max(1, round((v1 - v0) / 0.08)),
        colour=shade(window, 0.8),
    )
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


def _finish(
    c: Canvas,
    rng: random.Random,
    *,
    scale: int,
    lip: RGBA,
    objects: Canvas | None = None,
    walls: Image.Image | None = None,
) -> Image.Image:
    bevel(c)
    return assemble(
        scale=scale,
        face=c.image(),
        walls=walls if walls is not None else draw_walls(scale=scale, rng=rng, lip=lip),
        objects=objects.image() if objects is not None else None,
    )


# --- terrain kinds -----------------------------------------------------------------------------
def draw_plain(*, scale: int = 1, palette: pal.Palette = pal.PLAIN) -> Image.Image:
    """Open grassland: soft mottled grass, a few tufts and wild flowers."""
    rng = rng_for("plain")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"])
    for _ in range(150):
        x, y = iso(*face_point(rng))
        h = rng.uniform(5, 10)
        colour = palette["tuft"] if rng.random() < 0.7 else palette["light"]
        c.line([(x - 3, y - h), (x, y), (x + 3, y - h * 0.9)], colour, 1.6)
    for _ in range(22):
        x, y = iso(*face_point(rng, 0.1))
        c.ellipse(x, y, 2.6, 2.0, palette["flower"] if rng.random() < 0.6 else palette["flower2"])
    return _finish(c, rng, scale=scale, lip=palette["lip"])


def draw_ground(*, scale: int = 1, palette: pal.Palette = pal.GROUND) -> Image.Image:
    """Neutral bare earth, for cells with unknown terrain and the board's margins."""
    rng = rng_for("ground")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(80, 180))
    for _ in range(40):
        x, y = iso(*face_point(rng))
        r = rng.uniform(1.5, 4)
        c.ellipse(x, y, r * 1.4, r, with_alpha(palette["pebble"], 180))
    return _finish(c, rng, scale=scale, lip=palette["lip"])


def draw_rough(*, scale: int = 1, palette: pal.Palette = pal.ROUGH) -> Image.Image:
    """Broken ground: dry, patchy earth with boulders and scrub."""
    rng = rng_for("rough")
    c = textured_face(
        rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(60, 200), fine=0.6
    )
    for _ in range(10):  # cracks
        x, y = iso(*face_point(rng, 0.1))
        pts = [(x, y)]
        for _ in range(4):
            x, y = x + rng.uniform(6, 16) * rng.choice((-1, 1)), y + rng.uniform(-5, 5)
            pts.append((x, y))
        c.line(pts, shade(palette["dark"], 0.8), 2.0)
    items: list[tuple[float, float, float, str]] = []
    for gu, gv in (
        (-0.25, -0.2),
        (0.2, -0.25),
        (-0.2, 0.22),
        (0.24, 0.2),
        (0.0, 0.0),
        (-0.05, 0.33),
        (0.33, -0.02),
    ):
        x, y = iso(gu + rng.uniform(-0.06, 0.06), gv + rng.uniform(-0.06, 0.06))
        items.append((y, x, rng.uniform(16, 30), "rock"))
    for _ in range(14):
        x, y = iso(*face_point(rng, 0.1))
        items.append((y, x, rng.uniform(7, 12), "scrub"))
    items.sort()
    shadows = Shadows(c)
    for y, x, r, kind in items:
        shadows.ellipse(x + r * 0.2, y - r * 0.05, r * (1.3 if kind == "rock" else 1.2), r * 0.55)
    shadows.cast()
    for y, x, r, kind in items:
        if kind == "rock":
            rock(c, rng, x, y, r, palette)
        else:
            for dx, dy in ((-0.6, 0), (0.6, 0.1), (0, -0.5)):
                c.ellipse(x + dx * r, y - r * 0.5 + dy * r, r * 0.75, r * 0.6, palette["scrub"])
            c.ellipse(x - r * 0.3, y - r * 0.9, r * 0.45, r * 0.3, palette["scrub_light"])
    return _finish(c, rng, scale=scale, lip=palette["lip"])


def draw_forest(*, scale: int = 1, palette: pal.Palette = pal.FOREST) -> Image.Image:
    """Woodland: a dark floor under a dense mixed stand of round-crowned trees and pines."""
    rng = rng_for("forest")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(50, 200))
    trees: list[tuple[float, float, float, str]] = []
    grid = (-0.32, -0.11, 0.1, 0.31)
    for gu in grid:
        for gv in grid:
            u, v = gu + rng.uniform(-0.05, 0.05), gv + rng.uniform(-0.05, 0.05)
            x, y = iso(u, v)
            r = rng.uniform(27, 35)
            kind = "pine" if rng.random() < 0.3 else "tree"
            height = r * (3.2 if kind == "pine" else 2.1)
            r *= min(1.0, max(0.45, (y - 4) / height))  # nothing may rise above the image's top edge
            trees.append((y, x, r, kind))
    trees.sort()
    shadows = Shadows(c)
    for y, x, r, _ in trees:
        shadows.ellipse(x + r * 0.5, y, r * 1.25, r * 0.55)
    shadows.cast(opacity=0.5)
    for y, x, r, kind in trees:
        (pine_tree if kind == "pine" else round_tree)(c, x, y, r, palette)
    return _finish(c, rng, scale=scale, lip=palette["lip"])


def draw_urban(*, scale: int = 1, palette: pal.Palette = pal.URBAN) -> Image.Image:
    """Town: paved lanes between terracotta-roofed houses and a flat-roofed block."""
    rng = rng_for("urban")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(80, 180))
    for a in (-0.02,):  # lanes crossing the block
        c.polygon(
            [iso(-0.5, a - 0.035), iso(0.5, a - 0.035), iso(0.5, a + 0.035), iso(-0.5, a + 0.035)],
            with_alpha(palette["street"], 150),
        )
        c.polygon(
            [iso(a - 0.035, -0.5), iso(a + 0.035, -0.5), iso(a + 0.035, 0.5), iso(a - 0.035, 0.5)],
            with_alpha(palette["street"], 150),
        )
    shadows = Shadows(c)
    # (u0, v0, u1, v1, height, kind): low in the back quadrant, tall in front (nothing may leave the image)
    houses = [
        (-0.44, -0.44, -0.1, -0.12, 18, "gable_u"),
        (0.06, -0.44, 0.42, -0.14, 44, "gable_v"),
        (-0.44, 0.06, -0.12, 0.42, 46, "gable_u"),
        (0.08, 0.06, 0.42, 0.42, 86, "flat"),
    ]
    for _, v0, u1, v1, h, _ in houses:
        shadows.polygon(
            [iso(u1, v0), iso(u1 + h / 300, v0 + h / 900), iso(u1 + h / 300, v1 + h / 900), iso(u1, v1)]
        )
    shadows.cast(opacity=0.45, blur=1.5)
    for tu, tv in ((-0.05, -0.3), (-0.3, -0.02)):
        x, y = iso(tu, tv)
        round_tree(c, x, y, 14, pal.FOREST)
    for u0, v0, u1, v1, h, kind in houses:
        if kind == "flat":
            flat_block(
                c,
                u0,
                v0,
                u1,
                v1,
                h,
                wall=palette["wall2"],
                roof=palette["flat_roof"],
                window=palette["window"],
            )
        else:
            roof, light = (
                (palette["roof"], palette["roof_light"])
                if rng.random() < 0.75
                else (palette["roof2"], palette["roof2_light"])
            )
            gable_house(
                c,
                u0,
                v0,
                u1,
                v1,
                h,
                min(40.0, 22 + h * 0.3),
                wall=palette["wall"],
                roof=roof,
                roof_light=light,
                ridge_u=kind == "gable_u",
                window=palette["window"],
            )
    return _finish(c, rng, scale=scale, lip=palette["lip"])


def draw_industrial(*, scale: int = 1, palette: pal.Palette = pal.INDUSTRIAL) -> Image.Image:
    """Works: concrete yard, a sawtooth-roofed shed, storage tanks and a banded smokestack."""
    rng = rng_for("industrial")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(70, 190))
    for t in (-0.25, 0.0, 0.25):  # expansion joints of the concrete slabs
        c.line([iso(t, -0.5), iso(t, 0.5)], with_alpha(palette["slab"], 140), 1.6)
        c.line([iso(-0.5, t), iso(0.5, t)], with_alpha(palette["slab"], 140), 1.6)
    for _ in range(6):
        x, y = iso(*face_point(rng, 0.1))
        c.ellipse(x, y, rng.uniform(10, 22), rng.uniform(5, 9), with_alpha(palette["rust"], 90))
    shadows = Shadows(c)
    shadows.polygon([iso(0.1, -0.45), iso(0.3, -0.42), iso(0.3, 0.12), iso(0.1, 0.12)])
    shadows.ellipse(*iso(-0.2, 0.28), 50, 24)
    shadows.ellipse(*iso(0.3, 0.3), 26, 12)
    shadows.cast(opacity=0.45, blur=2)
    # the shed: walls, then a sawtooth roof of five bays facing south
    u0, v0, u1, v1, h = -0.44, -0.44, 0.1, 0.1, 36
    iso_box(c, u0, v0, u1, v1, h, top=None, side=palette["shed"])
    windows(
        c,
        face="s",
        span=(u0 + 0.03, u1 - 0.03),
        fixed=v1,
        floors=(10,),
        count=5,
        colour=pal.URBAN["window"],
        size=(0.05, 14),
    )
    bays = 5
    for i in range(bays):
        a = v0 + (v1 - v0) * i / bays
        b = v0 + (v1 - v0) * (i + 1) / bays
        c.polygon(
            [iso(u0, a, h), iso(u1, a, h), iso(u1, b, h + 20), iso(u0, b, h + 20)],
            palette["roof"] if i % 2 == 0 else shade(palette["roof"], 0.94),
        )
        c.polygon([iso(u1, a, h), iso(u1, b, h), iso(u1, b, h + 20)], shade(palette["shed"], pal.SHADE_WALL))
        c.polygon(
            [iso(u0, b, h), iso(u1, b, h), iso(u1, b, h + 20), iso(u0, b, h + 20)],
            shade(palette["roof_light"], 1.05),
        )
        c.line([iso(u0, b, h + 12), iso(u1, b, h + 12)], shade(palette["roof"], 0.7), 1.5)
    # pipe from the shed to the tanks
    c.line([iso(-0.2, 0.1, 14), iso(-0.2, 0.2, 14)], palette["pipe"], 5)
    cylinder(c, -0.28, 0.3, 0.1, 46, palette["tank"], top=shade(palette["tank"], 1.08))
    c.rect(*_band(-0.28, 0.3, 0.1, 24, 30), shade(palette["tank_band"], 0.9))
    cylinder(c, -0.05, 0.36, 0.08, 38, palette["tank"], top=shade(palette["tank"], 1.08))
    # the smokestack stands in the right quadrant so it can be tall without leaving the image
    x, y = iso(0.3, -0.08)
    for band in range(5):
        colour = palette["stack"] if band % 2 == 0 else palette["stack_band"]
        cylinder(c, 0.3, -0.08, 0.036 - band * 0.002, 30, colour, base=band * 30)
    c.ellipse(x, y - 150, 14, 7, shade(palette["stack"], 0.45))
    small = iso_box  # a small control hut in front of the stack
    small(c, 0.24, 0.22, 0.4, 0.38, 22, top=palette["roof_light"], side=palette["shed"])
    return _finish(c, rng, scale=scale, lip=palette["lip"])


def _band(u: float, v: float, r: float, z0: float, z1: float) -> tuple[float, float, float, float]:
    x, y = iso(u, v)
    rx = 320 * math.sqrt(2) * r
    return (x - rx, y - z1, x + rx, y - z0)


def draw_hill(*, scale: int = 1, palette: pal.Palette = pal.HILL) -> Image.Image:
    """A hill: a khaki mound rising from the grass, terraced by contours and lit from the upper left."""
    rng = rng_for("hill")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(70, 190))
    shadows = Shadows(c)
    shadows.ellipse(*iso(0.06, 0.06), 0.47 * 452, 0.47 * 226)
    shadows.cast(opacity=0.5, blur=10)
    levels = 5
    for i in range(levels):
        t = i / (levels - 1)
        r = 0.46 - i * 0.085
        h = 80 * (1 - (1 - t) ** 2)
        x, y = iso(0.0, 0.0, h)
        rx, ry = 320 * math.sqrt(2) * r, 160 * math.sqrt(2) * r
        colour = mix(palette["ring_low"], palette["ring_high"], t)
        c.ellipse(x + 7, y + 5, rx, ry, shade(colour, 0.66))
        c.ellipse(x - 5, y - 3, rx, ry, shade(colour, 1.14))
        c.ellipse(x, y, rx - 4, ry - 2, colour, outline=with_alpha(palette["contour"], 170), width=2.5)
    grass = Canvas(c.w, c.h, scale=scale)
    grass.set_image(
        tint(
            stretch(fractal_noise(rng, c.im.size, ((9, 6), (40, 25), (120, 74)), (1.0, 0.8, 0.5)), 60, 200),
            (40, 44, 20, 255),
            (255, 250, 220, 255),
        )
    )
    c.over(grass, 0.16)
    for _ in range(4):
        u, v = rng.uniform(-0.07, 0.07), rng.uniform(-0.07, 0.07)
        x, y = iso(u, v, 76)
        rock(c, rng, x, y, rng.uniform(7, 11), pal.ROUGH)
    return _finish(c, rng, scale=scale, lip=palette["lip"])


def draw_water(*, scale: int = 1, palette: pal.Palette = pal.WATER) -> Image.Image:
    """Open water: deep blue with light ripples and glints."""
    rng = rng_for("water")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(60, 200))
    for _ in range(16):
        x, y = iso(*face_point(rng, 0.1))
        w = rng.uniform(22, 46)
        c.arc(x, y, w, w * 0.3, 200, 340, with_alpha(palette["ripple"], 170), 3)
        c.arc(x, y + 5, w, w * 0.3, 210, 330, with_alpha(palette["ripple_dark"], 140), 2.5)
    for _ in range(10):
        x, y = iso(*face_point(rng, 0.12))
        c.line([(x - 5, y), (x + 5, y)], with_alpha(palette["glint"], 220), 2.2)
    bevel(c, light_alpha=40, dark_alpha=40)
    return assemble(scale=scale, face=c.image(), walls=draw_water_walls(scale=scale, palette=palette))
