"""The rules' data: unit and terrain tables, the shipped cards and the card language, board lookups, terrain.

Public, like `engine` itself. Beside this module lie the card files it loads
(``cards.json`` and ``variants/*.json``). A game reads the tables and cards it plays with
from its own state (`GameState.rules`): `game_tables`, `game_cards` and `engine.card_of`
take them from there.
"""

from __future__ import annotations

from ..board.grid import (
    label,
    parse_label,
)
from ..board.info import (
    BoardInfo,
    board_info,
)
from ..board.terrain_map import (
    TERRAIN_LEGEND,
    TerrainChar,
    parse_terrain_map,
)
from ..board.zones import home_side
from ..cards.abilities import (
    STANDARD_ABILITIES,
    config_abilities,
    game_abilities,
    load_abilities,
    step_abilities,
)
from ..cards.catalogue import (
    CARDS,
    COMMON_CARDS,
    DECK_SOURCES,
    TACTICS,
    CardSet,
    card_file_problems,
    card_file_schema,
    json_too_deep,
    load_cards,
)
from ..cards.condition_rules import (
    Context,
    compile_condition,
)
from ..cards.conditions import Condition
from ..cards.defs import (
    AbilityDef,
    CardChanges,
    CardDef,
    CardFile,
)
from ..cards.game import (
    base_card_id,
    canonical_deck,
    game_card,
    game_cards,
)
from ..mapgen import (
    GeneratedTerrain,
    TerrainStats,
    generate_terrain,
)
from ..start import game_terrain
from ..tables import (
    HIT_THRESHOLDS,
    MAX_ATTACKS_PER_TURN,
    STANDARD_TABLES,
    TERRAIN,
    UNIT_NAMES,
    UNITS,
    TerrainRules,
    game_tables,
    unit_stats,
)
from ..variant import Variant, VariantError, apply_variant, decode_rules_file, decode_variant

__all__ = [
    "CARDS",
    "COMMON_CARDS",
    "DECK_SOURCES",
    "HIT_THRESHOLDS",
    "MAX_ATTACKS_PER_TURN",
    "STANDARD_ABILITIES",
    "STANDARD_TABLES",
    "TACTICS",
    "TERRAIN",
    "TERRAIN_LEGEND",
    "UNITS",
    "UNIT_NAMES",
    "AbilityDef",
    "BoardInfo",
    "CardChanges",
    "CardDef",
    "CardFile",
    "CardSet",
    "Condition",
    "Context",
    "GeneratedTerrain",
    "TerrainChar",
    "TerrainRules",
    "TerrainStats",
    "Variant",
    "VariantError",
    "apply_variant",
    "base_card_id",
    "board_info",
    "canonical_deck",
    "card_file_problems",
    "card_file_schema",
    "compile_condition",
    "config_abilities",
    "decode_rules_file",
    "decode_variant",
    "game_abilities",
    "game_card",
    "game_cards",
    "game_tables",
    "game_terrain",
    "generate_terrain",
    "home_side",
    "json_too_deep",
    "label",
    "load_abilities",
    "load_cards",
    "parse_label",
    "parse_terrain_map",
    "step_abilities",
    "unit_stats",
]
