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

from .boardinfo import board_info
from .condition_rules import READ_ATTACKERS, READ_GAME, READ_UNITS, Context
from .live_effects import Live, effects_of, kind_may_fit, unit_fits
from .state import Effect, GameState, Unit
from .tables import unit_stats
from .types import Hook, Phase, Side, UnitType

__all__ = ["ASK_AGAIN", "allowance_and_reads", "movement_allowance", "movement_key", "units_unchanged"]

_Game = tuple[Phase, int, Side] | None
# unit, board, rules, units (if read), which sides' units were read, game facts (if read), value
_Found = tuple[Unit, object, object, tuple[Unit, ...] | None, int, _Game, int]


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
            side: {kind: tuple(er for er in movement if kind_may_fit(er[0], side, kind)) for kind in UnitType}
            for side in Side
        }
        self.found: dict[str, _Found] = {}
        self.board = state.board  # the board of the state that made it (a test may swap boards under one tuple)
        self.info = board_info(state.board)


_last_same: tuple[tuple[Unit, ...], tuple[Unit, ...], int, bool] | None = None


def _same_read(then: tuple[Unit, ...], now: tuple[Unit, ...], read: int) -> bool:
    """Whether the units of the side ``read`` names are the same in ``then`` and ``now`` (in the same places).

    The last answer is remembered: after a move every unit whose rule counted one side
    asks the same question about the same two tuples.
    """
    global _last_same
    last = _last_same  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is then and last[1] is now and last[2] == read:
        return last[3]
    same = _compare(then, now, read)
    _last_same = (then, now, read, same)  # holds both tuples: their ids are not reused meanwhile
    return same


def _compare(then: tuple[Unit, ...], now: tuple[Unit, ...], read: int) -> bool:
    if len(then) != len(now):
        return False  # a unit left: the units no longer line up (whichever side it was)
    side = Side.ATTACKER if read == READ_ATTACKERS else Side.DEFENDER
    # Most units are the very same objects: find the few that are not in C, then look at those.
    same = list(map(is_, then, now))
    i = 0
    for _ in range(same.count(False)):
        i = same.index(False, i)
        a, b = then[i], now[i]
        if (a.side is side or b.side is side) and a != b:
            return False
        i += 1
    return True


_BY_TUPLE: dict[int, tuple[tuple[Effect, ...], _Kept | None]] = {}
_BY_SIGNATURE: dict[tuple[object, ...], _Kept] = {}


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
            if len(_BY_SIGNATURE) >= 8:
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


def allowance_and_reads(state: GameState, unit: Unit) -> tuple[int, int]:
    """`movement_allowance`, and how long it holds for ``unit`` (this very object) while the board, the
    rules and the `movement_key` are the same objects: 0, always (its rules read no other unit and no
    game fact); `READ_ATTACKERS` or `READ_DEFENDERS`, while that side's units stand as they do now
    (`units_unchanged`); `ASK_AGAIN` otherwise. `engine.move_lists` need not ask again meanwhile."""
    effects = state.effects
    if not effects:
        return 2 * unit_stats(unit.type, state.rules.tables).movement_mp, 0
    known = _BY_TUPLE.get(id(effects))  # the usual case inline: asked for every unit of every listing
    kept = known[1] if known is not None and known[0] is effects else _kept(state)
    if kept is None:
        return 2 * unit_stats(unit.type, state.rules.tables).movement_mp, 0
    effects_here = kept.kinds[unit.side][unit.type]
    if not effects_here:
        return 2 * unit_stats(unit.type, state.rules.tables).movement_mp, 0
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
            return found[6], _holding(found[4], found[5])
        # A rule that counted one side's units holds while those stay put: an enemy count
        # is not asked again for every move of the unit's own side.
        if found[4] != READ_UNITS and _same_read(then, state.units, found[4]):
            kept.found[unit.id] = (unit, found[1], found[2], state.units, found[4], found[5], found[6])
            return found[6], _holding(found[4], found[5])
    allowance = 2 * unit_stats(unit.type, state.rules.tables).movement_mp  # found entries skip it
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
    game = (state.phase, state.round, state.active) if read & READ_GAME else None
    units = state.units if read & READ_UNITS else None
    kept.found[unit.id] = (unit, state.board, state.rules, units, read & READ_UNITS, game, allowance)
    return allowance, _holding(read & READ_UNITS, game)


def _holding(read: int, game: _Game) -> int:
    """`allowance_and_reads`'s second answer for what an allowance read: one side's units, or none."""
    return ASK_AGAIN if game is not None or read == READ_UNITS else read


def units_unchanged(then: tuple[Unit, ...], now: tuple[Unit, ...], read: int) -> bool:
    """Whether the units of the side ``read`` (`READ_ATTACKERS` or `READ_DEFENDERS`) stand in ``now`` as in ``then``."""
    return then is now or _same_read(then, now, read)
