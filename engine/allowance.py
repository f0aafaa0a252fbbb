"""Movement allowances (the ``modify_movement`` hook, rules §5.2), kept while what they read stays the same.

Listing moves asks for the allowance of every unit of the side to move, in every
position, and a condition tree (a ``near`` count) may cost more than the search the
allowance bounds. An allowance depends on the unit, on the ``modify_movement`` effects
whose scope can reach its side, on the board and the game's rules, and on whatever of
the rest its rules read while they decided (`Context.read`: where the other units
stand, the phase, round and active side). So allowances are kept per effects tuple and
side, by unit, with the very objects they depend on, and found again while those stay
the same. A game keeps its effects tuple from state to state, so after a move only the
moved unit, and a unit whose rule counted the units near it, is asked again.
"""

from __future__ import annotations

from .boardinfo import board_info
from .condition_rules import READ_GAME, READ_UNITS, Context
from .live_effects import Live, effects_of, unit_fits
from .state import Effect, GameState, Unit
from .tables import unit_stats
from .types import Hook, Phase, Side

__all__ = ["movement_allowance"]

_Game = tuple[Phase, int, Side] | None
_Found = tuple[Unit, object, object, object, _Game, int]  # unit, board, rules, units (if read), game (if read), value


def _may_reach(effect: Effect, side: Side) -> bool:
    if effect.scope == "own_units":
        return effect.controller is side
    if effect.scope == "enemy_units":
        return effect.controller is not side
    return True  # all_units, and targets (checked unit by unit)


class _Kept:
    """The movement effects of one effects tuple by the side they can reach, and the allowances found, by unit id."""

    __slots__ = ("board", "effects", "found", "info", "movement", "sides")

    def __init__(self, state: GameState) -> None:
        self.effects = state.effects
        self.movement: Live = effects_of(state, Hook.MODIFY_MOVEMENT)
        self.sides: dict[Side, Live] = {
            side: tuple((e, rule) for e, rule in self.movement if _may_reach(e, side)) for side in Side
        }
        self.found: dict[str, _Found] = {}
        self.board = state.board  # the board of the state that made it (a test may swap boards under one tuple)
        self.info = board_info(state.board)


_KEPT: dict[int, _Kept] = {}


def movement_allowance(state: GameState, unit: Unit) -> int:
    """Half-points ``unit`` may spend: ``2 × (MP + Σ add)``, halved per *halve*, at least 0."""
    allowance = 2 * unit_stats(unit.type, state.rules.tables).movement_mp
    effects = state.effects
    if not effects:
        return allowance
    kept = _KEPT.get(id(effects))
    if kept is None or kept.effects is not effects:  # it holds the tuple: the id is not reused meanwhile
        if len(_KEPT) >= 8:
            _KEPT.clear()  # a handful of live positions at a time; one atomic step (threads)
        kept = _KEPT[id(effects)] = _Kept(state)
    effects_here = kept.sides[unit.side]
    if not effects_here:
        return allowance
    # The entry holds the very unit, board, rules (and units, game facts when read): a tool may
    # ask about a unit changed off-state, and an id is not reused while its object lives.
    found = kept.found.get(unit.id)
    if (
        found is not None
        and found[0] is unit
        and found[1] is state.board
        and found[2] is state.rules
        and (found[3] is None or found[3] is state.units)
        and (found[4] is None or found[4] == (state.phase, state.round, state.active))
    ):
        return found[5]
    info = kept.info if kept.board is state.board else board_info(state.board)
    read = halvings = 0
    for effect, rule in effects_here:
        if not unit_fits(effect, unit):
            continue
        if rule is not None:
            ctx = Context(state, effect.controller, unit, None, None, None, effect.targets, info)
            holds = rule(ctx)
            read |= ctx.read
            if not holds:
                continue
        if effect.op == "add":
            allowance += effect.value  # already in half-points
        else:
            halvings += 1
    while halvings:
        allowance //= 2
        halvings -= 1
    if allowance < 0:
        allowance = 0
    units = state.units if read & READ_UNITS else None
    game = (state.phase, state.round, state.active) if read & READ_GAME else None
    kept.found[unit.id] = (unit, state.board, state.rules, units, game, allowance)
    return allowance
