"""Card definitions as validated data, loaded once from ``engine/data/cards.json``.

A card is pure data: what it targets and which effects it creates through which hooks.
Adding a card that uses existing hooks, ops, scopes, targeting kinds and conditions
needs no code change. Loading validates every card, and accepts only what the engine
will act on: an op on a card kind, window, scope or targeting that would never fire
(instant ops declare theirs in `engine.instants`) is an error that names the card and field:

>>> load_cards(b'{"common": [{"id": "x"}], "tactics": []}')
Traceback (most recent call last):
...
engine.errors.CardDataError: card 'x': Object missing required field `name`
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from .card_checks import check_card
from .card_language import rule_of, uses_language
from .conditions import CONDITION_NAMES, MAX_RADIUS, Condition
from .errors import CardDataError
from .instants import INSTANT_OPS
from .types import Hook, UnitType, Window

__all__ = [
    "CARDS",
    "COMMON_CARDS",
    "DECK_SOURCES",
    "TACTICS",
    "VARIANT_CARDS",
    "AuraDef",
    "CardDef",
    "CardFile",
    "ConditionsDef",
    "EffectDef",
    "TargetingDef",
    "VictimsDef",
    "canonical_deck",
    "card_file_problems",
    "card_file_schema",
    "card_of",
    "deck_cards",
    "load_cards",
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


class EffectDef(_Def, frozen=True, kw_only=True):
    """One effect a card creates (rules §8.1), before its targets are bound (language: `engine.card_language`)."""

    hook: Hook
    op: str
    value: float = 0  # integers, except modify_movement adds in multiples of 0.5 MP
    scope: str
    conditions: ConditionsDef = ConditionsDef()
    duration: str  # end_of_turn | turns:N | this_attack | until_phase:PHASE | permanent | instant
    when: Condition | None = None  # a condition tree, ANDed with `conditions`
    aura: AuraDef | None = None
    faces: tuple[Face, ...] = ()  # natural values, for reroll_attack_die and natural_result
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

    id: str
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

    @property
    def rolls_dice(self) -> bool:
        """True when playing this card rolls a die (an instant op like ``reroll_die``): its result is chance."""
        return any(effect.is_instant and INSTANT_OPS[effect.op].rolls_dice for effect in self.effects)

    def copies(self, deck: int) -> int:
        """Copies of this card in a deck of ``deck`` (60 or 90) cards."""
        return self.copies_60 if deck == 60 else self.copies_90


class _CardFile(_Def, frozen=True, kw_only=True):
    common: tuple[Any, ...]
    tactics: tuple[Any, ...]


def load_cards(raw: bytes) -> tuple[tuple[CardDef, ...], tuple[CardDef, ...]]:
    """Parse and validate card data: ``(common deck cards, tactics)`` in file order.

    Raises `CardDataError` naming the card and the field for the first problem found.
    """
    common, tactics, problems = _parse(raw)
    if problems:
        raise CardDataError(problems[0][1])
    return common, tactics


class CardFile(_Def, frozen=True, kw_only=True):
    """A card file as a designer writes it: the schema `card_file_schema` exports."""

    common: tuple[CardDef, ...]
    tactics: tuple[CardDef, ...]


def card_file_schema() -> dict[str, Any]:
    """The JSON Schema of a card file, generated from the msgspec definitions the loader validates with.

    The loader checks more than a schema can say (which ops a hook takes, what a
    condition may read on a hook, kinds, windows): `card_file_problems` reports those.
    """
    schema = msgspec.json.schema(CardFile)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Taktik card file"
    return schema


def card_file_problems(raw: bytes) -> list[str]:
    """Every problem of a card file, each as ``<path in the file>: <message>`` (first problem per card)."""
    return [f"{path}: {message}" for path, message in _parse(raw)[2]]


_AT = re.compile(r" - at `\$(.*)`$")
_FIELD = re.compile(r": field `([^`]*)`: ")


def _path_of(message: str, where: str) -> str:
    """The JSON path in the file of a problem of the card at ``where`` (``$.common[3]``)."""
    at = _AT.search(message)
    if at:
        return where + at.group(1)
    field = _FIELD.search(message)
    return f"{where}.{field.group(1)}" if field else where


def _parse(raw: bytes) -> tuple[tuple[CardDef, ...], tuple[CardDef, ...], list[tuple[str, str]]]:
    try:
        data = msgspec.json.decode(raw, type=_CardFile)
    except msgspec.DecodeError as err:
        return (), (), [(_path_of(str(err), "$"), f"card data: {err}")]
    problems: list[tuple[str, str]] = []
    lists: dict[str, list[CardDef]] = {"common": [], "tactics": []}
    seen: set[str] = set()
    for key, objs in (("common", data.common), ("tactics", data.tactics)):
        for i, obj in enumerate(objs):
            where = f"$.{key}[{i}]"
            try:
                card = _convert(obj)
                if card.id in seen:
                    raise CardDataError(f"card {card.id!r}: field `id`: duplicate id")
                if (key == "tactics") != (card.kind == "tactic"):
                    belongs = "tactics belong in the 'tactics' list"
                    if key == "tactics":
                        belongs = "only tactics belong in the 'tactics' list"
                    raise CardDataError(f"card {card.id!r}: field `kind`: {belongs}")
            except CardDataError as err:
                problems.append((_path_of(str(err), where), str(err)))
                continue
            seen.add(card.id)
            lists[key].append(card)
    return tuple(lists["common"]), tuple(lists["tactics"]), problems


_UNKNOWN_TAG = re.compile(r"^Invalid value '(.*)' - at `(.*\.if)`$")
_EMPTY = re.compile(r"^Expected `array` of length >= 1 - at `(.*\.of)`$")
_LISTED = re.compile(r"^Expected `object`, got `array` - at `(.*\.of)`$")


def _plainly(message: str) -> str:
    """msgspec's message about a condition tree, in the language's words (the path kept)."""
    unknown = _UNKNOWN_TAG.match(message)
    if unknown:
        return f"unknown condition {unknown.group(1)!r} (known: {', '.join(CONDITION_NAMES)}) - at `{unknown.group(2)}`"
    empty = _EMPTY.match(message)
    if empty:
        return f"wrong arity: 'all' and 'any' need at least one condition - at `{empty.group(1)}`"
    listed = _LISTED.match(message)
    if listed:
        return f"wrong arity: 'not' takes one condition, not a list - at `{listed.group(1)}`"
    return message


def _convert(obj: Any) -> CardDef:
    name = obj.get("id", "?") if isinstance(obj, Mapping) else "?"
    try:
        card = msgspec.convert(obj, CardDef)
    except msgspec.ValidationError as err:
        raise CardDataError(f"card {name!r}: {_plainly(str(err))}") from None
    check_card(card)
    return card


_DATA = Path(__file__).parent / "data"

COMMON_CARDS, TACTICS = load_cards((_DATA / "cards.json").read_bytes())
"""The common-deck cards (bonuses then maluses, canonical order) and the tactic pool."""


def _load_sources() -> dict[str, tuple[tuple[CardDef, ...], tuple[CardDef, ...]]]:
    """The standard cards, then each variant file of ``data/variants`` (by name) added to them."""
    sources = {"standard": (COMMON_CARDS, TACTICS)}
    ids = {card.id for card in (*COMMON_CARDS, *TACTICS)}
    for path in sorted((_DATA / "variants").glob("*.json")):
        common, tactics = load_cards(path.read_bytes())
        for card in (*common, *tactics):
            if card.id in ids:
                raise CardDataError(f"card {card.id!r}: field `id`: variant {path.stem!r} reuses a card id")
            ids.add(card.id)
        sources[path.stem] = (COMMON_CARDS + common, TACTICS + tactics)
    return sources


DECK_SOURCES: Mapping[str, tuple[tuple[CardDef, ...], tuple[CardDef, ...]]] = _load_sources()
"""Card sets a game may play with (`GameConfig.cards`): ``(common cards, tactics)`` by name.

``standard`` is the default deck; every ``engine/data/variants/NAME.json`` adds its cards to it."""

VARIANT_CARDS: dict[str, CardDef] = {}
"""Cards of variants games carry (`engine.rules_overlay` registers them): looked up, never listed."""


class _Cards(dict[str, CardDef]):
    """The shipped cards by id; a lookup (``[]``, ``in``, ``get``) also finds a registered variant card.

    Iterating lists the shipped cards only, so a catalogue does not change with the games a
    process happens to have played.
    """

    def __missing__(self, key: str) -> CardDef:
        return VARIANT_CARDS[key]

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in VARIANT_CARDS

    def get(self, key: str, default: Any = None) -> Any:
        return dict.get(self, key, VARIANT_CARDS.get(key, default))


CARDS: dict[str, CardDef] = _Cards(
    (card.id, card) for common, tactics in DECK_SOURCES.values() for card in (*common, *tactics)
)
"""Every shipped card by id, of every deck source (lookups also find variant cards, see `_Cards`)."""

for _card in CARDS.values():  # compile every condition tree once, at load
    for _index, _effect in enumerate(_card.effects):
        if uses_language(_effect):
            rule_of(_card, _index)


def deck_cards(cards: str = "standard") -> tuple[CardDef, ...]:
    """The common cards of deck source ``cards``, in canonical order."""
    return DECK_SOURCES[cards][0]


def canonical_deck(deck: int, cards: str = "standard") -> tuple[str, ...]:
    """The common deck in canonical order: each card repeated ``copies`` times as ``id#n``."""
    return tuple(f"{card.id}#{n}" for card in deck_cards(cards) for n in range(1, card.copies(deck) + 1))


def card_of(instance_id: str) -> CardDef:
    """The definition of a card instance id such as ``"air_cover#2"`` (or a bare card id)."""
    return CARDS[instance_id.partition("#")[0]]
