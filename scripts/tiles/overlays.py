"""Road and river overlay pieces for every N/E/S/W connection mask, and the bridge deck.

A piece is drawn from two kinds of shape:

* an *edge stub* for every connected edge: a straight band centred on the edge's
  midpoint, the same polygon (in whole supersampled pixels) for every mask that has
  that edge. The N stub of one cell and the S stub of its northern neighbour are the
  same band shifted by a whole number of pixels, so pieces meet pixel-exactly;
* an *interior* that joins the stubs' inner ends: straight arms to the centre for a dead
  end or a junction, a rounded bend for two adjacent edges, a straight run (a road) or a
  gentle S-curve (a river) for two opposite edges.

Shapes are laid out in world units (a cell is ``u, v in [-0.5, 0.5]``, so the road keeps its
width on the ground) and projected with `iso`. Each layer (verge, asphalt ...) replaces the
one below it, so every road pixel has exactly the §12 colour and alpha.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from PIL import Image

from . import palette as pal
from .geometry import (
    DIR_UV,
    EDGE_MID,
    RGBA,
    TILE_H_PX,
    TILE_W_PX,
    Canvas,
    Point,
    clip,
    face_mask,
    iso,
)

DIRECTIONS = ("N", "E", "S", "W")
"""Connection letters in mask-name order."""
BITS = {"N": 1, "E": 2, "S": 4, "W": 8}
"""Bit value of each connection in a mask (rules §12)."""
MASK_NAMES = tuple("".join(d for d in DIRECTIONS if m & BITS[d]) for m in range(1, 16))
"""The 15 non-empty masks by value: ``N, E, NE, S, NS, ES, NES, W, NW, EW, NEW, SW, NSW, ESW, NESW``."""

ROAD_PX = 29.0
"""Road stroke width on screen (§12); the asphalt is drawn narrower inside it."""
ROAD_INNER_PX = 21.0
ROAD_VERGE_PX = 45.0
RIVER_PX = 38.0
"""River channel width on screen (§12)."""
RIVER_INNER_PX = 24.0
RIVER_BANK_PX = 54.0
BRIDGE_HALF_PX = 1.6 * 32
"""Half the bridge deck's screen height (§12: half-size 1.6 x 32 px)."""

STUB = 0.25
"""An edge stub reaches this far (world units) both sides of the edge midpoint."""
JOIN = 0.3
"""Interiors start this far from the centre, inside the stub."""

_AXIS_PX = 640 / math.sqrt(5)  # screen width of a band 1 world unit wide, along a cell axis


def world_half_width(screen_px: float) -> float:
    """World half-width of a band that is ``screen_px`` wide on screen, perpendicular to it."""
    return screen_px / (2 * _AXIS_PX)


def _offset(u: float, v: float) -> Point:
    """Screen offset (base pixels) of the world vector ``(u, v)``."""
    return ((u - v) * 320.0, (u + v) * 160.0)


def _stub(c: Canvas, direction: str, half_width: float, colour: RGBA) -> None:
    """The edge stub: a band across the edge midpoint, in whole supersampled pixels.

    Its length and width vectors are whole multiples of the screen directions (2, +-1) and
    (2, -+1), so its sides run exactly along the cell axis and translate pixel-exactly.
    """
    du, dv = DIR_UV[direction]
    k = c.k
    mx, my = round(EDGE_MID[direction][0] * k), round(EDGE_MID[direction][1] * k)
    along = round(STUB * 160 * k)  # a world step of STUB along the axis is STUB * (320, 160) px
    across = round(half_width * 160 * k)
    ax, ay = _offset(du, dv)
    wx, wy = _offset(-dv, du)
    ax, ay, wx, wy = (
        round(ax / 160),
        round(ay / 160),
        round(wx / 160),
        round(wy / 160),
    )  # (2, +-1) and (-+2, 1)
    corners = [
        (mx + a * along * ax + b * across * wx, my + a * along * ay + b * across * wy)
        for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))
    ]
    c.draw.polygon(corners, fill=colour)


def _band(centre_line: Sequence[tuple[float, float]], half_width: float) -> list[Point]:
    """Polygon (base pixels) of a band of world ``half_width`` around a world polyline."""
    left: list[Point] = []
    right: list[Point] = []
    n = len(centre_line)
    for i, (u, v) in enumerate(centre_line):
        a = centre_line[max(0, i - 1)]
        b = centre_line[min(n - 1, i + 1)]
        tu, tv = b[0] - a[0], b[1] - a[1]
        length = math.hypot(tu, tv) or 1.0
        nu, nv = -tv / length, tu / length
        left.append(iso(u + nu * half_width, v + nv * half_width))
        right.append(iso(u - nu * half_width, v - nv * half_width))
    return left + right[::-1]


def _bezier(points: Sequence[tuple[float, float]], steps: int = 24) -> list[tuple[float, float]]:
    """Sample a quadratic or cubic Bezier curve given by its control points."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        pts = list(points)
        while len(pts) > 1:
            pts = [(p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t) for p, q in itertools.pairwise(pts)]
        out.append(pts[0])
    return out


def _join_point(direction: str, distance: float = JOIN) -> tuple[float, float]:
    du, dv = DIR_UV[direction]
    return (du * distance, dv * distance)


def centre_lines(mask: str, *, meander: float) -> list[list[tuple[float, float]]]:
    """World polylines of a piece's interior, joining the stubs of ``mask``.

    ``meander`` is the sideways swing of a straight run (0 for a road).
    """
    dirs = [d for d in DIRECTIONS if d in mask]
    if len(dirs) == 2:
        a, b = dirs
        pa, pb = _join_point(a), _join_point(b)
        if (DIR_UV[a][0] + DIR_UV[b][0], DIR_UV[a][1] + DIR_UV[b][1]) == (0, 0):  # straight through
            if meander == 0:
                return [[pa, pb]]
            du, dv = DIR_UV[a]
            side = (-dv * meander, du * meander)
            d = 0.16
            first = _bezier(
                [pa, (pa[0] - du * d, pa[1] - dv * d), (side[0] + du * d, side[1] + dv * d), side]
            )
            second = _bezier(
                [side, (side[0] - du * d, side[1] - dv * d), (pb[0] + du * d, pb[1] + dv * d), pb]
            )
            return [first + second[1:]]
        return [_bezier([pa, (0.0, 0.0), pb])]
    return [[_join_point(d), (0.0, 0.0)] for d in dirs]


def _iso_ellipse(c: Canvas, radius: float, colour: RGBA) -> None:
    """Fill a world circle of ``radius`` around the centre (an ellipse on screen), replacing pixels."""
    x, y = iso(0, 0)
    rx, ry = 320 * math.sqrt(2) * radius, 160 * math.sqrt(2) * radius
    k = c.k
    c.draw.ellipse(((x - rx) * k, (y - ry) * k, (x + rx) * k, (y + ry) * k), fill=colour)


def _layer(c: Canvas, mask: str, width_px: float, colour: RGBA, *, meander: float, hub: float) -> None:
    half = world_half_width(width_px)
    for d in mask:
        _stub(c, d, half, colour)
    for line in centre_lines(mask, meander=meander):
        c.draw.polygon(c.pts(_band(line, half)), fill=colour)
    if len(mask) != 2:
        _iso_ellipse(c, half * hub, colour)


def _check_mask(mask: str) -> str:
    if mask not in MASK_NAMES:
        raise ValueError(f"unknown connection mask {mask!r}; expected one of {', '.join(MASK_NAMES)}")
    return mask


def draw_road(*, mask: str, scale: int = 1, palette: pal.Palette = pal.ROAD) -> Image.Image:
    """The road piece for connection ``mask`` (e.g. ``"NE"``): asphalt with a dark edge and a verge."""
    _check_mask(mask)
    c = Canvas(TILE_W_PX, TILE_H_PX, scale=scale)
    hub = 1.0 if len(mask) > 2 else (1.9 if len(mask) == 1 else 1.0)
    _layer(c, mask, ROAD_VERGE_PX, palette["verge"], meander=0, hub=hub * 1.3)
    _layer(c, mask, ROAD_PX, palette["edge"], meander=0, hub=hub)
    _layer(c, mask, ROAD_INNER_PX, palette["surface"], meander=0, hub=hub * 1.2 if len(mask) == 1 else hub)
    return clip(c.image(), face_mask(scale))


def draw_river(*, mask: str, scale: int = 1, palette: pal.Palette = pal.RIVER) -> Image.Image:
    """The river piece for connection ``mask``: a channel with a lighter current between muddy banks."""
    _check_mask(mask)
    c = Canvas(TILE_W_PX, TILE_H_PX, scale=scale)
    hub = 2.2 if len(mask) == 1 else 1.25
    meander = 0.06
    _layer(c, mask, RIVER_BANK_PX, palette["bank"], meander=meander, hub=hub * 1.12)
    _layer(c, mask, RIVER_PX, palette["channel"], meander=meander, hub=hub)
    _layer(c, mask, RIVER_INNER_PX, palette["inner"], meander=meander, hub=hub * 1.1)
    # ripples drift along the current, kept well inside the cell
    for line in centre_lines(mask, meander=meander):
        for t in (0.3, 0.7):
            i = round(t * (len(line) - 1))
            (u0, v0), (u1, v1) = line[max(0, i - 1)], line[min(len(line) - 1, i + 1)]
            du, dv = u1 - u0, v1 - v0
            length = math.hypot(du, dv) or 1.0
            du, dv = du / length * 0.035, dv / length * 0.035
            side = 0.012 if t < 0.5 else -0.012
            u, v = line[i][0] - dv / 0.035 * side, line[i][1] + du / 0.035 * side
            c.line([iso(u - du, v - dv), iso(u + du, v + dv)], palette["ripple"], 2.6)
    return clip(c.image(), face_mask(scale))


def draw_bridge(*, scale: int = 1, palette: pal.Palette = pal.BRIDGE) -> Image.Image:
    """The bridge deck drawn on every road-and-river cell: a raised plank square with corner posts.

    The deck is square so it reads the same whichever way the road crosses the river.
    """
    c = Canvas(TILE_W_PX, TILE_H_PX, scale=scale)
    s = BRIDGE_HALF_PX / 320  # world half-side: the square's screen half-height is BRIDGE_HALF_PX
    lift = 10.0

    def square(half: float, h: float) -> list[Point]:
        return [iso(-half, -half, h), iso(half, -half, h), iso(half, half, h), iso(-half, half, h)]

    shadow = [(x + 10, y + 6) for x, y in square(s, 0)]
    c.polygon(shadow, palette["shadow"])
    c.polygon([iso(-s, s, 0), iso(s, s, 0), iso(s, s, lift), iso(-s, s, lift)], palette["side"])
    c.polygon([iso(s, -s, 0), iso(s, s, 0), iso(s, s, lift), iso(s, -s, lift)], palette["side_dark"])
    c.draw.polygon(c.pts(square(s, lift)), fill=palette["deck"])  # the §12 deck colour frames the planks
    inner = s - 0.028
    planks = 6
    for i in range(planks):
        a = -inner + 2 * inner * i / planks + 0.005
        b = -inner + 2 * inner * (i + 1) / planks - 0.005
        colour = palette["plank"] if i % 2 == 0 else palette["plank_light"]
        c.draw.polygon(
            c.pts([iso(-inner, a, lift), iso(inner, a, lift), iso(inner, b, lift), iso(-inner, b, lift)]),
            fill=colour,
        )
    for u, v in ((-s, -s), (s, -s), (s, s), (-s, s)):
        x, y = iso(u * 0.92, v * 0.92, lift)
        c.rect(x - 5, y - 20, x + 5, y + 2, palette["post"])
        c.ellipse(x, y - 20, 5, 2.5, palette["post_top"])
    return clip(c.image(), face_mask(scale))
