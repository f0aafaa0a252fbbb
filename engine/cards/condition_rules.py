"""Compiled conditions: the closure a condition tree becomes at load, and the context it reads.

`compile_condition` walks a tree (`engine.conditions`) once and returns one closure;
hooks then build a `Context` per question and call it. Nothing here reads JSON or dicts
while a game runs. ``near`` and auras test each unit's cell against the window of cells
around the subject (`BoardInfo.within`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..board.info import BoardInfo, board_info
from ..tables import TERRAIN, UNITS, UnitStats, unit_stats
from ..types import Hook, Side, TerrainType, UnitType
from .condition_kinds import Kinds, kinds
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
    Suppressed,
    Targeted,
    TargetIs,
    TerrainTag,
    Under,
    Xor,
)

if TYPE_CHECKING:
    from ..state import Effect, GameState, Unit

__all__ = [
    "ANYWHERE",
    "READ_ATTACKERS",
    "READ_DEFENDERS",
    "READ_EFFECTS",
    "READ_GAME",
    "READ_UNITS",
    "Context",
    "Predicate",
    "around",
    "compile_condition",
    "read_of_side",
]

READ_ATTACKERS = 1
"""`Context.read` flag: a fact read where other units of the attacker stand (a ``near`` that counts them)."""
READ_DEFENDERS = 4
"""`Context.read` flag: the same for the defender's units."""
READ_UNITS = READ_ATTACKERS | READ_DEFENDERS
"""`Context.read` flags: a fact read where other units of either side stand (``near``, an aura)."""
READ_GAME = 2
"""`Context.read` flag: a fact read the phase, the round or the active side."""
READ_EFFECTS = 8
"""`Context.read` flag: a fact read the live effects (``under``, ``suppressed``) or an effect's uses."""
ANYWHERE = 1 << 20
"""`Context.window` when the units read are not bounded by a radius around the subject."""


def read_of_side(side: Side) -> int:
    """The `Context.read` flag of where ``side``'s units stand."""
    return READ_ATTACKERS if side is Side.ATTACKER else READ_DEFENDERS


class Context:
    """What a condition reads: the state, the effect's controller and named units, the subject and the attack."""

    __slots__ = (
        "_info",
        "attacker",
        "controller",
        "distance",
        "effect",
        "named",
        "read",
        "state",
        "subject",
        "target",
        "window",
    )

    def __init__(
        self,
        state: GameState,
        controller: Side,
        subject: Unit | None,
        attacker: Unit | None = None,
        target: Unit | None = None,
        distance: int | None = None,
        named: tuple[str, ...] = (),
        info: BoardInfo | None = None,
        effect: Effect | None = None,
    ) -> None:
        self.state = state
        self.effect = effect  # the live effect asking (its uses, for a limit); None for an ability
        self._info = info  # the board's, found when a fact first reads the board (a caller may have it at hand)
        self.controller = controller
        self.subject = subject
        self.attacker = attacker
        self.target = target
        self.distance = distance
        self.named = named
        self.read = 0  # READ_UNITS | READ_GAME: the facts read so far that change while the subject stands still
        self.window = 0  # the units read stand within this many cells of the subject (`ANYWHERE`: not bounded)

    @property
    def info(self) -> BoardInfo:
        """The board's lookup tables (found on first use: most questions never read the board)."""
        info = self._info
        if info is None:
            info = self._info = board_info(self.state.board)
        return info

    def reads_units(self, flags: int, radius: int = ANYWHERE) -> None:
        """Note that where units of the sides ``flags`` names stand was read, within ``radius`` cells of the subject."""
        self.read |= flags
        if radius > self.window:
            self.window = radius

    def about(self, subject: Unit | None) -> Context:
        """The same context with another subject."""
        return Context(
            self.state,
            self.controller,
            subject,
            self.attacker,
            self.target,
            self.distance,
            self.named,
            self._info,
            self.effect,
        )

    def ask(self, pred: Predicate, subject: Unit | None) -> bool:
        """``pred`` about another subject, what it read noted here too."""
        other = self.about(subject)
        held = pred(other)
        self.read |= other.read
        if other.read & READ_UNITS:
            self.window = ANYWHERE  # read around another unit, not around this subject
        return held


Predicate = Callable[[Context], bool]


def _on_cell(fact: Callable[[BoardInfo, int], bool]) -> Predicate:
    """A fact about the subject's cell (by index), false for a subject off the board."""

    def on_cell(ctx: Context) -> bool:
        unit = ctx.subject
        if unit is None or unit.cell is None:
            return False
        info = ctx.info
        return fact(info, info.index[unit.cell])

    return on_cell


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
        case Xor(of=parts):
            preds = tuple(compile_condition(p) for p in parts)
            return lambda ctx: sum(1 for p in preds if p(ctx)) == 1
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
            return lambda ctx: (
                ctx.subject is not None
                and (
                    ctx.subject.type in above
                    if ctx.state.rules.tables is None  # the standard stats: known at compile time
                    else _stat(unit_stats(ctx.subject.type, ctx.state.rules.tables), stat) > value
                )
            )
        case Targeted():
            return lambda ctx: ctx.subject is not None and ctx.subject.id in ctx.named
        case OnTerrain(is_=terrains):
            wanted_terrain = frozenset(terrains)
            return _on_cell(lambda info, i: info.terrain[i] in wanted_terrain)
        case TerrainTag(is_=terrain_tags):
            tagged_terrain = _tagged_terrain(terrain_tags)
            return _on_cell(lambda info, i: info.terrain[i] in tagged_terrain)
        case OnOverlay(is_="road"):
            return _on_cell(lambda info, i: info.road[i])
        case OnOverlay(is_="river"):
            return _on_cell(lambda info, i: info.river[i])
        case OnOverlay(is_="bridge"):
            return _on_cell(lambda info, i: info.bridge[i])
        case InQuadrant(is_=quadrants):
            wanted_quadrant = frozenset(quadrants)
            return _on_cell(lambda info, i: info.quadrant[i] in wanted_quadrant)
        case Near(within=radius, unit=sub, at_least=count) if sub is not None:
            counted = kinds(sub)
            if counted is not None:
                return _near_kinds(radius, counted, count)
            return _near(radius, compile_condition(sub), count)
        case Near(within=radius, terrain=terrains, terrain_tag=terrain_tags, at_least=count):
            near_terrain = frozenset(terrains) | _tagged_terrain(terrain_tags)
            return _near_terrain(radius, near_terrain, count)
        case Under(card=cards, hook=hook, op=op):
            return _under(frozenset(cards), hook, op)
        case Suppressed():
            return _suppressed
        case PhaseIs(is_=phases):
            wanted_phase = frozenset(phases)
            return _game_fact(lambda ctx: ctx.state.phase in wanted_phase)
        case RoundIs(at_least=low, at_most=high):
            in_rounds = _bounded(low, high)
            return _game_fact(lambda ctx: in_rounds(ctx.state.round))
        case ActiveIs(is_=who):
            mine = who == "controller"
            return _game_fact(lambda ctx: (ctx.state.active is ctx.controller) is mine)
        case Distance(at_least=low, at_most=high):
            in_distance = _bounded(low, high)
            return lambda ctx: ctx.distance is not None and in_distance(ctx.distance)
        case AttackerIs(is_=sub):
            pred = compile_condition(sub)
            return lambda ctx: ctx.attacker is not None and ctx.ask(pred, ctx.attacker)
        case TargetIs(is_=sub):
            pred = compile_condition(sub)
            return lambda ctx: ctx.target is not None and ctx.ask(pred, ctx.target)
    raise AssertionError(f"unknown condition {node!r}")  # pragma: no cover - the union is closed


def _game_fact(fact: Predicate) -> Predicate:
    def game_fact(ctx: Context) -> bool:
        ctx.read |= READ_GAME
        return fact(ctx)

    return game_fact


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


def _tagged_terrain(tags: tuple[str, ...]) -> frozenset[TerrainType]:
    return frozenset(t for t, row in TERRAIN.items() if any(tag in row.tags for tag in tags))


def _near_terrain(radius: int, terrains: frozenset[TerrainType], count: int) -> Predicate:
    def near(ctx: Context) -> bool:
        unit = ctx.subject
        if unit is None or unit.cell is None:
            return False
        info = ctx.info
        index, terrain = info.index, info.terrain
        found = sum(1 for cell in info.within(unit.cell, radius) if terrain[index[cell]] in terrains)
        return found >= count

    return near


def reaches(effect: Effect, unit: Unit) -> bool:
    """Whether ``effect``'s scope and flat filters take in ``unit`` (for an attack hook: ``unit``'s attacks).

    What ``under`` and ``suppressed`` ask about another effect: never its ``when`` or aura, so
    no two effects ever ask each other's conditions in a circle.
    """
    scope = effect.scope
    if scope in ("own_units", "own_attacks", "controller"):
        if unit.side is not effect.controller:
            return False
    elif scope == "enemy_units":
        if unit.side is effect.controller:
            return False
    elif scope == "targets" and unit.id not in effect.targets:
        return False
    cond = effect.conditions
    if cond.unit_types and unit.type not in cond.unit_types:
        return False
    return not cond.unit_tags or any(tag in cond.unit_tags for tag in UNITS[unit.type].tags)


def _card_matches(source: str, cards: frozenset[str]) -> bool:
    return source.partition("@")[0] in cards  # a variant's changed card keeps its base id before the mark


def _under(cards: frozenset[str], hook: Hook | None, op: str | None) -> Predicate:
    def under(ctx: Context) -> bool:
        ctx.read |= READ_EFFECTS
        unit = ctx.subject
        if unit is None:
            return False
        for effect in ctx.state.effects:
            if cards and not _card_matches(effect.source_card, cards):
                continue
            if hook is not None and (effect.hook is not hook or (op is not None and effect.op != op)):
                continue
            if reaches(effect, unit):
                return True
        return False

    return under


def _holds_back(effect: Effect) -> bool:
    if effect.hook is Hook.MODIFY_MOVEMENT:
        return effect.op in ("halve", "set") or effect.value < 0
    return effect.hook is Hook.CAN_MOVE_UNIT and effect.op == "deny"


def _suppressed(ctx: Context) -> bool:
    ctx.read |= READ_EFFECTS
    unit = ctx.subject
    return unit is not None and any(_holds_back(e) and reaches(e, unit) for e in ctx.state.effects)


def _stat(spec: UnitStats, stat: str) -> float:
    return {"hp": spec.hp, "movement_mp": spec.movement_mp, "range": spec.range, "damage": spec.damage}[stat]


def _owner(owner: str) -> Predicate:
    if owner in ("ATTACKER", "DEFENDER"):
        side = Side(owner)
        return lambda ctx: ctx.subject is not None and ctx.subject.side is side
    mine = owner == "controller"
    return lambda ctx: ctx.subject is not None and (ctx.subject.side is ctx.controller) is mine


def around(ctx: Context, radius: int) -> list[Unit]:
    """The placed units within ``radius`` cells of the subject (itself included), in unit order."""
    subject = ctx.subject
    if subject is None or subject.cell is None:
        return []
    window = ctx.info.within(subject.cell, radius)
    return [u for u in ctx.state.units if u.cell in window]


def _near(radius: int, pred: Predicate, count: int) -> Predicate:
    def near(ctx: Context) -> bool:
        ctx.reads_units(READ_UNITS)  # not bounded: ``pred`` may read around each candidate in turn
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


def _near_kinds(radius: int, kinds: Kinds, count: int) -> Predicate:
    # Only the sides whose units may count are read: "enemies within 3" of a unit that
    # moves in its own turn stays what it was while only its own side moves.
    reads = {controller: _sides_read(wanted) for controller, wanted in kinds.items()}

    def near(ctx: Context) -> bool:
        ctx.read |= reads[ctx.controller]  # `Context.reads_units` inline: asked for units of a side in turn
        if ctx.window < radius:
            ctx.window = radius
        subject = ctx.subject
        if subject is None or subject.cell is None:
            return False
        window = ctx.info.within(subject.cell, radius)
        wanted = kinds[ctx.controller]
        sid = subject.id
        found = [u for u in ctx.state.units if u.cell in window and (u.side, u.type) in wanted and u.id != sid]
        return len(found) >= count

    return near


def _sides_read(wanted: frozenset[tuple[Side, UnitType]]) -> int:
    read = 0
    for side, _ in wanted:
        read |= read_of_side(side)
    return read
