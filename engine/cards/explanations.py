"""What a live effect says: the card data it comes from and its explanation, card and clause.

``explain(effect)`` is what the HUD, the log and `attack_preview` show for a card term:
``Forest Ambush: infantry in forest, +1 defense`` (`engine.card_language.clause_text`),
kept per card and effect once built.
"""

from __future__ import annotations

from ..state import Effect, Rules
from ..types import Hook
from .defs import CardDef, EffectDef
from .game import card_of, game_card
from .language import clause_text

__all__ = ["effect_def", "explain", "recorded_clause"]


def _index_of(card: CardDef, effect: Effect) -> int | None:
    """Which effect of ``card`` a live effect comes from: its recorded clause, else the first of its hook and op."""
    if effect.conditions.clause is not None:
        return effect.conditions.clause
    return next((i for i, e in enumerate(card.effects) if e.hook is effect.hook and e.op == effect.op), None)


def effect_def(effect: Effect, rules: Rules) -> EffectDef:
    """The card data a live effect comes from."""
    card = card_of(rules, effect.source_card)
    index = _index_of(card, effect)
    assert index is not None, f"{effect.source_card} has no {effect.hook.value} {effect.op} effect"
    return card.effects[index]


_EXPLAINED: dict[tuple[str, int | None, Hook, str], tuple[CardDef, str]] = {}


def explain(effect: Effect, rules: Rules) -> str:
    """The card and clause behind a live effect: ``Forest Ambush: infantry in forest, +1 defense``.

    An effect whose card is unknown (or has no such effect) is named by its card id.
    """
    card = game_card(rules, effect.source_card)
    if card is None:
        return effect.source_card
    key = (effect.source_card, effect.conditions.clause, effect.hook, effect.op)
    known = _EXPLAINED.get(key)
    if known is not None and known[0] is card:  # the same card object: a test may swap a card under one id
        return known[1]
    index = _index_of(card, effect)
    text = effect.source_card if index is None else clause_text(card, index)
    _EXPLAINED[key] = (card, text)
    return text


def recorded_clause(effect: Effect, rules: Rules) -> str | None:
    """The clause a roll record names for ``effect``: only for an effect written in the condition language."""
    return None if effect.conditions.clause is None else explain(effect, rules)
