"""Victory conditions and their checkpoints (rules §10)."""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from ..board.info import board_info
from ..board.zones import home_side
from ..state import Event, GameState, PointControl, Unit, player_of, with_player
from ..tables import TableOverrides, unit_stats
from ..types import EventKind, Phase, Side

__all__ = [
    "VICTORY_REASONS",
    "check_after_removal",
    "check_end_turn",
    "declare_winner",
    "end_by_action_cap",
    "initial_control",
    "points_leader",
    "total_vp",
    "unit_vp",
]


VICTORY_REASONS = (
    "abandonment",
    "action_cap",
    "annihilation",
    "capture_and_hold",
    "resignation",
    "round_limit",
    "target_elimination",
    "territorial_control",
    "time",
    "timed_resistance",
    "victory_points",
)
"""Every ``GameState.victory_reason`` (rules §10; resignation, time and abandonment end a match, not a rule)."""


def unit_vp(state: GameState, side: Side) -> int:
    """VP ``side`` holds from enemy units currently in the enemy's destroyed list."""
    destroyed = player_of(state, side.other).destroyed
    if not destroyed:
        return 0
    tables = state.rules.tables
    kept = _UNIT_VP.get(id(destroyed))
    if kept is not None and kept[0] is destroyed and kept[1] is tables:
        return kept[2]
    vp = sum(unit_stats(u.type, tables).vp for u in destroyed)
    if len(_UNIT_VP) >= 64:
        _UNIT_VP.clear()  # one atomic step (threads)
    _UNIT_VP[id(destroyed)] = (destroyed, tables, vp)  # holds the tuple: its id is not reused meanwhile
    return vp


_UNIT_VP: Final[dict[int, tuple[tuple[Unit, ...], TableOverrides | None, int]]] = {}
"""Unit VP per destroyed tuple (and tables): a side's tuple is carried from state to state until a unit of it
is destroyed, and every END_TURN (and every removal) asks both totals."""


def total_vp(state: GameState, side: Side) -> int:
    """Unit VP plus VP earned from controlled points."""
    return unit_vp(state, side) + player_of(state, side).point_vp


def _has_units(state: GameState, side: Side) -> bool:
    return any(u.side is side for u in state.units)


def declare_winner(state: GameState, winner: Side, reason: str) -> GameState:
    """End the game: phase VICTORY, nobody to act, nothing legal any more."""
    event = Event(kind=EventKind.VICTORY, side=winner, detail=reason)
    return replace(
        state, phase=Phase.VICTORY, winner=winner, victory_reason=reason, to_act=None, events=(*state.events, event)
    )


def points_leader(state: GameState) -> Side:
    """The side that wins if the game is decided on unit VP now (rules §10): a level count goes to the DEFENDER."""
    return Side.ATTACKER if unit_vp(state, Side.ATTACKER) > unit_vp(state, Side.DEFENDER) else Side.DEFENDER


def _points_winner(state: GameState, reason: str) -> GameState:
    return declare_winner(state, points_leader(state), reason)


def _vp_winner(state: GameState) -> Side | None:
    config = state.rules.victory.victory_points
    if config is None:
        return None
    for side in (state.active, state.active.other):
        if total_vp(state, side) >= config.threshold:
            return side
    return None


def check_after_removal(state: GameState) -> GameState:
    """Annihilation, target elimination and victory points, after a unit was destroyed."""
    for side in (Side.ATTACKER, Side.DEFENDER):
        if not _has_units(state, side):
            return declare_winner(state, side.other, "annihilation")
    leaders = state.rules.victory.leaders
    if leaders is not None:
        for side in (Side.ATTACKER, Side.DEFENDER):
            if any(u.id == leaders.of(side) for u in player_of(state, side).destroyed):
                return declare_winner(state, side.other, "target_elimination")
    winner = _vp_winner(state)
    return declare_winner(state, winner, "victory_points") if winner else state


def check_end_turn(state: GameState) -> GameState:
    """END_TURN step 2: update point control, score the active side's points, run the checks."""
    state = _update_control(state)
    victory = state.rules.victory
    if victory.victory_points is not None:
        owned = {c.cell for c in state.control if c.side is state.active}
        gained = sum(1 for cell in victory.victory_points.points if cell in owned)
        if gained:
            player = player_of(state, state.active)
            state = with_player(state, replace(player, point_vp=player.point_vp + gained))
            event = Event(kind=EventKind.POINTS_SCORED, side=state.active, value=gained)
            state = replace(state, events=(*state.events, event))
        winner = _vp_winner(state)
        if winner:
            return declare_winner(state, winner, "victory_points")
    hold = victory.capture_and_hold
    if hold is not None and hold.side is state.active:
        objectives = set(hold.objectives)
        holding = any(u.side is hold.side and u.cell in objectives for u in state.units)
        state = replace(state, hold_count=state.hold_count + 1 if holding else 0)
        if state.hold_count >= hold.hold_turns:
            return declare_winner(state, hold.side, "capture_and_hold")
    territory = victory.territorial_control
    if territory is not None and state.turn == 2 * territory.after_rounds:
        owned_by = {c.cell: c.side for c in state.control}
        attacker = sum(1 for cell in territory.points if owned_by.get(cell) is Side.ATTACKER)
        defender = sum(1 for cell in territory.points if owned_by.get(cell) is Side.DEFENDER)
        return declare_winner(state, Side.ATTACKER if attacker > defender else Side.DEFENDER, "territorial_control")
    resistance = victory.timed_resistance
    if resistance is not None and state.turn == 2 * resistance.rounds and _has_units(state, Side.DEFENDER):
        return declare_winner(state, Side.DEFENDER, "timed_resistance")
    limit = victory.round_limit
    if limit is not None and state.turn == 2 * limit.max_rounds:
        return _points_winner(state, "round_limit")
    return state


def _update_control(state: GameState) -> GameState:
    if not state.control:
        return state
    standing = {u.cell: u.side for u in state.units}
    changed = [c for c in state.control if standing.get(c.cell, c.side) is not c.side]
    if not changed:
        return state  # the usual END_TURN: no point changed hands, nothing is copied
    control = tuple(replace(c, side=standing[c.cell]) if c in changed else c for c in state.control)
    events = tuple(Event(kind=EventKind.POINT_CAPTURED, side=standing[c.cell], cell=c.cell) for c in changed)
    return replace(state, control=control, events=state.events + events)


def initial_control(state: GameState) -> tuple[PointControl, ...]:
    """Every victory/territory point, controlled by the side whose zone holds it; by (y, x)."""
    victory = state.rules.victory
    cells = set(victory.victory_points.points if victory.victory_points else ())
    cells |= set(victory.territorial_control.points if victory.territorial_control else ())
    info = board_info(state.board)
    ordered = sorted(cells, key=info.index.__getitem__)
    return tuple(PointControl(cell=c, side=home_side(info.index[c] // info.width, info.height)) for c in ordered)


def end_by_action_cap(state: GameState, capped_by: Side) -> GameState:
    """The action cap ends the game against ``capped_by``, the side whose action reached it (rules §10)."""
    return declare_winner(state, capped_by.other, "action_cap")
