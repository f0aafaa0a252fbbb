"""Leaf vocabulary of the engine: sides, phases, unit and terrain kinds, type aliases.

This module imports nothing from the project, so every other module (and the server)
can share these names without creating import cycles.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta

__all__ = [
    "CardId",
    "CellLabel",
    "EventKind",
    "Hook",
    "Phase",
    "Quadrant",
    "Side",
    "TerrainType",
    "UnitId",
    "UnitType",
    "Window",
    "unit_order",
]


class Side(StrEnum):
    """One of the two players. ATTACKER plays odd turns, DEFENDER even turns."""

    ATTACKER = "ATTACKER"
    DEFENDER = "DEFENDER"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER

    @property
    def prefix(self) -> str:
        """The first letter of this side's unit ids (``A`` or ``D``)."""
        return self.value[0]


class Phase(StrEnum):
    """Phases of a turn (rules §4.1), plus DEPLOYMENT and the terminal VICTORY."""

    DEPLOYMENT = "DEPLOYMENT"
    TURN_START = "TURN_START"
    CARD_DRAW = "CARD_DRAW"
    CARD_RESOLUTION = "CARD_RESOLUTION"
    MOVEMENT = "MOVEMENT"
    ATTACK = "ATTACK"
    DICE_RESOLUTION = "DICE_RESOLUTION"
    END_TURN = "END_TURN"
    VICTORY = "VICTORY"


class UnitType(StrEnum):
    """Kinds of unit (rules §3.1)."""

    LIGHT_INFANTRY = "LIGHT_INFANTRY"
    MECHANIZED = "MECHANIZED"
    SPECIAL = "SPECIAL"


class TerrainType(StrEnum):
    """Base terrain of a cell (rules §2.3)."""

    PLAIN = "PLAIN"
    ROUGH = "ROUGH"
    FOREST = "FOREST"
    URBAN = "URBAN"
    INDUSTRIAL = "INDUSTRIAL"
    HILL = "HILL"
    WATER = "WATER"


class Quadrant(StrEnum):
    """Board quadrants (rules §2.1), in their canonical order."""

    NW = "NW"
    NE = "NE"
    SW = "SW"
    SE = "SE"


class Window(StrEnum):
    """Reaction windows (rules §9.1)."""

    BEFORE_MOVE = "beforeMove"
    AFTER_MOVE = "afterMove"
    BEFORE_ATTACK_ROLL = "beforeAttackRoll"
    AFTER_ATTACK_ROLL = "afterAttackRoll"
    BEFORE_DAMAGE = "beforeDamage"


class Hook(StrEnum):
    """Hook points through which card effects act (rules §8.2), plus ``instant`` actions."""

    CAN_MOVE_UNIT = "can_move_unit"
    CAN_ATTACK = "can_attack"
    CAN_ATTACK_AFTER_MOVE = "can_attack_after_move"
    MODIFY_MOVEMENT = "modify_movement"
    MODIFY_MAX_MOVES = "modify_max_moves"
    MODIFY_ATTACK_ROLL = "modify_attack_roll"
    MODIFY_DEFENSE = "modify_defense"
    MODIFY_DAMAGE = "modify_damage"
    IGNORE_DEFENDER_TERRAIN = "ignore_defender_terrain"
    CAN_PLAY_CARD = "can_play_card"
    CAN_PLAY_TACTIC = "can_play_tactic"
    MODIFY_STORAGE_LIMIT = "modify_storage_limit"
    CAN_RESUPPLY = "can_resupply"
    REROLL_ATTACK_DIE = "reroll_attack_die"
    NATURAL_RESULT = "natural_result"
    CAP_DAMAGE = "cap_damage"
    IGNORE_HIT = "ignore_hit"
    MODIFY_STAT = "modify_stat"
    STEP_COST = "step_cost"
    INSTANT = "instant"


class EventKind(StrEnum):
    """What an `Event` reports; the values are the wire strings clients switch on.

    Grouped as the turn runs: flow, cards, movement, combat, reactions, victory.
    """

    TURN_STARTED = "turn_started"
    PHASE_ENTERED = "phase_entered"
    UNIT_DEPLOYED = "unit_deployed"
    DEPLOYMENT_CONFIRMED = "deployment_confirmed"
    CARD_DRAWN = "card_drawn"
    DECK_RECYCLED = "deck_recycled"
    BONUS_PLAYED = "bonus_played"
    BONUS_STORED = "bonus_stored"
    BONUS_DISCARDED = "bonus_discarded"
    MALUS_ACCEPTED = "malus_accepted"
    MALUS_APPLIED = "malus_applied"
    MALUS_VICTIM = "malus_victim"
    MALUS_FIZZLED = "malus_fizzled"
    MALUS_CANCELLED = "malus_cancelled"
    EFFECT_EXPIRED = "effect_expired"
    UNIT_RESTORED = "unit_restored"
    UNIT_RETURNED = "unit_returned"
    UNIT_MOVED = "unit_moved"
    ATTACK_DECLARED = "attack_declared"
    ATTACK_WITHDRAWN = "attack_withdrawn"
    ATTACK_PENDING = "attack_pending"
    ATTACK_SKIPPED = "attack_skipped"
    ATTACK_CANCELLED = "attack_cancelled"
    ATTACK_DROPPED = "attack_dropped"
    DICE_ROLLED = "dice_rolled"
    DICE_REROLLED = "dice_rerolled"
    ROLL_CHANGED = "roll_changed"
    CARD_RULE = "card_rule"
    ATTACK_HIT = "attack_hit"
    ATTACK_MISSED = "attack_missed"
    UNIT_DAMAGED = "unit_damaged"
    UNIT_DESTROYED = "unit_destroyed"
    TACTIC_PLAYED = "tactic_played"
    REACTION_PASSED = "reaction_passed"
    POINTS_SCORED = "points_scored"
    POINT_CAPTURED = "point_captured"
    TIME_RAN_OUT = "time_ran_out"  # a per-turn clock ran out (engine.match_actions)
    VICTORY = "victory"


UnitId = Annotated[str, Meta(pattern=r"^[AD][1-9][0-9]{0,2}$", description="unit id such as A7 or D12")]
"""A unit id: side letter then a number (``A1``-``A10``, ``D1``-``D15`` by default)."""

CellLabel = Annotated[str, Meta(pattern=r"^[A-Z]{1,3}[1-9][0-9]{0,3}$", description="cell label such as K16")]
"""A cell label: spreadsheet column letters then the 1-based row (``K16``)."""

CardId = Annotated[
    str,
    Meta(
        pattern=r"^[a-z][a-z0-9_]{0,40}(@[0-9a-f]{8})?$",
        description="card id such as dense_fog; a variant's changed card adds @ and 8 hex digits of its definition",
    ),
]
"""A card id from the card data (``dense_fog``); instances add ``#n`` (``dense_fog#1``)."""


def unit_order(unit_id: str) -> tuple[int, int]:
    """Sort key of the canonical unit order: ATTACKER units first, then by number (A2 < A10 < D1)."""
    return (0 if unit_id[0] == "A" else 1, int(unit_id[1:]))
