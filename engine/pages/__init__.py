"""The rule pages, and the map from each action type to the one page that owns it.

A page is a module with ``OFFERS`` (action type → legal actions of that type now) and
``APPLY`` (action type → apply one action, raising `IllegalAction` when it is not legal).
Both come from the same predicates, so offering and accepting cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, Final

from ..actions import ACTION_ORDER, Action, ActionBase
from ..state import GameState
from . import bonuses, combat, deployment, maluses, movement, phases, reactions

__all__ = ["APPLY", "OFFERS", "PAGES"]

PAGES: tuple[ModuleType, ...] = (phases, deployment, bonuses, maluses, movement, combat, reactions)
"""Every rule page; victory checks (`engine.victory`) own no action and run at checkpoints."""

OfferFn = Callable[[GameState], list[Action]]
ApplyFn = Callable[[GameState, Any], GameState]


def _build() -> tuple[dict[type[ActionBase], OfferFn], dict[type[ActionBase], ApplyFn]]:
    """Check that each action type has exactly one owner page; map types to its functions."""
    owner: dict[type[ActionBase], ModuleType] = {}
    for page in PAGES:
        if set(page.OFFERS) != set(page.APPLY):
            raise RuntimeError(f"page {page.__name__} offers and applies different action types")
        for action_type in page.OFFERS:
            if action_type in owner:
                raise RuntimeError(
                    f"{action_type.__name__} is owned by {owner[action_type].__name__} and {page.__name__}"
                )
            owner[action_type] = page
    missing = [t.__name__ for t in ACTION_ORDER if t not in owner]
    if missing:
        raise RuntimeError(f"no rule page owns {', '.join(missing)}")
    return {t: owner[t].OFFERS[t] for t in ACTION_ORDER}, {t: owner[t].APPLY[t] for t in ACTION_ORDER}


_TABLES = _build()
OFFERS: Final = _TABLES[0]
APPLY: Final = _TABLES[1]
