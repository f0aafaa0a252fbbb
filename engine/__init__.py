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
from .board import Board, parse_terrain_map
from .cards import CARDS, CardDef, card_of
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
from .errors import CardDataError, IllegalAction, InvalidAction, ReplayMismatch
from .grid import label, parse_label
from .hooks import max_moves
from .mapgen import GeneratedTerrain, TerrainParams, TerrainStats, generate_terrain
from .reducer import is_legal, legal_actions, reduce
from .replay import GameRecord, decode_record, encode_record, record_game, replay
from .start import new_game
from .state import HIDDEN, Effect, Event, GameState, PlayerState, Roll, Unit
from .tables import MAX_ATTACKS_PER_TURN, TERRAIN, UNITS, TerrainRules, UnitStats
from .text import describe_event, encode_text
from .types import Phase, Quadrant, Side, TerrainType, UnitType, Window
from .views import player_view
from .windows import OpenWindow, reaction_windows

__all__ = [
    "ACTION_ORDER",
    "CARDS",
    "HIDDEN",
    "MAX_ATTACKS_PER_TURN",
    "MAX_GAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULES_VERSION",
    "TERRAIN",
    "UNITS",
    "AcceptMalus",
    "Action",
    "AutoDeploy",
    "Board",
    "CancelMalus",
    "CaptureAndHold",
    "CardDataError",
    "CardDef",
    "ChooseMalusTargets",
    "CombatRequires",
    "CombatRule",
    "ConfirmDeployment",
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
    "IllegalAction",
    "InvalidAction",
    "Leaders",
    "MoveUnit",
    "MovementRequires",
    "MovementRule",
    "NextPhase",
    "OpenWindow",
    "Params",
    "PassReaction",
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
    "RoundLimit",
    "Side",
    "StoreBonus",
    "TacticHands",
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
    "card_of",
    "decode_action",
    "decode_record",
    "decode_state",
    "describe_event",
    "encode_action",
    "encode_record",
    "encode_state",
    "encode_text",
    "generate_terrain",
    "is_legal",
    "label",
    "legal_actions",
    "max_moves",
    "new_game",
    "parse_label",
    "parse_terrain_map",
    "player_view",
    "reaction_windows",
    "record_game",
    "reduce",
    "replay",
    "state_hash",
]
