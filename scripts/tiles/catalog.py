"""The list of images in the tile set and the manifest that describes them to the client."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PIL import Image

from . import geometry as geo
from .highlights import HIGHLIGHT_KINDS, draw_highlight
from .overlays import BITS, DIRECTIONS, MASK_NAMES, draw_bridge, draw_river, draw_road
from .terrain import (
    draw_forest,
    draw_ground,
    draw_hill,
    draw_industrial,
    draw_plain,
    draw_rough,
    draw_urban,
    draw_water,
)
from .units import (
    SIDES,
    TWEAK,
    TYPE_SCALE,
    UNIT_KINDS,
    badge_point,
    display_size,
    draw_badge_damaged,
    draw_unit,
    ground_point,
)

MANIFEST_VERSION = 1

TERRAIN_IMAGES: tuple[tuple[str, str, Callable[..., Image.Image]], ...] = (
    ("terrain-01-plain", "PLAIN", draw_plain),
    ("terrain-02-rough", "ROUGH", draw_rough),
    ("terrain-03-forest", "FOREST", draw_forest),
    ("terrain-04-urban", "URBAN", draw_urban),
    ("terrain-05-hill", "HILL", draw_hill),
    ("terrain-06-water", "WATER", draw_water),
    ("terrain-10-industrial", "INDUSTRIAL", draw_industrial),
)
"""Base tile name, engine terrain type and drawing function (rules §12 names)."""

UNIT_TYPES = {"light": "LIGHT_INFANTRY", "mechanized": "MECHANIZED", "special": "SPECIAL"}

LAYERS = {
    "terrain": 0,
    "river": 1,
    "road": 2,
    "bridge": 3,
    "selected": 4,
    "move": 5,
    "attack": 6,
    "target": 6,
    "hover": 7,
}
"""Draw-order offset of each tile layer: key ``3 * (x + y) + offset`` (rules §12; ``selected`` is ours)."""

HIGHLIGHT_LAYER = {
    "move": "move",
    "move_adv": "move",
    "attack": "attack",
    "target_confirm": "target",
    "hover": "hover",
    "selected": "selected",
}


@dataclass(frozen=True)
class Spec:
    """One image of the set: its name, how to draw it, and what the manifest says about it.

    ``draw`` is a ``draw_*`` function with its options bound; it is called as ``draw(scale=s)``.
    """

    name: str
    draw: Callable[..., Image.Image]
    info: Mapping[str, Any] = field(default_factory=dict)


def specs() -> list[Spec]:
    """Every image in the set, in a fixed order."""
    out = [
        Spec(name, fn, {"group": "terrain", "layer": "terrain", "terrain": terrain})
        for name, terrain, fn in TERRAIN_IMAGES
    ]
    out.append(Spec("ground", draw_ground, {"group": "terrain", "layer": "terrain", "terrain": None}))
    for value, mask in enumerate(MASK_NAMES, start=1):
        for layer, fn in (("road", draw_road), ("river", draw_river)):
            info = {"group": layer, "layer": layer, "mask": value, "connections": mask}
            out.append(Spec(f"{layer}_{mask}", partial(fn, mask=mask), info))
    out.append(Spec("bridge_square", draw_bridge, {"group": "connector", "layer": "bridge"}))
    for kind in HIGHLIGHT_KINDS:
        info = {"group": "highlight", "layer": HIGHLIGHT_LAYER[kind]}
        out.append(Spec(f"highlight_{kind}", partial(draw_highlight, kind=kind), info))
    for kind in UNIT_KINDS:
        for side, side_name in SIDES.items():
            info = {
                "group": "unit",
                "unit_type": UNIT_TYPES[kind],
                "side": side_name,
                "ground": list(ground_point(kind)),
                "badge": list(badge_point(kind)),
            }
            out.append(Spec(f"{kind}_{side}", partial(draw_unit, kind=kind, side=side), info))
    out.append(Spec("badge_damaged", draw_badge_damaged, {"group": "badge"}))
    return out


def file_name(name: str, scale: int) -> str:
    """``terrain-01-plain.png`` at scale 1, ``terrain-01-plain@2x.png`` at scale 2."""
    return f"{name}.png" if scale == 1 else f"{name}@{scale}x.png"


def manifest_name(scale: int) -> str:
    """``manifest.json`` at scale 1, ``manifest@2x.json`` at scale 2."""
    return "manifest.json" if scale == 1 else f"manifest@{scale}x.json"


def _scaled(point: Any, scale: int) -> list[float | int]:
    return [_num(v * scale) for v in point]


def _num(v: float) -> float | int:
    v = round(v, 4)
    return int(v) if v == int(v) else v


def image_entry(spec: Spec, image: Image.Image, scale: int) -> dict[str, Any]:
    """The manifest entry of one drawn image."""
    info = dict(spec.info)
    group = info["group"]
    entry: dict[str, Any] = {"file": file_name(spec.name, scale), "size": list(image.size), **info}
    if group == "unit":
        entry["anchor"] = [geo.UNIT_PX // 2 * scale, geo.UNIT_PX * scale]
        entry["ground"] = _scaled(info["ground"], scale)
        entry["badge"] = _scaled(info["badge"], scale)
    elif group == "badge":
        entry["anchor"] = [geo.BADGE_PX // 2 * scale, geo.BADGE_PX // 2 * scale]
    else:
        entry["anchor"] = [geo.TILE_W_PX // 2 * scale, geo.TILE_H_PX // 2 * scale]
        entry["offset"] = LAYERS[info["layer"]]
    return entry


def manifest(images: Mapping[str, Image.Image], scale: int) -> dict[str, Any]:
    """Everything the client needs to place the images: geometry, rules, and one entry per image."""
    specs_by_name = {s.name: s for s in specs()}
    return {
        "version": MANIFEST_VERSION,
        "scale": scale,
        "image_scale": _num(geo.DISPLAY_SCALE / scale),
        "tile": {
            "image_w": geo.TILE_W_PX * scale,
            "image_h": geo.TILE_H_PX * scale,
            "face_w": geo.TILE_W_PX * scale,
            "face_h": geo.FACE_H_PX * scale,
            "face_centre": [geo.TILE_W_PX // 2 * scale, geo.FACE_H_PX // 2 * scale],
            "wall": geo.WALL * scale,
            "tile_w": geo.TILE_W,
            "tile_h": geo.TILE_H,
            "row_overlap": geo.ROW_OVERLAP,
            "step_y": geo.STEP_Y,
            "display_scale": geo.DISPLAY_SCALE,
        },
        "projection": {
            "grid_to_screen": "sx = (x - y) * tile_w / 2; sy = (x + y) * step_y",
            "screen_to_grid": "fx = sx / (tile_w / 2); fy = sy / step_y; x = floor((fy + fx) / 2 + 0.5); "
            "y = floor((fy - fx) / 2 + 0.5)",
            "origin": "origin_x = (H - 1) * tile_w / 2; origin_y = 0",
            "tile_top_left": "(origin_x + sx - tile_w / 2, origin_y + sy - tile_h / 2)",
            "tile_size": "(tile_w, tile_h) = image size * image_scale",
            "directions": {"N": "up-right", "E": "down-right", "S": "down-left", "W": "up-left"},
        },
        "units": {
            "bottom_centre": "(origin_x + sx + off_x, origin_y + sy + bottom_factor * tile_h + off_y)",
            "size": "width_factor * tile_w * type_scale * (1 + tweak.scale)",
            "bottom_factor": geo.UNIT_BOTTOM_FACTOR,
            "width_factor": geo.UNIT_WIDTH_FACTOR,
            "order": "after all tiles, by depth = x + y ascending, equal depth by y",
            "sides": {"ATTACKER": "a", "DEFENDER": "b"},
            "badge": "badge_damaged centred on the sprite's 'badge' point, scaled like the sprite",
            "types": {
                UNIT_TYPES[kind]: {
                    "kind": kind,
                    "type_scale": TYPE_SCALE[kind],
                    "tweak": {
                        "off_x": _num(TWEAK[kind][0]),
                        "off_y": _num(TWEAK[kind][1]),
                        "scale": TWEAK[kind][2],
                    },
                    "display_size": _num(display_size(kind)),
                    "images": {side_name: f"{kind}_{side}" for side, side_name in SIDES.items()},
                }
                for kind in UNIT_KINDS
            },
        },
        "anchors": {
            "tile": "image point drawn at the cell's screen point (origin_x + sx, origin_y + sy)",
            "unit": "bottom centre, drawn at units.bottom_centre; 'ground' is the point that lands on the "
            "centre of the cell's top face, 'badge' where the damaged badge's centre goes",
            "badge": "centre",
        },
        "masks": {
            "bits": dict(BITS),
            "names": list(MASK_NAMES),
            "order": list(DIRECTIONS),
            "neighbour": {d: list(uv) for d, uv in geo.DIR_UV.items()},
            "rule": "name = letters of the connected neighbours in N, E, S, W order; value = sum of bits; "
            "image = road_<name> / river_<name>",
        },
        "draw_order": {
            "depth": "x + y",
            "key": "3 * depth + offset",
            "offsets": dict(LAYERS),
            "ties": "equal keys: lower depth first",
        },
        "terrain": {terrain: name for name, terrain, _ in TERRAIN_IMAGES} | {"fallback": "ground"},
        "connectors": {"bridge": "bridge_square"},
        "highlights": {kind: f"highlight_{kind}" for kind in HIGHLIGHT_KINDS},
        "badges": {"damaged": "badge_damaged"},
        "images": {name: image_entry(specs_by_name[name], im, scale) for name, im in sorted(images.items())},
    }


def render(scale: int) -> dict[str, Image.Image]:
    """Draw every image of the set at ``scale``."""
    return {spec.name: spec.draw(scale=scale) for spec in specs()}
