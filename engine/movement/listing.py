"""Each unit's MOVE_UNIT actions, kept while everything they were derived from stays the same.

Consecutive MOVEMENT positions differ by one unit's cell: the other units keep their Unit
objects, their allowance and the occupancy of every cell their search examined, so their
moves are the ones already built. A listing used to walk every unit through its
allowance, the search memo and the move cache again (several calls per unit); now it asks
one question per unit, answered by a few identity checks and one AND of two integers.

What a unit's moves are derived from, and how each is checked:

- the unit itself (cell, side, type, ``has_moved``): the very Unit object, by identity;
- the board and the game's rules (the step tables, a static allowance): the per-(board,
  rules) `Basis`, by identity, which also holds the step table of each unit type;
- its allowance: without movement effects, the unit type's MP, part of the basis; with
  them, asked (`allowance_and_reads`) and compared, unless what it read last time is
  unchanged (`Derivation.held`: the same movement effects, and for an enemy count the same
  enemies in the same places);
- whether an effect forbids it to move: `can_move_unit`, asked only when an effect may forbid;
- the occupancy of the cells its search examined: the occupancy mask AND the examined mask.

Nothing else is read, so a kept entry is exactly what the full derivation would give.
"""

from __future__ import annotations

from typing import Final

import msgspec

from ..actions import MoveUnit
from ..board.info import StepTable, board_info
from ..board.terrain_map import Board
from ..cards.abilities import abilities_of, step_abilities
from ..cards.hooks import can_move_unit
from ..cards.live import effects_of
from ..state import Effect, GameState, Rules, Unit
from ..tables import unit_stats
from ..types import Hook, UnitType
from .allowance import ASK_AGAIN, allowance_and_reads, movement_key, units_unchanged
from .search import NO_REACH, Occupancy, Reach, search_entry

__all__ = ["unit_moves", "unit_reaches"]


class Basis:
    """What a board and the game's rules fix for movement: the step table and static allowance per unit type."""

    __slots__ = ("board", "by_type", "info", "labels", "rules")

    def __init__(self, board: Board, rules: Rules) -> None:
        self.board = board
        self.rules = rules
        self.info = board_info(board)
        self.labels = self.info.labels
        self.by_type: dict[UnitType, tuple[StepTable, int]] = {}

    def of(self, unit_type: UnitType) -> tuple[StepTable, int]:
        """The step table of ``unit_type`` and its allowance without movement effects (half-points)."""
        found = self.by_type.get(unit_type)
        if found is None:
            rules = self.rules
            overlays = None if rules.tables is None else rules.tables.overlay_costs()
            steps = self.info.steps(unit_type, step_abilities(rules), overlays)
            found = self.by_type[unit_type] = (steps, 2 * unit_stats(unit_type, rules.tables).movement_mp)
        return found


class _Effects:
    """What the effects tuple says about movement: whether allowances vary and whether a move may be forbidden."""

    __slots__ = ("effects", "key", "may_deny", "rules", "varies")

    def __init__(self, state: GameState) -> None:
        self.effects: tuple[Effect, ...] = state.effects
        self.rules = state.rules  # a game's abilities may forbid a move too
        self.varies = bool(effects_of(state, Hook.MODIFY_MOVEMENT))
        self.may_deny = bool(effects_of(state, Hook.CAN_MOVE_UNIT)) or bool(
            abilities_of(state.rules, Hook.CAN_MOVE_UNIT)
        )
        self.key = movement_key(state) if self.varies else None  # what the allowances read of the effects


# One slot each, replaced in one step (a server's bot thread may list while the event loop does).
_last_basis: Basis | None = None
_last_effects: _Effects | None = None

_KEPT: Final[dict[str, Derivation]] = {}  # unit id → its last derivation
_KEPT_LIMIT: Final = 1_024
# unit id → (the board's labels, the move to each cell index or None)
_MADE: Final[dict[str, tuple[tuple[str, ...], list[MoveUnit | None]]]] = {}
_MADE_LIMIT: Final = 512


class Derivation(msgspec.Struct, gc=False):
    """One unit's moves as `engine.move_lists` derived them, with what they read: kept until one of those changes.

    Nothing it holds refers back to a derivation (a unit, the per-board step tables, a
    `Reach`, moves, the movement effects' key and a units tuple), so it can be part of no
    reference cycle.
    """

    unit: Unit
    basis: Basis  # the board's and rules' step tables (`engine.move_lists`)
    allowance: int
    examined: int  # the cells whose occupancy the search examined, as an occupancy mask
    seen: int  # their occupancy then
    reach: Reach
    moves: tuple[MoveUnit, ...] | None = None  # built when first listed (a draw only counts them)
    # How ``allowance`` is known to hold for this unit object: (the `movement_key`, what its rules read,
    # the units then, the allowance, the radius of what they read; see `allowance_and_reads`), so later
    # listings need not ask again.
    held: tuple[object, int, tuple[Unit, ...], int, int] | None = None


def _basis(state: GameState) -> Basis:
    global _last_basis
    basis = _last_basis
    if basis is None or basis.board is not state.board or basis.rules is not state.rules:
        basis = _last_basis = Basis(state.board, state.rules)  # holds both: their ids are not reused meanwhile
    return basis


def _effects(state: GameState) -> _Effects:
    global _last_effects
    found = _last_effects
    if found is None or found.effects is not state.effects or found.rules is not state.rules:
        found = _last_effects = _Effects(state)
    return found


def _found(state: GameState, units: list[Unit], occupied: Occupancy) -> list[Derivation | None]:
    """The kept or new derivation of each of ``units``; None for a unit that cannot move (no reach)."""
    basis = _basis(state)
    effects = _effects(state)
    varies, may_deny, key = effects.varies, effects.may_deny, effects.key
    by_type = basis.by_type
    mask = occupied.mask
    kept = _KEPT
    out: list[Derivation | None] = []
    for unit in units:
        if may_deny and not can_move_unit(state, unit):
            out.append(None)
            continue
        typed = by_type.get(unit.type) or basis.of(unit.type)
        found = kept.get(unit.id)
        if found is not None and (found.unit is not unit or found.basis is not basis):
            found = None
        if not varies:
            if found is None or found.allowance != typed[1] or mask & found.examined != found.seen:
                before, found = found, _derive(unit, basis, typed[0], typed[1], occupied)
                if before is not None and found is not None and before.held is not None:
                    found.held = before.held  # kept for when movement effects come back (as below)
            out.append(found)
            continue
        held = None if found is None else found.held
        if (  # `Derivation.held` inline: asked for every mover of every listing while movement effects live
            held is not None
            and held[0] is key
            and (
                held[1] == 0
                or held[2] is state.units
                or units_unchanged(held[2], state.units, held[1], unit.cell, held[4], basis.info)
            )
        ):
            allowance = held[3]  # nothing it read can have changed
            if held[2] is not state.units and held[1]:
                # Compared with these units from now on: the units of a side change only in its own turn,
                # so the next listings compare two tuples in which those are the same objects.
                held = (key, held[1], state.units, allowance, held[4])
        else:
            allowance, reads, window = allowance_and_reads(state, unit)
            held = None if reads == ASK_AGAIN else (key, reads, state.units, allowance, window)
        if found is None or found.allowance != allowance or mask & found.examined != found.seen:
            found = _derive(unit, basis, typed[0], allowance, occupied)
        if found is not None and held is not None and found.held is not held:
            # One atomic store (threads). A derivation made again because a cell its search examined
            # changed occupancy keeps what is known of its allowance: it is the same unit object.
            found.held = held
        out.append(found)
    return out


def unit_reaches(state: GameState, units: list[Unit], occupied: Occupancy) -> list[Reach]:
    """`engine.movement.unit_reach` of each of ``units`` (units of ``state``), in order; shared: do not change."""
    return [NO_REACH if found is None else found.reach for found in _found(state, units, occupied)]


def unit_moves(state: GameState, units: list[Unit], occupied: Occupancy) -> list[tuple[MoveUnit, ...]]:
    """The MOVE_UNIT actions of each of ``units`` (units of ``state`` that may be offered moves), in order.

    One per cell of the unit's `unit_reaches`, by destination (y, x); kept per unit while
    what they read is unchanged (see the module docstring). Shared: do not change them.
    """
    out: list[tuple[MoveUnit, ...]] = []
    for found in _found(state, units, occupied):
        if found is None:
            continue
        moves = found.moves
        if moves is None:  # two threads may both build them: equal tuples, one atomic store
            moves = found.moves = _moves(found.unit.id, found.reach, found.basis.labels)
        out.append(moves)
    return out


def _derive(unit: Unit, basis: Basis, steps: StepTable, allowance: int, occupied: Occupancy) -> Derivation | None:
    """A unit's reach from scratch (the search memoised), kept for the next listing."""
    cell = unit.cell
    if cell is None or allowance <= 0:
        return None  # not kept: nothing to save
    entry = search_entry(steps, basis.info, basis.info.index[cell], allowance, occupied)
    found = Derivation(unit, basis, allowance, entry.examined, entry.seen, entry.reach)
    if len(_KEPT) >= _KEPT_LIMIT:
        _KEPT.clear()  # one atomic step (threads)
    # The entry holds the unit and the basis: their ids are not reused while it lives.
    _KEPT[unit.id] = found
    return found


def _moves(unit_id: str, reach: Reach, labels: tuple[str, ...]) -> tuple[MoveUnit, ...]:
    """The MOVE_UNIT actions to the cells of ``reach``, reusing the objects of earlier results for the same cells."""
    made = _MADE.get(unit_id)
    if made is None or made[0] is not labels:
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()  # one atomic step (threads)
        made = _MADE[unit_id] = (labels, [None] * len(labels))
    known = made[1]
    return tuple([known[cell] or _made(known, unit_id, cell, labels) for cell in reach.costs])  # by cell


def _made(known: list[MoveUnit | None], unit_id: str, cell: int, labels: tuple[str, ...]) -> MoveUnit:
    move = known[cell] = MoveUnit(unit_id=unit_id, to=labels[cell])
    return move
