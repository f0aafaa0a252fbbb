"""Dense arrays from a player's view: board planes, a feature vector, the action mask.

Built only from ``player_view(state, side)``, so an observation never carries hidden
information. Shapes depend only on the board size and the action space.

Board planes (``board``, float32, shape ``(PLANES, H, W)``), from the observer's side:

====  ==========================================================================
0-6   base terrain one-hot: PLAIN, ROUGH, FOREST, URBAN, INDUSTRIAL, HILL, WATER
7-9   road, river, bridge
10-12 own units by type (LIGHT_INFANTRY, MECHANIZED, SPECIAL), value HP / max HP (the game's)
13-15 enemy units by type, value HP / max HP
16-17 own units that moved / declared (or supported) an attack this turn
18-19 own / enemy deployment zone
20-21 pending attack: attacker / target
22-23 queued attacks: attackers / targets
24    victory, territory and objective cells
25    points controlled by the observer
====  ==========================================================================

The planes that cannot change during a game (terrain, overlays, zones, victory cells) are
built once per board, victory settings and side; `lab.rl.units` keeps them with the last
units written in and brings that up to date by the units that changed; a step copies it
and writes only attacks and controlled points. The features are `lab.rl.features`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import Board, GameState, Side, TerrainType, VictoryConfig
from engine.data import board_info, home_side

from .actions import ActionSpace
from .features import FEATURES, features
from .units import planes_with_units

__all__ = ["FEATURES", "PLANES", "encode_observation", "features", "planes"]

PLANES = 26
_TERRAIN = tuple(TerrainType)

_STATIC: dict[tuple[int, int, Side], tuple[Board, VictoryConfig, np.ndarray[Any, np.dtype[np.float32]]]] = {}
_STATIC_LIMIT = 16


def _static_planes(board: Board, victory: VictoryConfig, side: Side) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Planes that never change in a game (terrain, overlays, zones, victory cells), cached per board object."""
    key = (id(board), id(victory), side)
    entry = _STATIC.get(key)
    if entry is not None and entry[0] is board and entry[1] is victory:
        return entry[2]
    info = board_info(board)
    w, h = info.width, info.height
    out = np.zeros((PLANES, h, w), dtype=np.float32)
    terrain = np.array([_TERRAIN.index(t) for t in info.terrain], dtype=np.int64).reshape(h, w)
    for k in range(len(_TERRAIN)):
        out[k] = terrain == k
    out[7] = np.array(info.road, dtype=np.float32).reshape(h, w)
    out[8] = np.array(info.river, dtype=np.float32).reshape(h, w)
    out[9] = np.array(info.bridge, dtype=np.float32).reshape(h, w)
    rows = np.array([home_side(y, h) is side for y in range(h)], dtype=np.float32)
    out[18] = rows[:, None]
    out[19] = 1.0 - rows[:, None]
    marked = list(victory.victory_points.points if victory.victory_points else ())
    marked += list(victory.territorial_control.points if victory.territorial_control else ())
    marked += list(victory.capture_and_hold.objectives if victory.capture_and_hold else ())
    for cell in marked:
        i = info.index[cell]
        out[24, i // w, i % w] = 1.0
    out.flags.writeable = False  # shared by every observation of the game: only copies are handed out
    if len(_STATIC) >= _STATIC_LIMIT:
        _STATIC.pop(next(iter(_STATIC)))
    _STATIC[key] = (board, victory, out)
    return out


def planes(view: GameState, side: Side) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The board planes of ``view`` seen by ``side`` (see the module docstring)."""
    return _planes(view, side)[0]


def _planes(view: GameState, side: Side) -> tuple[np.ndarray[Any, np.dtype[np.float32]], int, int]:
    """The board planes, and own / enemy units on the board (the features read those)."""
    board, units = view.board, view.units
    static = _static_planes(board, view.rules.victory, side)
    out, mine, theirs = planes_with_units(units, side, view.rules.tables, board, static)
    if view.pending_attack is not None or view.attack_queue or view.control:
        info = board_info(board)
        flat = out.reshape(-1)  # a view of the fresh copy: writes land in ``out``
        size, index = info.size, info.index
        cells = {u.id: u.cell for u in units}
        attacks = [(view.pending_attack, 20)] if view.pending_attack is not None else []
        attacks += [(a, 22) for a in view.attack_queue]
        for attack, plane in attacks:
            assert attack is not None
            for offset, unit_id in enumerate((attack.attacker, attack.target)):
                cell = cells.get(unit_id)
                if cell is not None:
                    flat[(plane + offset) * size + index[cell]] = 1.0
        for control in view.control:
            if control.side is side:
                flat[25 * size + index[control.cell]] = 1.0
    return out, mine, theirs


def encode_observation(
    view: GameState, side: Side, mask: np.ndarray[Any, np.dtype[np.int8]] | None
) -> dict[str, np.ndarray[Any, Any]]:
    """``{"board": planes, "features": vector, "action_mask": mask}`` for ``side`` (no mask entry when None)."""
    board, mine, theirs = _planes(view, side)
    obs: dict[str, np.ndarray[Any, Any]] = {"board": board, "features": features(view, side, (mine, theirs))}
    if mask is not None:
        obs["action_mask"] = mask
    return obs


def action_mask(space: ActionSpace, state: GameState, legal: list[Any]) -> np.ndarray[Any, np.dtype[np.int8]]:
    """1 at the index of every legal action that fits the space, else 0."""
    mask = np.zeros(space.size, dtype=np.int8)
    for action in legal:
        index = space.index_of(action, state)
        if index is not None:
            mask[index] = 1
    return mask
