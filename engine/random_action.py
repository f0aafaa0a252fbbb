"""A uniformly random legal action, drawn without building the whole listing.

Playouts (search, self-play, fuzzing, RL against a random opponent) mostly want one
random legal action, not all of them. In MOVEMENT the listing is mostly MOVE_UNIT
actions, one per reachable cell of every unit that may move; drawing one only needs
how many each unit has. So the draw counts each group of actions, picks an index
uniformly over the total, and builds just that action: exactly
``legal_actions(state)[index]``, so the draw is uniform over the listing by
construction, and a caller drawing indices from the same source plays the same game
either way.

The engine uses no `random`: the caller supplies the source of the index.
"""

from __future__ import annotations

from itertools import islice
from typing import Final, Protocol

from .actions import ACTION_ORDER, Action, ActionBase, MoveUnit
from .board.info import board_info
from .flow.phases import allowed_action_types
from .movement import occupancy, unit_reaches
from .pages import OFFERS
from .pages.movement import movers
from .reducer import cached_legal_actions
from .state import GameState, Unit

__all__ = ["IndexSource", "legal_action_count", "random_legal_action"]


class IndexSource(Protocol):
    """Where a random index comes from: ``randrange(n)`` is uniform over ``0..n-1``.

    `random.Random` is one; so is any object with that method (a seeded LCG, numpy's
    ``Generator.integers`` wrapped, ...).
    """

    def randrange(self, stop: int, /) -> int: ...


# A group is either a list of ready actions, or a unit whose moves are its reachable cells.
_Group = tuple[int, list[Action] | Unit]


def _groups(state: GameState) -> list[_Group]:
    """The listing of `legal_actions`, in its order, as counted groups (moves left unbuilt)."""
    groups: list[_Group] = []
    for action_type in _types_in_order(allowed_action_types(state)):
        if action_type is MoveUnit:
            units = movers(state)
            if units:
                for unit, reach in zip(units, unit_reaches(state, units, occupancy(state)), strict=True):
                    count = len(reach.costs)
                    if count:
                        groups.append((count, unit))
            continue
        offers = OFFERS[action_type](state)
        if offers:
            groups.append((len(offers), offers))
    return groups


_IN_ORDER: Final[dict[frozenset[type], tuple[type[ActionBase], ...]]] = {}


def _types_in_order(allowed: frozenset[type]) -> tuple[type[ActionBase], ...]:
    """The ``allowed`` action types in `ACTION_ORDER` (a handful of sets: kept, as `reducer._plan` keeps its offers)."""
    types = _IN_ORDER.get(allowed)
    if types is None:
        if len(_IN_ORDER) >= 32:
            _IN_ORDER.clear()  # never in play (the flow has a handful of sets); one atomic step (threads)
        types = _IN_ORDER[allowed] = tuple(t for t in ACTION_ORDER if t in allowed)
    return types


def legal_action_count(state: GameState) -> int:
    """``len(legal_actions(state))``, without building the MOVE_UNIT actions."""
    cached = cached_legal_actions(state)
    if cached is not None:
        return len(cached)
    return sum(count for count, _ in _groups(state))


def random_legal_action(state: GameState, source: IndexSource) -> Action | None:
    """``legal_actions(state)[source.randrange(n)]`` with ``n`` legal actions; None when the game is over.

    Uniform over the legal actions whenever ``randrange`` is uniform, and calls it exactly
    once per action (never when the game is over), so a seeded source replays the same
    game as drawing from the full listing with the same source. Builds only the chosen
    action: the MOVE_UNIT actions of a unit are counted from its reachable cells.
    """
    cached = cached_legal_actions(state)
    if cached is not None:
        return cached[_draw(source, len(cached))] if cached else None
    groups = _groups(state)
    total = sum(count for count, _ in groups)
    if total == 0:
        return None
    index = _draw(source, total)
    for count, group in groups:
        if index < count:
            if isinstance(group, list):
                return group[index]
            reach = unit_reaches(state, [group], occupancy(state))[0]
            cell = next(islice(reach.costs, index, None))  # costs are by cell, like the listing
            return MoveUnit(unit_id=group.id, to=board_info(state.board).labels[cell])
        index -= count
    raise AssertionError("the index fell outside the counted groups")  # pragma: no cover - total is their sum


def _draw(source: IndexSource, total: int) -> int:
    index = source.randrange(total)
    if not 0 <= index < total:
        raise ValueError(f"randrange({total}) returned {index}, outside 0..{total - 1}")
    return index
