"""Taktik engine: the game contract. A game is a pure function of its config and its actions::

    state = new_game(GameConfig(seed=7))
    while legal_actions(state):
        state = reduce(state, choose(legal_actions(state)))

Everything random comes from the config's seed through the state's LCG, and everything a
game plays with (its cards, tables and terrain rules) travels in the state, so a
`GameRecord` of ``(config, actions)`` rebuilds every position bit for bit, in any process.

The contract is here; answers for players and tools (previews, odds, threats, text,
allowances) are in `engine.analysis`, and the rules' data (tables, cards, board lookups,
terrain generation) in `engine.data`.
"""

from __future__ import annotations

from .actions import (
    ACTION_ORDER,
    MATCH_ACTION_ORDER,
    AcceptMalus,
    Action,
    AutoDeploy,
    CancelMalus,
    ChooseMalusTargets,
    ClaimVictory,
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
    Resign,
    ResolveAttack,
    RollDice,
    StoreBonus,
    Timeout,
    WithdrawAttack,
)
from .board.terrain_map import Board
from .cards.game import card_of
from .codec import (
    check_references,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    state_hash,
)
from .config import (
    MAX_GAME_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    CaptureAndHold,
    Forces,
    GameConfig,
    Leaders,
    PerSide,
    RoundLimit,
    RulesOverlay,
    TacticHands,
    TerritorialControl,
    TimedResistance,
    UnitSpec,
    VictoryConfig,
    VictoryPoints,
)
from .errors import (
    ILLEGAL_ACTION_CODES,
    CardDataError,
    IllegalAction,
    InvalidAction,
    InvalidState,
    ReplayMismatch,
)
from .flow.match_actions import (
    acting_side,
    match_actions,
)
from .flow.phases import decide_to_act
from .flow.victory import VICTORY_REASONS
from .flow.windows import (
    OpenWindow,
    reaction_windows,
)
from .mapgen import TerrainParams
from .random_action import (
    IndexSource,
    legal_action_count,
    random_legal_action,
)
from .reducer import (
    legal_actions,
    reduce,
)
from .replay import (
    GameRecord,
    decode_record,
    encode_record,
    record_game,
    replay,
)
from .rng import (
    draw_index,
    mix_seed,
    next_seed,
    roll_d6,
    shuffle,
)
from .rules_version import (
    LEGACY_VERSIONS,
    RULES_EPOCH,
    RULES_VERSION,
    canonical_rules_version,
)
from .start import new_game
from .state import (
    HIDDEN,
    Attack,
    Effect,
    Event,
    GameState,
    PendingCard,
    PlayerState,
    Roll,
    Rules,
    Unit,
)
from .tables import (
    TableOverrides,
    UnitStats,
)
from .types import (
    EventKind,
    Hook,
    Phase,
    Quadrant,
    Side,
    TerrainType,
    UnitType,
    Window,
    unit_order,
)
from .views import player_view

__all__ = [
    "ACTION_ORDER",
    "HIDDEN",
    "ILLEGAL_ACTION_CODES",
    "LEGACY_VERSIONS",
    "MATCH_ACTION_ORDER",
    "MAX_GAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RULES_EPOCH",
    "RULES_VERSION",
    "VICTORY_REASONS",
    "AcceptMalus",
    "Action",
    "Attack",
    "AutoDeploy",
    "Board",
    "CancelMalus",
    "CaptureAndHold",
    "CardDataError",
    "ChooseMalusTargets",
    "ClaimVictory",
    "ConfirmDeployment",
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
    "Hook",
    "IllegalAction",
    "IndexSource",
    "InvalidAction",
    "InvalidState",
    "Leaders",
    "MoveUnit",
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
    "Resign",
    "ResolveAttack",
    "Roll",
    "RollDice",
    "RoundLimit",
    "Rules",
    "RulesOverlay",
    "Side",
    "StoreBonus",
    "TableOverrides",
    "TacticHands",
    "TerrainParams",
    "TerrainType",
    "TerritorialControl",
    "TimedResistance",
    "Timeout",
    "Unit",
    "UnitSpec",
    "UnitStats",
    "UnitType",
    "VictoryConfig",
    "VictoryPoints",
    "Window",
    "WithdrawAttack",
    "acting_side",
    "canonical_rules_version",
    "card_of",
    "check_references",
    "decide_to_act",
    "decode_action",
    "decode_record",
    "decode_state",
    "draw_index",
    "encode_action",
    "encode_record",
    "encode_state",
    "legal_action_count",
    "legal_actions",
    "match_actions",
    "mix_seed",
    "new_game",
    "next_seed",
    "player_view",
    "random_legal_action",
    "reaction_windows",
    "record_game",
    "reduce",
    "replay",
    "roll_d6",
    "shuffle",
    "state_hash",
    "unit_order",
]
