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

from ..tables import TERRAIN, UNITS
from ..types import Hook, Phase, Quadrant
from .condition_rules import READ_EFFECTS, READ_UNITS, Context, Predicate, around, compile_condition
from .conditions import (
    AllOf,
    AnyOf,
    AttackerIs,
    Condition,
    Distance,
    HasTag,
    InQuadrant,
    IsType,
    Near,
    Not,
    OnOverlay,
    OnTerrain,
    PhaseIs,
    RoundIs,
    Targeted,
    TargetIs,
    TerrainTag,
    Under,
    Xor,
    describe,
    needs,
)
from .vocabulary import ABILITY_ONLY_HOOKS, HOOK_RULES, LIMITED_HOOKS

if TYPE_CHECKING:
    from .defs import CardDef, ConditionsDef, EffectDef, LimitDef

__all__ = [
    "ATTACK_HOOKS",
    "FACE_HOOKS",
    "HOOK_PHASES",
    "LANGUAGE_HOOKS",
    "PLAYER_HOOKS",
    "aura_rule",
    "clause_text",
    "effect_phrase",
    "effect_phrase_of",
    "language_problems",
    "parse_use",
    "rule_of",
    "sugar",
    "tree_problems",
    "uses_language",
    "walk",
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


LANGUAGE_HOOKS = frozenset(
    {Hook.REROLL_ATTACK_DIE, Hook.NATURAL_RESULT, Hook.CAP_DAMAGE, Hook.IGNORE_HIT, Hook.MODIFY_STAT}
)
"""The hooks the language added: their effects always record their clause."""

_DICE = frozenset({Phase.DICE_RESOLUTION})
_PLAY_PHASES = frozenset({Phase.CARD_RESOLUTION, Phase.MOVEMENT, Phase.ATTACK})
HOOK_PHASES: dict[Hook, frozenset[Phase]] = {
    Hook.CAN_MOVE_UNIT: _PLAY_PHASES,  # moves, and Air Cover's "cannot move" when a bonus is played
    Hook.CAN_ATTACK: frozenset({Phase.ATTACK, Phase.DICE_RESOLUTION}),
    Hook.CAN_ATTACK_AFTER_MOVE: frozenset({Phase.ATTACK, Phase.DICE_RESOLUTION}),
    Hook.MODIFY_MOVEMENT: frozenset({Phase.MOVEMENT}),
    Hook.MODIFY_MAX_MOVES: frozenset({Phase.MOVEMENT}),
    Hook.MODIFY_ATTACK_ROLL: _DICE,
    Hook.MODIFY_DEFENSE: _DICE,
    Hook.MODIFY_DAMAGE: _DICE,
    Hook.IGNORE_DEFENDER_TERRAIN: _DICE,
    Hook.REROLL_ATTACK_DIE: _DICE,
    Hook.NATURAL_RESULT: _DICE,
    Hook.CAP_DAMAGE: _DICE,
    Hook.IGNORE_HIT: _DICE,
    Hook.CAN_PLAY_CARD: _PLAY_PHASES,
    Hook.CAN_PLAY_TACTIC: frozenset({Phase.MOVEMENT, Phase.DICE_RESOLUTION}),
    Hook.MODIFY_STORAGE_LIMIT: frozenset({Phase.CARD_RESOLUTION}),
    Hook.CAN_RESUPPLY: _PLAY_PHASES,
}
"""The phases in which the rules ask each hook when a game is played (a hook not here: any phase).

A ``phase`` condition that holds in none of them never lets its effect act, and is refused."""

_ALL_PHASES = frozenset(Phase)
_UNIT_TAGS = frozenset(tag for row in UNITS.values() for tag in row.tags)
_TERRAIN_TAGS = frozenset(tag for row in TERRAIN.values() for tag in row.tags)
_STEP_FACTS = (AllOf, AnyOf, Not, Xor, IsType, HasTag, OnTerrain, TerrainTag, OnOverlay, InQuadrant)
"""What a ``step_cost`` may read: the moving unit's type and the cell entered (its tables are built once)."""


def uses_language(effect: EffectDef) -> bool:
    """True when the effect uses the language (tree, aura, clause, limit, option, new hook): its live record
    names its clause."""
    return (
        effect.when is not None
        or effect.aura is not None
        or effect.says is not None
        or effect.limit is not None
        or effect.option is not None
        or effect.hook in LANGUAGE_HOOKS
    )


def _phases(node: Condition) -> frozenset[Phase]:
    """The phases in which ``node`` may hold (conservative: every phase unless a ``phase`` fact narrows it)."""
    match node:
        case PhaseIs(is_=phases):
            return frozenset(phases)
        case AllOf(of=parts):
            found = _ALL_PHASES
            for part in parts:
                found &= _phases(part)
            return found
        case AnyOf(of=parts) | Xor(of=parts):
            return frozenset().union(*(_phases(p) for p in parts))
        case Not(of=PhaseIs(is_=phases)):
            return _ALL_PHASES - frozenset(phases)
    return _ALL_PHASES


def walk(node: Condition) -> list[Condition]:
    """``node`` and every condition inside it."""
    found = [node]
    match node:
        case AllOf(of=parts) | AnyOf(of=parts) | Xor(of=parts):
            for part in parts:
                found += walk(part)
        case Not(of=part) | TargetIs(is_=part) | AttackerIs(is_=part):
            found += walk(part)
        case Near(unit=sub) if sub is not None:
            found += walk(sub)
    return found


def tree_problems(tree: Condition, hook: Hook, where: str) -> list[tuple[str, str]]:
    """Every reason the condition ``tree`` cannot be read on ``hook``, or can never hold there."""
    problems: list[tuple[str, str]] = []
    read = needs(tree)
    if "attack" in read and hook not in ATTACK_HOOKS:
        problems.append((where, f"hook {hook.value} has no attack to read (distance, attacker, target)"))
    if "unit" in read and hook in PLAYER_HOOKS:
        problems.append((where, f"hook {hook.value} has no unit to read: only game facts fit"))
    acting = HOOK_PHASES.get(hook, _ALL_PHASES)
    if not _phases(tree) & acting:
        names = ", ".join(p.value for p in Phase if p in acting)
        problems.append(
            (where, f"never holds: hook {hook.value} acts only in {names}, and this condition needs another phase")
        )
    for node in walk(tree):
        match node:
            case RoundIs(at_least=low, at_most=high) | Distance(at_least=low, at_most=high) if (
                low is not None and high is not None and low > high
            ):
                problems.append((where, f"never holds: {describe(node)} is an empty range ({low} > {high})"))
            case HasTag(is_=tags) if not set(tags) & _UNIT_TAGS:
                problems.append(
                    (
                        where,
                        f"never holds: no unit type carries {', '.join(tags)} (known: {', '.join(sorted(_UNIT_TAGS))})",
                    )
                )
            case TerrainTag(is_=tags) | Near(terrain_tag=tags) if tags and not set(tags) & _TERRAIN_TAGS:
                known = ", ".join(sorted(_TERRAIN_TAGS))
                problems.append((where, f"never holds: no terrain carries {', '.join(tags)} (known: {known})"))
            case Near(unit=sub, terrain=terrains, terrain_tag=tags) if (sub is not None) + bool(terrains) + bool(
                tags
            ) != 1:
                problems.append((where, "'near' counts one thing: give exactly one of unit, terrain or terrain_tag"))
            case Under(card=cards, hook=None, op=op) if not cards or op is not None:
                problems.append((where, "'under' names a card, a hook, or both (an op only with its hook)"))
            case Under(hook=under_hook, op=op) if (
                under_hook is not None and op is not None and op not in HOOK_RULES[under_hook][0]
            ):
                problems.append(
                    (where, f"{op!r} is not an op of hook {under_hook.value} ({', '.join(HOOK_RULES[under_hook][0])})")
                )
    if hook is Hook.STEP_COST:
        for node in walk(tree):
            if not isinstance(node, _STEP_FACTS):
                problems.append(
                    (where, f"a step's cost reads only the unit's type and the cell it enters, not {describe(node)!r}")
                )
                break
    return problems


def _limit_problems(effect: EffectDef, where: str) -> list[tuple[str, str]]:
    if effect.limit is None or effect.hook in LIMITED_HOOKS:
        return []
    hooks = ", ".join(sorted(h.value for h in LIMITED_HOOKS))
    return [(f"{where}.limit", f"hook {effect.hook.value} acts at no moment to count: a limit fits {hooks}")]


def language_problems(card: CardDef, effect: EffectDef, where: str) -> list[tuple[str, str]]:
    """Every reason ``effect`` cannot be carried by its hook, as ``(field path, problem)``."""
    problems: list[tuple[str, str]] = []
    hook = effect.hook
    if hook is Hook.INSTANT and (effect.when is not None or effect.aura is not None or effect.says is not None):
        problems.append((f"{where}.when", "an instant effect acts once, at play: it has no condition, aura or clause"))
    if hook in ABILITY_ONLY_HOOKS:
        problems.append(
            (f"{where}.hook", "step_cost is a standing ability's hook (a card changes MP with modify_movement)")
        )
    needs_faces = hook is Hook.NATURAL_RESULT or (hook is Hook.REROLL_ATTACK_DIE and effect.op == "reroll")
    if needs_faces and not effect.faces:
        problems.append((f"{where}.faces", f"{hook.value} {effect.op} needs the natural values it acts on (1..6)"))
    if not needs_faces and effect.faces:
        problems.append((f"{where}.faces", f"{hook.value} {effect.op} does not act on natural values"))
    if hook is Hook.IGNORE_HIT and effect.op != "ignore" and not 2 <= effect.value <= 6:
        problems.append(
            (
                f"{where}.value",
                f"ignore_hit saves on a roll of N+, N in 2..6, not {effect.value} (op 'ignore' is certain)",
            )
        )
    if hook is Hook.CAP_DAMAGE and effect.value < 0:
        problems.append((f"{where}.value", "a damage cap cannot be negative"))
    if (hook is Hook.MODIFY_STAT) != (effect.stat is not None):
        problems.append(
            (f"{where}.stat", "modify_stat names the stat it changes (range, damage, hp), and only it does")
        )
    if effect.op == "set" and effect.value < 0:
        problems.append((f"{where}.value", "a stat is set to 0 or more"))
    if effect.op in ("add_hp", "set_hp") and effect.value < 1:
        problems.append((f"{where}.value", f"{effect.op} gives 1 HP or more (a unit is destroyed only by a hit)"))
    problems += _limit_problems(effect, where)
    if effect.option is not None:
        if card.kind == "malus":
            problems.append((f"{where}.option", "a malus is not played by choice: it has no options"))
        elif effect.option >= len(card.options):
            problems.append(
                (f"{where}.option", f"option {effect.option} is not one of the card's {len(card.options)} options")
            )
    if effect.when is not None:
        problems += tree_problems(effect.when, hook, f"{where}.when")
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


def parse_use(use: str) -> tuple[int, str, int, int]:
    """A use an effect recorded (`Effect.uses`): ``(turn, unit id, attack number, damage dealt)``."""
    turn, unit, attack, amount = use.split(":")
    return int(turn), unit, int(attack), int(amount)


def _limited(limit: LimitDef) -> Predicate:
    """A limit as a condition: the effect has uses left for the subject, or this very attack used it already."""
    times, per = limit.times, limit.per

    def has_uses(ctx: Context) -> bool:
        ctx.read |= READ_EFFECTS
        effect = ctx.effect
        if effect is None or not effect.uses:
            return True
        state, subject = ctx.state, ctx.subject
        pending = state.pending_attack
        now = (
            state.attack_seq
            if pending is not None and (ctx.attacker is None or ctx.attacker.id == pending.attacker)
            else None
        )
        counted = 0
        for use in effect.uses:
            turn, unit, attack, _ = parse_use(use)
            if per in ("turn", "unit_turn") and turn != state.turn:
                continue
            if per in ("unit", "unit_turn") and (subject is None or unit != subject.id):
                continue
            if turn == state.turn and attack == now:
                return True  # the attack being rolled or resolved counted it already
            counted += 1
        return counted < times

    return has_uses


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
    if effect.limit is not None:
        parts.append(_limited(effect.limit))
    if effect.when is not None:
        parts.append(compile_condition(effect.when))
    if effect.aura is not None:
        parts.append(
            aura_rule(effect.aura.radius, None if effect.aura.source is None else compile_condition(effect.aura.source))
        )
    if not parts:
        return lambda ctx: True
    if len(parts) == 1:
        return parts[0]
    preds = tuple(parts)
    return lambda ctx: all(p(ctx) for p in preds)


def aura_rule(radius: int, source: Predicate | None) -> Predicate:
    """An aura as a condition: the subject stands within ``radius`` of a unit matching ``source``
    (None: of a unit the play named)."""

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


def effect_phrase_of(hook: Hook, op: str, value: float) -> str:
    """What an effect or ability of ``hook``, ``op`` and ``value`` does, in a few words (without ``faces``)."""
    if hook is Hook.CAN_ATTACK:
        return "may not attack"
    if hook is Hook.CAN_MOVE_UNIT:
        return "may move" if op == "allow" else "may not move"
    if hook is Hook.CAN_ATTACK_AFTER_MOVE:
        return "may fire after moving"
    if hook is Hook.STEP_COST:
        return "cannot enter" if op == "block" else f"{_signed(value)} MP to enter"
    if hook is Hook.MODIFY_STAT:
        return f"stat {'set to ' + str(int(value)) if op == 'set' else _signed(value)}"
    return _phrase(hook, op, value, ())


def effect_phrase(effect: EffectDef) -> str:
    """What the effect does, in a few words: ``+1 defense``, ``a natural 6 always hits``."""
    if effect.hook is Hook.MODIFY_STAT:
        op = "set to " + str(int(effect.value)) if effect.op == "set" else _signed(effect.value)
        return f"{effect.stat} {op}"
    return _phrase(effect.hook, effect.op, effect.value, effect.faces)


def _phrase(hook: Hook, op: str, value: float, faces: tuple[int, ...]) -> str:
    if hook is Hook.MODIFY_DEFENSE:
        return f"{_signed(value)} defense"
    if hook is Hook.MODIFY_ATTACK_ROLL:
        return f"{_signed(value)} to hit"
    if hook is Hook.MODIFY_DAMAGE:
        return f"{_signed(value)} damage" if op == "add" else f"damage x{int(value)}"
    if hook is Hook.MODIFY_MOVEMENT:
        if op == "set":
            return f"MP set to {value:g}"
        return f"{_signed(value)} MP" if op == "add" else "movement halved"
    if hook is Hook.REROLL_ATTACK_DIE:
        if op == "reroll":
            return f"a {_faces(faces)} is rerolled once"
        return f"a {'miss' if op == 'reroll_miss' else 'hit'} is rerolled once"
    if hook is Hook.NATURAL_RESULT:
        return f"a {_faces(faces)} always {'hits' if op == 'hit' else 'misses'}"
    if hook is Hook.CAP_DAMAGE:
        per = {"cap": "per attack", "cap_turn": "per turn", "cap_round": "per round"}[op]
        return f"at most {int(value)} damage {per}"
    if hook is Hook.IGNORE_HIT:
        if op == "ignore":
            return "ignores a hit"
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
