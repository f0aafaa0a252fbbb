"""`engine.condition_kinds`: the kinds a tree holds for, and the kinds it may hold for."""

from __future__ import annotations

from hypothesis import given, settings

from engine import Side, UnitType
from engine.cards.condition_kinds import kinds, may_hold_for
from engine.cards.conditions import AllOf, AnyOf, Condition, IsType, Near, Not, OnOverlay, Owner
from engine.data import compile_condition
from tests.engine.test_conditions import World, reference, trees, worlds


@settings(max_examples=300, deadline=None)
@given(tree=trees, world=worlds())
def test_a_tree_never_holds_for_a_kind_it_may_not_hold_for(tree: Condition, world: World) -> None:
    subject = world.subject
    if not may_hold_for(tree, world.controller, subject.side, subject.type):
        assert not compile_condition(tree)(world.context())
        assert not reference(tree, world, subject)


@settings(max_examples=300, deadline=None)
@given(tree=trees, world=worlds())
def test_the_exact_kinds_of_a_tree_are_those_it_holds_for(tree: Condition, world: World) -> None:
    found = kinds(tree)
    if found is not None:
        subject = world.subject
        held = (subject.side, subject.type) in found[world.controller]
        assert held == reference(tree, world, subject)


def test_encircled_may_hold_only_for_mechanized_units_of_its_controller() -> None:
    encircled = AllOf(
        of=(IsType(is_=(UnitType.MECHANIZED,)), Near(within=3, unit=Owner(is_="opponent"), at_least=2))
    )
    a, d = Side.ATTACKER, Side.DEFENDER
    assert may_hold_for(encircled, a, a, UnitType.MECHANIZED)
    assert not may_hold_for(encircled, a, a, UnitType.LIGHT_INFANTRY)
    assert may_hold_for(OnOverlay(is_="road"), a, d, UnitType.SPECIAL)  # a cell fact: any kind may stand there
    assert may_hold_for(AnyOf(of=(IsType(is_=(UnitType.SPECIAL,)), OnOverlay(is_="road"))), a, a, UnitType.MECHANIZED)
    assert not may_hold_for(Not(of=Owner(is_="controller")), a, a, UnitType.SPECIAL)
    assert may_hold_for(Not(of=OnOverlay(is_="road")), a, a, UnitType.SPECIAL)
    assert kinds(encircled) is None and kinds(Owner(is_="opponent")) is not None
