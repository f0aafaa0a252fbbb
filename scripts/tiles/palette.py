"""Every colour the tile set uses, in one place.

One warm sun from the upper left: top faces are lit, the south-facing (left) walls take
`LIT_WALL` of the light and the east-facing (right) walls `SHADE_WALL`; shadows fall to
the lower right. Terrain colours are muted and earthy so roads, rivers, highlights and
the saturated unit colourways read on top of them. Overlay and highlight colours are the
§12 facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

RGBA = tuple[int, int, int, int]

LIT_WALL = 0.80
"""Brightness of south-facing (screen-left) walls relative to the lit colour."""
SHADE_WALL = 0.58
"""Brightness of east-facing (screen-right) walls."""
SHADOW: RGBA = (24, 30, 20, 92)
"""Colour of cast shadows on the ground."""
OUTLINE: RGBA = (30, 26, 24, 255)
"""Dark outline around sprites and objects."""

Palette = Mapping[str, RGBA]


def _p(**colours: RGBA) -> Palette:
    return MappingProxyType(dict(colours))


SOIL = _p(
    lip=(92, 118, 58, 255),
    soil=(132, 100, 68, 255),
    soil_dark=(104, 78, 54, 255),
    rock=(118, 110, 100, 255),
    pebble=(160, 142, 112, 255),
)
"""Side walls: a cross-section of earth under every land tile."""

PLAIN = _p(
    base=(122, 158, 82, 255),
    dark=(104, 140, 70, 255),
    light=(144, 176, 96, 255),
    tuft=(92, 130, 62, 255),
    flower=(236, 226, 160, 255),
    flower2=(214, 168, 196, 255),
    lip=(96, 132, 62, 255),
)
ROUGH = _p(
    base=(170, 152, 104, 255),
    dark=(146, 128, 86, 255),
    light=(192, 176, 128, 255),
    rock=(150, 144, 134, 255),
    rock_light=(196, 190, 178, 255),
    rock_dark=(104, 98, 92, 255),
    scrub=(112, 124, 66, 255),
    scrub_light=(140, 152, 84, 255),
    lip=(140, 124, 82, 255),
)
FOREST = _p(
    base=(84, 116, 62, 255),
    dark=(64, 94, 50, 255),
    light=(102, 134, 72, 255),
    crown_dark=(40, 82, 48, 255),
    crown=(58, 110, 58, 255),
    crown_light=(94, 146, 72, 255),
    crown_glint=(138, 178, 96, 255),
    pine_dark=(30, 70, 56, 255),
    pine=(44, 94, 70, 255),
    pine_light=(70, 124, 86, 255),
    trunk=(96, 70, 48, 255),
    lip=(66, 96, 52, 255),
)
URBAN = _p(
    base=(172, 166, 152, 255),
    dark=(150, 144, 132, 255),
    light=(196, 190, 176, 255),
    street=(120, 118, 114, 255),
    wall=(226, 212, 186, 255),
    wall2=(206, 196, 178, 255),
    roof=(184, 88, 62, 255),
    roof_light=(214, 120, 86, 255),
    roof2=(112, 112, 126, 255),
    roof2_light=(146, 146, 160, 255),
    flat_roof=(150, 146, 138, 255),
    window=(64, 78, 96, 255),
    tree=(82, 128, 66, 255),
    lip=(140, 134, 122, 255),
)
INDUSTRIAL = _p(
    base=(138, 136, 126, 255),
    dark=(116, 114, 106, 255),
    light=(158, 156, 146, 255),
    slab=(104, 102, 96, 255),
    rust=(150, 96, 62, 255),
    shed=(170, 168, 160, 255),
    roof=(92, 110, 128, 255),
    roof_light=(128, 150, 170, 255),
    tank=(196, 196, 188, 255),
    tank_band=(160, 78, 54, 255),
    stack=(168, 84, 60, 255),
    stack_band=(232, 226, 214, 255),
    pipe=(96, 92, 86, 255),
    smoke=(214, 214, 208, 150),
    lip=(110, 108, 100, 255),
)
HILL = _p(
    base=(134, 152, 82, 255),
    dark=(116, 134, 70, 255),
    light=(150, 166, 94, 255),
    ring_low=(142, 150, 82, 255),
    ring_high=(200, 180, 118, 255),
    contour=(98, 108, 58, 255),
    shadow=(84, 96, 54, 255),
    rock=(170, 160, 140, 255),
    lip=(112, 130, 66, 255),
)
WATER = _p(
    base=(46, 104, 156, 255),
    dark=(34, 84, 136, 255),
    light=(64, 128, 178, 255),
    ripple=(150, 204, 228, 255),
    ripple_dark=(28, 70, 118, 255),
    glint=(226, 242, 248, 255),
    deep=(22, 56, 96, 255),
    bed=(150, 132, 96, 255),
)
GROUND = _p(
    base=(152, 138, 114, 255),
    dark=(136, 122, 100, 255),
    light=(170, 156, 130, 255),
    pebble=(118, 106, 88, 255),
    lip=(128, 114, 92, 255),
)

# --- overlays (rules §12 facts, plus banks and details) ---------------------------------------
ROAD = _p(
    edge=(70, 70, 66, 210),
    surface=(92, 92, 88, 210),
    verge=(196, 180, 136, 170),
    dash=(214, 206, 170, 200),
)
RIVER = _p(
    bank=(112, 98, 66, 150),
    channel=(58, 142, 170, 205),
    inner=(86, 176, 204, 210),
    ripple=(186, 228, 240, 190),
)
BRIDGE = _p(
    deck=(139, 90, 43, 220),
    plank=(184, 130, 72, 240),
    plank_light=(204, 152, 92, 240),
    side=(104, 66, 32, 255),
    side_dark=(76, 48, 24, 255),
    post=(70, 44, 22, 255),
    post_top=(214, 168, 108, 255),
    shadow=(16, 34, 44, 120),
)

# --- highlights (rules §12 facts for the first four) -----------------------------------------
HIGHLIGHT: Mapping[str, RGBA] = MappingProxyType(
    {
        "move": (86, 165, 176, 170),
        "move_adv": (66, 135, 168, 190),
        "attack": (126, 58, 47, 190),
        "target_confirm": (164, 154, 96, 200),
        "hover": (244, 240, 220, 150),
        "selected": (250, 206, 72, 220),
    }
)

# --- unit colourways ------------------------------------------------------------------------
ATTACKER = _p(
    main=(204, 82, 48, 255),
    light=(240, 138, 86, 255),
    dark=(134, 44, 28, 255),
    trim=(252, 196, 96, 255),
)
DEFENDER = _p(
    main=(56, 112, 196, 255),
    light=(112, 166, 232, 255),
    dark=(28, 58, 126, 255),
    trim=(200, 232, 252, 255),
)
UNIT_COMMON = _p(
    skin=(226, 180, 138, 255),
    skin_dark=(180, 130, 96, 255),
    gear=(70, 70, 62, 255),
    gear_light=(108, 106, 94, 255),
    metal=(56, 58, 62, 255),
    tyre=(40, 40, 42, 255),
    hub=(120, 120, 116, 255),
    gold=(246, 200, 70, 255),
    gold_dark=(170, 120, 30, 255),
    white=(250, 248, 240, 255),
)
DAMAGED = _p(
    ring=(250, 236, 200, 255),
    fill=(214, 58, 40, 255),
    fill_light=(246, 110, 70, 255),
    crack=(255, 246, 226, 255),
)
