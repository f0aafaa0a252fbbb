"""The closed sets of the card language: which ops and scopes each hook takes, the stats, the durations.

One table (`HOOK_RULES`) says what each hook carries; the types the card structs are
validated with (`Op`, `Scope`, `Duration`) are built from it, so the JSON Schema an editor
reads (`engine.cards.catalogue.card_file_schema`) and the checks a card passes at load
(`engine.cards.checks`) cannot disagree about them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from msgspec import Meta

from ..types import Hook, Phase

__all__ = [
    "ABILITY_HOOKS",
    "ABILITY_ONLY_HOOKS",
    "ATTACK_SCOPES",
    "DURATION_PATTERN",
    "HOOK_RULES",
    "INSTANT_OP_NAMES",
    "LIMITED_HOOKS",
    "OPS",
    "PLAYER_SCOPES",
    "SCOPES",
    "STATS",
    "UNIT_SCOPES",
    "Duration",
    "LimitPer",
    "Op",
    "Scope",
    "Stat",
]

UNIT_SCOPES = ("targets", "own_units", "enemy_units", "all_units")
"""Scopes of a hook asked about a unit: relative to the effect's controller, or the play's named units."""
ATTACK_SCOPES = ("targets", "own_attacks", "all_attacks", "pending_attack")
"""Scopes of a hook asked about an attack: by the named units, by the controller's units, any, the pending one."""
PLAYER_SCOPES = ("controller",)
"""The scope of a hook asked about a player."""

INSTANT_OP_NAMES = ("restore_hp", "add_hp", "set_hp", "return_unit", "mark_attacked", "reroll_die")
"""The instant ops (`engine.cards.instants.INSTANT_OPS` checks at import that it has exactly these)."""

HOOK_RULES: dict[Hook, tuple[tuple[str, ...], tuple[str, ...]]] = {
    Hook.CAN_MOVE_UNIT: (("allow", "deny"), UNIT_SCOPES),
    Hook.CAN_ATTACK: (("deny",), ATTACK_SCOPES),
    Hook.CAN_ATTACK_AFTER_MOVE: (("allow",), UNIT_SCOPES),
    Hook.MODIFY_MOVEMENT: (("add", "halve", "set"), UNIT_SCOPES),
    Hook.MODIFY_MAX_MOVES: (("add", "cap"), PLAYER_SCOPES),
    Hook.MODIFY_ATTACK_ROLL: (("add",), ATTACK_SCOPES),
    Hook.MODIFY_DEFENSE: (("add",), UNIT_SCOPES),
    Hook.MODIFY_DAMAGE: (("add", "mul"), ATTACK_SCOPES),
    Hook.IGNORE_DEFENDER_TERRAIN: (("apply",), ATTACK_SCOPES),
    Hook.CAN_PLAY_CARD: (("deny",), PLAYER_SCOPES),
    Hook.CAN_PLAY_TACTIC: (("deny",), PLAYER_SCOPES),
    Hook.MODIFY_STORAGE_LIMIT: (("add",), PLAYER_SCOPES),
    Hook.CAN_RESUPPLY: (("deny",), UNIT_SCOPES),
    Hook.REROLL_ATTACK_DIE: (("reroll", "reroll_miss", "reroll_hit"), ATTACK_SCOPES),
    Hook.NATURAL_RESULT: (("hit", "miss"), ATTACK_SCOPES),
    Hook.CAP_DAMAGE: (("cap", "cap_turn", "cap_round"), ATTACK_SCOPES),
    Hook.IGNORE_HIT: (("save", "save_first", "ignore"), UNIT_SCOPES),
    Hook.MODIFY_STAT: (("add", "set"), UNIT_SCOPES),
    Hook.STEP_COST: (("add", "block"), UNIT_SCOPES),
    Hook.INSTANT: (INSTANT_OP_NAMES, ("targets", "pending_attack")),
}
"""Per hook: the ops it carries and the scopes that reach its subject (rules §8.2, §8.3)."""

OPS: tuple[str, ...] = tuple(dict.fromkeys(op for ops, _ in HOOK_RULES.values() for op in ops))
SCOPES: tuple[str, ...] = tuple(dict.fromkeys(scope for _, scopes in HOOK_RULES.values() for scope in scopes))

STATS = ("range", "damage")
"""The unit stats ``modify_stat`` changes while it lasts (movement points have their own hook,
``modify_movement``; HP are the unit's own, changed once by the instant ops ``add_hp`` and ``set_hp``)."""

LIMITED_HOOKS = frozenset(
    {
        Hook.MODIFY_ATTACK_ROLL,
        Hook.MODIFY_DEFENSE,
        Hook.MODIFY_DAMAGE,
        Hook.REROLL_ATTACK_DIE,
        Hook.IGNORE_HIT,
    }
)
"""Hooks that act at a moment of an attack (the roll, the hit): an effect on them may carry a ``limit``."""

ABILITY_HOOKS = frozenset(
    {
        Hook.CAN_MOVE_UNIT,
        Hook.CAN_ATTACK,
        Hook.CAN_ATTACK_AFTER_MOVE,
        Hook.MODIFY_ATTACK_ROLL,
        Hook.MODIFY_DEFENSE,
        Hook.MODIFY_DAMAGE,
        Hook.MODIFY_STAT,
        Hook.STEP_COST,
    }
)
"""Hooks a unit type's or a game's standing ability may act through (`engine.cards.abilities`)."""

ABILITY_ONLY_HOOKS = frozenset({Hook.STEP_COST})
"""Hooks only a standing ability carries: a step's cost is built into the board's step tables once."""

DURATION_PATTERN = (
    r"^(end_of_turn|this_attack|permanent|instant|turns:[1-9][0-9]?|until_phase:("
    + "|".join(phase.value for phase in Phase)
    + "))$"
)

if TYPE_CHECKING:
    Op = str
    Scope = str
    Stat = str
else:
    Op = Literal[OPS]
    Scope = Literal[SCOPES]
    Stat = Literal[STATS]

Duration = Annotated[
    str, Meta(pattern=DURATION_PATTERN, description="end_of_turn, turns:N, this_attack, until_phase:PHASE, permanent")
]
LimitPer = Literal["effect", "turn", "unit", "unit_turn"]
"""What a limit counts: uses in all, each turn, on each unit, on each unit each turn."""
