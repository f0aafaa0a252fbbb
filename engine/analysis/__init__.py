"""Answers for players and tools about a position: previews, odds, threats, explanations, text.

Public, like `engine` itself: the server, the bots and the command line ask these instead of
re-deriving a rule. Each answer reads the same rule code `reduce` runs.
"""

from __future__ import annotations

from ..cards.effects import add_card_effects
from ..cards.hooks import (
    can_attack_after_move,
    can_move_unit,
    max_moves,
    storage_limit,
)
from ..combat.queue import in_truce
from ..combat.roll import (
    DamageModifier,
    RollModifier,
    hit_chance_and_damage,
)
from ..flow.bounds import (
    deployment_action_bound,
    turn_action_bound,
)
from ..flow.victory import (
    points_leader,
    unit_vp,
)
from ..movement import movement_allowance
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
from .reasons import explain
from .status import (
    PHASE_NAMES,
    TURN_RULER,
    Decision,
    DecisionKind,
    PhaseStep,
    decision,
    useful_response,
)
from .text import (
    describe_event,
    encode_text,
)
from .threats import (
    CellThreat,
    ThreatMap,
    threat_map,
)

__all__ = [
    "PHASE_NAMES",
    "TURN_RULER",
    "AttackOdds",
    "AttackPreview",
    "CellThreat",
    "DamageModifier",
    "Decision",
    "DecisionKind",
    "MoveOption",
    "MovePreview",
    "PhaseStep",
    "RollModifier",
    "TacticOdds",
    "ThreatMap",
    "add_card_effects",
    "attack_odds",
    "attack_preview",
    "can_attack_after_move",
    "can_move_unit",
    "decision",
    "deployment_action_bound",
    "describe_event",
    "encode_text",
    "explain",
    "hit_chance_and_damage",
    "in_truce",
    "max_moves",
    "move_preview",
    "movement_allowance",
    "points_leader",
    "rolls_dice",
    "storage_limit",
    "threat_map",
    "turn_action_bound",
    "unit_vp",
    "useful_response",
]
