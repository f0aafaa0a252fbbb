"""Compiled conditions: the closure a condition tree becomes at load, and the context it reads.

`compile_condition` walks a tree (`engine.conditions`) once and returns one closure;
hooks then build a `Context` per question and call it. Nothing here reads JSON or dicts
while a game runs. ``near`` and auras read the units' coordinates through `placed`,
computed once per units tuple.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .boardinfo import BoardInfo, board_info
from .conditions import (
    ActiveIs,
    AllOf,
    AnyOf,
    Attacked,
    AttackerIs,
    Condition,
    Damaged,
    Distance,
    HasTag,
    HpAtMost,
    InQuadrant,
    IsType,
    Moved,
    Near,
    Not,
    OnOverlay,
    OnTerrain,
    Owner,
    PhaseIs,
    RoundIs,
    StatAbove,
    Targeted,
    TargetIs,
)
from .tables import UNITS, UnitStats, unit_stats
from .types import Side, UnitType

if TYPE_CHECKING:
    from .state import GameState, Unit

__all__ = ["Context", "Predicate", "around", "compile_condition", "placed"]


class Context:
    """What a condition reads: the state, the effect's controller and named units, the subject and the attack."""

    __slots__ = ("_info", "attacker", "controller", "distance", "named", "state", "subject", "target")

    def __init__(
        self,
        state: GameState,
        controller: Side,
        subject: Unit | None,
        attacker: Unit | None = None,
        target: Unit | None = None,
        distance: int | None = None,
        named: tuple[str, ...] = (),
    ) -> None:
        self.state = state
        self._info: BoardInfo | None = None
        self.controller = controller
        self.subject = subject
        self.attacker = attacker
        self.target = target
        self.distance = distance
        self.named = named

    @property
    def info(self) -> BoardInfo:
        """The board's lookup tables, fetched on first use (most facts never read the board)."""
        info = self._info
        if info is None:
            info = self._info = board_info(self.state.board)
        return info

    def about(self, subject: Unit | None) -> Context:
        """The same context with another subject."""
        ctx = Context.__new__(Context)
        ctx.state, ctx._info, ctx.controller, ctx.named = self.state, self._info, self.controller, self.named
        ctx.attacker, ctx.target, ctx.distance, ctx.subject = self.attacker, self.target, self.distance, subject
        return ctx


Predicate = Callable[[Context], bool]


def _cell(ctx: Context) -> int | None:
    unit = ctx.subject
    return None if unit is None or unit.cell is None else ctx.info.index[unit.cell]


def _bounded(low: int | None, high: int | None) -> Callable[[int], bool]:
    lo = -1 if low is None else low
    hi = 1 << 30 if high is None else high
    return lambda value: lo <= value <= hi


def compile_condition(node: Condition) -> Predicate:
    """One closure that evaluates ``node``; sub-trees are compiled once, here."""
    match node:
        case AllOf(of=parts):
            return _all(tuple(compile_condition(p) for p in parts))
        case AnyOf(of=parts):
            return _any(tuple(compile_condition(p) for p in parts))
        case Not(of=part):
            pred = compile_condition(part)
            return lambda ctx: not pred(ctx)
        case IsType(is_=types):
            wanted = frozenset(types)
            return lambda ctx: ctx.subject is not None and ctx.subject.type in wanted
        case HasTag(is_=tags):
            tagged = frozenset(t for t in UnitType if any(tag in UNITS[t].tags for tag in tags))
            return lambda ctx: ctx.subject is not None and ctx.subject.type in tagged
        case Owner(is_=owner):
            return _owner(owner)
        case Damaged():
            return lambda ctx: (
                ctx.subject is not None and ctx.subject.hp < unit_stats(ctx.subject.type, ctx.state.rules.tables).hp
            )
        case Moved():
            return lambda ctx: ctx.subject is not None and ctx.subject.has_moved
        case Attacked():
            return lambda ctx: ctx.subject is not None and ctx.subject.has_attacked
        case HpAtMost(value=value):
            return lambda ctx: ctx.subject is not None and ctx.subject.hp <= value
        case StatAbove(stat=stat, value=value):
            above = frozenset(t for t in UnitType if _stat(UNITS[t], stat) > value)
            return lambda ctx: ctx.subject is not None and (
                ctx.subject.type in above
                if ctx.state.rules.tables is None  # the standard stats: known at compile time
                else _stat(unit_stats(ctx.subject.type, ctx.state.rules.tables), stat) > value
            )
        case Targeted():
            return lambda ctx: ctx.subject is not None and ctx.subject.id in ctx.named
        case OnTerrain(is_=terrains):
            wanted_terrain = frozenset(terrains)
            return lambda ctx: (i := _cell(ctx)) is not None and ctx.info.terrain[i] in wanted_terrain
        case OnOverlay(is_="road"):
            return lambda ctx: (i := _cell(ctx)) is not None and ctx.info.road[i]
        case OnOverlay(is_="river"):
            return lambda ctx: (i := _cell(ctx)) is not None and ctx.info.river[i]
        case InQuadrant(is_=quadrants):
            wanted_quadrant = frozenset(quadrants)
            return lambda ctx: (i := _cell(ctx)) is not None and ctx.info.quadrant[i] in wanted_quadrant
        case Near(within=radius, unit=sub, at_least=count):
            return _near(radius, compile_condition(sub), count)
        case PhaseIs(is_=phases):
            wanted_phase = frozenset(phases)
            return lambda ctx: ctx.state.phase in wanted_phase
        case RoundIs(at_least=low, at_most=high):
            in_rounds = _bounded(low, high)
            return lambda ctx: in_rounds(ctx.state.round)
        case ActiveIs(is_=who):
            mine = who == "controller"
            return lambda ctx: (ctx.state.active is ctx.controller) is mine
        case Distance(at_least=low, at_most=high):
            in_distance = _bounded(low, high)
            return lambda ctx: ctx.distance is not None and in_distance(ctx.distance)
        case AttackerIs(is_=sub):
            pred = compile_condition(sub)
            return lambda ctx: ctx.attacker is not None and pred(ctx.about(ctx.attacker))
        case TargetIs(is_=sub):
            pred = compile_condition(sub)
            return lambda ctx: ctx.target is not None and pred(ctx.about(ctx.target))
    raise AssertionError(f"unknown condition {node!r}")  # pragma: no cover - the union is closed


def _all(preds: tuple[Predicate, ...]) -> Predicate:
    """``and`` of the parts; two or three parts without a generator (hooks ask in inner loops)."""
    if len(preds) == 1:
        return preds[0]
    if len(preds) == 2:
        a, b = preds
        return lambda ctx: a(ctx) and b(ctx)
    if len(preds) == 3:
        a, b, c = preds
        return lambda ctx: a(ctx) and b(ctx) and c(ctx)
    return lambda ctx: all(p(ctx) for p in preds)


def _any(preds: tuple[Predicate, ...]) -> Predicate:
    """``or`` of the parts, as `_all` does ``and``."""
    if len(preds) == 1:
        return preds[0]
    if len(preds) == 2:
        a, b = preds
        return lambda ctx: a(ctx) or b(ctx)
    if len(preds) == 3:
        a, b, c = preds
        return lambda ctx: a(ctx) or b(ctx) or c(ctx)
    return lambda ctx: any(p(ctx) for p in preds)


def _stat(spec: UnitStats, stat: str) -> float:
    return {"hp": spec.hp, "movement_mp": spec.movement_mp, "range": spec.range, "damage": spec.damage}[stat]


def _owner(owner: str) -> Predicate:
    if owner in ("ATTACKER", "DEFENDER"):
        side = Side(owner)
        return lambda ctx: ctx.subject is not None and ctx.subject.side is side
    mine = owner == "controller"
    return lambda ctx: ctx.subject is not None and (ctx.subject.side is ctx.controller) is mine


_PLACED: dict[int, tuple[tuple[Unit, ...], BoardInfo, tuple[tuple[Unit, int, int], ...]]] = {}


def placed(ctx: Context) -> tuple[tuple[Unit, int, int], ...]:
    """Every unit on the board with its coordinates, computed once per units tuple (a hook asks many times)."""
    units = ctx.state.units
    info = ctx.info
    known = _PLACED.get(id(units))
    if known is not None and known[0] is units and known[1] is info:
        return known[2]
    coords = info.coords
    found = tuple((u, *coords[u.cell]) for u in units if u.cell is not None)
    if len(_PLACED) >= 8:
        _PLACED.clear()  # a handful of live positions at a time; one atomic step (threads)
    _PLACED[id(units)] = (units, info, found)
    return found


def around(ctx: Context, radius: int) -> list[Unit]:
    """The placed units within ``radius`` cells of the subject (itself included), in unit order."""
    subject = ctx.subject
    if subject is None or subject.cell is None:
        return []
    x, y = ctx.info.coords[subject.cell]
    left, right, top, bottom = x - radius, x + radius, y - radius, y + radius
    return [u for u, ux, uy in placed(ctx) if left <= ux <= right and top <= uy <= bottom]


def _near(radius: int, pred: Predicate, count: int) -> Predicate:
    def near(ctx: Context) -> bool:
        subject = ctx.subject
        candidates = around(ctx, radius)
        if len(candidates) < count:  # too few, whatever they are
            return False
        assert subject is not None  # around() found units, so there is a placed subject
        found = 0
        try:  # the candidates take the subject's place in this context (no new context per unit)
            for unit in candidates:
                if unit.id != subject.id:
                    ctx.subject = unit
                    if pred(ctx):
                        found += 1
                        if found >= count:
                            return True
            return False
        finally:
            ctx.subject = subject

    return near
