"""The dice effects of the card language, at their hook points, in the documented order.

An attack meets them in this order (docs/engine.md, "Card language"):

1. ROLL_DICE throws the attack die (one draw from the rng stream);
2. ``reroll_attack_die``: if an effect on the attack lists that natural value (``reroll``), or
   the die misses (``reroll_miss``) or hits (``reroll_hit``) as it stands, the die is thrown
   once more (one more draw), once, whatever the new value (the first such effect in effect
   order names the reroll);
3. ``natural_result`` (in `engine.attacks.compute_roll`): an auto-miss listing the final
   natural value wins over an auto-hit listing it; otherwise the modified roll decides;
4. on a HIT, RESOLVE_ATTACK takes the damage (modify_damage, then ``cap_damage``: the
   smallest cap), then every ``ignore_hit`` effect on the target, in effect order, throws
   its own die (one draw each) until one reaches its value: the hit is then ignored. A
   ``save_first`` effect is spent by its throw; an ``ignore`` effect throws nothing and
   ignores the hit for certain.

Every step that applies leaves a ``card_rule`` event naming the card and its clause.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Literal

from msgspec.structs import replace

from ..cards.effects import note_uses
from ..cards.explanations import effect_def, explain
from ..cards.hooks import attack_effects, damage_cap, ignore_hit_effects
from ..cards.language import FACE_HOOKS
from ..rng import roll_d6
from ..state import Effect, Event, GameState, Unit
from ..types import EventKind, Hook

__all__ = [
    "forced_outcome",
    "has_dice_rules",
    "hit_probability",
    "reroll_effect",
    "roll_attack_die",
    "rule_events",
    "save_factor",
    "save_hit",
]

Outcome = Literal["HIT", "MISS"]


def has_dice_rules(state: GameState) -> bool:
    """True when a live effect could change an attack's die (a quick test: most states have none)."""
    return any(e.hook in FACE_HOOKS or e.hook is Hook.IGNORE_HIT for e in state.effects)


def reroll_effect(
    state: GameState, attacker: Unit, target: Unit, distance: int, natural: int, hits: Callable[[int], bool]
) -> Effect | None:
    """The first ``reroll_attack_die`` effect on the attack that acts on ``natural``, if any (``hits(n)``: whether
    natural ``n`` hits as the attack stands, asked only for a reroll of a miss or a hit)."""
    for effect in attack_effects(state, Hook.REROLL_ATTACK_DIE, attacker, target, distance):
        op = effect.op
        if op == "reroll":
            if natural in effect_def(effect, state.rules).faces:
                return effect
        elif hits(natural) is (op == "reroll_hit"):
            return effect
    return None


def forced_outcome(
    state: GameState, attacker: Unit, target: Unit, distance: int, natural: int
) -> tuple[Outcome, Effect] | None:
    """The outcome a ``natural_result`` effect forces on die ``natural`` (auto-miss first), and the effect."""
    effects = [
        e
        for e in attack_effects(state, Hook.NATURAL_RESULT, attacker, target, distance)
        if natural in effect_def(e, state.rules).faces
    ]
    for effect in effects:  # an auto-miss wins
        if effect.op == "miss":
            return "MISS", effect
    for effect in effects:
        if effect.op == "hit":
            return "HIT", effect
    return None


def _rule_event(state: GameState, effect: Effect, unit: str | None, value: int | None) -> Event:
    return Event(
        kind=EventKind.CARD_RULE,
        side=effect.controller,
        unit=unit,
        card=effect.source_card,
        value=value,
        detail=explain(effect, state.rules),
    )


def roll_attack_die(
    state: GameState, attacker: Unit, target: Unit, distance: int, hits: Callable[[int], bool]
) -> tuple[GameState, int]:
    """Steps 1 and 2: throw the attack die, and once more if a reroll effect acts on it (``hits(n)``: whether
    natural ``n`` hits as the attack stands); returns ``(state, natural)``."""
    natural, rng = roll_d6(state.rng)
    state = replace(state, rng=rng)
    if not state.effects:
        return state, natural
    effect = reroll_effect(state, attacker, target, distance, natural, hits)
    if effect is None:
        return state, natural
    natural, rng = roll_d6(state.rng)
    event = _rule_event(state, effect, attacker.id, natural)
    state = note_uses(state, [effect], attacker.id)
    return replace(state, rng=rng, events=(*state.events, event)), natural


def rule_events(
    state: GameState, attacker: Unit, target: Unit, distance: int, natural: int, hit: bool
) -> tuple[Event, ...]:
    """The ``card_rule`` events of a thrown die: a forced outcome (step 3) and, on a hit, the damage cap (step 4)."""
    if not state.effects:
        return ()
    events: list[Event] = []
    forced = forced_outcome(state, attacker, target, distance, natural)
    if forced is not None:
        events.append(_rule_event(state, forced[1], attacker.id, natural))
    if hit or (forced is not None and forced[0] == "HIT"):
        cap = damage_cap(state, attacker, target, distance)
        if cap is not None:
            events.append(_rule_event(state, cap[0], target.id, cap[1]))
    return tuple(events)


def save_hit(state: GameState, attacker: Unit, target: Unit, distance: int) -> tuple[GameState, bool]:
    """Step 4: each ``ignore_hit`` effect on ``target`` throws its die; ``(state, True if the hit is ignored)``."""
    if not state.effects:
        return state, False
    for effect in ignore_hit_effects(state, attacker, target, distance):
        state = note_uses(state, [effect], target.id)
        if effect.op == "ignore":
            detail = f"{explain(effect, state.rules)}: hit ignored"
            event = replace(_rule_event(state, effect, target.id, None), detail=detail)
            return replace(state, events=(*state.events, event)), True
        die, rng = roll_d6(state.rng)
        state = replace(state, rng=rng)
        if effect.op == "save_first":
            state = replace(state, effects=tuple(e for e in state.effects if e.effect_id != effect.effect_id))
        saved = die >= effect.value
        detail = f"{explain(effect, state.rules)}: rolled {die}, {'hit ignored' if saved else 'no save'}"
        event = replace(_rule_event(state, effect, target.id, die), detail=detail)
        state = replace(state, events=(*state.events, event))
        if saved:
            return state, True
    return state, False


def hit_probability(
    state: GameState,
    attacker: Unit,
    target: Unit,
    distance: int,
    hits: Callable[[int], bool],
    natural: int | None = None,
    *,
    saves: bool = True,
) -> Fraction:
    """The chance the attack lands (hits and is not ignored), steps 2-4, for a fresh die or a known ``natural``.

    ``hits(n)`` says whether natural ``n`` hits by its modified roll alone; the
    ``natural_result`` effects override it per face, a ``reroll_attack_die`` face gives
    way to a fresh die (once; a known ``natural`` has had its reroll), and each
    ``ignore_hit`` save multiplies by its failure chance (``saves=False``: the roll alone).
    """

    def final(n: int) -> Fraction:
        forced = forced_outcome(state, attacker, target, distance, n)
        if forced is not None:
            return Fraction(1 if forced[0] == "HIT" else 0)
        return Fraction(1 if hits(n) else 0)

    fresh = sum((final(n) for n in range(1, 7)), Fraction(0)) / 6

    def first(n: int) -> Fraction:
        landed = final(n)
        rerolled = reroll_effect(state, attacker, target, distance, n, lambda _: landed == 1)
        return fresh if rerolled is not None else landed

    land = final(natural) if natural is not None else sum((first(n) for n in range(1, 7)), Fraction(0)) / 6
    return land * save_factor(state, attacker, target, distance) if saves else land


def save_factor(state: GameState, attacker: Unit, target: Unit, distance: int) -> Fraction:
    """The chance that a hit survives every ``ignore_hit`` save on ``target`` (step 4)."""
    factor = Fraction(1)
    for effect in ignore_hit_effects(state, attacker, target, distance):
        factor *= 0 if effect.op == "ignore" else Fraction(max(0, effect.value - 1), 6)
    return factor
