"""A game's own cards: the deck source a `RulesOverlay` (a variant, `GameConfig.rules`) plays with.

Cards are looked up by id everywhere (`card_of`), so a variant's cards become a deck source
of their own, registered under a name derived from their content: ``variant@<8 hex>`` (never a file's
name: those cannot hold ``@``, so `named_deck_sources` tells the two apart). A card the
variant *changes* (or adds under an id another source uses) keeps its name but gets the id
``<id>@<8 hex of its definition>``, so it never shadows the standard card of the same id,
and games of the standard rules and of the variant can run side by side in one process.
Registering is idempotent and depends on the overlay's content only: every process that
builds the game (or replays its record) registers the same source under the same name.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableMapping
from typing import Any

import msgspec

from .card_language import rule_of, uses_language
from .cards import CARDS, DECK_SOURCES, VARIANT_CARDS, CardDef, load_cards
from .config import GameConfig, RulesOverlay
from .errors import CardDataError

__all__ = ["VARIANT_MARK", "base_card_id", "deck_source_of", "named_deck_sources"]

VARIANT_MARK = "@"
"""Separates a changed card's id from the digest of its changed definition (``ambush@1a2b3c4d``)."""

_ENCODER = msgspec.json.Encoder(order="deterministic")


def base_card_id(card_id: str) -> str:
    """The card id a (possibly variant-changed) card or instance id stands for: ``ambush@1a2b#2`` → ``ambush``."""
    return card_id.partition("#")[0].partition(VARIANT_MARK)[0]


def named_deck_sources() -> tuple[str, ...]:
    """The deck sources a config may name (``standard`` and the variant files), not the registered overlays."""
    return tuple(name for name in DECK_SOURCES if VARIANT_MARK not in name)


def _digest(value: Any) -> str:
    return hashlib.sha256(_ENCODER.encode(value)).hexdigest()[:8]


def deck_source_of(config: GameConfig) -> str:
    """The deck source ``config`` plays with: ``config.cards``, or its overlay's source (registered now).

    Raises ValueError naming the card and field when the overlay's cards do not load.
    """
    overlay = config.rules
    if overlay is None or (not overlay.cards and not overlay.removed):
        return config.cards
    name = f"variant{VARIANT_MARK}{_digest([config.cards, overlay.cards, overlay.removed])}"
    if name not in DECK_SOURCES:
        _register(name, config.cards, overlay)
    return name


def _register(name: str, base: str, overlay: RulesOverlay) -> None:
    if base not in DECK_SOURCES:
        raise ValueError(f"cards {base!r} is not a deck source ({', '.join(named_deck_sources())})")
    common, tactics = DECK_SOURCES[base]
    known = {card.id for card in (*common, *tactics)}
    for card_id in overlay.removed:
        if card_id not in known:
            raise ValueError(f"rules.removed: {card_id!r} is not a card of deck source {base!r}")
    try:
        new_common, new_tactics = load_cards(
            _ENCODER.encode(
                {
                    "common": [c for c in overlay.cards if c.get("kind") != "tactic"],
                    "tactics": [c for c in overlay.cards if c.get("kind") == "tactic"],
                }
            )
        )
    except CardDataError as err:
        raise ValueError(f"rules.cards: {err}") from None
    changed: dict[str, CardDef] = {}
    added: list[CardDef] = []
    for card in (*new_common, *new_tactics):
        if card.id in CARDS and CARDS[card.id] != card:  # never shadow another source's card of that id
            renamed = msgspec.structs.replace(card, id=f"{card.id}{VARIANT_MARK}{_digest(card)}")
        else:
            renamed = card
        if card.id in known:
            changed[card.id] = renamed
        else:
            added.append(renamed)
    removed = set(overlay.removed)

    def resolve(cards: tuple[CardDef, ...], kind_is_tactic: bool) -> tuple[CardDef, ...]:
        kept = tuple(changed.get(c.id, c) for c in cards if c.id not in removed)
        return kept + tuple(c for c in added if (c.kind == "tactic") == kind_is_tactic)

    registry: MutableMapping[str, Any] = DECK_SOURCES  # type: ignore[assignment]
    for card in (*changed.values(), *added):
        if card.id not in CARDS:
            VARIANT_CARDS[card.id] = card
        for index, effect in enumerate(card.effects):
            if uses_language(effect):
                rule_of(card, index)
    registry[name] = (resolve(common, False), resolve(tactics, True))
