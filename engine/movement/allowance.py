"""Movement allowances (the ``modify_movement`` hook, rules §5.2), kept while what they read stays the same.

Listing moves asks for the allowance of every unit of the side to move, in every
position, and a condition tree (a ``near`` count) may cost more than the search the
allowance bounds. An allowance depends on the unit, on the ``modify_movement`` effects
whose scope can reach its side, on the board and the game's rules, and on whatever of
the rest its rules read while they decided (`Context.read`: where the other units
stand, the phase, round and active side). So allowances are kept per contents of the
movement effects, by unit, with the very objects they depend on, and found again while
those stay the same. A game keeps its effects tuple from state to state, and a turn's
countdown renews it without changing what an allowance reads, so after a move only the
moved unit, and a unit whose rule counted the units near it, is asked again; a rule that
counted one side's units only ("enemies within 3") holds while that side's units stay
as they were, so it is not asked again when its own side moves.
"""

from __future__ import annotations

from operator import is_

from ..board.info import BoardInfo, board_info
from ..cards.condition_rules import (
    ANYWHERE,
    READ_ATTACKERS,
    READ_DEFENDERS,
    READ_EFFECTS,
    READ_GAME,
    READ_UNITS,
    Context,
)
from ..cards.live import Live, effects_of, kind_may_fit
from ..state import Effect, GameState, Unit
from ..tables import unit_stats
from ..types import Hook, Phase, Side, UnitType

__all__ = ["ASK_AGAIN", "allowance_and_reads", "movement_allowance", "movement_key", "units_unchanged"]

_Game = tuple[Phase, int, Side] | None
# unit, board, rules, units (if read), which sides' units were read, game facts (if read), value, their radius
_Found = tuple[Unit, object, object, tuple[Unit, ...] | None, int, _Game, int, int]


def _signature(movement: Live) -> tuple[object, ...]:
    """Everything of the movement effects an allowance reads (their countdowns excepted)."""
    return tuple((e.source_card, e.conditions, e.controller, e.scope, e.op, e.value, e.targets) for e, _ in movement)


class _Kept:
    """Movement effects by the unit kind they may reach, and the allowances found with them, by unit id."""

    __slots__ = ("board", "found", "info", "kinds")

    def __init__(self, state: GameState, movement: Live) -> None:
        # Per side, per unit type: the effects that may reach such a unit (`kind_may_fit`). An
        # effect whose scope or kind facts rule a kind out is never evaluated for it.
        self.kinds: dict[Side, dict[UnitType, Live]] = {
            side: {
                kind: tuple(er for er in movement if kind_may_fit(er[0], side, kind, state.rules)) for kind in UnitType
            }
            for side in Side
        }
        self.found: dict[str, _Found] = {}
        self.board = state.board  # the board of the state that made it (a test may swap boards under one tuple)
        self.info = board_info(state.board)


_Changed = tuple[str | None, ...]
_last_changed: tuple[tuple[Unit, ...], tuple[Unit, ...], int, _Changed | None] | None = None


def _changed(then: tuple[Unit, ...], now: tuple[Unit, ...], read: int) -> _Changed | None:
    """The cells, before and after, of the units of the sides ``read`` names that are not in ``now`` as they
    were in ``then`` (empty: they all are); None when the two no longer line up (a unit left or came).

    The last answer is remembered: after a move every unit whose rule counted one side
    asks the same question about the same two tuples.
    """
    global _last_changed
    last = _last_changed  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is then and last[1] is now and last[2] == read:
        return last[3]
    changed = _compare(then, now, read)
    _last_changed = (then, now, read, changed)  # holds both tuples: their ids are not reused meanwhile
    return changed


def _compare(then: tuple[Unit, ...], now: tuple[Unit, ...], read: int) -> _Changed | None:
    if len(then) != len(now):
        return None
    # Most units are the very same objects: find the few that are not in C, then look at those.
    same = list(map(is_, then, now))
    cells: list[str | None] = []
    i = 0
    for _ in range(same.count(False)):
        i = same.index(False, i)
        a, b = then[i], now[i]
        if a.id != b.id:
            return None
        if (READ_ATTACKERS if a.side is Side.ATTACKER else READ_DEFENDERS) & read and a != b:
            cells += (a.cell, b.cell)
        i += 1
    return tuple(cells)


def units_unchanged(
    then: tuple[Unit, ...], now: tuple[Unit, ...], read: int, cell: str | None, window: int, info: BoardInfo
) -> bool:
    """Whether what a rule read of the units of the sides ``read`` names (`READ_ATTACKERS`, `READ_DEFENDERS`)
    in ``then``, within ``window`` cells of ``cell`` (`ANYWHERE`: wherever they stand), is the same in ``now``.

    True when those units all stand as they did, or when every one that changed (moved, came
    back renewed, was hit) stood and stands farther than ``window`` from ``cell``: an enemy
    count is asked again only when an enemy enters or leaves its radius.
    """
    if then is now:
        return True
    changed = _changed(then, now, read)
    if changed is None:
        return False
    if not changed:
        return True
    if window >= ANYWHERE or cell is None:
        return False
    return info.within(cell, window).isdisjoint(changed)


_BY_TUPLE: dict[int, tuple[tuple[Effect, ...], _Kept | None]] = {}
_BY_SIGNATURE: dict[tuple[object, ...], _Kept] = {}
# Sets of movement effects come and go as cards are played and expire, and come back: a
# game had about five, four games in turn seventeen, and each set rebuilt asks every
# allowance again. Each holds at most an allowance per unit id.
_SIGNATURE_LIMIT = 64


def _kept(state: GameState) -> _Kept | None:
    """The `_Kept` of a new effects tuple's movement effects (None without any), found by what they say:
    a turn's end counting effects down renews the tuple but keeps what was found."""
    effects = state.effects
    movement = effects_of(state, Hook.MODIFY_MOVEMENT)
    kept = None
    if movement:
        signature = _signature(movement)
        kept = _BY_SIGNATURE.get(signature)
        if kept is None:
            if len(_BY_SIGNATURE) >= _SIGNATURE_LIMIT:
                _BY_SIGNATURE.clear()  # one atomic step (threads)
            kept = _BY_SIGNATURE[signature] = _Kept(state, movement)
    if len(_BY_TUPLE) >= 8:
        _BY_TUPLE.clear()  # a handful of live positions at a time; one atomic step (threads)
    _BY_TUPLE[id(effects)] = (effects, kept)  # it holds the tuple: the id is not reused meanwhile
    return kept


def movement_key(state: GameState) -> object | None:
    """What the allowances of ``state`` read of its effects, as one object (None without movement effects).

    The same object while the movement effects say the same (a turn's countdown renews the
    effects tuple, not this), so an allowance `allowance_and_reads` calls held holds under it.
    """
    effects = state.effects
    if not effects:
        return None
    known = _BY_TUPLE.get(id(effects))
    return known[1] if known is not None and known[0] is effects else _kept(state)


def movement_allowance(state: GameState, unit: Unit) -> int:
    """Half-points ``unit`` may spend: ``2 × (MP + Σ add)``, halved per *halve*, at least 0."""
    return allowance_and_reads(state, unit)[0]


ASK_AGAIN = -1
"""`allowance_and_reads`: the allowance may change with anything of the state; ask again."""


def allowance_and_reads(state: GameState, unit: Unit) -> tuple[int, int, int]:
    """`movement_allowance`, and how long it holds for ``unit`` (this very object) while the board, the
    rules and the `movement_key` are the same objects: 0, always (its rules read no other unit and no
    game fact); flags of `READ_ATTACKERS` and `READ_DEFENDERS`, while what it read of those sides' units
    within the third answer's radius of the unit (`ANYWHERE`: all of them) is unchanged
    (`units_unchanged`); `ASK_AGAIN` otherwise. `engine.move_lists` need not ask again meanwhile."""
    effects = state.effects
    if not effects:
        return 2 * unit_stats(unit.type, state.rules.tables).movement_mp, 0, 0
    known = _BY_TUPLE.get(id(effects))  # the usual case inline: asked for every unit of every listing
    kept = known[1] if known is not None and known[0] is effects else _kept(state)
    if kept is None:
        return 2 * unit_stats(unit.type, state.rules.tables).movement_mp, 0, 0
    effects_here = kept.kinds[unit.side][unit.type]
    if not effects_here:
        return 2 * unit_stats(unit.type, state.rules.tables).movement_mp, 0, 0
    # The entry holds the very unit, board, rules (and units, game facts when read): a tool may
    # ask about a unit changed off-state, and an id is not reused while its object lives.
    found = kept.found.get(unit.id)
    if found is not None and found[0] is not unit and found[3] is None and found[5] is None and found[0] == unit:
        # What its rules read is the unit alone, and this one is equal (a unit that stood still
        # has a new object at each turn's start): the allowance is the same.
        found = kept.found[unit.id] = (unit, *found[1:])
    if (
        found is not None
        and found[0] is unit
        and found[1] is state.board
        and found[2] is state.rules
        and (found[5] is None or found[5] == (state.phase, state.round, state.active))
    ):
        then = found[3]
        if then is None or then is state.units:
            return found[6], _holding(found[4], found[5]), found[7]
        # A rule that counted units holds while those stay put, or move only outside its
        # radius: an enemy count is not asked again for every move of the unit's own side.
        info = kept.info if kept.board is state.board else board_info(state.board)
        if units_unchanged(then, state.units, found[4], unit.cell, found[7], info):
            kept.found[unit.id] = (unit, found[1], found[2], state.units, found[4], found[5], found[6], found[7])
            return found[6], _holding(found[4], found[5]), found[7]
    allowance = 2 * unit_stats(unit.type, state.rules.tables).movement_mp  # found entries skip it
    info = kept.info if kept.board is state.board else board_info(state.board)
    read = halvings = window = 0
    sets: list[int] = []
    for effect, rule in effects_here:
        if effect.scope == "targets" and unit.id not in effect.targets:
            continue  # the rest of `unit_fits` is the unit's kind: `effects_here` may reach it
        if rule is not None:
            ctx = Context(state, effect.controller, unit, None, None, None, effect.targets, info, effect)
            holds = rule(ctx)
            read |= ctx.read
            if ctx.window > window:
                window = ctx.window
            if not holds:
                continue
        if effect.op == "add":
            allowance += effect.value  # already in half-points
        elif effect.op == "set":
            sets.append(effect.value)
        else:
            halvings += 1
    if sets:  # the unit's MP set (the smallest set wins), then the adds on top
        allowance += min(sets) - 2 * unit_stats(unit.type, state.rules.tables).movement_mp
    while halvings:
        allowance //= 2
        halvings -= 1
    if allowance < 0:
        allowance = 0
    if read & READ_EFFECTS:  # its rule read other effects or its uses: nothing says how long it holds
        return allowance, ASK_AGAIN, window
    game = (state.phase, state.round, state.active) if read & READ_GAME else None
    units = state.units if read & READ_UNITS else None
    kept.found[unit.id] = (unit, state.board, state.rules, units, read & READ_UNITS, game, allowance, window)
    return allowance, _holding(read & READ_UNITS, game), window


def _holding(read: int, game: _Game) -> int:
    """`allowance_and_reads`'s second answer for what an allowance read: the sides' units it counted, or none."""
    return ASK_AGAIN if game is not None else read
