"""Standing abilities: rules in the card language that are always in force (rules §2.5, §3.1).

A unit type's abilities (``data/units.json``: SPECIAL's move-or-fire) act for every unit of
that type; a game's own rules (a variant's terrain changes, `RulesOverlay.abilities`) act for
every unit. An ability is written like a card's effect, without scope, duration or
controller: its subject is the unit a unit hook asks about, or the attacker of an attack
hook, and ``owner``/``active`` read relative to that unit's side.

A game carries its abilities in its state (`Rules.abilities`, None for the standard ones),
so nothing is registered anywhere. `abilities_of` compiles them once per rules object and
hook; the hooks (`engine.cards.hooks`) ask them beside the live card effects, and the
board's step tables read the ``step_cost`` ones (`BoardInfo.steps`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ..errors import CardDataError
from ..state import GameState, Rules, Unit
from ..tables import UNIT_ABILITY_DATA, UNIT_NAMES
from ..types import Hook, UnitType
from .condition_rules import Context, Predicate, compile_condition
from .conditions import Targeted, describe
from .defs import AbilityDef
from .language import aura_rule, effect_phrase_of, tree_problems, walk
from .vocabulary import ABILITY_HOOKS, HOOK_RULES

__all__ = [
    "RETIRED_RULE_LISTS",
    "STANDARD_ABILITIES",
    "Ability",
    "abilities_of",
    "ability_applies",
    "ability_problems",
    "config_abilities",
    "game_abilities",
    "load_abilities",
    "step_abilities",
    "unit_abilities",
]


def ability_problems(ability: AbilityDef, where: str) -> list[tuple[str, str]]:
    """Every reason ``ability`` cannot stand as written, as ``(field path, problem)``."""
    problems: list[tuple[str, str]] = []
    hook = ability.hook
    if hook not in ABILITY_HOOKS:
        hooks = ", ".join(sorted(h.value for h in ABILITY_HOOKS))
        problems.append((f"{where}.hook", f"an ability acts through {hooks}, not {hook.value}"))
        return problems
    ops = HOOK_RULES[hook][0]
    if ability.op not in ops:
        problems.append((f"{where}.op", f"{ability.op!r} is not an op of hook {hook.value} ({', '.join(ops)})"))
    if (hook is Hook.MODIFY_STAT) != (ability.stat is not None):
        problems.append((f"{where}.stat", "modify_stat names the stat it changes (range, damage), and only it does"))
    if hook is Hook.STEP_COST:
        if ability.value * 2 != int(ability.value * 2):
            problems.append((f"{where}.value", f"MP value {ability.value} is not a multiple of 0.5"))
        if ability.aura is not None:
            problems.append((f"{where}.aura", "a step's cost reads only the unit's type and the cell it enters"))
    elif ability.value != int(ability.value):
        problems.append((f"{where}.value", f"{ability.value} must be an integer"))
    if ability.op == "set" and ability.value < 0:
        problems.append((f"{where}.value", "a stat is set to 0 or more"))
    for tree, path in ((ability.when, "when"), (ability.aura.source if ability.aura else None, "aura.source")):
        if tree is None:
            continue
        problems += tree_problems(tree, hook, f"{where}.{path}")
        if any(isinstance(node, Targeted) for node in walk(tree)):
            problems.append((f"{where}.{path}", "an ability names no units: 'targeted' never holds"))
    if ability.aura is not None and ability.aura.source is None:
        problems.append((f"{where}.aura.source", "an ability names no units: its aura needs a source"))
    return problems


def load_abilities(
    raw: Sequence[Mapping[str, Any]], where: str, unit: UnitType | None = None
) -> tuple[AbilityDef, ...]:
    """Abilities as data (``raw``, at JSON path ``where``), checked; ``unit``: they belong to that type.

    Raises `CardDataError` naming the path of the first problem.
    """
    found: list[AbilityDef] = []
    keys: set[str] = set()
    for i, obj in enumerate(raw):
        path = f"{where}[{i}]"
        fields = dict(obj)
        if unit is not None:
            if fields.get("unit", unit.value) != unit.value:
                raise CardDataError(f"{path}.unit: an ability listed under {unit.value} belongs to it")
            fields["unit"] = unit.value
        try:
            ability = msgspec.convert(fields, AbilityDef)
        except msgspec.ValidationError as err:
            problem, _, at = str(err).rpartition(" - at `$")
            raise CardDataError(f"{path}{at.rstrip('`')}: {problem}" if at else f"{path}: {err}") from None
        for field, problem in ability_problems(ability, path):
            raise CardDataError(f"{field}: {problem}")
        if ability.key in keys:
            raise CardDataError(f"{path}.id: ability {ability.key!r} is given twice")
        keys.add(ability.key)
        found.append(ability)
    return tuple(found)


STANDARD_ABILITIES: tuple[AbilityDef, ...] = tuple(
    ability
    for kind, raw in UNIT_ABILITY_DATA.items()
    for ability in load_abilities(raw, f"units.json: $.units[{list(UnitType).index(kind)}].abilities", kind)
)
"""Every unit type's abilities in the standard rules (``data/units.json``), in unit-type order."""


def game_abilities(rules: Rules) -> tuple[AbilityDef, ...]:
    """The abilities a game with ``rules`` plays with."""
    return STANDARD_ABILITIES if rules.abilities is None else rules.abilities


class Ability:
    """A compiled ability: its data, its rule (``when`` and aura) and what it says."""

    __slots__ = ("data", "rule", "says", "unit")

    def __init__(self, data: AbilityDef) -> None:
        self.data = data
        self.unit = data.unit
        self.rule: Predicate | None = None if data.when is None else compile_condition(data.when)
        if data.aura is not None and data.aura.source is not None:
            aura = aura_rule(data.aura.radius, compile_condition(data.aura.source))
            when = self.rule
            self.rule = aura if when is None else (lambda ctx: when(ctx) and aura(ctx))
        owner = "Rules" if data.unit is None else UNIT_NAMES[data.unit]
        clause = data.says or ", ".join(
            [
                *([describe(data.when)] if data.when is not None else []),
                effect_phrase_of(data.hook, data.op, data.value),
            ]
        )
        self.says = f"{owner}: {clause}"


_Compiled = tuple[
    Rules, dict[Hook, tuple[Ability, ...]], tuple[AbilityDef, ...], dict[tuple[Hook, UnitType], tuple[Ability, ...]]
]
_COMPILED: dict[int, _Compiled] = {}


_last: _Compiled | None = None


def _compiled(rules: Rules) -> _Compiled:
    """The game's abilities compiled by hook, and its step_cost ones (kept per rules object: a game carries
    one from state to state; the entry holds it, so its id is not reused meanwhile). The last game's is
    found first: hooks ask for every pair of units of a listing."""
    global _last
    last = _last  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is rules:
        return last
    known = _COMPILED.get(id(rules))
    if known is None or known[0] is not rules:
        if len(_COMPILED) >= 64:
            _COMPILED.clear()  # a handful of games at a time; one atomic step (threads)
        by_hook: dict[Hook, list[Ability]] = {}
        for data in game_abilities(rules):
            by_hook.setdefault(data.hook, []).append(Ability(data))
        steps = tuple(a.data for a in by_hook.get(Hook.STEP_COST, ()))
        by_type = {
            (hook, kind): tuple(a for a in found if a.unit is None or a.unit is kind)
            for hook, found in by_hook.items()
            for kind in UnitType
        }
        known = _COMPILED[id(rules)] = (rules, {h: tuple(found) for h, found in by_hook.items()}, steps, by_type)
    _last = known
    return known


def abilities_of(rules: Rules, hook: Hook) -> tuple[Ability, ...]:
    """The game's abilities on ``hook``, compiled."""
    return _compiled(rules)[1].get(hook, ())


def unit_abilities(rules: Rules, hook: Hook, kind: UnitType) -> tuple[Ability, ...]:
    """The game's abilities on ``hook`` that may hold for a unit of type ``kind`` (its own and the game's)."""
    return _compiled(rules)[3].get((hook, kind), ())


_last_steps: tuple[Rules, tuple[AbilityDef, ...]] | None = None


def step_abilities(rules: Rules) -> tuple[AbilityDef, ...]:
    """The game's ``step_cost`` abilities: what its board's step tables are built with (`BoardInfo.steps`).

    Asked at every search: the last game's answer is kept (it holds its rules, so the id is not reused)."""
    global _last_steps
    last = _last_steps  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is rules:
        return last[1]
    steps = _compiled(rules)[2]
    _last_steps = (rules, steps)
    return steps


def ability_applies(
    ability: Ability,
    state: GameState,
    subject: Unit,
    attacker: Unit | None = None,
    target: Unit | None = None,
    distance: int | None = None,
) -> bool:
    """``ability`` holds for ``subject`` (the unit asked about, or the attacker) as the state stands."""
    if ability.unit is not None and subject.type is not ability.unit:
        return False
    rule = ability.rule
    return rule is None or rule(Context(state, subject.side, subject, attacker, target, distance))


RETIRED_RULE_LISTS = (
    "{field} is retired: the rule lists are abilities in the card language now. Write each rule in "
    "rules.abilities, e.g. a movement rule as "
    '{{"id": "mud", "hook": "step_cost", "op": "add", "value": 1, "when": {{"if": "terrain_tag", "is": ["rough"]}}}} '
    "and a combat rule as "
    '{{"id": "flank", "hook": "modify_attack_roll", "op": "add", "value": 1, '
    '"when": {{"if": "type", "is": ["MECHANIZED"]}}}} (docs/cards.md, "Abilities")'
)


def config_abilities(
    abilities: Sequence[Mapping[str, Any]], removed: Sequence[str], where: str = "rules"
) -> tuple[AbilityDef, ...] | None:
    """The abilities a game plays with once its variant's ``abilities`` and ``removed`` keys are applied to the
    standard ones (None: no change). Raises ValueError naming the JSON path of the first problem."""
    if not abilities and not removed:
        return None
    try:
        added = load_abilities(abilities, f"{where}.abilities")
    except CardDataError as err:
        raise ValueError(str(err)) from None
    keys = {a.key for a in STANDARD_ABILITIES}
    field = "remove_abilities" if where == "$" else "removed_abilities"
    for i, key in enumerate(removed):
        if key not in keys:
            known = ", ".join(sorted(keys)) or "none"
            raise ValueError(f"{where}.{field}[{i}]: {key!r} is not a standard ability ({known})")
    replacing = {a.key: a for a in added}
    kept = [replacing.pop(a.key, a) for a in STANDARD_ABILITIES if a.key not in removed]
    return (*kept, *(a for a in added if a.key in replacing))
