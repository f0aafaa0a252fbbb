"""Rule page: moving units (MOVE_UNIT; rules §5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from ..actions import Action, ActionBase, MoveUnit
from ..board.info import board_info
from ..cards.hooks import can_move_unit, max_moves
from ..errors import IllegalAction
from ..movement import movement_allowance, occupancy, occupancy_after_move, unit_cost, unit_moves
from ..roster import note_move
from ..state import Event, GameState, Unit
from ..types import EventKind


def movers(state: GameState) -> list[Unit]:
    """The active player's units that may still be offered moves now, in unit order (§5.1)."""
    if state.moves_this_turn >= max_moves(state, state.active):
        return []
    active = state.active
    return [u for u in state.units if u.side is active and not u.has_moved and u.cell is not None]


def _offer_moves(state: GameState) -> list[Action]:
    moves: list[Action] = []
    units = movers(state)
    if units:
        for unit_moves_of in unit_moves(state, units, occupancy(state)):
            moves.extend(unit_moves_of)
    return moves


def move_problem(state: GameState, action: MoveUnit) -> IllegalAction | None:
    """Why ``action`` may not be played now (rules §5.1, checked in this order), or None.

    Phase and priority are the reducer's gating; this is everything after it.
    """
    return _check(state, action)[0]


_Checked = tuple[IllegalAction | None, int, int, int]  # problem, cost, the unit's position in the units, destination


def _check(state: GameState, action: MoveUnit) -> _Checked:
    """`move_problem`; when there is none, the move's cost, where the unit stands in ``state.units`` and its goal."""
    unit_id = action.unit_id
    for position, unit in enumerate(state.units):  # noqa: B007 - both are read after the loop
        if unit.id == unit_id:
            break
    else:
        return IllegalAction(f"there is no unit {unit_id} in this game", "unknown_unit"), 0, 0, 0
    if unit.side is not state.active:
        return IllegalAction(f"{unit.id} belongs to {unit.side.value}, not the active player", "not_your_unit"), 0, 0, 0
    if unit.has_moved:
        return IllegalAction(f"{unit.id} has already moved this turn", "already_moved"), 0, 0, 0
    limit = max_moves(state, state.active)
    if state.moves_this_turn >= limit:
        units = "unit" if limit == 1 else "units"
        problem = IllegalAction(f"you have moved {state.moves_this_turn} of {limit} {units} this turn", "move_limit")
        return problem, 0, 0, 0
    if not can_move_unit(state, unit):
        return IllegalAction(f"{unit.id} cannot move this turn (an effect forbids it)", "cannot_move"), 0, 0, 0
    destination = board_info(state.board).index.get(action.to)
    if destination is None:
        return IllegalAction(f"{action.to} is off the board", "off_board"), 0, 0, 0
    # The listing's own derivation when one is kept for this unit: the cost is exactly what the listing offers.
    cost = unit_cost(state, unit, destination, occupancy(state))
    if cost is None:
        allowance = movement_allowance(state, unit)
        problem = IllegalAction(
            f"{action.to} is not reachable for {unit.id} from {unit.cell} "
            f"(allowance {allowance / 2:g} MP; blocked, occupied or too costly)",
            "unreachable",
        )
        return problem, 0, 0, 0
    return None, cost, position, destination


def _apply_move(state: GameState, action: MoveUnit) -> GameState:
    """Place the unit on its destination (rules §5), once `_check` found no problem."""
    problem, cost, position, destination = _check(state, action)
    if problem is not None:
        raise problem
    before = state.units
    unit = before[position]
    units = (*before[:position], replace(unit, cell=action.to, has_moved=True), *before[position + 1 :])
    assert unit.cell is not None  # it moved: it stands on the board
    left = board_info(state.board).index[unit.cell]
    occupancy_after_move(state, units, left, destination)
    note_move(before, units, left, destination)
    event = Event(
        kind=EventKind.UNIT_MOVED, side=unit.side, unit=unit.id, from_cell=unit.cell, cell=action.to, value=cost
    )
    return replace(state, units=units, moves_this_turn=state.moves_this_turn + 1, events=(*state.events, event))


OFFERS = {MoveUnit: _offer_moves}
APPLY = {MoveUnit: _apply_move}
PROBLEMS: dict[type[ActionBase], Callable[[GameState, Any], IllegalAction | None]] = {MoveUnit: move_problem}
"""Why an action of this page is illegal, without applying it (`engine.explain`)."""
