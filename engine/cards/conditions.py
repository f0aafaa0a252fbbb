"""The condition language of cards: a tree of facts, validated at load and compiled once.

A condition is a JSON object whose ``"if"`` names the fact (docs/cards.md lists them
all with an example each)::

    {"if": "all", "of": [{"if": "type", "is": ["LIGHT_INFANTRY"]}, {"if": "terrain", "is": ["FOREST"]}]}

Facts read a *subject* unit (the unit an effect applies to; for an attack hook, the
attacker), the attack (``distance``, ``attacker``, ``target``) and the game (``phase``,
``round``, ``active``). ``owner`` and ``active`` are relative to the effect's controller.
`engine.condition_rules.compile_condition` turns a tree into one closure when the card
data loads, so a hook asks a compiled predicate, never a dict. `needs` says which context
a tree reads, so a card cannot put an attack fact on a hook that has no attack;
`describe` says it in words.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec
from msgspec import Meta

from ..types import Hook, Phase, Quadrant, TerrainType, UnitType

__all__ = [
    "CONDITION_NAMES",
    "MAX_RADIUS",
    "AllOf",
    "AnyOf",
    "AttackerIs",
    "Condition",
    "describe",
    "needs",
]

MAX_RADIUS = 6
"""The largest radius a ``near`` condition or an aura may reach (cells, Chebyshev)."""

Radius = Annotated[int, Meta(ge=1, le=MAX_RADIUS, description=f"cells, 1..{MAX_RADIUS}")]
Small = Annotated[int, Meta(ge=0, le=99)]


class _Node(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="if"):
    """Base of condition nodes: the tag ``if`` names the fact."""


class AllOf(_Node, frozen=True, kw_only=True, tag="all"):
    """Every sub-condition holds."""

    of: Annotated[tuple[Condition, ...], Meta(min_length=1)]


class AnyOf(_Node, frozen=True, kw_only=True, tag="any"):
    """At least one sub-condition holds."""

    of: Annotated[tuple[Condition, ...], Meta(min_length=1)]


class Not(_Node, frozen=True, kw_only=True, tag="not"):
    """The one sub-condition does not hold."""

    of: Condition


class Xor(_Node, frozen=True, kw_only=True, tag="xor"):
    """Exactly one of the sub-conditions holds."""

    of: Annotated[tuple[Condition, ...], Meta(min_length=2)]


class IsType(_Node, frozen=True, kw_only=True, tag="type"):
    """The subject is of one of these unit types."""

    is_: Annotated[tuple[UnitType, ...], Meta(min_length=1)] = msgspec.field(name="is")


class HasTag(_Node, frozen=True, kw_only=True, tag="tag"):
    """The subject's type carries one of these tags (``infantry``, ``move_or_fire`` ...)."""

    is_: Annotated[tuple[str, ...], Meta(min_length=1)] = msgspec.field(name="is")


class Owner(_Node, frozen=True, kw_only=True, tag="owner"):
    """The subject belongs to the effect's controller, to their opponent, or to a named side."""

    is_: Literal["controller", "opponent", "ATTACKER", "DEFENDER"] = msgspec.field(name="is")


class Damaged(_Node, frozen=True, kw_only=True, tag="damaged"):
    """The subject has lost HP."""


class Moved(_Node, frozen=True, kw_only=True, tag="moved"):
    """The subject moved this turn."""


class Attacked(_Node, frozen=True, kw_only=True, tag="attacked"):
    """The subject declared (or supported) an attack this turn."""


class HpAtMost(_Node, frozen=True, kw_only=True, tag="hp_at_most"):
    """The subject has at most ``value`` HP."""

    value: Small


class StatAbove(_Node, frozen=True, kw_only=True, tag="stat_above"):
    """A stat of the subject's type is above ``value``."""

    stat: Literal["hp", "movement_mp", "range", "damage"]
    value: Small


class Targeted(_Node, frozen=True, kw_only=True, tag="targeted"):
    """The subject is one of the units the card's play named (its targets or victims)."""


class OnTerrain(_Node, frozen=True, kw_only=True, tag="terrain"):
    """The subject stands on one of these terrain types."""

    is_: Annotated[tuple[TerrainType, ...], Meta(min_length=1)] = msgspec.field(name="is")


class TerrainTag(_Node, frozen=True, kw_only=True, tag="terrain_tag"):
    """The subject's cell has a base terrain carrying one of these tags (``cover``, ``elevated`` ...)."""

    is_: Annotated[tuple[str, ...], Meta(min_length=1)] = msgspec.field(name="is")


class OnOverlay(_Node, frozen=True, kw_only=True, tag="on"):
    """The subject stands on a road, a river or a bridge cell."""

    is_: Literal["road", "river", "bridge"] = msgspec.field(name="is")


class InQuadrant(_Node, frozen=True, kw_only=True, tag="quadrant"):
    """The subject stands in one of these quadrants."""

    is_: Annotated[tuple[Quadrant, ...], Meta(min_length=1)] = msgspec.field(name="is")


class Near(_Node, frozen=True, kw_only=True, tag="near"):
    """At least ``at_least`` of something stand within ``within`` cells of the subject: other placed units
    matching ``unit``, or cells (its own included) of a ``terrain`` type or carrying a ``terrain_tag``.
    Exactly one of the three is given (checked at load)."""

    within: Radius
    unit: Condition | None = None
    terrain: tuple[TerrainType, ...] = ()
    terrain_tag: tuple[str, ...] = ()
    at_least: Annotated[int, Meta(ge=1, le=99)] = 1


class Under(_Node, frozen=True, kw_only=True, tag="under"):
    """A live card effect reaches the subject: of one of these ``card`` ids, on ``hook`` (and ``op``), or both."""

    card: tuple[str, ...] = ()
    hook: Hook | None = None
    op: str | None = None


class Suppressed(_Node, frozen=True, kw_only=True, tag="suppressed"):
    """A live card effect holds the subject back: halves, sets or lowers its movement, or forbids it to move."""


class PhaseIs(_Node, frozen=True, kw_only=True, tag="phase"):
    """The game is in one of these phases."""

    is_: Annotated[tuple[Phase, ...], Meta(min_length=1)] = msgspec.field(name="is")


class RoundIs(_Node, frozen=True, kw_only=True, tag="round"):
    """The round (turns 1-2 are round 1) is within the given bounds."""

    at_least: Small | None = None
    at_most: Small | None = None


class ActiveIs(_Node, frozen=True, kw_only=True, tag="active"):
    """The active side is the effect's controller, or their opponent."""

    is_: Literal["controller", "opponent"] = msgspec.field(name="is")


class Distance(_Node, frozen=True, kw_only=True, tag="distance"):
    """The attack's distance is within the given bounds."""

    at_least: Small | None = None
    at_most: Small | None = None


class AttackerIs(_Node, frozen=True, kw_only=True, tag="attacker"):
    """The attacker, as subject, satisfies the sub-condition."""

    is_: Condition = msgspec.field(name="is")


class TargetIs(_Node, frozen=True, kw_only=True, tag="target"):
    """The attack's target, as subject, satisfies the sub-condition."""

    is_: Condition = msgspec.field(name="is")


Condition = Union[  # noqa: UP007 - msgspec resolves this recursive alias by name
    AllOf,
    AnyOf,
    Not,
    Xor,
    IsType,
    HasTag,
    Owner,
    Damaged,
    Moved,
    Attacked,
    HpAtMost,
    StatAbove,
    Targeted,
    OnTerrain,
    TerrainTag,
    OnOverlay,
    InQuadrant,
    Near,
    Under,
    Suppressed,
    PhaseIs,
    RoundIs,
    ActiveIs,
    Distance,
    AttackerIs,
    TargetIs,
]


CONDITION_NAMES: tuple[str, ...] = tuple(
    str(node.__struct_config__.tag)
    for node in Condition.__args__  # type: ignore[attr-defined]
)
"""Every condition by its ``if`` name, in the order the language lists them."""


def needs(node: Condition) -> frozenset[str]:
    """What ``node`` reads beyond the game: ``unit`` (a subject) and/or ``attack``."""
    match node:
        case AllOf(of=parts) | AnyOf(of=parts) | Xor(of=parts):
            return frozenset().union(*(needs(p) for p in parts))
        case Not(of=part):
            return needs(part)
        case PhaseIs() | RoundIs() | ActiveIs():
            return frozenset()
        case Distance():
            return frozenset({"attack"})
        case AttackerIs() | TargetIs():
            return frozenset({"attack"})
        case Near(unit=sub) if sub is not None:
            return frozenset({"unit"}) | (needs(sub) - {"unit"})
    return frozenset({"unit"})


_TYPE_WORDS = {UnitType.LIGHT_INFANTRY: "infantry", UnitType.MECHANIZED: "mechanized", UnitType.SPECIAL: "special"}


def _words(values: tuple[str, ...]) -> str:
    return " or ".join(values)


def describe(node: Condition) -> str:
    """A short English phrase for ``node``, e.g. ``infantry in forest``."""
    match node:
        case AllOf(of=parts):
            return _join_all(parts)
        case AnyOf(of=parts):
            return "either " + " or ".join(describe(p) for p in parts)
        case Not(of=part):
            return f"not ({describe(part)})"
        case Xor(of=parts):
            return "exactly one of " + " or ".join(describe(p) for p in parts)
        case IsType(is_=types):
            return _words(tuple(_TYPE_WORDS[t] for t in types)) + " units"
        case HasTag(is_=tags):
            return _words(tags) + " units"
        case Owner(is_=owner):
            return _OWNER_WORDS.get(owner, owner.lower()) + " units"
        case Damaged():
            return "damaged"
        case Moved():
            return "moved this turn"
        case Attacked():
            return "attacked this turn"
        case HpAtMost(value=value):
            return f"at {value} HP or less"
        case StatAbove(stat=stat, value=value):
            return f"{stat.replace('_', ' ')} above {value}"
        case Targeted():
            return "the chosen unit"
        case OnTerrain(is_=terrains):
            return "in " + _words(tuple(t.value.lower() for t in terrains))
        case TerrainTag(is_=tags):
            return "on " + _words(tags) + " terrain"
        case OnOverlay(is_=overlay):
            return f"on a {overlay}"
        case InQuadrant(is_=quadrants):
            return "in " + _words(quadrants) + " quadrant"
        case Near(within=radius, unit=sub, terrain=terrains, terrain_tag=tags, at_least=count):
            many = "" if count == 1 else f"at least {count} "
            if sub is not None:
                return f"within {radius} of {many}{describe(sub)}"
            what = _words(tuple(t.value.lower() for t in terrains)) if terrains else _words(tags)
            return f"within {radius} of {many}{what} {'cell' if count == 1 else 'cells'}"
        case Under(card=cards, hook=hook, op=op):
            named = [" or ".join(cards)] if cards else []
            if hook is not None:
                named.append(hook.value + (f" {op}" if op else ""))
            return "under " + " on ".join(named)
        case Suppressed():
            return "suppressed"
        case PhaseIs(is_=phases):
            return "in " + _words(tuple(p.value.lower() for p in phases))
        case RoundIs(at_least=low, at_most=high):
            return _range("round", low, high)
        case ActiveIs(is_=who):
            return "in your turn" if who == "controller" else "in the enemy's turn"
        case Distance(at_least=low, at_most=high):
            return _range("at distance", low, high)
        case AttackerIs(is_=sub):
            return f"attacker {describe(sub)}"
        case TargetIs(is_=sub):
            return f"target {describe(sub)}"
    raise AssertionError(f"unknown condition {node!r}")  # pragma: no cover


_OWNER_WORDS = {"controller": "your", "opponent": "enemy"}


def _join_all(parts: tuple[Condition, ...]) -> str:
    """Who first ("your special units"), then the rest joined by commas ("your infantry units, in forest")."""
    owners = [_OWNER_WORDS.get(p.is_, p.is_.lower()) for p in parts if isinstance(p, Owner)]
    kinds = [describe(p).removesuffix(" units") for p in parts if isinstance(p, (IsType, HasTag))]
    rest = [describe(p) for p in parts if not isinstance(p, (Owner, IsType, HasTag))]
    who = " ".join([*owners, *kinds, "units"]) if owners or kinds else ""
    return ", ".join([w for w in (who, *rest) if w])


def _range(what: str, low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{what} {low} to {high}"
    if low is not None:
        return f"from {what} {low} on" if what == "round" else f"{what} {low}+"
    if high is not None:
        return f"up to {what} {high}"
    return f"any {what}"
