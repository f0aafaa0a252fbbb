"""Reads of the game state asked at every action, as plain functions that the compiled build compiles.

`state.py` holds msgspec Structs, so it stays pure Python in the compiled build (setup.py):
a method such as `GameState.player` runs interpreted even when its caller is compiled. The
per-action paths call these instead; the methods stay for everyone else.
"""

from __future__ import annotations

from .state import GameState, PlayerState, Unit
from .types import Side

__all__ = ["player_of", "unit_by_id"]


def player_of(state: GameState, side: Side) -> PlayerState:
    """The `PlayerState` of ``side`` (as `GameState.player`)."""
    return state.players[0 if side is Side.ATTACKER else 1]


def unit_by_id(state: GameState, unit_id: str) -> Unit | None:
    """The unit with ``unit_id`` on the board (or undeployed), else None (as `GameState.unit`)."""
    for unit in state.units:
        if unit.id == unit_id:
            return unit
    return None
