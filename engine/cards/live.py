"""The live effects of a state by hook, each with its compiled rule, and whether one reaches a unit.

Hooks (`engine.hooks`) ask about the same effects many times per listing, and a game
keeps its effects tuple from state to state until an effect comes or goes. So the
effects of a hook, each paired with its compiled ``when``/``aura`` rule
(`engine.card_language.rule_of`), are found once per effects tuple, kept by the
tuple's identity (the entry holds the tuple, so its id cannot be reused while it lives).
"""

from __future__ import annotations

from operator import attrgetter

from ..board.info import BoardInfo
from ..state import Effect, GameState, Rules, Unit
from ..tables import UNITS
from ..types import Hook, Side, UnitType
from .condition_kinds import may_hold_for
from .condition_rules import Context, Predicate
from .game import card_of
from .language import rule_of

__all__ = ["Live", "effects_of", "kind_may_fit", "unit_applies", "unit_conditions", "unit_fits"]

Live = tuple[tuple[Effect, Predicate | None], ...]
"""The live effects of one hook in effect order, each with its compiled rule (None: it has none)."""


def _rule(effect: Effect, rules: Rules) -> Predicate | None:
    index = effect.conditions.clause
    return None if index is None else rule_of(card_of(rules, effect.source_card), index)


_HOOK_OF = attrgetter("hook")
_BY_HOOK: dict[int, tuple[tuple[Effect, ...], tuple[Hook, ...], dict[Hook, Live]]] = {}


def effects_of(state: GameState, hook: Hook) -> Live:
    """The live effects of ``hook`` with their rules, kept per effects tuple.

    Filled per hook on first ask: a listing asks about two or three hooks, most of which
    no live effect uses, so sorting every effect by hook up front would cost more.
    """
    effects = state.effects
    if not effects:
        return ()
    known = _BY_HOOK.get(id(effects))
    if known is None or known[0] is not effects:
        if len(_BY_HOOK) >= 8:
            _BY_HOOK.clear()  # a handful of live positions at a time; one atomic step (threads)
        known = _BY_HOOK[id(effects)] = (effects, tuple(map(_HOOK_OF, effects)), {})
    found = known[2].get(hook)
    if found is None:  # two threads may both fill it: the same value, one atomic store
        found = () if hook not in known[1] else tuple([(e, _rule(e, state.rules)) for e in effects if e.hook is hook])
        known[2][hook] = found
    return found


def unit_applies(
    effect: Effect, rule: Predicate | None, unit: Unit, state: GameState, info: BoardInfo | None = None
) -> bool:
    """``effect`` of a unit hook reaches ``unit``: `unit_fits`, then its rule (``info``: the board's, if at hand)."""
    if not unit_fits(effect, unit):
        return False
    return rule is None or rule(Context(state, effect.controller, unit, None, None, None, effect.targets, info, effect))


def unit_fits(effect: Effect, unit: Unit) -> bool:
    """``unit`` is within the effect's scope and passes its flat ``unit_types`` and ``unit_tags``."""
    scope = effect.scope
    if scope == "own_units":
        if unit.side is not effect.controller:
            return False
    elif scope == "enemy_units":
        if unit.side is effect.controller:
            return False
    elif scope == "targets" and unit.id not in effect.targets:
        return False
    cond = effect.conditions  # `unit_conditions` inline: asked for every unit a movement effect may reach
    if cond.unit_types and unit.type not in cond.unit_types:
        return False
    return not cond.unit_tags or any(tag in cond.unit_tags for tag in UNITS[unit.type].tags)


def unit_conditions(effect: Effect, unit: Unit) -> bool:
    """``unit`` passes the effect's flat ``unit_types`` and ``unit_tags``."""
    return _kind_passes(effect, unit.type)


def _kind_passes(effect: Effect, kind: UnitType) -> bool:
    """A unit of type ``kind`` passes the effect's flat ``unit_types`` and ``unit_tags``."""
    cond = effect.conditions
    if cond.unit_types and kind not in cond.unit_types:
        return False
    return not cond.unit_tags or any(tag in cond.unit_tags for tag in UNITS[kind].tags)


_WHEN_KINDS: dict[tuple[str, int, Side], tuple[object, frozenset[tuple[Side, UnitType]]]] = {}


def kind_may_fit(effect: Effect, side: Side, kind: UnitType, rules: Rules) -> bool:
    """Whether ``effect`` of a unit hook may reach some unit of ``side`` and ``kind``: False when its scope,
    its flat ``unit_types``/``unit_tags`` or the kind facts of its ``when`` rule the kind out (`may_hold_for`)."""
    scope = effect.scope
    if scope == "own_units" and side is not effect.controller:
        return False
    if scope == "enemy_units" and side is effect.controller:
        return False
    if not _kind_passes(effect, kind):
        return False
    cond = effect.conditions
    if cond.clause is None:
        return True
    card = card_of(rules, effect.source_card)
    key = (effect.source_card, cond.clause, effect.controller)
    known = _WHEN_KINDS.get(key)
    if known is None or known[0] is not card:  # the same card object: a test may swap a card under one id
        when = card.effects[cond.clause].when  # once per card effect and controller: a few tree walks
        kinds = frozenset(
            (s, k) for s in Side for k in UnitType if when is None or may_hold_for(when, effect.controller, s, k)
        )
        if len(_WHEN_KINDS) >= 1_024:
            _WHEN_KINDS.clear()  # never in play (cards x sides); one atomic step (threads)
        known = _WHEN_KINDS[key] = (card, kinds)
    return (side, kind) in known[1]
