"""`reduce` and `legal_actions`: dispatch to the owning rule page, then settle the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from msgspec.structs import replace

from .actions import ACTION_ORDER, Action
from .errors import IllegalAction
from .flow.match_actions import MATCH_ACTION_TYPES, acting_side, apply_match_action, match_problem
from .flow.phases import CHOOSER_ACTIONS, PRIORITY_ACTIONS, allowed_action_types, decide_to_act
from .flow.victory import end_by_action_cap
from .pages import APPLY, OFFERS
from .state import GameState
from .types import Phase

__all__ = ["cached_legal_actions", "gating_problem", "legal_actions", "reduce"]

_LEGAL_CACHE: Final[dict[int, tuple[GameState, list[Action]]]] = {}
_LEGAL_CACHE_LIMIT: Final = 8


def legal_actions(state: GameState) -> list[Action]:
    """Every action `reduce` accepts now, for ``state.to_act``, in canonical order.

    Action types in the rules §4.3 order, then fields ascending (units in unit order, cells
    by (y, x), indices numerically, null first). Empty exactly when the game is over.
    The result is a fresh list; callers may keep or change it.
    """
    cached = _LEGAL_CACHE.get(id(state))
    if cached is not None and cached[0] is state:
        return list(cached[1])
    actions: list[Action] = []
    for offer in _plan(allowed_action_types(state)):
        actions.extend(offer(state))
    if len(_LEGAL_CACHE) >= _LEGAL_CACHE_LIMIT:
        # clear() is one atomic step: a server's bot thread may use the cache at the same
        # time, and evicting one entry (iterate, then pop) could race with it.
        _LEGAL_CACHE.clear()
    _LEGAL_CACHE[id(state)] = (state, actions)
    return list(actions)


_Offer = Callable[[GameState], list[Action]]
_PLANS: Final[dict[frozenset[type], tuple[_Offer, ...]]] = {}


def _plan(allowed: frozenset[type]) -> tuple[_Offer, ...]:
    """The offer functions of the ``allowed`` action types, in `ACTION_ORDER` (a handful of sets: kept)."""
    plan = _PLANS.get(allowed)
    if plan is None:
        if len(_PLANS) >= 32:
            _PLANS.clear()  # never in play (the flow has a handful of sets); one atomic step (threads)
        plan = _PLANS[allowed] = tuple(OFFERS[t] for t in ACTION_ORDER if t in allowed)
    return plan


def cached_legal_actions(state: GameState) -> list[Action] | None:
    """`legal_actions` of ``state`` when it was listed recently, else None (nothing is computed); do not change it."""
    cached = _LEGAL_CACHE.get(id(state))
    return cached[1] if cached is not None and cached[0] is state else None


def reduce(state: GameState, action: Action) -> GameState:
    """Apply ``action`` for ``state.to_act`` and everything it triggers; return the new state.

    Pure: ``state`` is never changed. Raises `IllegalAction` (a ValueError) with a reason
    naming the unit, cell or phase when the action is in neither `legal_actions` nor
    `match_actions`; then nothing changed and no randomness was consumed.
    """
    match_action = type(action) in MATCH_ACTION_TYPES
    problem = match_problem(state, action) if match_action else gating_problem(state, action)
    if problem is not None:
        raise problem
    working = replace(state, events=()) if state.events else state
    new = apply_match_action(working, action) if match_action else APPLY[type(action)](working, action)
    taken = new.actions_taken + 1
    if new.phase is not Phase.VICTORY and taken >= new.rules.victory.max_actions:
        capped_by = acting_side(state, action)
        assert capped_by is not None  # an accepted action always has a side: the game was not over
        new = end_by_action_cap(replace(new, actions_taken=taken), capped_by)
        return replace(new, to_act=decide_to_act(new))
    # One copy for both fields: who acts next never depends on the count of actions.
    return replace(new, actions_taken=taken, to_act=decide_to_act(new))


def gating_problem(state: GameState, action: Action) -> IllegalAction | None:
    """Why ``action`` cannot even reach its rule page now (not an action, game over, wrong phase), or None.

    The first of `reduce`'s checks; the owning page checks the rest (`engine.explain`).
    """
    action_type = type(action)
    if action_type not in APPLY:
        return IllegalAction(f"{action!r} is not a Taktik action", "unknown_action")
    if state.phase is Phase.VICTORY:
        tag = action_type.__struct_config__.tag
        return IllegalAction(f"the game is over ({state.victory_reason}); {tag} is not legal", "game_over")
    allowed = allowed_action_types(state)
    if action_type not in allowed:
        return IllegalAction(_gating_reason(state, action_type.__struct_config__.tag, allowed), "wrong_phase")
    return None


def _gating_reason(state: GameState, tag: object, allowed: frozenset[type]) -> str:
    actor = state.to_act.value if state.to_act else "nobody"
    if allowed == CHOOSER_ACTIONS:
        return f"{tag} is not legal now: {actor} must choose the malus victims (CHOOSE_MALUS_TARGETS)"
    if allowed == PRIORITY_ACTIONS:
        return f"{tag} is not legal now: {actor} holds priority in a reaction window (PLAY_TACTIC or PASS_REACTION)"
    return f"{tag} is not legal in phase {state.phase.value}"
