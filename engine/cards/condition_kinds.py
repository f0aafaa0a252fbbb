"""Condition trees read as unit kinds: which ``(side, type)`` a tree holds for, or may hold for.

Two questions decided once, when a tree is compiled or an effect first meets a unit kind,
so that nothing asks them per unit per listing:

- `kinds`: the exact kinds a tree holds for, when it reads nothing but a unit's side and
  type ("enemies", "your special units"); ``near`` then tests each unit's kind against a
  set instead of asking a closure about every unit in range;
- `may_hold_for`: False only when a tree cannot hold for any unit of a kind whatever else
  is true ("mechanized units with two enemies near" never holds for infantry), so an
  allowance need not evaluate that effect for infantry at all.
"""

from __future__ import annotations

from ..tables import UNITS
from ..types import Side, UnitType
from .conditions import AllOf, AnyOf, Condition, HasTag, IsType, Not, Owner, Xor

__all__ = ["Kinds", "kinds", "may_hold_for"]

Kinds = dict[Side, frozenset[tuple[Side, UnitType]]]
"""By the effect's controller: the ``(side, type)`` of every unit a sub-condition holds for."""


def kinds(node: Condition) -> Kinds | None:
    """The units ``node`` holds for, by kind, when it reads nothing but a unit's side and type (else None)."""
    try:
        return {
            controller: frozenset(
                (side, kind) for side in Side for kind in UnitType if _holds_for(node, controller, side, kind)
            )
            for controller in Side
        }
    except _NotAKind:
        return None


class _NotAKind(Exception):
    """The condition reads more than a unit's side and type."""


def _holds_for(node: Condition, controller: Side, side: Side, kind: UnitType) -> bool:
    match node:
        case AllOf(of=parts):
            return all([_holds_for(p, controller, side, kind) for p in parts])  # a list: every part must be a kind
        case AnyOf(of=parts):
            return any([_holds_for(p, controller, side, kind) for p in parts])
        case Not(of=part):
            return not _holds_for(part, controller, side, kind)
        case Xor(of=parts):
            return [_holds_for(p, controller, side, kind) for p in parts].count(True) == 1
        case IsType(is_=types):
            return kind in types
        case HasTag(is_=tags):
            return any(tag in UNITS[kind].tags for tag in tags)
        case Owner(is_="controller"):
            return side is controller
        case Owner(is_="opponent"):
            return side is not controller
        case Owner(is_=named):
            return side is Side(named)
    raise _NotAKind


def may_hold_for(node: Condition, controller: Side, side: Side, kind: UnitType) -> bool:
    """Whether ``node`` may hold for a subject of ``side`` and ``kind`` (an effect of ``controller``).

    Conservative: True unless the tree's own kind facts rule the kind out whatever the
    rest reads (a ``type``, ``tag`` or ``owner`` an ``all`` needs, every part of an ``any``
    ruled out, the ``not`` of a pure kind fact that holds).
    """
    match node:
        case AllOf(of=parts):
            return all(may_hold_for(p, controller, side, kind) for p in parts)
        case AnyOf(of=parts):
            return any(may_hold_for(p, controller, side, kind) for p in parts)
        case Not() | Xor():
            try:
                return _holds_for(node, controller, side, kind)
            except _NotAKind:
                return True
        case IsType() | HasTag() | Owner():
            return _holds_for(node, controller, side, kind)
    return True  # a fact of the cell, the other units, the game or the attack: it may hold
