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
from .props import cylinder, flat_block, gable_house, iso_box, pine_tree, rock, round_tree, sawtooth_shed

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
    """Broken ground: dry, patchy earth strewn with boulders and scrub."""
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
    spots = ((-0.25, -0.2), (0.2, -0.25), (-0.2, 0.22), (0.24, 0.2), (0.0, 0.0), (-0.05, 0.33), (0.33, -0.02))
    for gu, gv in spots:
        x, y = iso(gu + rng.uniform(-0.06, 0.06), gv + rng.uniform(-0.06, 0.06))
        items.append((y, x, rng.uniform(18, 32), "rock"))
    for _ in range(16):
        x, y = iso(*face_point(rng, 0.1))
        items.append((y, x, rng.uniform(7, 13), "scrub"))
    items.sort()
    shadows = Shadows(c)
    for y, x, r, kind in items:
        shadows.ellipse(x + r * 0.2, y - r * 0.05, r * (1.3 if kind == "rock" else 1.2), r * 0.55)
    shadows.cast()
    o = Canvas(c.w, c.h, scale=scale)
    for y, x, r, kind in items:
        if kind == "rock":
            rock(o, rng, x, y, r, palette)
        else:
            for dx, dy in ((-0.6, 0), (0.6, 0.1), (0, -0.5)):
                o.ellipse(x + dx * r, y - r * 0.5 + dy * r, r * 0.75, r * 0.6, palette["scrub"])
            o.ellipse(x - r * 0.3, y - r * 0.9, r * 0.45, r * 0.3, palette["scrub_light"])
    return _finish(c, rng, scale=scale, lip=palette["lip"], objects=o)


def draw_forest(*, scale: int = 1, palette: pal.Palette = pal.FOREST) -> Image.Image:
    """Woodland: a dark floor under a dense mixed stand of round-crowned trees and pines."""
    rng = rng_for("forest")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(50, 200))
    trees: list[tuple[float, float, float, str]] = []
    grid = (-0.32, -0.11, 0.1, 0.31)
    for gu in grid:
        for gv in grid:
            x, y = iso(gu + rng.uniform(-0.05, 0.05), gv + rng.uniform(-0.05, 0.05))
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
    o = Canvas(c.w, c.h, scale=scale)
    for y, x, r, kind in trees:
        (pine_tree if kind == "pine" else round_tree)(o, x, y, r, palette)
    return _finish(c, rng, scale=scale, lip=palette["lip"], objects=o)


def draw_urban(*, scale: int = 1, palette: pal.Palette = pal.URBAN) -> Image.Image:
    """Town: paved lanes between terracotta-roofed houses, a flat-roofed block and a little square."""
    rng = rng_for("urban")
    c = textured_face(rng, scale=scale, dark=palette["dark"], light=palette["light"], contrast=(80, 180))
    lane, w = -0.02, 0.035
    street = with_alpha(palette["street"], 150)
    c.polygon([iso(-0.5, lane - w), iso(0.5, lane - w), iso(0.5, lane + w), iso(-0.5, lane + w)], street)
    c.polygon([iso(lane - w, -0.5), iso(lane + w, -0.5), iso(lane + w, 0.5), iso(lane - w, 0.5)], street)
    # (u0, v0, u1, v1, height, roof): the back quadrant is a square with trees, because nothing
    # may rise above the image's top edge; the tallest block stands in front
    houses = [
        (0.06, -0.44, 0.42, -0.14, 44, "gable_v"),
        (-0.44, 0.06, -0.12, 0.42, 46, "gable_u"),
        (0.08, 0.06, 0.42, 0.42, 86, "flat"),
    ]
    shadows = Shadows(c)
    for _, v0, u1, v1, h, _ in houses:
        shadows.polygon(
            [iso(u1, v0), iso(u1 + h / 300, v0 + h / 900), iso(u1 + h / 300, v1 + h / 900), iso(u1, v1)]
        )
    trees = ((-0.36, -0.22), (-0.2, -0.36), (-0.22, -0.16))
    for tu, tv in trees:
        shadows.ellipse(*iso(tu + 0.03, tv), 18, 8)
    shadows.cast(opacity=0.45, blur=1.5)
    c.polygon([iso(-0.44, -0.44), iso(-0.1, -0.44), iso(-0.1, -0.1), iso(-0.44, -0.1)], palette["light"])
    c.ellipse(*iso(-0.3, -0.3), 22, 11, palette["street"])
    c.ellipse(*iso(-0.3, -0.3), 15, 7.5, pal.WATER["light"])
    o = Canvas(c.w, c.h, scale=scale)
    for tu, tv in trees:
        round_tree(o, *iso(tu, tv), 15, pal.FOREST)
    roofs = ((palette["roof"], palette["roof_light"]), (palette["roof2"], palette["roof2_light"]))
    for i, (u0, v0, u1, v1, h, kind) in enumerate(houses):
        if kind == "flat":
            flat_block(
                o,
                u0,
                v0,
                u1,
                v1,
                h,
                wall=palette["wall2"],
                roof=palette["flat_roof"],
                window=palette["window"],
            )
            continue
        roof, light = roofs[i % 2]
        gable_house(
            o,
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
    return _finish(c, rng, scale=scale, lip=palette["lip"], objects=o)


def draw_industrial(*, scale: int = 1, palette: pal.Palette = pal.INDUSTRIAL) -> Image.Image:
    """Works: a concrete yard, a sawtooth-roofed shed, storage tanks and a banded smokestack."""
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
    shadows.ellipse(*iso(0.36, -0.06), 22, 10)
    shadows.ellipse(*iso(0.34, 0.3), 26, 12)
    shadows.cast(opacity=0.45, blur=2)
    o = Canvas(c.w, c.h, scale=scale)
    sawtooth_shed(o, -0.44, -0.44, 0.1, 0.1, 36, palette=palette, window=pal.URBAN["window"])
    o.line([iso(-0.2, 0.1, 14), iso(-0.2, 0.2, 14)], palette["pipe"], 5)  # pipe from the shed to the tanks
    band = shade(palette["tank_band"], 0.9)
    top = shade(palette["tank"], 1.08)
    cylinder(o, -0.28, 0.3, 0.1, 46, palette["tank"], top=top, bands=((24, 31, band),))
    cylinder(o, -0.05, 0.36, 0.08, 38, palette["tank"], top=top, bands=((20, 26, band),))
    # the smokestack stands in the right quadrant so it can be tall without leaving the image
    white = palette["stack_band"]
    cylinder(
        o,
        0.3,
        -0.08,
        0.034,
        176,
        palette["stack"],
        top=shade(palette["stack"], 0.4),
        bands=((124, 138, white), (152, 166, white)),
    )
    iso_box(o, 0.24, 0.22, 0.4, 0.38, 22, top=palette["roof_light"], side=palette["shed"])
    return _finish(c, rng, scale=scale, lip=palette["lip"], objects=o)


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
    # give the mound volume: a lit crescent to the upper left, a shaded one to the lower right
    x0, y0 = iso(0.0, 0.0)
    rx0, ry0 = 320 * math.sqrt(2) * 0.46, 160 * math.sqrt(2) * 0.46
    footprint = Canvas(c.w, c.h, scale=scale)
    footprint.ellipse(x0, y0, rx0, ry0, (255, 255, 255, 255))
    for colour, shift, opacity in (((255, 248, 214, 255), -1, 0.30), ((34, 40, 18, 255), 1, 0.42)):
        crescent = Canvas(c.w, c.h, scale=scale)
        crescent.ellipse(x0, y0 - 40, rx0, ry0 + 40, colour)
        k = c.k
        dx, dy = 46 * shift, 30 * shift
        crescent.draw.ellipse(
            ((x0 - rx0 - dx) * k, (y0 - 40 - ry0 - 40 - dy) * k, (x0 + rx0 - dx) * k, (y0 + ry0 - dy) * k),
            fill=(0, 0, 0, 0),
        )
        soft = crescent.blurred(14)
        soft.im.putalpha(ImageChops.multiply(soft.im.getchannel("A"), footprint.im.getchannel("A")))
        c.over(soft, opacity)
    grass = Canvas(c.w, c.h, scale=scale)
    grass.set_image(
        tint(
            stretch(fractal_noise(rng, c.im.size, ((9, 6), (40, 25), (120, 74)), (1.0, 0.8, 0.5)), 60, 200),
            (40, 44, 20, 255),
            (255, 250, 220, 255),
        )
    )
    c.over(grass, 0.16)
    o = Canvas(c.w, c.h, scale=scale)
    for _ in range(4):
        u, v = rng.uniform(-0.07, 0.07), rng.uniform(-0.07, 0.07)
        x, y = iso(u, v, 76)
        rock(o, rng, x, y, rng.uniform(7, 11), pal.ROUGH)
    return _finish(c, rng, scale=scale, lip=palette["lip"], objects=o)


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
