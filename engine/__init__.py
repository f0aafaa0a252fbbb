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
from .board import Board, parse_terrain_map
from .boardinfo import BoardInfo, board_info
from .cards import CARDS, COMMON_CARDS, TACTICS, CardDef, canonical_deck, card_of
from .codec import decode_action, decode_state, encode_action, encode_state, state_hash
from .config import (
    MAX_GAME_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULES_VERSION,
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
from .deployment import home_side
from .errors import CardDataError, IllegalAction, InvalidAction, ReplayMismatch
from .explain import explain
from .flow import decide_to_act
from .grid import label, parse_label
from .hooks import can_attack_after_move, can_move_unit, max_moves, movement_allowance
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
from .reducer import is_legal, legal_actions, reduce
from .replay import GameRecord, decode_record, encode_record, record_game, replay
from .rng import draw_index, mix_seed, next_seed, roll_d6, shuffle
from .start import new_game
from .state import HIDDEN, Effect, Event, GameState, PendingCard, PlayerState, Roll, Unit
from .tables import MAX_ATTACKS_PER_TURN, TERRAIN, UNITS, TerrainRules, UnitStats
from .text import describe_event, encode_text
from .types import Hook, Phase, Quadrant, Side, TerrainType, UnitType, Window, unit_order
from .victory import unit_vp
from .views import player_view
from .windows import OpenWindow, reaction_windows

__all__ = [
    "ACTION_ORDER",
    "CARDS",
    "COMMON_CARDS",
    "HIDDEN",
    "MAX_ATTACKS_PER_TURN",
    "MAX_GAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULES_VERSION",
    "TACTICS",
    "TERRAIN",
    "UNITS",
    "AcceptMalus",
    "Action",
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
    "DeclareAttack",
    "DeployUnit",
    "DiscardBonus",
    "DrawCard",
    "Effect",
    "EndTurn",
    "Event",
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
    "card_of",
    "decide_to_act",
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
    "generate_terrain",
    "hit_chance_and_damage",
    "home_side",
    "is_legal",
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
    "unit_order",
    "unit_vp",
]
