"""Reads of the game state asked at every action, as plain functions that the compiled build compiles.

`state.py` holds msgspec Structs, so it stays pure Python in the compiled build (setup.py):
a method such as `GameState.player` runs interpreted even when its caller is compiled. The
per-action paths call these instead; the methods stay for everyone else.
"""

from __future__ import annotations

from .state import GameState, PlayerState
from .types import Side

__all__ = ["player_of"]


def player_of(state: GameState, side: Side) -> PlayerState:
    """The `PlayerState` of ``side`` (as `GameState.player`)."""
    return state.players[0 if side is Side.ATTACKER else 1]
