"""Taktik engine: the complete rules as a pure, deterministic reducer.

A game is a pure function of its config and its actions::

    state = new_game(GameConfig(seed=7))
    while legal_actions(state):
        state = reduce(state, choose(legal_actions(state)))

Everything random comes from the config's seed through the state's LCG, so a
`GameRecord` of ``(config, actions)`` rebuilds every position bit for bit.
"""

from __future__ import annotations

from .actions import (
    ACTION_ORDER,
    AcceptMalus,
    Action,
    AutoDeploy,
    CancelMalus,
    ChooseMalusTargets,
    ConfirmDeployment,
    DeclareAttack,
    DeployUnit,
    DiscardBonus,
    DrawCard,
    EndTurn,
    MoveUnit,
    NextPhase,
    Params,
    PassReaction,
    PlayBonus,
    PlayTactic,
    ResolveAttack,
    RollDice,
    StoreBonus,
    WithdrawAttack,
)
from .attacks import DamageModifier, RollModifier, hit_chance_and_damage
from .board import TERRAIN_LEGEND, Board, TerrainChar, parse_terrain_map
from .boardinfo import BoardInfo, board_info
from .cards import CARDS, COMMON_CARDS, TACTICS, CardDef, canonical_deck, card_of
from .codec import check_references, decode_action, decode_state, encode_action, encode_state, state_hash
from .config import (
    MAX_GAME_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    CaptureAndHold,
    CombatRequires,
    CombatRule,
    Forces,
    GameConfig,
    Leaders,
    MovementRequires,
    MovementRule,
    PerSide,
    RoundLimit,
    TacticHands,
    TerritorialControl,
    TimedResistance,
    UnitSpec,
    VictoryConfig,
    VictoryPoints,
)
from .decision import PHASE_NAMES, TURN_RULER, Decision, DecisionKind, PhaseStep, decision
from .deployment import home_side
from .errors import CardDataError, IllegalAction, InvalidAction, ReplayMismatch
from .explain import explain
from .flow import decide_to_act
from .grid import label, parse_label
from .hooks import can_attack_after_move, can_move_unit, max_moves, movement_allowance, storage_limit
from .mapgen import GeneratedTerrain, TerrainParams, TerrainStats, generate_terrain
from .preview import (
    AttackOdds,
    AttackPreview,
    MoveOption,
    MovePreview,
    TacticOdds,
    attack_odds,
    attack_preview,
    move_preview,
    rolls_dice,
)
from .reducer import legal_actions, reduce
from .replay import GameRecord, decode_record, encode_record, record_game, replay
from .rng import draw_index, mix_seed, next_seed, roll_d6, shuffle
from .rules_version import LEGACY_VERSIONS, RULES_EPOCH, RULES_VERSION, canonical_rules_version
from .start import game_terrain, new_game
from .state import HIDDEN, Attack, Effect, Event, GameState, PendingCard, PlayerState, Roll, Unit
from .tables import MAX_ATTACKS_PER_TURN, TERRAIN, UNITS, TerrainRules, UnitStats
from .text import describe_event, encode_text
from .types import EventKind, Hook, Phase, Quadrant, Side, TerrainType, UnitType, Window, unit_order
from .victory import unit_vp
from .views import player_view
from .windows import OpenWindow, reaction_windows

__all__ = [
    "ACTION_ORDER",
    "CARDS",
    "COMMON_CARDS",
    "HIDDEN",
    "LEGACY_VERSIONS",
    "MAX_ATTACKS_PER_TURN",
    "MAX_GAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PHASE_NAMES",
    "RULES_EPOCH",
    "RULES_VERSION",
    "TACTICS",
    "TERRAIN",
    "TERRAIN_LEGEND",
    "TURN_RULER",
    "UNITS",
    "AcceptMalus",
    "Action",
    "Attack",
    "AttackOdds",
    "AttackPreview",
    "AutoDeploy",
    "Board",
    "BoardInfo",
    "CancelMalus",
    "CaptureAndHold",
    "CardDataError",
    "CardDef",
    "ChooseMalusTargets",
    "CombatRequires",
    "CombatRule",
    "ConfirmDeployment",
    "DamageModifier",
    "Decision",
    "DecisionKind",
    "DeclareAttack",
    "DeployUnit",
    "DiscardBonus",
    "DrawCard",
    "Effect",
    "EndTurn",
    "Event",
    "EventKind",
    "Forces",
    "GameConfig",
    "GameRecord",
    "GameState",
    "GeneratedTerrain",
    "Hook",
    "IllegalAction",
    "InvalidAction",
    "Leaders",
    "MoveOption",
    "MovePreview",
    "MoveUnit",
    "MovementRequires",
    "MovementRule",
    "NextPhase",
    "OpenWindow",
    "Params",
    "PassReaction",
    "PendingCard",
    "PerSide",
    "Phase",
    "PhaseStep",
    "PlayBonus",
    "PlayTactic",
    "PlayerState",
    "Quadrant",
    "ReplayMismatch",
    "ResolveAttack",
    "Roll",
    "RollDice",
    "RollModifier",
    "RoundLimit",
    "Side",
    "StoreBonus",
    "TacticHands",
    "TacticOdds",
    "TerrainChar",
    "TerrainParams",
    "TerrainRules",
    "TerrainStats",
    "TerrainType",
    "TerritorialControl",
    "TimedResistance",
    "Unit",
    "UnitSpec",
    "UnitStats",
    "UnitType",
    "VictoryConfig",
    "VictoryPoints",
    "Window",
    "WithdrawAttack",
    "attack_odds",
    "attack_preview",
    "board_info",
    "can_attack_after_move",
    "can_move_unit",
    "canonical_deck",
    "canonical_rules_version",
    "card_of",
    "check_references",
    "decide_to_act",
    "decision",
    "decode_action",
    "decode_record",
    "decode_state",
    "describe_event",
    "draw_index",
    "encode_action",
    "encode_record",
    "encode_state",
    "encode_text",
    "explain",
    "game_terrain",
    "generate_terrain",
    "hit_chance_and_damage",
    "home_side",
    "label",
    "legal_actions",
    "max_moves",
    "mix_seed",
    "move_preview",
    "movement_allowance",
    "new_game",
    "next_seed",
    "parse_label",
    "parse_terrain_map",
    "player_view",
    "reaction_windows",
    "record_game",
    "reduce",
    "replay",
    "roll_d6",
    "rolls_dice",
    "shuffle",
    "state_hash",
    "storage_limit",
    "unit_order",
    "unit_vp",
]
