"""Parameters of terrain generation (rules §11), with the documented defaults."""

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
    """Knobs of the map generator; every field has the rules §11 default."""

    road_density: _Density = 0.3  # share of road cells; clamped to 0.01..0.6 when used
    river_density: _Density = 0.2  # share of river cells; clamped to 0.01..0.6 when used
    max_bridges: Annotated[int, Meta(ge=0, le=1000)] = 20  # primary bridges
    extra_bridge_every: _Positive = 14  # one extra bridge per this many river cells
    extra_bridge_min_spacing: _Positive = 6  # Chebyshev spacing between extra bridges
    min_axis_run: _Positive = 2  # river steps kept on one axis before it may turn
    trunk_turn_prob: _Probability = 0.40  # chance that the trunk turns once it may
    tributary_turn_prob: _Probability = 0.45  # chance that a tributary turns once it may
    tributary_attempts_per_cell: _Positive = 6  # tributary attempts = W·H·this
    road_search_budget_per_cell: _Positive = 520  # node expansions per route, per board cell
    trunk_step_budget_per_cell: _Positive = 4  # trunk walk steps = this·W·H
    tributary_step_budget_per_side: _Positive = 5  # tributary walk steps = this·(W+H)
    road_square_penalty_new: _Penalty = 3.5  # step that would complete a new 2x2 road block
    road_square_penalty_touching: _Penalty = 8.5  # same, next to existing road blocks
    dense_crossing_penalty: _Penalty = 3.5  # step into a crowded road junction area
    road_turn_penalty: _Penalty = 1.15  # step that changes direction
    near_river_penalty: _Penalty = 1.4  # step next to a (non-bridge) river cell
    adjacent_road_penalty: _Penalty = 0.55  # base penalty for running beside roads
    adjacent_road_penalty_per_neighbour: _Penalty = 0.25  # scaling per road neighbour
    bridge_bonus: _Penalty = 1.2  # subtracted from a step onto a bridge
    arterial_min_length: Annotated[float, Meta(ge=0.0, le=10.0)] = 0.35  # ·(W+H)
    collector_min_length: Annotated[float, Meta(ge=0.0, le=10.0)] = 0.18  # ·(W+H)
    noise_base_scale: Annotated[float, Meta(gt=0.0, le=10.0)] = 0.4  # ·max(W, H)
    smoothing_passes: Annotated[int, Meta(ge=0, le=10)] = 2
