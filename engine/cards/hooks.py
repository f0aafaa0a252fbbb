"""Hook points: how live effects change what the rules allow and compute (rules §8.2).

Each function answers one question for the rule pages by folding the matching effects
with the hook's combination rule. Every combination rule (any/all, sum, max, min,
product) is order-independent, so the result never depends on effect order.
"""

from __future__ import annotations

from typing import Final

from ..board.grid import chebyshev
from ..board.info import board_info
from ..state import Effect, GameState, Modifier, Unit
from ..tables import game_tables, unit_stats
from ..types import Hook, Side
from .abilities import Ability, ability_applies, unit_abilities
from .condition_rules import Context, Predicate
from .defs import CardDef
from .explanations import effect_def, explain
from .language import parse_use
from .live import effects_of, unit_applies, unit_conditions, unit_fits

__all__ = [
    "attack_abilities",
    "attack_damage",
    "attack_denial",
    "attack_effects",
    "attack_roll_effects",
    "attack_roll_modifiers",
    "can_attack",
    "can_attack_after_move",
    "can_move_unit",
    "can_play_card",
    "can_play_tactic",
    "can_resupply",
    "cap_left",
    "combine_damage",
    "damage_cap",
    "damage_effects",
    "defense_abilities",
    "defense_effects",
    "defense_modifiers",
    "ignore_hit_effects",
    "ignores_defender_terrain",
    "max_moves",
    "storage_limit",
    "unit_distance",
    "unit_stat",
]


def _attack_applies(
    state: GameState, effect: Effect, rule: Predicate | None, attacker: Unit, target: Unit, distance: int
) -> bool:
    scope = effect.scope
    if scope == "targets":
        hit = attacker.id in effect.targets
    elif scope == "own_attacks":
        hit = attacker.side is effect.controller
    elif scope == "pending_attack":
        pending = state.pending_attack
        hit = (
            pending is not None
            and effect.attack_seq == state.attack_seq
            and pending.attacker == attacker.id
            and pending.target == target.id
        )
    else:  # all_attacks
        hit = True
    if not hit or not unit_conditions(effect, attacker):
        return False
    cond = effect.conditions
    if cond.min_distance is not None and distance < cond.min_distance:
        return False
    if cond.target_unit is not None and target.id != cond.target_unit:
        return False
    if cond.target_quadrant is not None:
        info = board_info(state.board)
        if target.cell is None or info.quadrant[info.index[target.cell]] is not cond.target_quadrant:
            return False
    return rule is None or rule(
        Context(state, effect.controller, attacker, attacker, target, distance, effect.targets, None, effect)
    )


def _player_applies(effect: Effect, rule: Predicate | None, side: Side, card: CardDef | None, state: GameState) -> bool:
    if effect.controller is not side:
        return False
    if rule is not None and not rule(Context(state, effect.controller, None, named=effect.targets, effect=effect)):
        return False
    cond = effect.conditions
    if card is not None:
        if cond.card_category and card.category not in cond.card_category:
            return False
        if cond.card_class and card.card_class not in cond.card_class:
            return False
    return True


def unit_distance(attacker: Unit, target: Unit, state: GameState) -> int:
    """Chebyshev distance between two placed units."""
    info = board_info(state.board)
    assert attacker.cell is not None and target.cell is not None
    return chebyshev(info.xy(info.index[attacker.cell]), info.xy(info.index[target.cell]))


def _unit_abilities(state: GameState, hook: Hook, unit: Unit) -> list[Ability]:
    """The game's abilities on a unit hook that hold for ``unit``."""
    found = unit_abilities(state.rules, hook, unit.type)
    return [a for a in found if ability_applies(a, state, unit)] if found else []


def attack_abilities(state: GameState, hook: Hook, attacker: Unit, target: Unit, distance: int) -> list[Ability]:
    """The game's abilities on an attack hook that hold for the attack (the attacker as subject)."""
    found = unit_abilities(state.rules, hook, attacker.type)
    return [a for a in found if ability_applies(a, state, attacker, attacker, target, distance)] if found else []


def defense_abilities(state: GameState, target: Unit) -> list[Ability]:
    """The game's ``modify_defense`` abilities that hold for ``target``."""
    return _unit_abilities(state, Hook.MODIFY_DEFENSE, target)


def can_move_unit(state: GameState, unit: Unit) -> bool:
    """False if any *deny* applies to ``unit`` and no *allow* applies."""
    denied = allowed = False
    if not state.effects and not unit_abilities(state.rules, Hook.CAN_MOVE_UNIT, unit.type):
        return True  # the usual case: asked at every move
    for effect, rule in effects_of(state, Hook.CAN_MOVE_UNIT):
        if unit_applies(effect, rule, unit, state):
            if effect.op == "deny":
                denied = True
            else:
                allowed = True
    for ability in _unit_abilities(state, Hook.CAN_MOVE_UNIT, unit):
        if ability.data.op == "deny":
            denied = True
        else:
            allowed = True
    return allowed or not denied


def max_moves(state: GameState, side: Side) -> int:
    """Units ``side`` may move this turn: ``max_moves + Σ add`` (5 in the standard tables), then the smallest *cap*."""
    moves = game_tables(state.rules.tables).max_moves
    if not state.effects:  # the usual case, asked by every MOVEMENT listing and move: nothing to fold
        return max(0, moves)
    caps: list[int] = []
    for effect, rule in effects_of(state, Hook.MODIFY_MAX_MOVES):
        if _player_applies(effect, rule, side, None, state):
            if effect.op == "add":
                moves += effect.value
            else:
                caps.append(effect.value)
    return max(0, min([moves, *caps]))


def attack_denial(state: GameState, attacker: Unit, target: Unit, distance: int | None = None) -> str | None:
    """What forbids the attack (from ``distance``, by default the units' own): the card and clause, or the
    ability (``Special unit: moved this turn and cannot also fire``); None when nothing does."""
    denying = unit_abilities(state.rules, Hook.CAN_ATTACK, attacker.type)
    if not denying and not state.effects:  # the usual case: asked for every pair of every ATTACK listing
        return None
    if distance is None:
        distance = unit_distance(attacker, target, state)
    for e, rule in effects_of(state, Hook.CAN_ATTACK):
        if _attack_applies(state, e, rule, attacker, target, distance):
            return explain(e, state.rules)
    for ability in denying:
        if ability_applies(ability, state, attacker, attacker, target, distance):
            return ability.says
    return None


def can_attack(state: GameState, attacker: Unit, target: Unit, distance: int | None = None) -> bool:
    """False if any *deny* (a card's or an ability's) applies to the attack."""
    return attack_denial(state, attacker, target, distance) is None


def can_attack_after_move(state: GameState, unit: Unit) -> bool:
    """True if any *allow* lets a moved unit attack despite an ability such as move-or-fire."""
    return any(unit_applies(e, rule, unit, state) for e, rule in effects_of(state, Hook.CAN_ATTACK_AFTER_MOVE)) or bool(
        _unit_abilities(state, Hook.CAN_ATTACK_AFTER_MOVE, unit)
    )


def attack_roll_effects(state: GameState, attacker: Unit, target: Unit, distance: int) -> list[Effect]:
    """Every modify_attack_roll effect on the attack, in effect order (Σ add)."""
    effects = effects_of(state, Hook.MODIFY_ATTACK_ROLL)
    return [e for e, rule in effects if _attack_applies(state, e, rule, attacker, target, distance)]


def attack_roll_modifiers(state: GameState, attacker: Unit, target: Unit, distance: int) -> list[Modifier]:
    """Every modify_attack_roll term that applies, named by its source card."""
    effects = attack_roll_effects(state, attacker, target, distance)
    return [Modifier(source=e.source_card, value=e.value) for e in effects]


def defense_effects(state: GameState, target: Unit) -> list[Effect]:
    """Every modify_defense effect on ``target``, in effect order (Σ add, subtracted from the roll)."""
    return [e for e, rule in effects_of(state, Hook.MODIFY_DEFENSE) if unit_applies(e, rule, target, state)]


def defense_modifiers(state: GameState, target: Unit) -> list[Modifier]:
    """Every modify_defense term on ``target`` (subtracted from the roll)."""
    return [Modifier(source=e.source_card, value=e.value) for e in defense_effects(state, target)]


def damage_effects(state: GameState, attacker: Unit, target: Unit, distance: int) -> list[Effect]:
    """Every modify_damage effect on the attack, in effect order."""
    effects = effects_of(state, Hook.MODIFY_DAMAGE)
    return [e for e, rule in effects if _attack_applies(state, e, rule, attacker, target, distance)]


def attack_effects(state: GameState, hook: Hook, attacker: Unit, target: Unit, distance: int) -> list[Effect]:
    """Every effect of an attack hook (``reroll_attack_die``, ``natural_result``, ``cap_damage`` ...) on the attack."""
    return [e for e, rule in effects_of(state, hook) if _attack_applies(state, e, rule, attacker, target, distance)]


def ignore_hit_effects(state: GameState, attacker: Unit, target: Unit, distance: int) -> list[Effect]:
    """Every ``ignore_hit`` effect on ``target`` when ``attacker`` hits it, in effect order."""
    return [
        e
        for e, rule in effects_of(state, Hook.IGNORE_HIT)
        if unit_fits(e, target)
        and (rule is None or rule(Context(state, e.controller, target, attacker, target, distance, e.targets, None, e)))
    ]


def cap_left(state: GameState, effect: Effect, target: Unit) -> int:
    """What a ``cap_damage`` effect still lets ``target`` take: ``value`` for a cap per hit; for a cap per
    turn or round, ``value`` less the damage it let the target take this turn or round (at least 0)."""
    if effect.op == "cap" or not effect.uses:
        return effect.value
    taken = 0
    for use in effect.uses:
        turn, unit, _, amount = parse_use(use)
        same = turn == state.turn if effect.op == "cap_turn" else (turn + 1) // 2 == state.round
        if same and unit == target.id:
            taken += amount
    return max(0, effect.value - taken)


def damage_cap(state: GameState, attacker: Unit, target: Unit, distance: int) -> tuple[Effect, int] | None:
    """The ``cap_damage`` effect that lets the hit deal least (the first of equals) and what it lets, if any."""
    caps = [(e, cap_left(state, e, target)) for e in attack_effects(state, Hook.CAP_DAMAGE, attacker, target, distance)]
    return min(caps, key=lambda found: found[1]) if caps else None


def unit_stat(state: GameState, unit: Unit, stat: str) -> int:
    """``unit``'s ``range`` or ``damage`` now: its type's, set by the smallest ``modify_stat`` *set*, plus
    every *add*, at least 0 (rules §8.2)."""
    standing = unit_abilities(state.rules, Hook.MODIFY_STAT, unit.type)
    live = effects_of(state, Hook.MODIFY_STAT) if state.effects else ()
    base: int = getattr(unit_stats(unit.type, state.rules.tables), stat)
    if not standing and not live:  # the usual case: a listing asks each attacker's range
        return base
    terms = [(e.op, e.value, effect_def(e, state.rules).stat) for e, rule in live if unit_applies(e, rule, unit, state)]
    terms += [(a.data.op, int(a.data.value), a.data.stat) for a in standing if ability_applies(a, state, unit)]
    if not terms:
        return base
    sets = [value for op, value, which in terms if which == stat and op == "set"]
    start = min(sets) if sets else base
    return max(0, start + sum(value for op, value, which in terms if which == stat and op == "add"))


def combine_damage(base: int, effects: list[Effect], abilities: list[Ability] | None = None) -> int:
    """``(base + Σ add) × Π mul``, at least 0: the modify_damage combination rule (cards' and abilities' terms)."""
    damage, factor = base, 1
    terms = [(e.op, e.value) for e in effects] + [(a.data.op, int(a.data.value)) for a in abilities or ()]
    for op, value in terms:
        if op == "add":
            damage += value
        else:
            factor *= value
    return max(0, damage * factor)


_DAMAGE_HOOKS: Final = (Hook.MODIFY_DAMAGE, Hook.MODIFY_STAT, Hook.CAP_DAMAGE)


def _changes_damage(state: GameState) -> bool:
    """A live effect may change a hit's damage: one on modify_damage, modify_stat or cap_damage."""
    return any(effects_of(state, hook) for hook in _DAMAGE_HOOKS)


def attack_damage(state: GameState, attacker: Unit, target: Unit, distance: int | None = None) -> int:
    """HP a hit removes: ``(damage + Σ add) × Π mul``, damage being the attacker's per hit."""
    rules = state.rules
    kind = attacker.type
    if (
        not unit_abilities(rules, Hook.MODIFY_DAMAGE, kind)
        and not unit_abilities(rules, Hook.MODIFY_STAT, kind)
        and not (state.effects and _changes_damage(state))
    ):  # the common case, asked often: no term below can apply
        return combine_damage(unit_stats(attacker.type, rules.tables).damage, [])
    if distance is None:
        distance = unit_distance(attacker, target, state)
    base = unit_stat(state, attacker, "damage")
    abilities = attack_abilities(state, Hook.MODIFY_DAMAGE, attacker, target, distance)
    damage = combine_damage(base, damage_effects(state, attacker, target, distance), abilities)
    cap = damage_cap(state, attacker, target, distance)
    return damage if cap is None else min(damage, cap[1])


def ignores_defender_terrain(state: GameState, attacker: Unit, target: Unit, distance: int | None = None) -> bool:
    """True if an ``ignore_defender_terrain`` effect covers the attack."""
    if distance is None:
        distance = unit_distance(attacker, target, state)
    return any(
        _attack_applies(state, e, rule, attacker, target, distance)
        for e, rule in effects_of(state, Hook.IGNORE_DEFENDER_TERRAIN)
    )


def can_play_card(state: GameState, side: Side, card: CardDef) -> bool:
    """False if any *deny* matches ``card`` for ``side`` (for effect and for cancelling)."""
    return not any(_player_applies(e, rule, side, card, state) for e, rule in effects_of(state, Hook.CAN_PLAY_CARD))


def can_play_tactic(state: GameState, side: Side) -> bool:
    """False if any *deny* applies to ``side``."""
    return not any(_player_applies(e, rule, side, None, state) for e, rule in effects_of(state, Hook.CAN_PLAY_TACTIC))


def storage_limit(state: GameState, side: Side) -> int:
    """Stored bonuses ``side`` may keep: ``storage_limit + max(add)`` (6 in the standard tables)."""
    effects = effects_of(state, Hook.MODIFY_STORAGE_LIMIT)
    adds = [e.value for e, rule in effects if _player_applies(e, rule, side, None, state)]
    return game_tables(state.rules.tables).storage_limit + max(adds, default=0)


def can_resupply(state: GameState, unit: Unit) -> bool:
    """False if any *deny* applies to ``unit``."""
    return not any(unit_applies(e, rule, unit, state) for e, rule in effects_of(state, Hook.CAN_RESUPPLY))
