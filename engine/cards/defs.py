"""Card definitions as data: the structs a card file holds and a game carries (rules §7.1, §8).

Pure data, validated by msgspec when a card file or a game state is decoded; what a card
may *say* beyond its shape is checked by `engine.cards.checks` when it loads.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ..types import CardId, Hook, UnitType, Window
from .conditions import MAX_RADIUS, Condition
from .vocabulary import Duration, LimitPer, Op, Scope, Stat

__all__ = [
    "AbilityDef",
    "AuraDef",
    "CardChanges",
    "CardDef",
    "CardFile",
    "ConditionsDef",
    "EffectDef",
    "LimitDef",
    "TargetingDef",
    "VictimsDef",
]


class _Def(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of card-data structs."""


class ConditionsDef(_Def, frozen=True, kw_only=True):
    """Effect conditions as written in the data; ``$target``/``$quadrant`` bind at play time."""

    unit_types: tuple[UnitType, ...] = ()
    unit_tags: tuple[str, ...] = ()
    min_distance: int | None = None
    target_unit: Literal["$target"] | None = None
    target_quadrant: str | None = None  # a quadrant name or "$quadrant"
    card_category: tuple[str, ...] = ()
    card_class: tuple[str, ...] = ()


class AuraDef(_Def, frozen=True, kw_only=True):
    """An effect reaching subjects within ``radius`` of a unit matching ``source`` (else of the play's named units)."""

    radius: Annotated[int, Meta(ge=1, le=MAX_RADIUS, description=f"cells, 1..{MAX_RADIUS}")]
    source: Condition | None = None


Face = Annotated[int, Meta(ge=1, le=6, description="a natural die value")]


class LimitDef(_Def, frozen=True, kw_only=True):
    """How often an effect may act: ``times`` uses in all, each turn, on each unit, or on each unit each turn."""

    times: Annotated[int, Meta(ge=1, le=99)] = 1
    per: LimitPer = "effect"


class EffectDef(_Def, frozen=True, kw_only=True):
    """One effect a card creates (rules §8.1), before its targets are bound (language: `engine.cards.language`)."""

    hook: Hook
    op: Op
    value: float = 0  # integers, except modify_movement adds in multiples of 0.5 MP
    scope: Scope
    conditions: ConditionsDef = ConditionsDef()
    duration: Duration  # end_of_turn | turns:N | this_attack | until_phase:PHASE | permanent | instant
    when: Condition | None = None  # a condition tree, ANDed with `conditions`
    aura: AuraDef | None = None
    faces: tuple[Face, ...] = ()  # natural values, for reroll_attack_die and natural_result
    stat: Stat | None = None  # modify_stat: which stat
    option: Annotated[int, Meta(ge=0, le=9)] | None = None  # the card's option it belongs to (None: every play)
    limit: LimitDef | None = None  # at most so many uses (hooks that act at a moment of an attack)
    says: str | None = None  # the clause in the designer's words (generated when absent)

    @property
    def is_instant(self) -> bool:
        """True for a one-off action that creates no effect record."""
        return self.duration == "instant"


class TargetingDef(_Def, frozen=True, kw_only=True):
    """What a bonus or tactic is aimed at when played for effect."""

    kind: Literal[
        "none",
        "own_unit",
        "own_destroyed_unit",
        "pending_attacker",
        "pending_target",
        "pending_attack",
        "supporter",
        "quadrant",
    ]
    unit_types: tuple[UnitType, ...] = ()  # own_unit: one of these types (any when empty)
    unit_tags: tuple[str, ...] = ()  # own_unit: carrying one of these tags (any when empty)
    require: tuple[Literal["damaged", "cannot_move", "can_resupply"], ...] = ()


class VictimsDef(_Def, frozen=True, kw_only=True):
    """Whom a malus hits: ``none`` (its scopes say) or units ``chosen`` by the drawer's opponent."""

    kind: Literal["none", "chosen"]
    count: int = 1
    unit_types: tuple[UnitType, ...] = ()
    unit_tags: tuple[str, ...] = ()


class CardDef(_Def, frozen=True, kw_only=True):
    """A card definition (rules §7.1)."""

    id: CardId
    name: str
    kind: Literal["bonus", "malus", "tactic"]
    card_class: Literal["generic", "special"] = msgspec.field(name="class")
    category: str
    timing: Literal["stored", "immediate", "reaction"]
    text: str
    effects: tuple[EffectDef, ...]
    copies_60: int = 0
    copies_90: int = 0
    targeting: TargetingDef = TargetingDef(kind="none")
    cancel_power: Literal["none", "generic", "any"] = "none"  # bonus only
    cumulative: bool = True  # False: neutral while its controller has its effect
    affects: Literal["drawer", "both"] = "drawer"  # malus only
    victims: VictimsDef = VictimsDef(kind="none")  # malus only
    window: Window | None = None  # tactic only
    side: Literal["active", "reacting", "either"] | None = None  # tactic only
    options: tuple[Annotated[str, Meta(min_length=1, max_length=80)], ...] = ()  # what the player chooses between
    warning: str | None = None  # shown to players: where the text says more than the effects do

    def copies(self, deck: int) -> int:
        """Copies of this card in a deck of ``deck`` (60 or 90) cards."""
        return self.copies_60 if deck == 60 else self.copies_90


class AbilityDef(_Def, frozen=True, kw_only=True):
    """A standing rule in the card language: a unit type's ability, or a rule of the whole game.

    Written like a card's effect without scope, duration or controller: it is always in
    force, for every unit of type ``unit`` (as the unit a unit hook asks about, the
    attacker of an attack hook), or for every unit and attack when ``unit`` is None. Its
    conditions read ``owner``/``active`` relative to that unit's side.
    """

    id: Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_]*$")]
    unit: UnitType | None = None
    hook: Hook
    op: Op
    value: float = 0  # integers, except step_cost adds in multiples of 0.5 MP
    stat: Stat | None = None
    when: Condition | None = None
    aura: AuraDef | None = None
    says: str | None = None

    @property
    def key(self) -> str:
        """How the game names it: ``SPECIAL.move_or_fire``, or ``rules.<id>`` for a rule of the game."""
        return f"{self.unit.value if self.unit is not None else 'rules'}.{self.id}"


class CardFile(_Def, frozen=True, kw_only=True):
    """A card file as a designer writes it: the schema `card_file_schema` exports."""

    common: tuple[CardDef, ...]
    tactics: tuple[CardDef, ...]


class CardChanges(_Def, frozen=True, kw_only=True):
    """A variant's own cards, carried by its game (`Rules.card_changes`): what it changes in its deck source.

    ``cards`` are the cards the variant changes or adds, each under its id in this game: a card
    that differs from a shipped card of the same id is ``<id>@<8 hex of its definition>``
    (`engine.cards.game`), so one id always names one definition. ``removed`` are the ids of
    the deck source's cards the variant takes out of the deck and the tactic pool.
    """

    cards: tuple[CardDef, ...] = ()
    removed: tuple[str, ...] = ()
