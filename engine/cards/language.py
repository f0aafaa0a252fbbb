"""The effect language of cards: what each hook can carry, compiled rules, and how an effect explains itself.

An effect (``engine.cards.EffectDef``) may carry, beyond its hook/op/value/scope:

- ``when``: a condition tree (`engine.conditions`), ANDed with its flat ``conditions``;
- ``aura``: ``{"radius": R, "source": COND}``: the effect applies only to subjects within
  ``R`` cells of a placed unit matching ``source`` (without a source: of the units the
  card's play named), re-evaluated wherever the units stand now;
- ``faces``: the natural die values a ``reroll_attack_die`` or ``natural_result`` effect acts on;
- ``says``: the clause in the designer's words, for explanations (generated when absent).

Which context a hook gives its conditions: unit hooks a subject (the unit), attack hooks
the attacker as subject plus the attack, ``ignore_hit`` the hit unit plus the attack,
player hooks only the game. `language_problems` refuses a tree that reads more than its
hook gives. `rule_of` compiles an effect's ``when`` and ``aura`` into one predicate, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..types import Hook, Quadrant
from .condition_rules import READ_UNITS, Context, Predicate, around, compile_condition
from .conditions import (
    AllOf,
    Condition,
    Distance,
    HasTag,
    InQuadrant,
    IsType,
    Targeted,
    TargetIs,
    describe,
    needs,
)

if TYPE_CHECKING:
    from .defs import CardDef, ConditionsDef, EffectDef

__all__ = [
    "ATTACK_HOOKS",
    "FACE_HOOKS",
    "LANGUAGE_HOOKS",
    "PLAYER_HOOKS",
    "clause_text",
    "effect_phrase",
    "language_problems",
    "rule_of",
    "sugar",
    "uses_language",
]

FACE_HOOKS = frozenset({Hook.REROLL_ATTACK_DIE, Hook.NATURAL_RESULT})
"""Hooks whose effects act on given natural die values (``faces``)."""

ATTACK_HOOKS = frozenset(
    {
        Hook.CAN_ATTACK,
        Hook.MODIFY_ATTACK_ROLL,
        Hook.MODIFY_DAMAGE,
        Hook.IGNORE_DEFENDER_TERRAIN,
        Hook.REROLL_ATTACK_DIE,
        Hook.NATURAL_RESULT,
        Hook.CAP_DAMAGE,
        Hook.IGNORE_HIT,
    }
)
"""Hooks asked about one attack: their conditions may read ``distance``, ``attacker`` and ``target``."""

PLAYER_HOOKS = frozenset(
    {Hook.MODIFY_MAX_MOVES, Hook.CAN_PLAY_CARD, Hook.CAN_PLAY_TACTIC, Hook.MODIFY_STORAGE_LIMIT, Hook.INSTANT}
)
"""Hooks asked about a player (or none): their conditions read only the game."""


LANGUAGE_HOOKS = frozenset({Hook.REROLL_ATTACK_DIE, Hook.NATURAL_RESULT, Hook.CAP_DAMAGE, Hook.IGNORE_HIT})
"""The hooks the language added: their effects always record their clause."""


def uses_language(effect: EffectDef) -> bool:
    """True when the effect uses the language (tree, aura, clause, new hook): its live record names its clause."""
    return (
        effect.when is not None or effect.aura is not None or effect.says is not None or effect.hook in LANGUAGE_HOOKS
    )


def language_problems(card: CardDef, effect: EffectDef, where: str) -> list[tuple[str, str]]:
    """Every reason ``effect`` cannot be carried by its hook, as ``(field path, problem)``."""
    problems: list[tuple[str, str]] = []
    hook = effect.hook
    if hook is Hook.INSTANT and uses_language(effect):
        problems.append((f"{where}.when", "an instant effect acts once, at play: it has no condition, aura or clause"))
    if hook in FACE_HOOKS and not effect.faces:
        problems.append((f"{where}.faces", f"hook {hook.value} needs the natural values it acts on (1..6)"))
    if hook not in FACE_HOOKS and effect.faces:
        problems.append((f"{where}.faces", f"hook {hook.value} does not act on natural values"))
    if hook is Hook.IGNORE_HIT and not 2 <= effect.value <= 6:
        problems.append((f"{where}.value", f"ignore_hit saves on a roll of N+, N in 2..6, not {effect.value}"))
    if hook is Hook.CAP_DAMAGE and effect.value < 0:
        problems.append((f"{where}.value", "a damage cap cannot be negative"))
    if effect.when is not None:
        read = needs(effect.when)
        if "attack" in read and hook not in ATTACK_HOOKS:
            problems.append((f"{where}.when", f"hook {hook.value} has no attack to read (distance, attacker, target)"))
        if "unit" in read and hook in PLAYER_HOOKS:
            problems.append((f"{where}.when", f"hook {hook.value} has no unit to read: only game facts fit"))
    if effect.aura is not None:
        if hook in PLAYER_HOOKS:
            problems.append((f"{where}.aura", f"hook {hook.value} has no unit for an aura to reach"))
        names_units = card.targeting.kind in ("own_unit", "pending_attacker", "pending_target") or (
            card.kind == "malus" and card.victims.kind == "chosen"
        )
        if effect.aura.source is None and not names_units:
            problems.append((f"{where}.aura.source", "an aura without a source radiates from named units"))
        if effect.aura.source is not None and "attack" in needs(effect.aura.source):
            problems.append((f"{where}.aura.source", "an aura's source is a unit fact, not an attack fact"))
    return problems


_RULES: dict[tuple[str, int], tuple[CardDef, Predicate]] = {}


def rule_of(card: CardDef, index: int) -> Predicate:
    """The compiled ``when`` and ``aura`` of effect ``index`` of ``card`` (compiled on first ask, then kept)."""
    key = (card.id, index)
    known = _RULES.get(key)
    if known is not None and known[0] is card:  # the same card object: a test may swap a card under one id
        return known[1]
    rule = _compile(card.effects[index])
    _RULES[key] = (card, rule)
    return rule


def _compile(effect: EffectDef) -> Predicate:
    parts: list[Predicate] = []
    if effect.when is not None:
        parts.append(compile_condition(effect.when))
    if effect.aura is not None:
        parts.append(
            _aura(effect.aura.radius, None if effect.aura.source is None else compile_condition(effect.aura.source))
        )
    if not parts:
        return lambda ctx: True
    if len(parts) == 1:
        return parts[0]
    first, second = parts
    return lambda ctx: first(ctx) and second(ctx)


def _aura(radius: int, source: Predicate | None) -> Predicate:
    def in_aura(ctx: Context) -> bool:
        ctx.reads_units(READ_UNITS)  # not bounded: ``source`` may read around each unit in range
        if source is None:
            return any(unit.id in ctx.named for unit in around(ctx, radius))
        return any(ctx.ask(source, unit) for unit in around(ctx, radius))

    return in_aura


def sugar(conditions: ConditionsDef) -> Condition | None:
    """The flat fields of an effect as the tree they stand for (``$quadrant`` stays bound at play time).

    ``unit_types`` and ``unit_tags`` read the subject, ``min_distance`` the attack,
    ``target_unit: "$target"`` the card's chosen unit as the attack's target. The
    card-play fields (``card_category``, ``card_class``) filter cards, not units, and
    have no tree form.
    """
    parts: list[Condition] = []
    if conditions.unit_types:
        parts.append(IsType(is_=conditions.unit_types))
    if conditions.unit_tags:
        parts.append(HasTag(is_=conditions.unit_tags))
    if conditions.min_distance is not None:
        parts.append(Distance(at_least=conditions.min_distance))
    if conditions.target_unit is not None:
        parts.append(TargetIs(is_=Targeted()))
    quadrant = conditions.target_quadrant
    if quadrant is not None and quadrant != "$quadrant":
        parts.append(TargetIs(is_=InQuadrant(is_=(Quadrant(quadrant),))))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else AllOf(of=tuple(parts))


def _signed(value: float) -> str:
    number = int(value) if value == int(value) else value
    return f"+{number}" if value >= 0 else f"{number}"


def _faces(faces: tuple[int, ...]) -> str:
    return "natural " + " or ".join(str(f) for f in faces)


def effect_phrase(effect: EffectDef) -> str:
    """What the effect does, in a few words: ``+1 defense``, ``a natural 6 always hits``."""
    hook, op, value = effect.hook, effect.op, effect.value
    if hook is Hook.MODIFY_DEFENSE:
        return f"{_signed(value)} defense"
    if hook is Hook.MODIFY_ATTACK_ROLL:
        return f"{_signed(value)} to hit"
    if hook is Hook.MODIFY_DAMAGE:
        return f"{_signed(value)} damage" if op == "add" else f"damage x{int(value)}"
    if hook is Hook.MODIFY_MOVEMENT:
        return f"{_signed(value)} MP" if op == "add" else "movement halved"
    if hook is Hook.REROLL_ATTACK_DIE:
        return f"a {_faces(effect.faces)} is rerolled once"
    if hook is Hook.NATURAL_RESULT:
        return f"a {_faces(effect.faces)} always {'hits' if op == 'hit' else 'misses'}"
    if hook is Hook.CAP_DAMAGE:
        return f"at most {int(value)} damage per attack"
    if hook is Hook.IGNORE_HIT:
        which = "the first hit" if op == "save_first" else "a hit"
        return f"ignores {which} on a roll of {int(value)}+"
    return f"{hook.value} {op}" + (f" {_signed(value)}" if value else "")


def clause_text(card: CardDef, index: int) -> str:
    """The card and the clause that applies: ``Forest Ambush: infantry units in forest, +1 defense``."""
    effect = card.effects[index]
    if effect.says is not None:
        return f"{card.name}: {effect.says}"
    words: list[str] = []
    flat = sugar(effect.conditions)
    for tree in (flat, effect.when):
        if tree is not None:
            words.append(describe(tree))
    if effect.aura is not None:
        source = "the chosen unit" if effect.aura.source is None else describe(effect.aura.source)
        words.append(f"within {effect.aura.radius} of {source}")
    words.append(effect_phrase(effect))
    return f"{card.name}: {', '.join(words)}"
