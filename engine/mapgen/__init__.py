"""Deterministic terrain generation (rules §11).

>>> terrain, next_seed = generate_terrain(7, 20, 30)
>>> len(terrain.board.rows), len(terrain.board.rows[0])
(30, 20)
"""

from __future__ import annotations

from .generator import GeneratedTerrain, generate_terrain
from .params import TerrainParams
from .stats import TerrainCount, TerrainStats

__all__ = ["GeneratedTerrain", "TerrainCount", "TerrainParams", "TerrainStats", "generate_terrain"]
