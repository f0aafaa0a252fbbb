"""The feature vector of an observation: phase, counters, cards, effects, VP, piles.

Layout (``FEATURES`` float32 values, in this order): phase one-hot (9); turn and round
progress; observer is active / must act / chooses malus victims; moves and queued attacks
(as shares of the game's limits) and card drawn this turn; own stored bonuses per bonus
card (11); opponent's stored count; own tactics in hand (11), opponent's hand size;
tactics played by self and opponent (11 + 11); the pending card: one-hot over the 22
common cards, hidden, accepted, drawn by self; the last roll: natural, modified,
required, hit, present; live effects per card (33) controlled by self and by the
opponent; unit and point VP of both sides; draw-pile size; discard pile per common card
(22); units on the board per side.

Speed: the card-heavy groups are remembered (`lab.rl.memo`): by value when their inputs
are a few short tuples, by identity for the effects and the discard pile. Each group is a
pure function of what it is keyed on, so a remembered group is the one a fresh
computation would give.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from engine import (
    COMMON_CARDS,
    HIDDEN,
    TACTICS,
    Effect,
    GameState,
    PendingCard,
    Phase,
    Side,
    TableOverrides,
    Unit,
    card_of,
    game_tables,
    unit_stats,
)

from .memo import by_identity, by_value, memo_table

__all__ = ["FEATURES", "features"]

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

_Part = np.ndarray[Any, np.dtype[np.float32]]


def _frozen(values: list[float]) -> _Part:
    """A remembered group: float32, read-only (it is shared by every vector that contains it)."""
    part = np.array(values, dtype=np.float32)
    part.flags.writeable = False
    return part


_PHASE_HOT = {phase: _frozen([float(phase is p) for p in _PHASES]) for phase in _PHASES}
_NO_ROLL = (0.0,) * 5
_CARDS: dict[tuple[Any, ...], _Part] = memo_table()
_PENDING: dict[tuple[str | None, bool, bool, bool], _Part] = memo_table()
_EFFECTS: dict[Any, Any] = memo_table()
_DISCARD: dict[Any, Any] = memo_table()
_VP: dict[Any, Any] = memo_table()


def _cards(key: tuple[Any, ...]) -> _Part:
    stored, tactics, played, their_stored, their_tactics, their_played = key
    ids = [card_of(c).id for c in stored if c != HIDDEN]
    f = [ids.count(b) / 2 for b in _BONUS_IDS]
    f += [their_stored / 7]
    f += [float(t in tactics) for t in _TACTIC_IDS] + [their_tactics / 6]
    f += [float(t in played) for t in _TACTIC_IDS] + [float(t in their_played) for t in _TACTIC_IDS]
    return _frozen(f)


def _pending(key: tuple[str | None, bool, bool, bool]) -> _Part:
    card, present, accepted, mine = key
    pending_id = card_of(card).id if card is not None else None
    f = [float(pending_id == c) for c in _COMMON_IDS]
    f += [float(present and card is None), float(accepted), float(mine)]
    return _frozen(f)


def _effects(effects: tuple[Effect, ...], side: Side) -> _Part:
    # One count per card play (a play may have several effects), per controller.
    mine = Counter({e.play_id: e.source_card for e in effects if e.controller is side}.values())
    theirs = Counter({e.play_id: e.source_card for e in effects if e.controller is not side}.values())
    return _frozen([mine[card] / 2 for card in _EFFECT_IDS] + [theirs[card] / 2 for card in _EFFECT_IDS])


def _discard(pile: tuple[str, ...]) -> _Part:
    discarded = Counter(card_of(c).id for c in pile)
    return _frozen([discarded[c] / 10 for c in _COMMON_IDS])


def _vp(
    theirs_destroyed: tuple[Unit, ...], mine_destroyed: tuple[Unit, ...], tables: TableOverrides | None
) -> tuple[float, float]:
    """Own and opponent unit VP (`unit_vp`: the enemy units each side destroyed), scaled."""
    own = sum(unit_stats(u.type, tables).vp for u in theirs_destroyed)
    other = sum(unit_stats(u.type, tables).vp for u in mine_destroyed)
    return own / 24, other / 24


def features(view: GameState, side: Side) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The feature vector of ``view`` seen by ``side`` (see the module docstring)."""
    me, them = view.player(side), view.player(side.other)
    limit = view.rules.victory.round_limit
    rounds = limit.max_rounds if limit is not None else 15
    pending: PendingCard | None = view.pending_card
    chooser = pending is not None and pending.accepted
    tables = view.rules.tables
    limits = game_tables(tables)  # counts as shares of the game's own limits
    roll = view.last_roll
    mine = theirs = 0
    for unit in view.units:
        if unit.cell is not None:
            if unit.side is side:
                mine += 1
            else:
                theirs += 1
    vp = by_identity(_VP, (them.destroyed, me.destroyed, tables), lambda: _vp(them.destroyed, me.destroyed, tables))
    # Every scalar in one conversion; the remembered groups are float32 arrays already.
    scalars = np.array(
        [
            view.turn / (2 * rounds),
            view.round / rounds,
            float(view.active is side),
            float(view.to_act is side),
            float(chooser and view.to_act is side),
            view.moves_this_turn / limits.max_moves,
            len(view.attack_queue) / limits.max_attacks_per_turn,
            float(view.drawn_this_turn),
            *(
                (roll.natural / 6, roll.modified / 6, roll.required / 6, float(roll.outcome == "HIT"), 1.0)
                if roll
                else _NO_ROLL
            ),
            *vp,
            me.point_vp / 15,
            them.point_vp / 15,
            len(view.draw_pile) / 90,
            mine / 15,
            theirs / 15,
        ],
        dtype=np.float32,
    )
    cards = (me.stored, me.tactics, me.played_tactics, len(them.stored), len(them.tactics), them.played_tactics)
    if pending is None:
        shown: tuple[str | None, bool, bool, bool] = (None, False, False, False)
    else:
        card = pending.card if pending.card != HIDDEN else None
        shown = (card, True, pending.accepted, pending.drawer is side)
    effects, pile = view.effects, view.discard_pile
    return np.concatenate(
        (
            _PHASE_HOT[view.phase],
            scalars[0:8],
            by_value(_CARDS, cards, lambda: _cards(cards)),
            by_value(_PENDING, shown, lambda: _pending(shown)),
            scalars[8:13],
            by_identity(_EFFECTS, (effects, side), lambda: _effects(effects, side)),
            scalars[13:18],
            by_identity(_DISCARD, (pile,), lambda: _discard(pile)),
            scalars[18:20],
        )
    )
