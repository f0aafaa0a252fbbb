"""Combat mechanics shared by the attack page, the flow and the reaction windows (rules §6).

Declaration checks, the attack queue (advance, skip, cancel) and the roll with every
modifier named, so the log and the client can explain a hit or a miss.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from ..board.info import board_info
from ..cards.abilities import Ability
from ..cards.explanations import explain, recorded_clause
from ..cards.hooks import (
    attack_abilities,
    attack_damage,
    attack_roll_effects,
    can_attack,
    damage_cap,
    damage_effects,
    defense_abilities,
    defense_effects,
    ignores_defender_terrain,
    unit_distance,
)
from ..state import Effect, GameState, Modifier, Roll, Unit
from ..tables import TERRAIN, required_roll
from ..types import Hook, TerrainType
from .dice import forced_outcome, has_dice_rules, hit_probability
from .queue import placed_unit

__all__ = [
    "DamageModifier",
    "ModifierKind",
    "RollModifier",
    "compute_roll",
    "damage_modifiers",
    "hit_chance_and_damage",
    "hit_faces",
    "modified_roll",
    "roll_modifiers",
    "roll_total",
]


ModifierKind = Literal["bonus", "malus", "tactic", "terrain", "ability"]
"""What a roll or damage term comes from: a card of that kind, the target's terrain, a standing ability."""


class RollModifier(msgspec.Struct, frozen=True, kw_only=True):
    """One term added to the natural die of an attack (rules §6.3), and where it comes from."""

    kind: ModifierKind  # the source's type
    source: str  # its id: a card id, a terrain type (``URBAN``) or ``ability:<key>`` (``ability:rules.mud``)
    term: Literal["attack_roll", "defense", "cover", "terrain_defense"]  # which term of §6.3
    value: int  # added to the die (defense terms are negative)
    says: str | None = None  # a card term: the card and its clause ("Forest Ambush: infantry ..., +1 defense")
    clause: str | None = None  # the same, kept in the roll record: only for a card written in the condition language

    def as_modifier(self) -> Modifier:
        """The same term as `Roll.modifiers` names it."""
        if self.term == "attack_roll":
            return Modifier(source=self.source, value=self.value, clause=self.clause)
        if self.term == "defense":
            return Modifier(source=f"defense:{self.source}", value=self.value, clause=self.clause)
        name = "terrain_cover" if self.term == "cover" else "terrain_defense"
        return Modifier(source=f"{name}:{self.source}", value=self.value)


class DamageModifier(msgspec.Struct, frozen=True, kw_only=True):
    """One modify_damage term of an attack (rules §8.2): ``(damage + Σ add) × Π mul``, then the smallest ``cap``."""

    kind: ModifierKind  # the source card's kind
    source: str  # the card id, or ``ability:<key>``
    op: Literal["add", "mul", "cap"]
    value: int
    says: str | None = None  # the card and its clause


def _terrain_terms(terrain: TerrainType) -> tuple[RollModifier, ...]:
    stats = TERRAIN[terrain]
    terms: list[RollModifier] = []
    if stats.hit_modifier:
        terms.append(RollModifier(kind="terrain", source=terrain.value, term="cover", value=stats.hit_modifier))
    if stats.defense:
        terms.append(RollModifier(kind="terrain", source=terrain.value, term="terrain_defense", value=-stats.defense))
    return tuple(terms)


_TERRAIN_TERMS = {terrain: _terrain_terms(terrain) for terrain in TERRAIN}
"""The roll terms of a target's base terrain (§2.3: cover, then defense), built once."""


_RollSources = tuple[list[Effect], list[Ability], tuple[RollModifier, ...], list[Effect], list[Ability]]
"""The sources of every §6.3 term of one attack, in `Roll.modifiers` order, not yet named: modify_attack_roll
cards (+value) and abilities (+value), the target's base terrain terms (signed), modify_defense cards on the
target (-value) and its defense abilities (-value)."""


def _roll_sources(state: GameState, attacker: Unit, target: Unit, distance: int) -> _RollSources:
    """What adds to the die when ``attacker`` fires at ``target`` from ``distance`` (`roll_modifiers` names it)."""
    assert target.cell is not None
    effects = state.effects  # most positions have none: skip the hooks then (bots ask often)
    terrain: tuple[RollModifier, ...] = ()
    if not effects or not ignores_defender_terrain(state, attacker, target, distance):
        info = board_info(state.board)
        terrain = _TERRAIN_TERMS[info.terrain[info.index[target.cell]]]
    return (
        attack_roll_effects(state, attacker, target, distance) if effects else [],
        attack_abilities(state, Hook.MODIFY_ATTACK_ROLL, attacker, target, distance),
        terrain,
        defense_effects(state, target) if effects else [],
        defense_abilities(state, target),
    )


def roll_modifiers(state: GameState, attacker: Unit, target: Unit, distance: int) -> list[RollModifier]:
    """Every term of §6.3 added to the die when ``attacker`` fires at ``target`` from ``distance``.

    In the order `Roll.modifiers` lists them: card effects on the roll, abilities on the roll,
    the target's terrain (cover, then defense; none while ``ignore_defender_terrain`` covers
    the attack), then defense effects on the target and the target's defense abilities. The
    units' cells are read as given, so a caller may ask about a unit placed elsewhere
    (``replace(unit, cell=...)``).
    """
    roll_cards, roll_abilities, terrain, defense_cards, target_abilities = _roll_sources(
        state, attacker, target, distance
    )
    rules = state.rules
    modifiers = [
        RollModifier(
            kind=e.source_kind,
            source=e.source_card,
            term="attack_roll",
            value=e.value,
            says=explain(e, rules),
            clause=recorded_clause(e, rules),
        )
        for e in roll_cards
    ]
    modifiers += [
        RollModifier(
            kind="ability",
            source=f"ability:{a.data.key}",
            term="attack_roll",
            value=int(a.data.value),
            says=a.says,
            clause=a.says,
        )
        for a in roll_abilities
    ]
    modifiers += terrain
    modifiers += [
        RollModifier(
            kind=e.source_kind,
            source=e.source_card,
            term="defense",
            value=-e.value,
            says=explain(e, rules),
            clause=recorded_clause(e, rules),
        )
        for e in defense_cards
    ]
    modifiers += [
        RollModifier(
            kind="ability",
            source=f"ability:{a.data.key}",
            term="defense",
            value=-int(a.data.value),
            says=a.says,
            clause=a.says,
        )
        for a in target_abilities
    ]
    return modifiers


def roll_total(state: GameState, attacker: Unit, target: Unit, distance: int) -> int:
    """The sum of `roll_modifiers`' values, without naming the terms: what a tool asking many times needs."""
    roll_cards, roll_abilities, terrain, defense_cards, target_abilities = _roll_sources(
        state, attacker, target, distance
    )
    total = 0  # loops, not sum(): the lists are mostly empty, and this is asked often
    for effect in roll_cards:
        total += effect.value
    for ability in roll_abilities:
        total += int(ability.data.value)
    for term in terrain:
        total += term.value
    for effect in defense_cards:
        total -= effect.value
    for ability in target_abilities:
        total -= int(ability.data.value)
    return total


def damage_modifiers(state: GameState, attacker: Unit, target: Unit, distance: int) -> list[DamageModifier]:
    """Every modify_damage term of the attack, in effect order, its abilities' terms, then the ``cap_damage``
    that applies (if any)."""
    abilities = attack_abilities(state, Hook.MODIFY_DAMAGE, attacker, target, distance)
    if not state.effects and not abilities:
        return []
    terms = [
        DamageModifier(
            kind=e.source_kind,
            source=e.source_card,
            op="add" if e.op == "add" else "mul",
            value=e.value,
            says=explain(e, state.rules),
        )
        for e in damage_effects(state, attacker, target, distance)
    ]
    terms += [
        DamageModifier(
            kind="ability",
            source=f"ability:{a.data.key}",
            op="add" if a.data.op == "add" else "mul",
            value=int(a.data.value),
            says=a.says,
        )
        for a in abilities
    ]
    found = damage_cap(state, attacker, target, distance)
    if found is not None:
        cap, left = found
        says = explain(cap, state.rules)
        terms.append(DamageModifier(kind=cap.source_kind, source=cap.source_card, op="cap", value=left, says=says))
    return terms


def modified_roll(natural: int, modifier: int) -> int:
    """The die plus the sum of its modifiers, clamped to 1..6 (rules §6.3)."""
    return min(6, max(1, natural + modifier))


def _count_faces(modifier: int, required: int) -> int:
    return sum(1 for natural in range(1, 7) if modified_roll(natural, modifier) >= required)


_FACES = {(m, r): _count_faces(m, r) for m in range(-12, 13) for r in range(1, 7)}
"""`hit_faces` tabulated for every modifier tools usually meet (counted by `modified_roll`)."""


def hit_faces(modifier: int, required: int) -> int:
    """How many of the six faces of the die hit with ``modifier`` against ``required``."""
    faces = _FACES.get((modifier, required))
    return _count_faces(modifier, required) if faces is None else faces


def hit_chance_and_damage(state: GameState, attacker: Unit, target: Unit, distance: int) -> tuple[float, int]:
    """The chance that ``attacker`` hits ``target`` from ``distance`` before the die is thrown, and a hit's damage.

    The chance is 0 when an effect forbids the attack (``can_attack``): it can be neither
    declared nor resolved. The lean form of `engine.attack_odds` (the same functions, no
    names kept) for tools that ask many times; cells are read from the units as given.
    """
    damage = attack_damage(state, attacker, target, distance)
    if not can_attack(state, attacker, target, distance):
        return 0.0, damage
    total = roll_total(state, attacker, target, distance)
    required = required_roll(distance, state.rules.tables)
    if state.effects and has_dice_rules(state):
        chance = hit_probability(state, attacker, target, distance, lambda n: modified_roll(n, total) >= required)
        return float(chance), damage
    return hit_faces(total, required) / 6, damage


def compute_roll(state: GameState, natural: int) -> Roll:
    """The outcome of the pending attack for die ``natural``, every modifier named (§6.3)."""
    pending = state.pending_attack
    assert pending is not None
    attacker = placed_unit(state, pending.attacker)
    target = placed_unit(state, pending.target)
    assert attacker is not None and target is not None
    distance = unit_distance(attacker, target, state)
    modifiers = roll_modifiers(state, attacker, target, distance)
    modified = modified_roll(natural, sum(m.value for m in modifiers))
    required = required_roll(distance, state.rules.tables)
    outcome: Literal["HIT", "MISS"] = "HIT" if modified >= required else "MISS"
    forced = forced_outcome(state, attacker, target, distance, natural) if state.effects else None
    if forced is not None:
        outcome = forced[0]
    return Roll(
        natural=natural,
        modified=modified,
        required=required,
        distance=distance,
        outcome=outcome,
        modifiers=tuple(m.as_modifier() for m in modifiers),
    )
