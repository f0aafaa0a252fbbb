"""What a card may say: which ops and scopes each hook takes, and the checks a card passes at load.

`engine.cards` parses card files into `CardDef`s; this module refuses any card the engine
would not act on as written (an op a hook does not carry, a scope that never reaches a unit,
an instant op on a kind or window it does not serve), naming the card and the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import CardDataError
from ..types import Hook, Quadrant
from .instants import ATTACK_WINDOWS, INSTANT_OPS
from .language import language_problems
from .vocabulary import HOOK_RULES, INSTANT_OP_NAMES

if TYPE_CHECKING:
    from .defs import CardDef, EffectDef

__all__ = ["HOOK_RULES", "check_card"]

if tuple(INSTANT_OPS) != INSTANT_OP_NAMES:  # the vocabulary lists them for the schema; the registry acts
    raise AssertionError(f"instant ops {tuple(INSTANT_OPS)} differ from the vocabulary's {INSTANT_OP_NAMES}")

_TIMING = {"bonus": "stored", "malus": "immediate", "tactic": "reaction"}
_UNIT_TARGETING = ("own_unit", "pending_attacker", "pending_target", "supporter")
"""Targeting kinds whose plays name units on the board."""
_PENDING_TARGETING = ("pending_attacker", "pending_target", "pending_attack", "supporter")
"""Targeting kinds that aim at the pending attack: only a tactic in an attack window has one."""


def check_card(card: CardDef) -> None:
    """Raise `CardDataError` naming the card and field if the engine would not act on ``card`` as written."""

    def fail(field: str, problem: str) -> CardDataError:
        return CardDataError(f"card {card.id!r}: field `{field}`: {problem}")

    if card.kind == "tactic":
        if card.window is None or card.side is None:
            raise fail("window", "a tactic needs a window and a side")
    elif card.copies_60 < 0 or card.copies_90 < 0:
        raise fail("copies_60", "copies cannot be negative")
    if card.kind == "malus" and card.victims.kind == "chosen" and card.victims.count < 1:
        raise fail("victims.count", "a chosen malus needs at least one victim")
    _check_kind_fields(card, fail)
    _check_options(card, fail)
    for i, effect in enumerate(card.effects):
        where = f"effects[{i}]"
        ops, scopes = HOOK_RULES[effect.hook]
        if effect.op not in ops:
            raise fail(f"{where}.op", f"{effect.op!r} is not an op of hook {effect.hook.value} ({', '.join(ops)})")
        if effect.scope not in scopes:
            raise fail(
                f"{where}.scope", f"{effect.scope!r} does not fit hook {effect.hook.value} ({', '.join(scopes)})"
            )
        if (effect.hook is Hook.INSTANT) != effect.is_instant:
            raise fail(f"{where}.duration", "instant effects (hook 'instant') and duration 'instant' go together")
        if effect.hook is Hook.MODIFY_MOVEMENT:
            if (effect.value * 2) != int(effect.value * 2):
                raise fail(f"{where}.value", f"MP value {effect.value} is not a multiple of 0.5")
        elif effect.value != int(effect.value):
            raise fail(f"{where}.value", f"{effect.value} must be an integer")
        if effect.conditions.target_unit == "$target" and card.targeting.kind not in ("pending_target", "own_unit"):
            raise fail(f"{where}.conditions.target_unit", "'$target' needs a card that targets a unit")
        quadrant = effect.conditions.target_quadrant
        if quadrant is not None and quadrant != "$quadrant" and quadrant not in Quadrant.__members__:
            raise fail(f"{where}.conditions.target_quadrant", f"{quadrant!r} is not NW, NE, SW, SE or '$quadrant'")
        if quadrant == "$quadrant" and card.targeting.kind != "quadrant":
            raise fail(f"{where}.conditions.target_quadrant", "'$quadrant' needs targeting kind 'quadrant'")
        _check_reach(card, effect, fail, where)
        if effect.is_instant:
            _check_instant(card, effect, fail, where)
        for field, problem in language_problems(card, effect, where):
            raise fail(field, problem)


def _in_attack_window(card: CardDef) -> bool:
    return card.kind == "tactic" and card.window in ATTACK_WINDOWS


def _check_kind_fields(card: CardDef, fail: Any) -> None:
    """Each kind is played at one timing, and fields another kind uses would be ignored."""
    if card.timing != _TIMING[card.kind]:
        raise fail("timing", f"a {card.kind} card is played {_TIMING[card.kind]!r}, not {card.timing!r}")
    if card.kind != "tactic" and (card.window is not None or card.side is not None):
        raise fail("window" if card.window is not None else "side", "only a tactic is played in a reaction window")
    if card.kind != "bonus" and card.cancel_power != "none":
        raise fail("cancel_power", "only a bonus cancels a malus")
    if card.kind != "malus" and card.victims.kind != "none":
        raise fail("victims.kind", "only a malus has victims")
    if card.kind != "malus" and card.affects != "drawer":
        raise fail("affects", "only a malus affects both players")
    if card.kind == "malus" and card.targeting.kind != "none":
        raise fail("targeting.kind", "a malus is aimed by its `victims`, not by targeting")
    if card.targeting.kind in _PENDING_TARGETING and not _in_attack_window(card):
        raise fail(
            "targeting.kind",
            f"{card.targeting.kind!r} aims at the pending attack: only a tactic played in "
            f"{', '.join(sorted(w.value for w in ATTACK_WINDOWS))} has one",
        )


def _names_units(card: CardDef) -> bool:
    if card.kind == "malus":
        return card.victims.kind == "chosen"
    return card.targeting.kind in (*_UNIT_TARGETING, "own_destroyed_unit")


def _check_reach(card: CardDef, effect: EffectDef, fail: Any, where: str) -> None:
    """An effect must be able to apply to something when its card is played."""
    if effect.scope == "targets" and not _names_units(card):
        raise fail(
            f"{where}.scope",
            "'targets' needs a card that names units (a unit targeting kind, or chosen victims for a malus)",
        )
    for field, uses in ((f"{where}.scope", effect.scope), (f"{where}.duration", effect.duration)):
        if uses in ("pending_attack", "this_attack") and not _in_attack_window(card):
            raise fail(field, f"{uses!r} needs a pending attack: only a tactic played in an attack window has one")
    if effect.scope == "pending_attack" and not effect.is_instant and effect.duration != "this_attack":
        raise fail(f"{where}.duration", "scope 'pending_attack' covers one attack: its duration is 'this_attack'")


def _check_instant(card: CardDef, effect: EffectDef, fail: Any, where: str) -> None:
    """An instant op only on the card kinds, windows, scope and targeting it declares."""
    op = INSTANT_OPS[effect.op]
    if card.kind not in op.kinds:
        kinds = " and ".join(sorted(op.kinds))
        raise fail(f"{where}.op", f"instant op {op.name!r} acts on {kinds} cards, not on a {card.kind}")
    if effect.scope != op.scope:
        raise fail(f"{where}.scope", f"instant op {op.name!r} is written with scope {op.scope!r}")
    if card.kind == "tactic" and card.window not in op.windows:
        windows = ", ".join(sorted(w.value for w in op.windows))
        raise fail("window", f"instant op {op.name!r} has nothing to act on in {card.window}; it serves {windows}")
    if op.needs == "units" and card.kind == "malus" and card.victims.kind != "chosen":
        raise fail("victims.kind", f"instant op {op.name!r} acts on units: the malus needs chosen victims")
    if op.needs == "units" and card.kind != "malus" and card.targeting.kind not in _UNIT_TARGETING:
        raise fail("targeting.kind", f"instant op {op.name!r} acts on units: aim it with {', '.join(_UNIT_TARGETING)}")
    if op.needs == "destroyed_unit" and card.targeting.kind != "own_destroyed_unit":
        raise fail("targeting.kind", f"instant op {op.name!r} needs targeting kind 'own_destroyed_unit'")


def _check_options(card: CardDef, fail: Any) -> None:
    """A card's options are two or more choices, each with an effect of its own."""
    if not card.options:
        return
    if card.kind == "malus":
        raise fail("options", "a malus is not played by choice: it has no options")
    if len(card.options) < 2:
        raise fail("options", "a choice needs two options or more")
    for index, name in enumerate(card.options):
        if not any(e.option == index for e in card.effects):
            raise fail(f"options[{index}]", f'option {name!r} has no effect (give effects "option": {index})')
