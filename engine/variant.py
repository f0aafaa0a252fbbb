"""Variants and card files: a designer's JSON on top of the standard rules, checked before anything runs.

A variant file changes card fields, adds or removes cards, changes rule tables and the
default scenario::

    {
      "name": "cheaper_cover",
      "description": "one card twice as common",
      "cards": {
        "change": {"CARD_ID": {"copies_60": 4, "copies_90": 6}},
        "add": [ ...cards in the card language (docs/cards.md)... ],
        "remove": ["OTHER_CARD_ID"]
      },
      "tables": {
        "units": {"MECHANIZED": {"range": 4}},
        "terrain": {"FOREST": {"move_cost": 3, "defense": 1}},
        "hit_thresholds": [3, 4, 5, 6],
        "road_discount_mp": 0.5, "river_enter_mp": 2, "river_follow_mp": 1,
        "max_moves": 5, "max_attacks_per_turn": 5, "storage_limit": 6, "tactic_hand_size": 6
      },
      "abilities": [ ...standing abilities in the card language (docs/cards.md, "Abilities")... ],
      "remove_abilities": ["SPECIAL.move_or_fire"],
      "scenario": {"deck": 90, "victory": {"round_limit": {"max_rounds": 12}}}
    }

`decode_variant` validates all of it and raises `VariantError` naming the path of the first
problem: an unknown card, an unknown field, a wrong type, a value out of range. A bare card
file (``{"common": [...], "tactics": [...]}``, docs/cards.md) is a rules file too:
`decode_rules_file` takes either, and its cards join the standard deck. `apply_variant`
turns a base `GameConfig` into the variant's: the scenario's fields replace the base's and the
cards and tables travel in ``GameConfig.rules`` (so the game's record replays with them).
Terrain changes become abilities bound to that terrain type (rules §2.5): a move cost as a
``step_cost`` into it, cover and defense as a ``modify_defense`` of units standing there.
The other tables are `TableOverrides` fields, checked with its own types and ranges; docs/lab.md
lists every field with its range.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import msgspec
from msgspec import Meta

from .cards.abilities import config_abilities
from .cards.catalogue import CARDS, DECK_SOURCES, card_file_problems, json_too_deep, load_cards
from .config import GameConfig, RulesOverlay
from .errors import CardDataError
from .tables import TERRAIN, UNITS, TableOverrides, TerrainRules
from .types import TerrainType, UnitType

__all__ = ["Variant", "VariantError", "apply_variant", "decode_rules_file", "decode_variant"]


E = TypeVar("E", bound=enum.Enum)
P = TypeVar("P", bound=msgspec.Struct)


class VariantError(ValueError):
    """A rules file that cannot be used; the message names the file's path of the (first) problem.

    ``problems`` lists every problem found, each ``<path>: <message>`` (a card file reports one per card).
    """

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems or (message,)


class _Patch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of variant structs: strict about unknown fields."""


class UnitPatch(_Patch, frozen=True, kw_only=True):
    """Changed stats of one unit type (rules §3.1); a field left out keeps the standard value."""

    movement_mp: Annotated[int, Meta(ge=0, le=20)] | None = None
    range: Annotated[int, Meta(ge=1, le=30)] | None = None
    hp: Annotated[int, Meta(ge=1, le=99)] | None = None
    damage: Annotated[int, Meta(ge=0, le=99)] | None = None
    vp: Annotated[int, Meta(ge=0, le=99)] | None = None


class TerrainPatch(_Patch, frozen=True, kw_only=True):
    """Changed values of one base terrain (rules §2.3)."""

    move_cost: Annotated[int, Meta(ge=1, le=20)] | None = None
    blocks: bool | None = None
    hit_modifier: Annotated[int, Meta(ge=-6, le=6)] | None = None
    defense: Annotated[int, Meta(ge=-6, le=6)] | None = None


class TableRows(_Patch, frozen=True, kw_only=True):
    """The tables a variant changes row by row: unit types and base terrains."""

    # rows are checked one by one (`_rows`), so that an error names the unit type or terrain
    units: dict[str, Any] = msgspec.field(default_factory=dict)
    terrain: dict[str, Any] = msgspec.field(default_factory=dict)


_ROW_TABLES = tuple(f.name for f in msgspec.structs.fields(TableRows))
_VALUE_TABLES = tuple(f.name for f in msgspec.structs.fields(TableOverrides) if f.name != "units")
"""The other tables are `TableOverrides` fields, checked with its types and ranges (one source of truth)."""


class CardsPatch(_Patch, frozen=True, kw_only=True):
    """Card changes: fields of existing cards, new cards, cards taken out."""

    change: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)
    add: tuple[dict[str, Any], ...] = ()
    remove: tuple[str, ...] = ()


class VariantFile(_Patch, frozen=True, kw_only=True):
    """A variant file as written."""

    name: Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_]*$")]
    description: str = ""
    cards: CardsPatch = CardsPatch()
    tables: dict[str, Any] = msgspec.field(default_factory=dict)  # `TableRows` and `TableOverrides` fields
    abilities: tuple[dict[str, Any], ...] = ()  # standing abilities in the card language
    remove_abilities: tuple[str, ...] = ()  # keys of standard abilities to take out (``SPECIAL.move_or_fire``)
    scenario: dict[str, Any] = msgspec.field(default_factory=dict)


@dataclass(frozen=True)
class Variant:
    """A checked variant: what `apply_variant` puts into a game's config."""

    name: str
    description: str
    rules: RulesOverlay  # its cards, tables and abilities (its terrain changes among them)
    scenario: dict[str, Any]  # GameConfig fields (already checked) the variant sets
    terrain: dict[TerrainType, TerrainRules]  # the terrain rows it changes, whole (played as abilities)
    change: dict[str, dict[str, Any]] = field(default_factory=dict)  # card id → the fields it sets, as written
    abilities: tuple[dict[str, Any], ...] = ()  # the file's own abilities (its terrain changes are in `terrain`)

    @property
    def changed_cards(self) -> tuple[str, ...]:
        """Ids of the cards the variant changes, adds or removes."""
        return tuple(sorted({*(str(c["id"]) for c in self.rules.cards), *self.rules.removed}))


_NAME = re.compile(r"[^a-z0-9_]+")


def decode_rules_file(raw: bytes, name: str = "playtest") -> Variant:
    """A variant file, or a card file (whose cards join the standard deck under rules named ``name``), checked.

    Raises `VariantError` with every problem found, each with its JSON path in the file.
    """
    if json_too_deep(raw):
        raise VariantError("$: the file nests deeper than any rules file needs (at most 32 levels)")
    try:
        top = msgspec.json.decode(raw)
    except msgspec.DecodeError as err:
        raise VariantError(f"$: not JSON: {err}") from None
    if not isinstance(top, dict):
        raise VariantError("$: a rules file is a JSON object: a variant ({\"name\": ...}) or cards ({\"common\": ...})")
    if "common" not in top and "tactics" not in top:
        return decode_variant(raw)
    problems = card_file_problems(raw)
    if problems:
        raise VariantError(problems[0], tuple(problems))
    cards = (*top.get("common", ()), *top.get("tactics", ()))
    label = _NAME.sub("_", name.lower()).strip("_") or "playtest"
    label = label if label[0].isalpha() else f"rules_{label}"
    rules = RulesOverlay(name=label[:40], cards=tuple(cards))
    return Variant(name=rules.name, description="cards from a card file", rules=rules, scenario={}, terrain={})


def decode_variant(raw: bytes) -> Variant:
    """Check variant JSON ``raw``; raises `VariantError` naming the path of the first problem."""
    if json_too_deep(raw):
        raise VariantError("$: the file nests deeper than any rules file needs (at most 32 levels)")
    try:
        data = msgspec.json.decode(raw, type=VariantFile)
    except msgspec.DecodeError as err:
        raise VariantError(_plain(str(err))) from None
    cards = _cards(data.cards)
    tables, terrain, terrain_abilities = _tables(data.tables)
    _check_hand_size(tables, data.cards, cards)
    scenario = _scenario(data.scenario)
    rules = RulesOverlay(
        name=data.name,
        cards=cards,
        removed=tuple(data.cards.remove),
        tables=tables,
        abilities=(*terrain_abilities, *data.abilities),
        removed_abilities=data.remove_abilities,
    )
    try:  # as the engine will; the terrain's own come first, so an index past them is the file's
        config_abilities(data.abilities, data.remove_abilities, where="$")
    except ValueError as err:
        raise VariantError(str(err).replace(".remove_abilities[", ".remove_abilities[", 1)) from None
    return Variant(
        name=data.name,
        description=data.description,
        rules=rules,
        scenario=scenario,
        terrain=terrain,
        change=dict(data.cards.change),
        abilities=data.abilities,
    )


def apply_variant(base: GameConfig, variant: Variant) -> GameConfig:
    """``base`` played under ``variant``: its scenario fields, its cards, tables and abilities carried."""
    return msgspec.structs.replace(base, rules=variant.rules, **variant.scenario)


def _plain(message: str) -> str:
    """msgspec's ``<problem> - at `$.path``` as ``$.path: <problem>``."""
    problem, sep, where = message.rpartition(" - at `")
    return f"{where.rstrip('`')}: {problem}" if sep else message


def _under(where: str, message: str) -> str:
    """msgspec's message about a part of the file read on its own, with its path in the file."""
    plain = _plain(message)
    return plain.replace("$", where, 1) if plain.startswith("$") else f"{where}: {plain}"


_STANDARD_IDS = "an id of the standard deck; `taktik cards list` lists them"


def _cards(patch: CardsPatch) -> tuple[dict[str, Any], ...]:
    """The changed cards (whole, with the changes merged) and the added ones, each checked."""
    standard = {card.id: card for common, tactics in (DECK_SOURCES["standard"],) for card in (*common, *tactics)}
    out: list[dict[str, Any]] = []
    for card_id, fields in patch.change.items():
        where = f"$.cards.change.{card_id}"
        if card_id not in standard:
            raise VariantError(f"{where}: unknown card {card_id!r} ({_STANDARD_IDS})")
        if "id" in fields:
            raise VariantError(f"{where}.id: a changed card keeps its id (add a new card under `add` instead)")
        merged = {**msgspec.to_builtins(standard[card_id]), **fields}
        out.append(_checked(merged, where))
    for i, card in enumerate(patch.add):
        where = f"$.cards.add[{i}]"
        new_id = card.get("id")
        if isinstance(new_id, str) and new_id in set(CARDS):  # iterating lists the shipped cards only
            raise VariantError(f"{where}.id: card {new_id!r} exists already (change it under `change`)")
        out.append(_checked(card, where))
    for i, card_id in enumerate(patch.remove):
        if card_id not in standard:
            raise VariantError(f"$.cards.remove[{i}]: unknown card {card_id!r} ({_STANDARD_IDS})")
        if card_id in patch.change:
            raise VariantError(f"$.cards.remove[{i}]: card {card_id!r} is both changed and removed")
    return tuple(out)


def _checked(card: dict[str, Any], where: str) -> dict[str, Any]:
    """``card`` if it loads as a card (the card language's checks), else a `VariantError` at ``where``."""
    key = "tactics" if card.get("kind") == "tactic" else "common"
    try:
        load_cards(msgspec.json.encode({"common": [], "tactics": [], key: [card]}))
    except CardDataError as err:
        raise VariantError(f"{where}: {err}") from None
    return card


def _rows(rows: dict[str, Any], keys: type[E], row_type: type[P], where: str) -> list[tuple[E, P]]:
    """``rows`` checked: each key a member of ``keys``, each row a ``row_type`` (sorted by key)."""
    out: list[tuple[E, P]] = []
    for key, row in sorted(rows.items()):
        if key not in keys.__members__:
            known = ", ".join(keys.__members__)
            raise VariantError(f"{where}.{key}: unknown {where.rpartition('.')[2]} {key!r} ({known})")
        try:
            out.append((keys[key], msgspec.convert(row, row_type)))
        except msgspec.ValidationError as err:
            raise VariantError(_under(f"{where}.{key}", str(err))) from None
    return out


def _tables(raw: dict[str, Any]) -> tuple[TableOverrides, dict[TerrainType, TerrainRules], tuple[dict[str, Any], ...]]:
    for key in raw:
        if key not in _ROW_TABLES and key not in _VALUE_TABLES:
            known = ", ".join((*_ROW_TABLES, *_VALUE_TABLES))
            raise VariantError(f"$.tables.{key}: unknown table {key!r} ({known})")
    try:
        patch = msgspec.convert({k: v for k, v in raw.items() if k in _ROW_TABLES}, TableRows)
        values = msgspec.convert({k: v for k, v in raw.items() if k in _VALUE_TABLES}, TableOverrides)
    except msgspec.ValidationError as err:
        raise VariantError(_under("$.tables", str(err))) from None
    units = {
        unit_type: msgspec.structs.replace(
            UNITS[unit_type], **{f: v for f in msgspec.structs.asdict(row) if (v := getattr(row, f)) is not None}
        )
        for unit_type, row in _rows(patch.units, UnitType, UnitPatch, "$.tables.units")
    }
    abilities: list[dict[str, Any]] = []
    rows: dict[TerrainType, TerrainRules] = {}
    for terrain, row in _rows(patch.terrain, TerrainType, TerrainPatch, "$.tables.terrain"):
        where = f"$.tables.terrain.{terrain.value}"
        standard = TERRAIN[terrain]
        rows[terrain] = msgspec.structs.replace(
            standard, **{f: v for f in msgspec.structs.asdict(row) if (v := getattr(row, f)) is not None}
        )
        if row.blocks is False and standard.blocks:
            raise VariantError(f"{where}.blocks: {terrain.value} cannot be made passable (it has no move cost)")
        if standard.blocks and row.move_cost is not None:
            raise VariantError(f"{where}.move_cost: {terrain.value} blocks movement; it has no move cost")
        on_terrain = {"if": "terrain", "is": [terrain.value]}
        name = terrain.value.lower()
        if row.blocks and not standard.blocks:
            abilities.append({"id": f"{name}_blocks", "hook": "step_cost", "op": "block", "when": on_terrain})
        elif row.move_cost is not None and row.move_cost != standard.move_cost:
            delta = float(row.move_cost - standard.move_cost)
            abilities.append(
                {"id": f"{name}_move_cost", "hook": "step_cost", "op": "add", "value": delta, "when": on_terrain}
            )
        hit = (row.hit_modifier if row.hit_modifier is not None else standard.hit_modifier) - standard.hit_modifier
        defense = (row.defense if row.defense is not None else standard.defense) - standard.defense
        if defense - hit:  # subtracted from rolls against a unit standing there, as a defense term
            abilities.append(
                {
                    "id": f"{name}_cover",
                    "hook": "modify_defense",
                    "op": "add",
                    "value": defense - hit,
                    "when": on_terrain,
                }
            )
    return msgspec.structs.replace(values, units=units), rows, tuple(abilities)


def _check_hand_size(tables: TableOverrides, patch: CardsPatch, cards: tuple[dict[str, Any], ...]) -> None:
    """A seeded tactic hand cannot hold more cards than the variant's tactic pool (rules §7.5)."""
    tactics = {card.id for card in DECK_SOURCES["standard"][1]} - set(patch.remove)
    tactics |= {str(card["id"]) for card in cards if card.get("kind") == "tactic"}
    if tables.tactic_hand_size > len(tactics):
        raise VariantError(
            f"$.tables.tactic_hand_size: {tables.tactic_hand_size} is more than the {len(tactics)} tactic cards "
            "of the pool"
        )


_NOT_SCENARIO = ("seed", "rules")
_RETIRED = ("movement_rules", "combat_rules")


def _scenario(fields: dict[str, Any]) -> dict[str, Any]:
    """The GameConfig fields the scenario sets, checked as a config (``seed`` comes from the run)."""
    for name in _NOT_SCENARIO:
        if name in fields:
            raise VariantError(f"$.scenario.{name}: a variant does not set {name!r} (the run gives it)")
    for name in _RETIRED:
        if name in fields:
            raise VariantError(
                f"$.scenario.{name}: the rule lists are retired; write each rule under `abilities` in the card "
                'language, e.g. {"id": "mud", "hook": "step_cost", "op": "add", "value": 1, '
                '"when": {"if": "terrain_tag", "is": ["rough"]}} (docs/cards.md, "Abilities")'
            )
    try:
        config = msgspec.convert(fields, GameConfig)
    except msgspec.ValidationError as err:
        raise VariantError(_under("$.scenario", str(err))) from None
    return {name: getattr(config, name) for name in fields}
