"""Movement allowances kept across states agree with the rule folded afresh (engine/allowance.py)."""

from __future__ import annotations

from engine import GameConfig, GameState, Hook, Side, Unit, draw_index, legal_actions, new_game, reduce
from engine.analysis import add_card_effects, movement_allowance
from engine.board.info import board_info
from engine.cards.catalogue import CARDS
from engine.cards.condition_rules import Context
from engine.cards.language import rule_of
from engine.data import DECK_SOURCES
from engine.tables import UNITS, unit_stats
from tests.support import replace
from tests.support import start as start_with

STANDARD = {card.id for card in DECK_SOURCES["standard"][0]}
VARIANT = tuple(card for card in DECK_SOURCES["field_manual"][0] if card.id not in STANDARD)


def folded(state: GameState, unit: Unit) -> int:
    """The allowance straight from rules §5.2 and the effects, nothing kept."""
    allowance = 2 * unit_stats(unit.type, state.rules.tables).movement_mp
    halvings = 0
    for effect in state.effects:
        if effect.hook is not Hook.MODIFY_MOVEMENT:
            continue
        scope = effect.scope
        if scope == "own_units" and unit.side is not effect.controller:
            continue
        if scope == "enemy_units" and unit.side is effect.controller:
            continue
        if scope == "targets" and unit.id not in effect.targets:
            continue
        cond = effect.conditions
        if cond.unit_types and unit.type not in cond.unit_types:
            continue
        if cond.unit_tags and not set(cond.unit_tags) & set(UNITS[unit.type].tags):
            continue
        if cond.clause is not None:
            rule = rule_of(CARDS[effect.source_card], cond.clause)
            if not rule(Context(state, effect.controller, unit, named=effect.targets)):
                continue
        if effect.op == "add":
            allowance += effect.value
        else:
            halvings += 1
    for _ in range(halvings):
        allowance //= 2
    return max(0, allowance)


def with_variant(state: GameState) -> GameState:
    """Every variant card in play, by alternating sides, aimed at a unit of its player."""
    for i, card in enumerate(VARIANT):
        side = Side.ATTACKER if i % 2 == 0 else Side.DEFENDER
        own = [u.id for u in state.units if u.side is side and u.cell is not None]
        aimed = card.targeting.kind != "none" and bool(own)
        state, _ = add_card_effects(state, card, side, tuple(own[:1]) if aimed else ())
    return state


def positions(seed: int) -> list[GameState]:
    """The states of one random game with the variant cards in play, sharing effects tuples as a game does."""
    state, choice = new_game(GameConfig(seed=seed)), seed
    found: list[GameState] = []
    last_base: object = None
    last: tuple[object, ...] = ()
    while legal := legal_actions(state):
        varied = with_variant(state)
        if state.effects is last_base and varied.effects == last:
            varied = replace(varied, effects=last)
        last_base, last = state.effects, varied.effects
        found.append(varied)
        index, choice = draw_index(len(legal), choice)
        state = reduce(state, legal[index])
    return found


def test_kept_allowances_agree_with_the_rule_folded_afresh_along_games() -> None:
    asked = 0
    for seed in (1, 2):
        for state in positions(seed):
            placed = [u for u in state.units if u.cell is not None]
            for unit in placed:
                assert movement_allowance(state, unit) == folded(state, unit), (seed, state.actions_taken, unit)
                asked += 1
            for unit in reversed(placed):  # asked again: now from what was kept
                assert movement_allowance(state, unit) == folded(state, unit)
    assert asked > 1000


def test_a_unit_changed_off_state_is_asked_afresh() -> None:
    state = next(s for s in positions(3) if any(u.cell is not None for u in s.units))
    unit = next(u for u in state.units if u.cell is not None)
    assert movement_allowance(state, unit) == folded(state, unit)
    info = board_info(state.board)
    taken = {u.cell for u in state.units}
    for label in info.labels[:: max(1, info.size // 40)]:  # the same unit elsewhere, as a preview asks it
        if label not in taken:
            moved = replace(unit, cell=label)
            assert movement_allowance(state, moved) == folded(state, moved)


def test_the_cells_within_a_radius_are_the_chebyshev_window() -> None:
    info = board_info(new_game(GameConfig(seed=1)).board)
    for label in (info.labels[0], info.labels[info.size // 2], info.labels[-1]):
        x, y = info.xy(info.index[label])
        for radius in (1, 3):
            expected = {
                info.labels[i]
                for i in range(info.size)
                if max(abs(info.xy(i)[0] - x), abs(info.xy(i)[1] - y)) <= radius
            }
            assert info.within(label, radius) == expected
            assert info.within(label, radius) is info.within(label, radius)  # built once


def test_an_enemy_count_holds_while_only_its_own_side_moves_and_is_asked_again_when_an_enemy_moves() -> None:
    encircled = next(card for card in VARIANT if card.id == "encircled")
    state = next(s for s in positions(1) if any(u.type.value == "MECHANIZED" and u.cell for u in s.units))
    state = replace(state, effects=())
    unit = next(u for u in state.units if u.type.value == "MECHANIZED" and u.cell is not None)
    state, _ = add_card_effects(state, encircled, unit.side, ())
    info = board_info(state.board)
    full = 2 * unit_stats(unit.type, state.rules.tables).movement_mp

    def moved(state: GameState, who: Unit, cell: str) -> GameState:
        return replace(state, units=tuple(replace(u, cell=cell) if u.id == who.id else u for u in state.units))

    def free(state: GameState, cells: frozenset[str]) -> list[str]:
        taken = {u.cell for u in state.units}
        return sorted(c for c in cells if c not in taken)

    assert unit.cell is not None
    near = info.within(unit.cell, 2)
    enemies = [u for u in state.units if u.side is not unit.side and u.cell is not None]
    for enemy in enemies[:2]:  # two enemies come within 3: Encircled takes hold
        state = moved(state, enemy, free(state, near)[0])
    assert movement_allowance(state, unit) == folded(state, unit) < full
    friend = next(u for u in state.units if u.side is unit.side and u.id != unit.id and u.cell is not None)
    far = frozenset(info.labels) - info.within(unit.cell, 4)
    state = moved(state, friend, free(state, far)[0])  # its own side moves: the count stands
    assert movement_allowance(state, unit) == folded(state, unit) < full
    state = moved(state, enemies[0], free(state, far)[-1])  # an enemy leaves: asked again
    assert movement_allowance(state, unit) == folded(state, unit) == full


def test_the_remembered_comparison_of_two_unit_tuples_answers_for_the_side_asked() -> None:
    from engine.cards.condition_rules import READ_ATTACKERS, READ_DEFENDERS, READ_UNITS
    from engine.movement.allowance import _changed
    from tests.support import start

    then = start(units=("A1 L B2", "D1 L B8")).units
    now = (then[0], replace(then[1], cell="C8"))  # only the defender moved
    assert _changed(then, now, READ_ATTACKERS) == ()
    assert _changed(then, now, READ_DEFENDERS) == ("B8", "C8")
    assert _changed(then, now, READ_ATTACKERS) == ()
    assert _changed(then, now, READ_UNITS) == ("B8", "C8")
    assert _changed(then, then[:1], READ_ATTACKERS) is None  # a unit left: they no longer line up


def test_a_count_within_a_radius_holds_while_the_units_it_counts_move_outside_it() -> None:
    from engine.cards.condition_rules import ANYWHERE, READ_DEFENDERS
    from engine.movement.allowance import units_unchanged
    from tests.support import start

    state = start(units=("A1 M E5", "D1 L J10", "D2 L B8"))
    info = board_info(state.board)
    then = state.units

    def after(cell: str, who: int = 1) -> tuple[Unit, ...]:
        return tuple(replace(u, cell=cell) if i == who else u for i, u in enumerate(then))

    assert units_unchanged(then, after("J9"), READ_DEFENDERS, "E5", 3, info)  # far from E5, before and after
    assert not units_unchanged(then, after("H7"), READ_DEFENDERS, "E5", 3, info)  # steps into the radius
    assert not units_unchanged(then, after("J9"), READ_DEFENDERS, "E5", ANYWHERE, info)  # a count of all of them
    inside = after("F6")
    assert not units_unchanged(inside, after("J9"), READ_DEFENDERS, "E5", 3, info)  # steps out of it
    renewed = tuple(replace(u, has_moved=True) if u.id == "D2" else u for u in then)
    assert units_unchanged(then, renewed, READ_DEFENDERS, "E5", 2, info)  # changed, but far away
    assert not units_unchanged(then, renewed, READ_DEFENDERS, "C7", 2, info)  # the same change, near C7
    assert not units_unchanged(then, then[:2], READ_DEFENDERS, "E5", 3, info)  # D2 destroyed: asked again


def test_an_enemy_count_is_kept_while_enemies_move_outside_its_radius() -> None:
    encircled = next(card for card in VARIANT if card.id == "encircled")
    state = start_with(units=("A1 M E5", "A2 L A1", "D1 L F6", "D2 L D4", "D3 L J10"), phase="MOVEMENT")
    state, _ = add_card_effects(state, encircled, Side.ATTACKER, ())
    a1 = state.units[0]
    full = 2 * unit_stats(a1.type, state.rules.tables).movement_mp
    assert movement_allowance(state, a1) == folded(state, a1) == full - 2  # two enemies within 3

    def moved(state: GameState, unit_id: str, cell: str) -> GameState:
        return replace(state, units=tuple(replace(u, cell=cell) if u.id == unit_id else u for u in state.units))

    state = moved(state, "D3", "J9")  # an enemy moves far away: the count is kept, and right
    assert movement_allowance(state, a1) == folded(state, a1) == full - 2
    state = moved(state, "D2", "J2")  # an enemy leaves the radius
    assert movement_allowance(state, a1) == folded(state, a1) == full
    state = moved(state, "D3", "G7")  # another enters it
    assert movement_allowance(state, a1) == folded(state, a1) == full - 2
    state = replace(state, units=tuple(u for u in state.units if u.id != "D1"))  # one is destroyed
    assert movement_allowance(state, a1) == folded(state, a1) == full
