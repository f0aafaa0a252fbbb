"""The shipped cards, loaded once from ``engine/data/``, and how any card file is validated.

A card is pure data: what it targets and which effects it creates through which hooks.
Adding a card that uses existing hooks, ops, scopes, targeting kinds and conditions
needs no code change. Loading validates every card, and accepts only what the engine
will act on: an op on a card kind, window, scope or targeting that would never fire
(instant ops declare theirs in `engine.cards.instants`) is an error that names the card and field:

>>> load_cards(b'{"common": [{"id": "x"}], "tactics": []}')
Traceback (most recent call last):
...
engine.errors.CardDataError: card 'x': Object missing required field `name`
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import accumulate
from pathlib import Path
from types import MappingProxyType
from typing import Any

import msgspec

from ..errors import CardDataError
from ..types import Hook
from .checks import check_card
from .conditions import CONDITION_NAMES
from .defs import CardDef, CardFile, _Def
from .language import rule_of, uses_language
from .vocabulary import ABILITY_ONLY_HOOKS, HOOK_RULES, OPS, SCOPES, STATS

__all__ = [
    "CARDS",
    "COMMON_CARDS",
    "DECK_SOURCES",
    "TACTICS",
    "CardSet",
    "card_file_problems",
    "card_file_schema",
    "json_too_deep",
    "load_card",
    "load_cards",
]

MAX_NESTING = 32
"""The deepest nesting of arrays and objects a card or rules file may have: a card and its condition
tree need about a dozen levels, and a decoder recurses once per level (hostile input, docs/server.md)."""


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {0x5B: 1, 0x7B: 1, 0x5D: -1, 0x7D: -1}


def json_too_deep(raw: bytes, limit: int = MAX_NESTING) -> bool:
    """Whether the JSON text ``raw`` nests arrays and objects deeper than ``limit`` (brackets in strings
    skipped). Cheap on any body: a text with at most ``limit`` brackets is never looked at closer, and
    otherwise only its brackets outside strings are walked (the rest is cut away in C)."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"")  # escapes first: what is left of a quote opens or closes
    outside = b"".join(plain.split(b'"')[::2])
    brackets = outside.translate(None, _NOT_BRACKETS)
    return max(accumulate(_STEP[b] for b in brackets), default=0) > limit


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


def load_card(obj: Any, where: str) -> CardDef:
    """One card object, validated as the loader validates a card file's: `CardDataError` names the card,
    the field and the JSON path of the problem, starting at ``where`` (``$.rules.cards[2]``)."""
    try:
        return _convert(obj)
    except CardDataError as err:
        raise CardDataError(f"{_path_of(str(err), where)}: {err}") from None


def card_file_schema() -> dict[str, Any]:
    """The JSON Schema of a card file, generated from the types the loader validates with.

    Hooks, ops, scopes, stats and limits are enums and durations a pattern (`engine.cards.vocabulary`),
    and each hook's ops and scopes are tied to it (``if``/``then`` from `HOOK_RULES`, the table
    the checks read), so an editor refuses a wrong op as the loader does. The loader checks more
    than a schema can say (what a condition may read on a hook, whether it can ever hold there,
    kinds, windows, targeting): `card_file_problems` reports those.
    """
    schema = msgspec.json.schema(CardFile)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Taktik card file"
    schema["$defs"]["EffectDef"]["allOf"] = [
        {
            "if": {"properties": {"hook": {"const": hook.value}}, "required": ["hook"]},
            "then": {"properties": {"op": {"enum": list(ops)}, "scope": {"enum": list(scopes)}}}
            if hook not in ABILITY_ONLY_HOOKS
            else False,  # a standing ability's hook: no card carries it
        }
        for hook, (ops, scopes) in HOOK_RULES.items()
    ]
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
    if json_too_deep(raw):
        return (), (), [("$", f"card data: nested deeper than {MAX_NESTING} levels (no card needs that many)")]
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
_CLOSED = re.compile(r"^Invalid enum value '(.*)' - at `(.*\.(op|scope|hook|stat))`$")
_DURATION = re.compile(r"^Expected `str` matching regex .* - at `(.*\.duration)`$")
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
    closed = _CLOSED.match(message)
    if closed:
        word, path, field = closed.groups()
        known = {"op": OPS, "scope": SCOPES, "hook": tuple(h.value for h in Hook), "stat": STATS}[field]
        return f"unknown {field} {word!r} (the language has: {', '.join(known)}) - at `{path}`"
    duration = _DURATION.match(message)
    if duration:
        return (
            "not a duration: end_of_turn, turns:N (1..99), this_attack, until_phase:PHASE, permanent or instant"
            f" - at `{duration.group(1)}`"
        )
    return message


def _convert(obj: Any) -> CardDef:
    name = obj.get("id", "?") if isinstance(obj, Mapping) else "?"
    try:
        card = msgspec.convert(obj, CardDef)
    except msgspec.ValidationError as err:
        raise CardDataError(f"card {name!r}: {_plainly(str(err))}") from None
    check_card(card)
    return card


_DATA = Path(__file__).parents[1] / "data"

COMMON_CARDS, TACTICS = load_cards((_DATA / "cards.json").read_bytes())
"""The standard common-deck cards (bonuses then maluses, canonical order) and tactic pool."""

CardSet = tuple[tuple[CardDef, ...], tuple[CardDef, ...]]
"""A deck source: ``(common cards in canonical order, tactic pool)``."""


def _load_sources() -> dict[str, CardSet]:
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


DECK_SOURCES: Mapping[str, CardSet] = MappingProxyType(_load_sources())
"""The card sets shipped with the engine, by the name a config gives (`GameConfig.cards`).

``standard`` is the default deck; every ``engine/data/variants/NAME.json`` adds its cards to
it. Read-only: a variant a game carries in its config (`GameConfig.rules`) is never added
here; its cards travel in the game (`engine.cards.game`)."""

CARDS: Mapping[str, CardDef] = MappingProxyType(
    {card.id: card for common, tactics in DECK_SOURCES.values() for card in (*common, *tactics)}
)
"""Every shipped card by id, of every deck source (read-only). A game's card is `card_of`'s answer."""

for _card in CARDS.values():  # compile every condition tree once, at load
    for _index, _effect in enumerate(_card.effects):
        if uses_language(_effect):
            rule_of(_card, _index)
