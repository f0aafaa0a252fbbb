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

Speed: each group is a pure function of a few inputs. A vector starts from the
observer's last one and rewrites only the groups whose inputs differ (most steps, only
the turn group). Groups are remembered (`lab.rl.memo`): by value when their inputs are a
few short values or tuples, by identity for the effects, the discard pile and the
destroyed units. A remembered group is the one a fresh computation would give.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from engine import HIDDEN, Effect, GameState, PendingCard, Phase, Roll, Side, TableOverrides, Unit
from engine.data import COMMON_CARDS, TACTICS, game_tables, unit_stats

from .memo import LIMIT, by_identity, by_value, memo_table
from .units import units_on_board

__all__ = ["FEATURES", "features"]

_PHASES = tuple(Phase)
_BONUS_IDS = tuple(c.id for c in COMMON_CARDS if c.kind == "bonus")
_COMMON_IDS = tuple(c.id for c in COMMON_CARDS)
_TACTIC_IDS = tuple(c.id for c in TACTICS)
_EFFECT_IDS = _COMMON_IDS + _TACTIC_IDS
_GROUPS = (
    ("phase", len(_PHASES)),
    ("turn", 2 + 3 + 3),  # progress; active / must act / chooses victims; moves, queued attacks, drawn
    ("cards", len(_BONUS_IDS) + 1 + len(_TACTIC_IDS) + 1 + 2 * len(_TACTIC_IDS)),
    ("pending", len(_COMMON_IDS) + 3),
    ("roll", 5),
    ("effects", 2 * len(_EFFECT_IDS)),
    ("totals", 4 + 1),  # unit and point VP of both sides; draw-pile size
    ("discard", len(_COMMON_IDS)),
    ("units", 2),
)


def _slices() -> dict[str, slice]:
    at, out = 0, {}
    for name, size in _GROUPS:
        out[name] = slice(at, at + size)
        at += size
    return out


_AT = _slices()
_AT_PHASE, _AT_TURN, _AT_CARDS, _AT_PENDING, _AT_ROLL = (_AT[g] for g in ("phase", "turn", "cards", "pending", "roll"))
_AT_EFFECTS, _AT_TOTALS, _AT_DISCARD, _AT_UNITS = (_AT[g] for g in ("effects", "totals", "discard", "units"))
FEATURES = sum(size for _, size in _GROUPS)

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
_TURNS: dict[tuple[Any, ...], _Part] = memo_table()
_LAST: dict[Side, tuple[tuple[Any, ...], _Part]] = memo_table()  # per observer: the last vector and its inputs
_NOTHING = (object(),) * 8  # inputs no vector was built from: every group differs


def _cards(key: tuple[Any, ...]) -> _Part:
    stored, tactics, played, their_stored, their_tactics, their_played = key
    ids = [c.partition("#")[0] for c in stored if c != HIDDEN]
    f = [ids.count(b) / 2 for b in _BONUS_IDS]
    f += [their_stored / 7]
    f += [float(t in tactics) for t in _TACTIC_IDS] + [their_tactics / 6]
    f += [float(t in played) for t in _TACTIC_IDS] + [float(t in their_played) for t in _TACTIC_IDS]
    return _frozen(f)


def _pending(key: tuple[str | None, bool, bool, bool]) -> _Part:
    card, present, accepted, mine = key
    pending_id = card.partition("#")[0] if card is not None else None
    f = [float(pending_id == c) for c in _COMMON_IDS]
    f += [float(present and card is None), float(accepted), float(mine)]
    return _frozen(f)


def _positions(ids: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Where each card id sits in a group laid out as ``ids`` (every place, should an id repeat)."""
    return {card: tuple(k for k, other in enumerate(ids) if other == card) for card in ids}


_EFFECT_AT = _positions(_EFFECT_IDS)
_COMMON_AT = _positions(_COMMON_IDS)
_ID_OF: dict[str, str] = memo_table()  # card instance ("air_cover#2") -> card id


def _sparse(size: int, counts: list[tuple[dict[str, tuple[int, ...]], int, Counter[str]]], scale: float) -> _Part:
    """A group of ``size`` zeros with ``count / scale`` at each counted card's places (offset per counter)."""
    f = np.zeros(size, dtype=np.float32)
    for at, offset, counter in counts:
        for card, n in counter.items():
            for k in at.get(card, ()):  # a card outside the layout is not shown, as before
                f[offset + k] = n / scale
    f.flags.writeable = False
    return f


def _effects(effects: tuple[Effect, ...], side: Side) -> _Part:
    # One count per card play (a play may have several effects), per controller.
    mine = Counter({e.play_id: e.source_card for e in effects if e.controller is side}.values())
    theirs = Counter({e.play_id: e.source_card for e in effects if e.controller is not side}.values())
    return _sparse(2 * len(_EFFECT_IDS), [(_EFFECT_AT, 0, mine), (_EFFECT_AT, len(_EFFECT_IDS), theirs)], 2)


def _discard(pile: tuple[str, ...]) -> _Part:
    if not all(map(_ID_OF.__contains__, pile)):  # instances not seen yet
        if len(_ID_OF) >= LIMIT:
            _ID_OF.clear()
        _ID_OF.update((c, c.partition("#")[0]) for c in pile)
    return _sparse(len(_COMMON_IDS), [(_COMMON_AT, 0, Counter(map(_ID_OF.__getitem__, pile)))], 10)


def _vp(
    theirs_destroyed: tuple[Unit, ...], mine_destroyed: tuple[Unit, ...], tables: TableOverrides | None
) -> tuple[float, float]:
    """Own and opponent unit VP (`unit_vp`: the enemy units each side destroyed), scaled."""
    own = sum(unit_stats(u.type, tables).vp for u in theirs_destroyed)
    other = sum(unit_stats(u.type, tables).vp for u in mine_destroyed)
    return own / 24, other / 24


def features(
    view: GameState, side: Side, counts: tuple[int, int] | None = None
) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The feature vector of ``view`` seen by ``side`` (see the module docstring).

    ``counts``: own and enemy units on the board, when the caller has them (`lab.rl.units`).
    """
    me, them = view.player(side), view.player(side.other)
    tables = view.rules.tables
    pending: PendingCard | None = view.pending_card
    if pending is None:
        shown: tuple[str | None, bool, bool, bool] = (None, False, False, False)
    else:
        card = pending.card if pending.card != HIDDEN else None
        shown = (card, True, pending.accepted, pending.drawer is side)
    cards = (me.stored, me.tactics, me.played_tactics, len(them.stored), len(them.tactics), them.played_tactics)
    totals = (them.destroyed, me.destroyed, tables, me.point_vp, them.point_vp, len(view.draw_pile))
    if counts is None:
        counts = units_on_board(view.units, side)
    now = (view.phase, cards, shown, view.last_roll, view.effects, totals, view.discard_pile, counts)
    # Start from this side's last vector and write only the groups whose inputs changed
    # (``was``: the inputs it was built from). Equal inputs give equal groups, and most
    # steps change only the turn group.
    last = _LAST.get(side)
    if last is None:
        was: tuple[Any, ...] = _NOTHING
        out = np.zeros(FEATURES, dtype=np.float32)
    else:
        was, out = last[0], last[1].copy()
    if now != was:
        phase, _, _, roll, effects, _, pile, _ = now
        if phase is not was[0]:
            out[_AT_PHASE] = _PHASE_HOT[phase]
        if cards != was[1]:
            out[_AT_CARDS] = by_value(_CARDS, cards, lambda: _cards(cards))
        if shown != was[2]:
            out[_AT_PENDING] = by_value(_PENDING, shown, lambda: _pending(shown))
        if roll != was[3]:
            out[_AT_ROLL] = _NO_ROLL if roll is None else _roll(roll)
        if effects != was[4]:
            out[_AT_EFFECTS] = by_identity(_EFFECTS, (effects, side), lambda: _effects(effects, side))
        if totals != was[5]:
            vp = by_identity(_VP, totals[:3], lambda: _vp(them.destroyed, me.destroyed, tables))
            out[_AT_TOTALS] = (*vp, me.point_vp / 15, them.point_vp / 15, len(view.draw_pile) / 90)
        if pile != was[6]:
            out[_AT_DISCARD] = by_identity(_DISCARD, (pile,), lambda: _discard(pile))
        if counts != was[7]:
            out[_AT_UNITS] = (counts[0] / 15, counts[1] / 15)
    out[_AT_TURN] = _turn(view, side, pending is not None and pending.accepted)
    _LAST[side] = (now, out)
    return out.copy()  # the remembered vector stays private: callers may write to theirs


def _turn(view: GameState, side: Side, chooser: bool) -> _Part:
    """Turn and round progress, who acts, moves, queued attacks, card drawn: what changes step to step."""
    limit = view.rules.victory.round_limit
    limits = game_tables(view.rules.tables)  # counts as shares of the game's own limits
    key = (
        view.turn,
        view.round,
        limit.max_rounds if limit is not None else 15,
        view.active is side,
        view.to_act is side,
        chooser and view.to_act is side,
        view.moves_this_turn,
        limits.max_moves,
        len(view.attack_queue),
        limits.max_attacks_per_turn,
        view.drawn_this_turn,
    )
    return by_value(_TURNS, key, lambda: _turn_group(key))


def _turn_group(key: tuple[Any, ...]) -> _Part:
    turn, round_, rounds, active, to_act, chooses, moves, max_moves, queued, max_attacks, drawn = key
    return _frozen(
        [
            turn / (2 * rounds),
            round_ / rounds,
            float(active),
            float(to_act),
            float(chooses),
            moves / max_moves,
            queued / max_attacks,
            float(drawn),
        ]
    )


def _roll(roll: Roll) -> tuple[float, ...]:
    return roll.natural / 6, roll.modified / 6, roll.required / 6, float(roll.outcome == "HIT"), 1.0
