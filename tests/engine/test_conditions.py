"""The condition language (`engine.conditions`): compiled trees agree with a direct reading, bad trees are refused.

The reference evaluator here reads the map characters and unit fields itself, without the
engine's board tables, so a compiled closure that reads the wrong thing disagrees with it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CardDataError, Phase, Side, UnitType
from engine.cards.catalogue import CARDS, load_cards
from engine.cards.condition_rules import ANYWHERE, READ_GAME, READ_UNITS, Context, read_of_side
from engine.cards.conditions import (
    CONDITION_NAMES,
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
    describe,
    needs,
)
from engine.cards.defs import ConditionsDef
from engine.cards.language import clause_text, sugar
from engine.data import card_file_problems, compile_condition
from engine.state import GameState, Unit
from engine.types import Quadrant, TerrainType
from tests.support import replace, start

VARIANT = Path(__file__).resolve().parents[2] / "engine" / "data" / "variants" / "field_manual.json"

# A 6x6 map with every base terrain, roads and rivers, so position facts have something to find.
MAP = "\n".join([".rfuih", "=#~..w", "..f.u.", "~~=...", "i.h.f.", "..=..."])
_CHARS = {".": "PLAIN", "r": "ROUGH", "f": "FOREST", "u": "URBAN", "i": "INDUSTRIAL", "h": "HILL", "w": "WATER"}
_HP = {UnitType.LIGHT_INFANTRY: 1, UnitType.MECHANIZED: 2, UnitType.SPECIAL: 2}
_TAGS = {
    UnitType.LIGHT_INFANTRY: {"infantry"},
    UnitType.MECHANIZED: {"infantry", "vehicle"},
    UnitType.SPECIAL: {"special", "move_or_fire"},
}
_STATS = {  # hp, movement_mp, range, damage: the rules' unit table (§3.1)
    UnitType.LIGHT_INFANTRY: {"hp": 1, "movement_mp": 2, "range": 2, "damage": 1},
    UnitType.MECHANIZED: {"hp": 2, "movement_mp": 4, "range": 3, "damage": 1},
    UnitType.SPECIAL: {"hp": 2, "movement_mp": 3, "range": 4, "damage": 1},
}


def _xy(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - ord("A"), int(cell[1:]) - 1


def _char(cell: str) -> str:
    x, y = _xy(cell)
    return MAP.split("\n")[y][x]


class World:
    """A random situation: the state, the effect's controller, a subject and an attack."""

    def __init__(
        self, state: GameState, controller: Side, subject: Unit, attacker: Unit, target: Unit, named: tuple[str, ...]
    ) -> None:
        self.state, self.controller, self.subject = state, controller, subject
        self.attacker, self.target, self.named = attacker, target, named
        ax, ay = _xy(attacker.cell or "A1")
        tx, ty = _xy(target.cell or "A1")
        self.distance = max(abs(ax - tx), abs(ay - ty))

    def context(self) -> Context:
        return Context(self.state, self.controller, self.subject, self.attacker, self.target, self.distance, self.named)


def reference(node: Condition, w: World, subject: Unit) -> bool:
    """The tree read directly: plain Python over the world, one case per fact."""

    def within(low: int | None, high: int | None, value: int) -> bool:
        return (low is None or value >= low) and (high is None or value <= high)

    match node:
        case AllOf(of=parts):
            return all(reference(p, w, subject) for p in parts)
        case AnyOf(of=parts):
            return any(reference(p, w, subject) for p in parts)
        case Not(of=part):
            return not reference(part, w, subject)
        case IsType(is_=types):
            return subject.type in types
        case HasTag(is_=tags):
            return bool(_TAGS[subject.type] & set(tags))
        case Owner(is_=owner):
            if owner == "controller":
                return subject.side == w.controller
            if owner == "opponent":
                return subject.side != w.controller
            return subject.side.value == owner
        case Damaged():
            return subject.hp < _HP[subject.type]
        case Moved():
            return subject.has_moved
        case Attacked():
            return subject.has_attacked
        case HpAtMost(value=value):
            return subject.hp <= value
        case StatAbove(stat=stat, value=value):
            return _STATS[subject.type][stat] > value
        case Targeted():
            return subject.id in w.named
        case OnTerrain(is_=terrains):
            return _CHARS.get(_char(subject.cell or "A1"), "PLAIN") in {t.value for t in terrains}
        case OnOverlay(is_=overlay):
            ch = _char(subject.cell or "A1")
            return ch in ("=", "#") if overlay == "road" else ch in ("~", "#")
        case InQuadrant(is_=quadrants):
            x, y = _xy(subject.cell or "A1")
            name = ("N" if y < 3 else "S") + ("W" if x < 3 else "E")
            return name in {q.value for q in quadrants}
        case Near(within=radius, unit=sub, at_least=count):
            sx, sy = _xy(subject.cell or "A1")
            found = [
                u
                for u in w.state.units
                if u.id != subject.id
                and u.cell is not None
                and max(abs(_xy(u.cell)[0] - sx), abs(_xy(u.cell)[1] - sy)) <= radius
                and reference(sub, w, u)
            ]
            return len(found) >= count
        case PhaseIs(is_=phases):
            return w.state.phase in phases
        case RoundIs(at_least=low, at_most=high):
            return within(low, high, (w.state.turn + 1) // 2)
        case ActiveIs(is_=who):
            return (w.state.active == w.controller) == (who == "controller")
        case Distance(at_least=low, at_most=high):
            return within(low, high, w.distance)
        case AttackerIs(is_=sub):
            return reference(sub, w, w.attacker)
        case TargetIs(is_=sub):
            return reference(sub, w, w.target)
    raise AssertionError(node)


CELLS = [f"{chr(ord('A') + x)}{y + 1}" for y in range(6) for x in range(6) if MAP.split("\n")[y][x] != "w"]

leaves = st.one_of(
    st.builds(IsType, is_=st.lists(st.sampled_from(list(UnitType)), min_size=1, max_size=2).map(tuple)),
    st.builds(
        HasTag, is_=st.lists(st.sampled_from(["infantry", "vehicle", "special"]), min_size=1, max_size=2).map(tuple)
    ),
    st.builds(Owner, is_=st.sampled_from(["controller", "opponent", "ATTACKER", "DEFENDER"])),
    st.just(Damaged()),
    st.just(Moved()),
    st.just(Attacked()),
    st.just(Targeted()),
    st.builds(HpAtMost, value=st.integers(0, 3)),
    st.builds(StatAbove, stat=st.sampled_from(["hp", "movement_mp", "range", "damage"]), value=st.integers(0, 4)),
    st.builds(OnTerrain, is_=st.lists(st.sampled_from(list(TerrainType)), min_size=1, max_size=3).map(tuple)),
    st.builds(OnOverlay, is_=st.sampled_from(["road", "river"])),
    st.builds(InQuadrant, is_=st.lists(st.sampled_from(list(Quadrant)), min_size=1, max_size=2).map(tuple)),
    st.builds(PhaseIs, is_=st.lists(st.sampled_from(list(Phase)), min_size=1, max_size=3).map(tuple)),
    st.builds(RoundIs, at_least=st.none() | st.integers(1, 6), at_most=st.none() | st.integers(1, 6)),
    st.builds(ActiveIs, is_=st.sampled_from(["controller", "opponent"])),
    st.builds(Distance, at_least=st.none() | st.integers(0, 5), at_most=st.none() | st.integers(0, 5)),
)


def _extend(children: st.SearchStrategy[Condition]) -> st.SearchStrategy[Condition]:
    many = st.lists(children, min_size=1, max_size=3).map(tuple)
    return st.one_of(
        st.builds(AllOf, of=many),
        st.builds(AnyOf, of=many),
        st.builds(Not, of=children),
        st.builds(AttackerIs, is_=children),
        st.builds(TargetIs, is_=children),
        st.builds(Near, within=st.integers(1, 6), unit=children, at_least=st.integers(1, 3)),
    )


trees = st.recursive(leaves, _extend, max_leaves=8)


@st.composite
def worlds(draw: st.DrawFn) -> World:
    count = draw(st.integers(2, 6))
    cells = draw(st.lists(st.sampled_from(CELLS), min_size=count, max_size=count, unique=True))
    specs = []
    for i, cell in enumerate(cells):
        side = "A" if i % 2 == 0 else "D"
        kind = draw(st.sampled_from("LMS"))
        hp = draw(st.integers(1, 2)) if kind != "L" else 1
        specs.append(f"{side}{i + 1} {kind} {cell} hp={hp}")
    state = start(units=specs, terrain=MAP, phase="ATTACK", draw=[])
    units = tuple(replace(u, has_moved=draw(st.booleans()), has_attacked=draw(st.booleans())) for u in state.units)
    state = replace(
        state,
        units=units,
        turn=draw(st.integers(1, 12)),
        active=draw(st.sampled_from(list(Side))),
        phase=draw(st.sampled_from(list(Phase))),
    )
    subject, attacker, target = (draw(st.sampled_from(units)) for _ in range(3))
    named = tuple(u.id for u in units if draw(st.booleans()))
    return World(state, draw(st.sampled_from(list(Side))), subject, attacker, target, named)


@settings(max_examples=300, deadline=None)
@given(tree=trees, world=worlds())
def test_a_compiled_tree_agrees_with_reading_the_tree_directly(tree: Condition, world: World) -> None:
    assert compile_condition(tree)(world.context()) == reference(tree, world, world.subject)


@settings(max_examples=200, deadline=None)
@given(tree=trees, first=worlds(), second=worlds())
def test_one_compiled_tree_asked_about_world_after_world_agrees_with_each(
    tree: Condition, first: World, second: World
) -> None:
    """What a compiled ``near`` keeps of the last units it counted is never read for other units."""
    pred = compile_condition(tree)
    for world in (first, second, first):
        assert pred(world.context()) == reference(tree, world, world.subject)


def test_a_kept_enemy_count_follows_an_enemy_stepping_into_and_out_of_the_radius() -> None:
    pred = compile_condition(Near(within=2, unit=Owner(is_="opponent"), at_least=2))
    state = start(units=("A1 M C3", "D1 L C5", "D2 L F6"), terrain=MAP, phase="MOVEMENT", draw=[])
    subject = state.units[0]
    assert not pred(Context(state, Side.ATTACKER, subject))
    closer = replace(state, units=(*state.units[:2], replace(state.units[2], cell="E4")))  # D2 within 2 of C3
    assert pred(Context(closer, Side.ATTACKER, subject))
    assert not pred(Context(closer, Side.DEFENDER, closer.units[1]))  # another controller: its own count
    away = replace(closer, units=closer.units[:2])  # D2 destroyed: one enemy left
    assert not pred(Context(away, Side.ATTACKER, subject))
    assert pred(Context(closer, Side.ATTACKER, subject))


def _in(world: World, state: GameState) -> Context:
    return Context(state, world.controller, world.subject, world.attacker, world.target, world.distance, world.named)


@settings(max_examples=300, deadline=None)
@given(tree=trees, world=worlds(), data=st.data())
def test_a_tree_that_noted_no_unit_or_game_fact_holds_the_same_when_those_change(
    tree: Condition, world: World, data: st.DataObject
) -> None:
    """`Context.read` is what caches rely on: what it leaves out must not change the result."""
    pred = compile_condition(tree)
    ctx = world.context()
    held = pred(ctx)
    if not ctx.read & READ_GAME:
        other = replace(
            world.state,
            turn=data.draw(st.integers(1, 12)),
            active=data.draw(st.sampled_from(list(Side))),
            phase=data.draw(st.sampled_from(list(Phase))),
        )
        assert pred(_in(world, other)) == held
    for side in Side:  # a side whose units it did not note may move them all
        if ctx.read & read_of_side(side):
            continue
        free = [c for c in CELLS if c not in {u.cell for u in world.state.units}]
        moved = tuple(
            u
            if u.id == world.subject.id or u.side is not side or not free
            else replace(u, cell=data.draw(st.sampled_from(free)))
            for u in world.state.units
        )
        other = replace(world.state, units=moved)
        assert pred(_in(world, other)) == held
    subject_cell = world.subject.cell
    if ctx.read & READ_UNITS and ctx.window < ANYWHERE and subject_cell is not None:
        # units it counted may move anywhere outside the window it noted, from outside it
        sx, sy = _xy(subject_cell)
        outside = [c for c in CELLS if max(abs(_xy(c)[0] - sx), abs(_xy(c)[1] - sy)) > ctx.window]
        free = [c for c in outside if c not in {u.cell for u in world.state.units}]
        moved = tuple(
            replace(u, cell=data.draw(st.sampled_from(free)), has_moved=not u.has_moved)
            if u.id != world.subject.id and u.cell in outside and free
            else u
            for u in world.state.units
        )
        if len({u.cell for u in moved}) == len(moved):
            assert pred(_in(world, replace(world.state, units=moved))) == held


@settings(max_examples=100, deadline=None)
@given(tree=trees)
def test_a_tree_round_trips_through_json_and_says_what_it_reads(tree: Condition) -> None:
    again = msgspec.json.decode(msgspec.json.encode(tree), type=Condition)
    assert again == tree
    assert describe(tree)  # every tree has words
    assert needs(tree) <= {"unit", "attack"}


def test_the_flat_fields_are_sugar_for_a_tree() -> None:
    flat = ConditionsDef(unit_types=(UnitType.MECHANIZED,), unit_tags=("vehicle",), min_distance=2)
    assert sugar(flat) == AllOf(of=(IsType(is_=(UnitType.MECHANIZED,)), HasTag(is_=("vehicle",)), Distance(at_least=2)))
    assert sugar(ConditionsDef()) is None
    assert sugar(ConditionsDef(target_unit="$target")) == TargetIs(is_=Targeted())


@settings(max_examples=100, deadline=None)
@given(world=worlds(), types=st.lists(st.sampled_from(list(UnitType)), max_size=2), low=st.none() | st.integers(1, 4))
def test_the_sugar_tree_selects_what_the_flat_fields_select(
    world: World, types: list[UnitType], low: int | None
) -> None:
    # The hooks read the flat fields directly (default-deck speed); their tree reads the same.
    flat = ConditionsDef(unit_types=tuple(types), min_distance=low)
    expected = (not types or world.attacker.type in types) and (low is None or world.distance >= low)
    tree = sugar(flat)
    got = True if tree is None else compile_condition(tree)(world.context().about(world.attacker))
    assert got == expected


def test_every_condition_is_named_in_the_language() -> None:
    assert len(CONDITION_NAMES) == len(set(CONDITION_NAMES)) == 26
    assert {"all", "any", "not", "near", "terrain", "round", "target"} <= set(CONDITION_NAMES)


# Bad card data: refused at load with the card id and the field's path -------------------------

GOOD: dict[str, Any] = json.loads(VARIANT.read_text())["common"][0]  # forest_ambush


def refused(change: Any) -> str:
    card = copy.deepcopy(GOOD)
    change(card["effects"][0])
    with pytest.raises(CardDataError) as err:
        load_cards(json.dumps({"common": [card], "tactics": []}).encode())
    return str(err.value)


@pytest.mark.parametrize(
    ("change", "words", "path"),
    [
        (lambda e: e.update(when={"if": "sunny"}), "unknown condition 'sunny'", "effects[0].when.if"),
        (lambda e: e.update(when={"if": "all", "of": []}), "wrong arity: 'all' and 'any'", "effects[0].when.of"),
        (lambda e: e.update(when={"if": "any", "of": []}), "wrong arity", "effects[0].when.of"),
        (lambda e: e.update(when={"if": "not", "of": [{"if": "moved"}]}), "'not' takes one", "effects[0].when.of"),
        (lambda e: e.update(when={"if": "distance", "at_least": 2}), "has no attack to read", "effects[0].when"),
        (lambda e: e.update(faces=[6]), "does not act on natural values", "effects[0].faces"),
        (
            lambda e: e.update(hook="modify_max_moves", scope="controller", aura={"radius": 1}, when=None),
            "no unit for an aura",
            "effects[0].aura",
        ),
        (lambda e: e.update(aura={"radius": 7}), "<= 6", "effects[0].aura.radius"),
        (lambda e: e.update(aura={"radius": 0}), ">= 1", "effects[0].aura.radius"),
        (
            lambda e: e.update(when={"if": "near", "within": 9, "unit": {"if": "moved"}}),
            "<= 6",
            "effects[0].when.within",
        ),
        (
            lambda e: e.update(hook="reroll_attack_die", op="reroll", scope="own_attacks", faces=[7], when=None),
            "<= 6",
            "effects[0].faces[0]",
        ),
        (
            lambda e: e.update(hook="reroll_attack_die", op="reroll", scope="own_attacks", faces=[0], when=None),
            ">= 1",
            "effects[0].faces[0]",
        ),
        (
            lambda e: e.update(hook="natural_result", op="hit", scope="own_attacks", when=None),
            "needs the natural values",
            "effects[0].faces",
        ),
        (
            lambda e: e.update(hook="ignore_hit", op="save", scope="own_units", value=7),
            "N in 2..6",
            "effects[0].value",
        ),
    ],
)
def test_bad_card_data_is_refused_with_the_card_and_the_path(change: Any, words: str, path: str) -> None:
    message = refused(change)
    assert message.startswith("card 'forest_ambush': ")
    assert words in message
    assert path in message


def test_a_file_check_reports_every_bad_card_with_its_path_in_the_file() -> None:
    data = json.loads(VARIANT.read_text())
    data["common"][1]["effects"][0]["when"] = {"if": "nope"}
    data["common"][4]["effects"][0]["faces"] = [9]
    problems = card_file_problems(json.dumps(data).encode())
    assert [p.split(":")[0] for p in problems] == ["$.common[1].effects[0].when.if", "$.common[4].effects[0].faces[0]"]
    assert card_file_problems(VARIANT.read_bytes()) == []


def test_every_shipped_card_explains_itself() -> None:
    for card in CARDS.values():
        for index in range(len(card.effects)):
            assert clause_text(card, index).startswith(f"{card.name}: ")
    assert clause_text(CARDS["forest_ambush"], 0) == "Forest Ambush: infantry in forest, +1 defense"
