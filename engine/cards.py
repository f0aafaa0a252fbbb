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

from .card_language import language_problems, rule_of, uses_language
from .conditions import CONDITION_NAMES, MAX_RADIUS, Condition
from .errors import CardDataError
from .instants import ATTACK_WINDOWS, INSTANT_OPS
from .types import Hook, Phase, Quadrant, UnitType, Window

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

# Which ops each hook accepts, and which scopes make sense for the hook's subject.
_UNIT_SCOPES = ("targets", "own_units", "enemy_units", "all_units")
_ATTACK_SCOPES = ("targets", "own_attacks", "all_attacks", "pending_attack")
_PLAYER_SCOPES = ("controller",)
HOOK_RULES: dict[Hook, tuple[tuple[str, ...], tuple[str, ...]]] = {
    Hook.CAN_MOVE_UNIT: (("allow", "deny"), _UNIT_SCOPES),
    Hook.CAN_ATTACK: (("deny",), _ATTACK_SCOPES),
    Hook.CAN_ATTACK_AFTER_MOVE: (("allow",), _UNIT_SCOPES),
    Hook.MODIFY_MOVEMENT: (("add", "halve"), _UNIT_SCOPES),
    Hook.MODIFY_MAX_MOVES: (("add", "cap"), _PLAYER_SCOPES),
    Hook.MODIFY_ATTACK_ROLL: (("add",), _ATTACK_SCOPES),
    Hook.MODIFY_DEFENSE: (("add",), _UNIT_SCOPES),
    Hook.MODIFY_DAMAGE: (("add", "mul"), _ATTACK_SCOPES),
    Hook.IGNORE_DEFENDER_TERRAIN: (("apply",), _ATTACK_SCOPES),
    Hook.CAN_PLAY_CARD: (("deny",), _PLAYER_SCOPES),
    Hook.CAN_PLAY_TACTIC: (("deny",), _PLAYER_SCOPES),
    Hook.MODIFY_STORAGE_LIMIT: (("add",), _PLAYER_SCOPES),
    Hook.CAN_RESUPPLY: (("deny",), _UNIT_SCOPES),
    Hook.REROLL_ATTACK_DIE: (("reroll",), _ATTACK_SCOPES),
    Hook.NATURAL_RESULT: (("hit", "miss"), _ATTACK_SCOPES),
    Hook.CAP_DAMAGE: (("cap",), _ATTACK_SCOPES),
    Hook.IGNORE_HIT: (("save", "save_first"), _UNIT_SCOPES),
    Hook.INSTANT: (tuple(INSTANT_OPS), ("targets", "pending_attack")),
}

_TIMING = {"bonus": "stored", "malus": "immediate", "tactic": "reaction"}
_UNIT_TARGETING = ("own_unit", "pending_attacker", "pending_target", "supporter")
"""Targeting kinds whose plays name units on the board."""
_PENDING_TARGETING = ("pending_attacker", "pending_target", "pending_attack", "supporter")
"""Targeting kinds that aim at the pending attack: only a tactic in an attack window has one."""


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
    _check_card(card)
    return card


def _check_card(card: CardDef) -> None:
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
        _check_duration(effect.duration, fail, where)
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


def _check_duration(duration: str, fail: Any, where: str) -> None:
    if duration in ("end_of_turn", "this_attack", "permanent", "instant"):
        return
    kind, _, arg = duration.partition(":")
    if kind == "turns" and arg.isdigit() and int(arg) >= 1:
        return
    if kind == "until_phase" and arg in Phase.__members__:
        return
    raise fail(
        f"{where}.duration",
        f"{duration!r} is not end_of_turn, turns:N, this_attack, until_phase:PHASE, permanent or instant",
    )


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


def card_of(instance_id: str) -> CardDef:
    """The definition of a card instance id such as ``"air_cover#2"`` (or a bare card id)."""
    return CARDS[instance_id.partition("#")[0]]


def deck_cards(cards: str = "standard") -> tuple[CardDef, ...]:
    """The common cards of deck source ``cards``, in canonical order."""
    return DECK_SOURCES[cards][0]


def canonical_deck(deck: int, cards: str = "standard") -> tuple[str, ...]:
    """The common deck in canonical order: each card repeated ``copies`` times as ``id#n``."""
    return tuple(f"{card.id}#{n}" for card in deck_cards(cards) for n in range(1, card.copies(deck) + 1))
