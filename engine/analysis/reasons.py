"""Why an action is not legal now: the very `IllegalAction` that `reduce` would raise.

`explain` runs `reduce`'s own checks in `reduce`'s order: the reducer's gating (not an
action, game over, wrong phase or not this player's decision), then the owning rule
page. A page that splits its checks from its change (``PROBLEMS``: movement, attacks)
answers without applying anything; for the other pages the page's apply runs on the
same working state `reduce` would give it and its `IllegalAction` is caught. Either way
the answer is the same code path as `reduce`, never a second copy of the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from ..actions import Action, ActionBase
from ..errors import IllegalAction
from ..flow.match_actions import MATCH_ACTION_TYPES, match_problem
from ..pages import APPLY
from ..pages import combat as _combat
from ..pages import movement as _movement
from ..reducer import gating_problem
from ..state import GameState

__all__ = ["explain"]

_PROBLEMS: dict[type[ActionBase], Callable[[GameState, Any], IllegalAction | None]] = {
    **_movement.PROBLEMS,
    **_combat.PROBLEMS,
}


def explain(state: GameState, action: Action) -> IllegalAction | None:
    """The `IllegalAction` `reduce` would raise for ``action`` now (``code`` and words), or None if legal.

    Pure and exact: ``explain(s, a) is None`` exactly when ``reduce(s, a)`` succeeds, and
    otherwise its ``code`` and message are those of the error `reduce` raises. Lets a
    client say why a cell or target is refused without holding any rule itself.

    >>> from engine import GameConfig, MoveUnit, new_game
    >>> problem = explain(new_game(GameConfig(seed=7)), MoveUnit(unit_id="A1", to="A1"))
    >>> problem.code, str(problem)
    ('wrong_phase', 'MOVE_UNIT is not legal in phase CARD_DRAW')
    """
    if type(action) in MATCH_ACTION_TYPES:
        return match_problem(state, action)
    problem = gating_problem(state, action)
    if problem is not None:
        return problem
    working = replace(state, events=()) if state.events else state
    check = _PROBLEMS.get(type(action))
    if check is not None:
        return check(working, action)
    try:
        APPLY[type(action)](working, action)
    except IllegalAction as error:
        return error
    return None
