"""Unit sprites (700 x 700) and the damaged badge.

Each sprite stands on its *ground point*: the pixel that the §12 unit placement rule puts
on the centre of the cell's top face (it differs per type because the placement offsets
and sizes do). Under the figure lie a soft shadow and a ring in the side's colour, and a
dark outline keeps the figure readable on every terrain.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import Image

from . import palette as pal
from .geometry import (
    BADGE_PX,
    RGBA,
    TILE_H,
    TILE_W,
    UNIT_BOTTOM_FACTOR,
    UNIT_PX,
    UNIT_WIDTH_FACTOR,
    Canvas,
    Point,
    blur_region,
    shade,
    with_alpha,
)

UNIT_KINDS = ("light", "mechanized", "special")
SIDES = {"a": "ATTACKER", "b": "DEFENDER"}
TYPE_SCALE = {"light": 0.95, "mechanized": 1.05, "special": 1.0}
"""§12 ``type_scale`` per unit kind."""
TWEAK = {"light": (0.0, 8.0, 0.5), "mechanized": (5.0, 14.0, 0.5), "special": (0.0, 8.0, 0.5)}
"""§12 ``(offX, offY, scale)`` tweaks per unit kind."""
OUTLINE_PX = 13
"""Outline thickness around the figure, in sprite pixels."""


def display_size(kind: str) -> float:
    """On-screen width (= height) of a sprite: ``0.52 * TILE_W * type_scale * (1 + tweak_scale)``."""
    return UNIT_WIDTH_FACTOR * TILE_W * TYPE_SCALE[kind] * (1 + TWEAK[kind][2])


def ground_point(kind: str) -> Point:
    """Sprite pixel that the §12 placement puts on the centre of the cell's top face.

    The sprite's bottom centre goes to ``(sx + offX, sy + 0.3 TILE_H + offY)``; the face centre
    is at ``sy - 7.6`` (a tile image is centred on ``(sx, sy)`` and its face centre lies 160 of
    396 px down, i.e. ``TILE_H / 2 - 32`` above the image centre). So the ground point is
    ``0.3 TILE_H + offY + 7.6`` display pixels above the sprite's bottom and ``offX`` left of
    its centre, converted to sprite pixels by the sprite's display size.
    """
    size = display_size(kind)
    off_x, off_y, _ = TWEAK[kind]
    face_centre_above_anchor = TILE_H / 2 - 160 * TILE_W / 640  # 39.6 - 32 = 7.6
    drop = UNIT_BOTTOM_FACTOR * TILE_H + off_y + face_centre_above_anchor
    per_px = UNIT_PX / size
    return (round(UNIT_PX / 2 - off_x * per_px, 1), round(UNIT_PX - drop * per_px, 1))


def badge_point(kind: str) -> Point:
    """Where the damaged badge's centre goes on a sprite: over the figure's right shoulder."""
    gx, gy = ground_point(kind)
    return {
        "light": (gx + 120, gy - 300),
        "mechanized": (gx + 190, gy - 250),
        "special": (gx + 130, gy - 330),
    }[kind]


# --- helpers -----------------------------------------------------------------------------------
def _outlined(figure: Canvas, thickness: float, colour: RGBA) -> Canvas:
    """The figure on a dark silhouette grown by ``thickness`` px (blur, then threshold)."""
    alpha = figure.im.getchannel("A")
    grown = blur_region(alpha, thickness * figure.k * 0.5).point(
        lambda i: 255 if i > 12 else round(i * 255 / 12)
    )
    out = Canvas(figure.w, figure.h, scale=figure.scale, ss=figure.ss)
    out.set_image(Image.new("RGBA", figure.im.size, colour))
    out.im.putalpha(grown)
    out.im.alpha_composite(figure.im)
    return out


def _base(c: Canvas, gx: float, gy: float, side: pal.Palette, *, rx: float = 175, ry: float = 88) -> None:
    """Soft shadow and the side-coloured ring the unit stands on."""
    sh = Canvas(c.w, c.h, scale=c.scale, ss=c.ss)
    sh.ellipse(gx + 40, gy + 10, rx * 0.95, ry * 0.8, (10, 12, 8, 255))
    c.over(sh.blurred(18), 0.45)
    c.ellipse(gx, gy, rx, ry, with_alpha(side["main"], 84))
    ring = Canvas(c.w, c.h, scale=c.scale, ss=c.ss)
    ring.ellipse(gx, gy, rx, ry, None, outline=pal.OUTLINE, width=22)
    ring.ellipse(gx, gy, rx - 3, ry - 3, None, outline=side["main"], width=14)
    ring.ellipse(gx - 6, gy - 4, rx - 7, ry - 6, None, outline=side["light"], width=4)
    c.over(ring, 0.95)


def _poly(c: Canvas, pts: Sequence[Point], colour: RGBA, ox: float, oy: float) -> None:
    c.polygon([(ox + x, oy + y) for x, y in pts], colour)


def _soldier(c: Canvas, gx: float, gy: float, side: pal.Palette, *, beret: bool) -> None:
    """A standing soldier about 330 px tall, facing down-right, rifle across the chest."""
    k = pal.UNIT_COMMON
    body, light, dark = side["main"], side["light"], side["dark"]
    if beret:  # special forces wear dark fatigues with the side colour as trim
        body, light, dark = (
            shade(pal.UNIT_COMMON["gear"], 1.15),
            shade(pal.UNIT_COMMON["gear"], 1.45),
            k["gear"],
        )
    ox, oy = gx, gy
    # legs and boots
    _poly(c, [(-46, -150), (-6, -150), (-14, -22), (-44, -22)], shade(dark, 1.1), ox, oy)
    _poly(c, [(2, -150), (44, -150), (50, -20), (20, -20)], dark, ox, oy)
    _poly(c, [(-50, -26), (-10, -26), (-6, 0), (-56, 0)], k["tyre"], ox, oy)
    _poly(c, [(16, -24), (54, -24), (64, 2), (14, 2)], k["tyre"], ox, oy)
    # backpack behind the left shoulder
    _poly(c, [(-78, -270), (-30, -282), (-26, -176), (-74, -170)], k["gear"], ox, oy)
    _poly(c, [(-78, -270), (-56, -276), (-54, -174), (-74, -170)], k["gear_light"], ox, oy)
    # torso: lit left half, shaded right half, belt
    _poly(c, [(-56, -280), (52, -280), (58, -146), (-52, -146)], body, ox, oy)
    _poly(c, [(-56, -280), (-8, -282), (-12, -146), (-52, -146)], light, ox, oy)
    _poly(c, [(24, -280), (52, -280), (58, -146), (28, -146)], dark, ox, oy)
    if beret:  # a chest rig and scarf in the side's colour
        _poly(c, [(-40, -272), (40, -272), (44, -176), (-38, -176)], side["main"], ox, oy)
        _poly(c, [(-40, -272), (-6, -272), (-6, -176), (-38, -176)], side["light"], ox, oy)
        for px in (-28, 4):
            _poly(c, [(px, -236), (px + 22, -236), (px + 22, -206), (px, -206)], side["dark"], ox, oy)
        _poly(c, [(-34, -292), (36, -292), (30, -270), (-30, -270)], side["light"], ox, oy)
    _poly(c, [(-54, -168), (58, -168), (58, -148), (-54, -148)], k["gear"], ox, oy)
    c.rect(ox - 10, oy - 168, ox + 10, oy - 148, k["gold"] if beret else k["gear_light"])
    # arms and the rifle held across the body
    _poly(c, [(-62, -274), (-34, -274), (-10, -196), (-34, -186)], light, ox, oy)
    _poly(c, [(36, -272), (62, -268), (70, -196), (44, -192)], dark, ox, oy)
    if beret:  # shoulder flashes
        _poly(c, [(-62, -274), (-36, -274), (-32, -252), (-58, -250)], side["main"], ox, oy)
        _poly(c, [(38, -272), (62, -268), (63, -248), (40, -250)], side["dark"], ox, oy)
    rifle = [(-92, -168), (96, -286), (106, -270), (-82, -150)]
    _poly(c, rifle, k["metal"], ox, oy)
    _poly(c, [(-40, -196), (-14, -212), (-4, -180), (-26, -170)], k["gear_light"], ox, oy)  # magazine
    _poly(c, [(-70, -170), (-8, -208), (-2, -198), (-64, -160)], shade(k["metal"], 1.5), ox, oy)
    c.ellipse(ox - 24, oy - 192, 16, 14, k["skin"])
    c.ellipse(ox + 50, oy - 200, 15, 13, k["skin_dark"])
    # head
    c.ellipse(ox + 2, oy - 306, 34, 36, k["skin"])
    c.ellipse(ox + 14, oy - 300, 20, 26, k["skin_dark"])
    if beret:
        c.ellipse(ox - 6, oy - 338, 46, 22, shade(side["main"], 0.9))
        c.ellipse(ox - 16, oy - 344, 30, 14, side["light"])
        c.ellipse(ox + 24, oy - 336, 8, 8, k["gold"])
        c.polygon(
            [(ox - 30, oy - 300), (ox + 34, oy - 300), (ox + 30, oy - 290), (ox - 28, oy - 290)], k["metal"]
        )
    else:
        c.ellipse(ox, oy - 330, 48, 36, body)
        c.rect(ox - 48, oy - 330, ox + 48, oy - 318, body)
        c.ellipse(ox - 14, oy - 342, 24, 16, light)
        _poly(c, [(-56, -322), (56, -322), (52, -308), (-52, -308)], dark, ox, oy)


def _star(cx: float, cy: float, r: float, inner: float = 0.45) -> list[Point]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * inner
        pts.append((cx + math.cos(a) * rr, cy + math.sin(a) * rr))
    return pts


Projector = Callable[[float, float, float], Point]


def _project(gx: float, gy: float, a: float) -> Projector:
    """A 2:1 projection of vehicle-local ``(u, v, z)`` onto the sprite, ``a`` px per unit."""

    def p(u: float, v: float, z: float) -> Point:
        return (gx + (u - v) * a, gy + (u + v) * a / 2 - z * a)

    return p


_LIGHT = (-0.5, 0.35, 1.0)
_LIGHT_N = math.sqrt(sum(x * x for x in _LIGHT))


def _lit(colour: RGBA, normal: tuple[float, float, float]) -> RGBA:
    n = math.sqrt(sum(x * x for x in normal))
    d = sum(a * b for a, b in zip(normal, _LIGHT, strict=True)) / (n * _LIGHT_N)
    return shade(colour, 0.56 + 0.5 * max(0.0, d))


def _prism(
    c: Canvas, p: Projector, profile: Sequence[tuple[float, float]], v0: float, v1: float, colour: RGBA
) -> None:
    """Extrude a side profile (u, z), counter-clockwise, from ``v0`` to ``v1``; draw visible faces."""
    n = len(profile)
    for i in range(n):
        (u0, z0), (u1, z1) = profile[i], profile[(i + 1) % n]
        normal = (z1 - z0, 0.0, -(u1 - u0))  # outward for a counter-clockwise profile
        if normal[0] + normal[2] > 1e-9:  # faces the viewer, who looks along -(1, 1, 1)
            c.polygon([p(u0, v0, z0), p(u1, v0, z1), p(u1, v1, z1), p(u0, v1, z0)], _lit(colour, normal))
    c.polygon([p(u, v1, z) for u, z in profile], _lit(colour, (0.0, 1.0, 0.0)))


def _vehicle(c: Canvas, gx: float, gy: float, side: pal.Palette) -> None:
    """An eight-wheeled armoured personnel carrier, nose to the lower right, turret gun forward."""
    k = pal.UNIT_COMMON
    p = _project(gx, gy, 200)
    hull = [(-0.62, 0.14), (0.52, 0.14), (0.7, 0.3), (0.5, 0.46), (-0.6, 0.46), (-0.68, 0.32)]
    w = 0.36
    # far-side wheels peek out below the hull
    for u in (-0.42, -0.14, 0.14, 0.4):
        _wheel(c, p, u, -w + 0.04, k, far=True)
    _prism(c, p, hull, -w, w, side["main"])
    for u in (-0.42, -0.14, 0.14, 0.4):
        _wheel(c, p, u, w + 0.02, k, far=False)
    # side skirt line, hatches and lights
    c.line([p(-0.6, w, 0.3), p(0.58, w, 0.3)], side["dark"], 7)
    c.polygon(
        [p(0.6, -0.18, 0.36), p(0.64, -0.18, 0.32), p(0.64, -0.08, 0.32), p(0.6, -0.08, 0.36)], k["gold"]
    )
    c.polygon([p(0.6, 0.1, 0.36), p(0.64, 0.1, 0.32), p(0.64, 0.2, 0.32), p(0.6, 0.2, 0.36)], k["gold"])
    # turret and gun
    turret = [(-0.3, 0.46), (0.12, 0.46), (0.2, 0.56), (0.08, 0.66), (-0.28, 0.66), (-0.36, 0.56)]
    _prism(c, p, turret, -0.2, 0.2, shade(side["main"], 1.05))
    gun = [(0.14, 0.57), (0.78, 0.57), (0.78, 0.61), (0.14, 0.61)]
    _prism(c, p, gun, -0.025, 0.025, k["metal"])
    c.polygon(
        [p(-0.2, -0.1, 0.66), p(-0.04, -0.1, 0.66), p(-0.04, 0.06, 0.66), p(-0.2, 0.06, 0.66)], side["dark"]
    )
    c.line([p(-0.5, -0.24, 0.46), p(-0.5, -0.24, 1.12)], k["metal"], 5)  # radio antenna
    star = _star(*p(-0.18, w, 0.3), 34)
    c.polygon(star, k["white"])


def _wheel(c: Canvas, p: Projector, u: float, v: float, k: pal.Palette, *, far: bool) -> None:
    r = 0.12
    rim = [p(u + r * math.cos(a), v, 0.12 + r * math.sin(a)) for a in (i * math.pi / 12 for i in range(24))]
    c.polygon(rim, shade(k["tyre"], 0.8) if far else k["tyre"])
    if not far:
        hub = [
            p(u + r * 0.45 * math.cos(a), v + 0.001, 0.12 + r * 0.45 * math.sin(a))
            for a in (i * math.pi / 8 for i in range(16))
        ]
        c.polygon(hub, k["hub"])


def draw_unit(*, kind: str, side: str, scale: int = 1, palette: pal.Palette | None = None) -> Image.Image:
    """The sprite of unit ``kind`` (light, mechanized, special) for side ``"a"`` or ``"b"``.

    ``palette`` overrides the side's colourway (`palette.ATTACKER` or `palette.DEFENDER`).
    """
    if kind not in UNIT_KINDS:
        raise ValueError(f"unknown unit kind {kind!r}; expected one of {', '.join(UNIT_KINDS)}")
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; expected 'a' (ATTACKER) or 'b' (DEFENDER)")
    colours = palette or (pal.ATTACKER if side == "a" else pal.DEFENDER)
    gx, gy = ground_point(kind)
    c = Canvas(UNIT_PX, UNIT_PX, scale=scale)
    _base(c, gx, gy, colours, rx=200 if kind == "mechanized" else 165, ry=100 if kind == "mechanized" else 82)
    figure = Canvas(UNIT_PX, UNIT_PX, scale=scale)
    if kind == "mechanized":
        _vehicle(figure, gx, gy, colours)
    else:
        _soldier(figure, gx, gy, colours, beret=kind == "special")
        if kind == "special":
            bx, by = gx - 108, gy - 318
            figure.ellipse(bx, by, 50, 50, colours["main"], outline=pal.UNIT_COMMON["gold"], width=10)
            figure.polygon(_star(bx, by - 2, 34), pal.UNIT_COMMON["gold"])
    c.over(_outlined(figure, OUTLINE_PX, pal.OUTLINE))
    return c.image()


def draw_badge_damaged(*, scale: int = 1, palette: pal.Palette = pal.DAMAGED) -> Image.Image:
    """A small round badge with a cracked, burning look, shown on damaged units."""
    c = Canvas(BADGE_PX, BADGE_PX, scale=scale)
    m = BADGE_PX / 2
    c.ellipse(m, m, 100, 100, pal.OUTLINE)
    c.ellipse(m, m, 88, 88, palette["ring"])
    c.ellipse(m, m, 74, 74, palette["fill"])
    c.ellipse(m - 12, m - 14, 54, 50, palette["fill_light"])
    crack = [
        (m - 10, m - 62),
        (m + 14, m - 18),
        (m - 14, m - 4),
        (m + 18, m + 60),
        (m - 2, m + 4),
        (m - 34, m + 8),
        (m - 10, m - 62),
    ]
    c.polygon(crack, palette["crack"])
    return c.image()
