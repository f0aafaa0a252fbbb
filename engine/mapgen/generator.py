"""`generate_terrain`: rules §11 end to end, as one pure function."""

from __future__ import annotations

import msgspec

from ..board.terrain_map import MAX_BOARD_SIDE, Board, board_from_layers
from .biomes import assign_biomes
from .bridges import place_bridges
from .cleanup import clean_up
from .geometry import Grid
from .minimums import enforce_minimums
from .noise import ELEVATION_SALT, MOISTURE_SALT, noise_field
from .params import TerrainParams
from .rivers import carve_rivers, river_target
from .roads import build_roads, road_plan
from .settlements import place_settlements
from .stats import TerrainStats, measure
from .stream import Draws

__all__ = ["MAX_SIDE", "MIN_SIDE", "GeneratedTerrain", "clamp_density", "generate_terrain"]

MIN_SIDE = 8
MAX_SIDE = MAX_BOARD_SIDE
MIN_DENSITY, MAX_DENSITY = 0.01, 0.6
_DEFAULT_PARAMS = TerrainParams()


class GeneratedTerrain(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A generated map and its statistics."""

    board: Board  # base terrain, roads, rivers and bridges
    stats: TerrainStats  # counts, regions, bridges, targets and rng consumption


def clamp_density(value: float) -> float:
    """Clamp a road or river density to the §11 range ``0.01 .. 0.6``."""
    return min(MAX_DENSITY, max(MIN_DENSITY, value))


_GRIDS: dict[tuple[int, int], Grid] = {}


def _grid(width: int, height: int) -> Grid:
    """The `Grid` of a board size, made once: it is only read (its neighbour tables cost more than a small map)."""
    grid = _GRIDS.get((width, height))
    if grid is None:
        if len(_GRIDS) >= 16:
            _GRIDS.clear()  # one atomic step (threads)
        grid = _GRIDS[(width, height)] = Grid(width, height)
    return grid


def generate_terrain(
    seed: int, width: int, height: int, params: TerrainParams | None = None
) -> tuple[GeneratedTerrain, int]:
    """Generate a ``width x height`` map from ``seed``: ``(terrain, next seed)``.

    Follows rules §11: rivers, bridges and roads draw from the LCG stream in that order;
    the biome noise is keyed by the stream value reached then, without advancing it;
    settlements draw last. The next seed is ``seed`` advanced exactly
    ``terrain.stats.rng_steps`` times (the count depends on the map); thread it on.
    Same arguments, same result, on every machine.

    Raises ValueError when a side is outside 8..300, the seed is not a uint32, or
    ``params`` breaks a `TerrainParams` constraint. Densities outside 0.01..0.6 are
    clamped, not rejected.

    >>> terrain, next_seed = generate_terrain(7, 20, 30)
    >>> terrain.board.width, terrain.board.height, terrain.stats.road_cells > 0
    (20, 30, True)
    """
    for name, value in (("width", width), ("height", height)):
        if not MIN_SIDE <= value <= MAX_SIDE:
            raise ValueError(f"map {name} {value} is outside {MIN_SIDE}..{MAX_SIDE}")
    if not 0 <= seed <= 0xFFFFFFFF:
        raise ValueError(f"seed {seed} is not an unsigned 32-bit integer")
    # msgspec checks constraints when decoding only, so re-check hand-built params
    params = _DEFAULT_PARAMS if params is None else msgspec.convert(msgspec.structs.asdict(params), TerrainParams)
    road_density = clamp_density(params.road_density)
    river_density = clamp_density(params.river_density)
    grid = _grid(width, height)
    draws = Draws(seed)

    river = carve_rivers(grid, params, river_density, draws)
    bridges = place_bridges(grid, river, params, draws)
    road = build_roads(grid, river, bridges, params, road_density, draws)
    elevation = noise_field(grid, draws.seed, ELEVATION_SALT, params.noise_base_scale)
    moisture = noise_field(grid, draws.seed, MOISTURE_SALT, params.noise_base_scale)
    terrain = assign_biomes(grid, river, road, elevation, moisture)
    bridge = bytearray(a & b for a, b in zip(road, river, strict=True))
    place_settlements(grid, terrain, river, road, bridge, draws)
    overlay = bytearray(a | b for a, b in zip(road, river, strict=True))
    clean_up(grid, terrain, overlay, params.smoothing_passes)
    minimums = enforce_minimums(grid, terrain, overlay, elevation, moisture)

    board = board_from_layers(
        width,
        height,
        terrain,
        [grid.xy(i) for i in range(grid.size) if road[i]],
        [grid.xy(i) for i in range(grid.size) if river[i]],
    )
    stats = measure(
        board,
        road_target=road_plan(width, height, road_density)[0],
        river_target=river_target(width, height, river_density),
        minimums=minimums,
        rng_steps=draws.steps,
    )
    return GeneratedTerrain(board=board, stats=stats), draws.seed
