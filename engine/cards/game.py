"""The cards one game plays with: its deck source, as its variant changes it (rules §7.2).

A game names a shipped deck source (`Rules.cards`) and carries its variant's cards itself
(`Rules.card_changes`, built from `GameConfig.rules` by `card_changes`), so a state decoded
in any process, on any machine, knows every card it holds: nothing is registered anywhere.
A card the variant changes, or adds under an id a shipped card uses, keeps its name but gets
the id ``<id>@<8 hex of its definition>``; one id then names one definition everywhere, so
games of the standard rules and of any variant run side by side in one process.
"""

from __future__ import annotations

import hashlib
from typing import Final

import msgspec

from ..config import GameConfig
from ..errors import CardDataError
from ..state import Rules
from .catalogue import CARDS, DECK_SOURCES, CardSet, load_card
from .defs import CardChanges, CardDef

__all__ = ["VARIANT_MARK", "base_card_id", "canonical_deck", "card_changes", "card_of", "game_card", "game_cards"]

VARIANT_MARK = "@"
"""Separates a changed card's id from the digest of its definition (``ambush@1a2b3c4d``)."""

_ENCODER = msgspec.json.Encoder(order="deterministic")


def base_card_id(card_id: str) -> str:
    """The card id a (possibly variant-changed) card or instance id stands for: ``ambush@1a2b#2`` → ``ambush``."""
    return card_id.partition("#")[0].partition(VARIANT_MARK)[0]


def card_of(rules: Rules, instance_id: str) -> CardDef:
    """The definition of a card instance id such as ``"air_cover#2"`` (or a bare card id) in a game with ``rules``.

    Raises KeyError for an id the game does not know (`engine.codec.decode_state` refuses a
    state that names one).
    """
    card = game_card(rules, instance_id.partition("#")[0])
    if card is None:
        raise KeyError(instance_id)
    return card


def game_card(rules: Rules, card_id: str) -> CardDef | None:
    """The game's card with id ``card_id`` (its variant's first, then the shipped ones), or None."""
    changes = rules.card_changes
    if changes is not None:
        for card in changes.cards:
            if card.id == card_id:
                return card
    return CARDS.get(card_id)


_KEPT: Final[dict[int, tuple[CardChanges, str, CardSet]]] = {}


def game_cards(rules: Rules) -> CardSet:
    """``(common cards, tactic pool)`` of the game: its deck source's, with its variant's changes, in canonical order.

    The changed cards take the place of the cards they change; added cards follow, and
    removed ones are left out. Kept per `CardChanges` object (a game carries one from state
    to state).
    """
    common, tactics = DECK_SOURCES[rules.cards]
    changes = rules.card_changes
    if changes is None:
        return common, tactics
    kept = _KEPT.get(id(changes))
    if kept is not None and kept[0] is changes and kept[1] == rules.cards:
        return kept[2]
    known = {card.id for card in (*common, *tactics)}
    changed = {base_card_id(card.id): card for card in changes.cards if base_card_id(card.id) in known}
    added = [card for card in changes.cards if base_card_id(card.id) not in known]
    removed = set(changes.removed)

    def resolve(cards: tuple[CardDef, ...], tactic: bool) -> tuple[CardDef, ...]:
        kept_cards = tuple(changed.get(c.id, c) for c in cards if c.id not in removed)
        return kept_cards + tuple(c for c in added if (c.kind == "tactic") == tactic)

    found = (resolve(common, False), resolve(tactics, True))
    if len(_KEPT) >= 64:
        _KEPT.clear()  # a handful of variants at a time; one atomic step (threads)
    _KEPT[id(changes)] = (changes, rules.cards, found)  # holds the object: its id is not reused meanwhile
    return found


def canonical_deck(rules: Rules) -> tuple[str, ...]:
    """The game's common deck in canonical order: each card repeated ``copies`` times as ``id#n``."""
    return tuple(f"{card.id}#{n}" for card in game_cards(rules)[0] for n in range(1, card.copies(rules.deck) + 1))


def _digest(value: object) -> str:
    return hashlib.sha256(_ENCODER.encode(value)).hexdigest()[:8]


def card_changes(config: GameConfig) -> CardChanges | None:
    """The cards ``config.rules`` changes in its deck source, as the game carries them (None: no change).

    Raises ValueError naming the card, field and JSON path when the variant's cards do not load
    or it removes a card the deck source does not have; nothing is kept anywhere either way.
    """
    overlay = config.rules
    if overlay is None or (not overlay.cards and not overlay.removed):
        return None
    if config.cards not in DECK_SOURCES:
        raise ValueError(f"cards {config.cards!r} is not a deck source ({', '.join(DECK_SOURCES)})")
    common, tactics = DECK_SOURCES[config.cards]
    known = {card.id for card in (*common, *tactics)}
    for index, card_id in enumerate(overlay.removed):
        if card_id not in known:
            raise ValueError(f"$.rules.removed[{index}]: {card_id!r} is not a card of deck source {config.cards!r}")
    loaded: list[CardDef] = []
    for index, obj in enumerate(overlay.cards):
        where = f"$.rules.cards[{index}]"
        try:
            card = load_card(obj, where)
        except CardDataError as err:
            raise ValueError(str(err)) from None
        if any(other.id == card.id for other in loaded):
            raise ValueError(f"{where}.id: card {card.id!r} is given twice")
        loaded.append(card)
    cards = tuple(
        msgspec.structs.replace(card, id=f"{card.id}{VARIANT_MARK}{_digest(card)}")
        if card.id in CARDS and CARDS[card.id] != card  # never shadow a shipped card of that id
        else card
        for card in (*(c for c in loaded if c.kind != "tactic"), *(c for c in loaded if c.kind == "tactic"))
    )
    return CardChanges(cards=cards, removed=tuple(overlay.removed))
