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

Features (``features``, float32, shape ``(FEATURES,)``), in this order: phase one-hot
(9); turn and round progress; observer is active / must act / chooses malus victims;
moves and queued attacks (as shares of the game's limits) and card drawn this turn; own
stored bonuses per bonus card (11); opponent's stored count; own tactics in hand (11),
opponent's hand size; tactics played by self and opponent (11 + 11); the pending card:
one-hot over the 22 common cards, hidden, accepted, drawn by self; the last roll: natural,
modified, required, hit, present; live effects per card (33) controlled by self and by the
opponent; unit and point VP of both sides; draw-pile size; discard pile per common card
(22); units on the board per side.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from engine import (
    COMMON_CARDS,
    HIDDEN,
    TACTICS,
    Board,
    GameState,
    Phase,
    Side,
    TerrainType,
    UnitType,
    board_info,
    card_of,
    game_tables,
    home_side,
    unit_stats,
    unit_vp,
)

from .actions import ActionSpace

__all__ = ["FEATURES", "PLANES", "encode_observation", "features", "planes"]

PLANES = 26
_TERRAIN = tuple(TerrainType)
_TYPES = (UnitType.LIGHT_INFANTRY, UnitType.MECHANIZED, UnitType.SPECIAL)
_PHASES = tuple(Phase)
_BONUS_IDS = tuple(c.id for c in COMMON_CARDS if c.kind == "bonus")
_COMMON_IDS = tuple(c.id for c in COMMON_CARDS)
_TACTIC_IDS = tuple(c.id for c in TACTICS)
_EFFECT_IDS = _COMMON_IDS + _TACTIC_IDS
FEATURES = (
    len(_PHASES)
    + 2
    + 3
    + 3
    + len(_BONUS_IDS)
    + 1
    + len(_TACTIC_IDS)
    + 1
    + 2 * len(_TACTIC_IDS)
    + len(_COMMON_IDS)
    + 3
    + 5
    + 2 * len(_EFFECT_IDS)
    + 4
    + 1
    + len(_COMMON_IDS)
    + 2
)


_STATIC: dict[tuple[int, Side], tuple[Board, np.ndarray[Any, np.dtype[np.float32]]]] = {}
_STATIC_LIMIT = 16


def _static_planes(board: Board, side: Side) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Planes that never change in a game (terrain, overlays, zones), cached per board object."""
    entry = _STATIC.get((id(board), side))
    if entry is not None and entry[0] is board:
        return entry[1]
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
    if len(_STATIC) >= _STATIC_LIMIT:
        _STATIC.pop(next(iter(_STATIC)))
    _STATIC[(id(board), side)] = (board, out)
    return out


def planes(view: GameState, side: Side) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The board planes of ``view`` seen by ``side`` (see the module docstring)."""
    info = board_info(view.board)
    w = info.width
    out = _static_planes(view.board, side).copy()
    max_hp = {unit_type: unit_stats(unit_type, view.rules.tables).hp for unit_type in _TYPES}  # the game's own
    for unit in view.units:
        if unit.cell is None:
            continue
        i = info.index[unit.cell]
        x, y = i % w, i // w
        base = 10 if unit.side is side else 13
        out[base + _TYPES.index(unit.type), y, x] = unit.hp / max_hp[unit.type]
        if unit.side is side:
            out[16, y, x] = unit.has_moved
            out[17, y, x] = unit.has_attacked
    cells = {u.id: u.cell for u in view.units}
    attacks = [(view.pending_attack, 20)] if view.pending_attack else []
    attacks += [(a, 22) for a in view.attack_queue]
    for attack, plane in attacks:
        assert attack is not None
        for offset, unit_id in enumerate((attack.attacker, attack.target)):
            cell = cells.get(unit_id)
            if cell is not None:
                i = info.index[cell]
                out[plane + offset, i // w, i % w] = 1.0
    victory = view.rules.victory
    marked = list(victory.victory_points.points if victory.victory_points else ())
    marked += list(victory.territorial_control.points if victory.territorial_control else ())
    marked += list(victory.capture_and_hold.objectives if victory.capture_and_hold else ())
    for cell in marked:
        i = info.index[cell]
        out[24, i // w, i % w] = 1.0
    for control in view.control:
        if control.side is side:
            i = info.index[control.cell]
            out[25, i // w, i % w] = 1.0
    return out


def features(view: GameState, side: Side) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The feature vector of ``view`` seen by ``side`` (see the module docstring)."""
    me, them = view.player(side), view.player(side.other)
    limit = view.rules.victory.round_limit
    rounds = limit.max_rounds if limit is not None else 15
    f: list[float] = [float(view.phase is p) for p in _PHASES]
    f += [view.turn / (2 * rounds), view.round / rounds]
    chooser = view.pending_card is not None and view.pending_card.accepted
    f += [float(view.active is side), float(view.to_act is side), float(chooser and view.to_act is side)]
    tables = game_tables(view.rules.tables)  # counts as shares of the game's own limits
    f += [view.moves_this_turn / tables.max_moves, len(view.attack_queue) / tables.max_attacks_per_turn]
    f += [float(view.drawn_this_turn)]
    stored = [card_of(c).id for c in me.stored if c != HIDDEN]
    f += [stored.count(b) / 2 for b in _BONUS_IDS]
    f += [len(them.stored) / 7]
    f += [float(t in me.tactics) for t in _TACTIC_IDS] + [len(them.tactics) / 6]
    f += [float(t in me.played_tactics) for t in _TACTIC_IDS] + [float(t in them.played_tactics) for t in _TACTIC_IDS]
    pending = view.pending_card
    known = pending.card != HIDDEN if pending is not None else False
    pending_id = card_of(pending.card).id if pending is not None and known else None
    f += [float(pending_id == c) for c in _COMMON_IDS]
    f += [float(pending is not None and not known), float(pending is not None and pending.accepted)]
    f += [float(pending is not None and pending.drawer is side)]
    roll = view.last_roll
    f += (
        [roll.natural / 6, roll.modified / 6, roll.required / 6, float(roll.outcome == "HIT"), 1.0]
        if roll
        else [0.0] * 5
    )
    mine = {e.play_id: e.source_card for e in view.effects if e.controller is side}
    theirs = {e.play_id: e.source_card for e in view.effects if e.controller is not side}
    mine_by_card, theirs_by_card = Counter(mine.values()), Counter(theirs.values())
    f += [mine_by_card[card] / 2 for card in _EFFECT_IDS]
    f += [theirs_by_card[card] / 2 for card in _EFFECT_IDS]
    f += [unit_vp(view, side) / 24, unit_vp(view, side.other) / 24, me.point_vp / 15, them.point_vp / 15]
    f += [len(view.draw_pile) / 90]
    discarded = Counter(card_of(c).id for c in view.discard_pile)
    f += [discarded[c] / 10 for c in _COMMON_IDS]
    f += [sum(1 for u in view.units if u.side is s and u.cell is not None) / 15 for s in (side, side.other)]
    return np.asarray(f, dtype=np.float32)


def encode_observation(
    view: GameState, side: Side, mask: np.ndarray[Any, np.dtype[np.int8]] | None
) -> dict[str, np.ndarray[Any, Any]]:
    """``{"board": planes, "features": vector, "action_mask": mask}`` for ``side`` (no mask entry when None)."""
    obs: dict[str, np.ndarray[Any, Any]] = {"board": planes(view, side), "features": features(view, side)}
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
