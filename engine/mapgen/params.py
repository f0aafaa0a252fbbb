"""Parameters of terrain generation (rules §11), with the documented defaults.

Every default is the value of the §11 parameter table, except `tributary_work_per_side`,
which §11 does not have: it bounds the total work of all tributary attempts (see
``docs/terrain.md``). Constraints are enforced when a `TerrainParams` is decoded, and
`generate_terrain` re-checks hand-built instances, so out-of-range values are a
ValueError, never a hang. Densities are the exception: any value in 0..1 is accepted
and clamped to 0.01..0.6 when used.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

__all__ = ["TerrainParams"]

_Density = Annotated[float, Meta(ge=0.0, le=1.0)]
_Positive = Annotated[int, Meta(ge=1, le=1_000_000)]
_Probability = Annotated[float, Meta(ge=0.0, le=1.0)]
_Penalty = Annotated[float, Meta(ge=0.0, le=100.0)]


class TerrainParams(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Knobs of the map generator; every field has the rules §11 default.

    >>> TerrainParams().road_density
    0.3
    >>> msgspec.json.decode(b'{"river_density": 0.1}', type=TerrainParams).river_density
    0.1
    """

    road_density: _Density = 0.3  # road cells aimed for, as a share of W·H; clamped to 0.01..0.6
    river_density: _Density = 0.2  # river cells aimed for, as a share of W·H; clamped to 0.01..0.6
    max_bridges: Annotated[int, Meta(ge=0, le=1000)] = 20  # primary (land-joining) bridges
    extra_bridge_every: _Positive = 14  # one extra bridge per this many river cells
    extra_bridge_min_spacing: _Positive = 6  # Chebyshev spacing of extra bridges from every bridge
    min_axis_run: _Positive = 2  # river moves kept on one axis before the walk may turn
    trunk_turn_prob: _Probability = 0.40  # chance that the trunk turns once it may
    tributary_turn_prob: _Probability = 0.45  # chance that a tributary turns once it may
    tributary_attempts_per_cell: _Positive = 6  # tributary attempts at most this·W·H
    road_search_budget_per_cell: _Positive = 520  # A* expansions per cell of a route's Manhattan length
    trunk_step_budget_per_cell: _Positive = 4  # free trunk moves this·W·H, then it runs straight
    tributary_step_budget_per_side: _Positive = 5  # cells of one tributary walk at most this·(W+H)
    road_square_penalty_new: _Penalty = 3.5  # step completing a 2x2 road block the route helps form
    road_square_penalty_touching: _Penalty = 8.5  # step completing a 2x2 block with three existing roads
    dense_crossing_penalty: _Penalty = 3.5  # joining a road within Chebyshev 2 of a junction
    road_turn_penalty: _Penalty = 1.15  # step that changes direction
    near_river_penalty: _Penalty = 1.4  # step onto land next to a non-bridge river cell
    adjacent_road_penalty: _Penalty = 0.55  # off-road step beside one road cell
    adjacent_road_penalty_per_neighbour: _Penalty = 0.25  # ·adjacent_road_penalty per further road cell
    bridge_bonus: _Penalty = 1.2  # subtracted from a step onto a bridge (weights stay >= 0.1)
    arterial_min_length: Annotated[float, Meta(ge=0.0, le=10.0)] = 0.35  # ·(W+H), Manhattan
    collector_min_length: Annotated[float, Meta(ge=0.0, le=10.0)] = 0.18  # ·(W+H), Manhattan
    noise_base_scale: Annotated[float, Meta(gt=0.0, le=10.0)] = 0.4  # first-octave lattice spacing ·max(W,H)
    smoothing_passes: Annotated[int, Meta(ge=0, le=10)] = 2  # majority-smoothing passes in cleanup
    # tributary attempts plus the cells they walk, at most this·(W+H) in all (not in §11)
    tributary_work_per_side: Annotated[int, Meta(ge=1, le=1000)] = 80
