"""`engine.move_lists`: a unit's kept moves are never stale.

Each test lists a position (so the unit's derivation is kept), changes one thing the
moves depend on while keeping the very Unit objects, and checks the listing against one
made with every cache emptied, and against the rule itself.
"""

from __future__ import annotations

import msgspec

from engine import GameConfig, MoveUnit, legal_actions, new_game, reduce
from engine.state import Effect, GameState
from engine.types import Hook, Side
from tests.support import effect, fresh_listing, play, start

A = Side.ATTACKER


def _moves(state: GameState, unit_id: str) -> set[str]:
    return {a.to for a in legal_actions(state) if isinstance(a, MoveUnit) and a.unit_id == unit_id}


def _with(state: GameState, *effects: Effect) -> GameState:
    """``state`` (a new object, the same Unit objects) holding exactly ``effects``."""
    return msgspec.structs.replace(state, effects=effects, next_effect_id=len(effects) + 1)


def _listed(state: GameState) -> GameState:
    """List ``state`` (its units' derivations are kept) and return it."""
    legal_actions(state)
    return state


def test_an_effect_that_adds_movement_widens_the_kept_moves_of_the_same_unit_object() -> None:
    state = _listed(start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT"))
    before = _moves(state, "A1")
    faster = _with(state, effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units"))  # +1 MP
    assert faster.units[0] is state.units[0]
    assert _moves(faster, "A1") > before
    assert legal_actions(faster) == fresh_listing(faster)


def test_an_effect_ending_returns_the_unit_to_its_own_allowance() -> None:
    state = start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT")
    own = _moves(state, "A1")
    _listed(_with(state, effect(Hook.MODIFY_MOVEMENT, "add", 4, scope="own_units")))  # kept with the wider allowance
    again = _with(state)  # no movement effect any more: the allowance is the unit type's again
    assert _moves(again, "A1") == own
    assert legal_actions(again) == fresh_listing(again)


def test_a_card_that_forbids_moving_removes_the_kept_moves() -> None:
    state = _listed(start(units=("A1 L E5", "A2 L B2", "D1 L J10"), phase="MOVEMENT"))
    assert _moves(state, "A1")
    stuck = _with(state, effect(Hook.CAN_MOVE_UNIT, "deny", scope="targets", targets=("A1",)))
    assert not _moves(stuck, "A1") and _moves(stuck, "A2")
    assert legal_actions(stuck) == fresh_listing(stuck)


def test_a_unit_destroyed_between_listings_frees_its_cell_for_the_others() -> None:
    state = _listed(start(units=("A1 L E5", "D1 L F5", "D2 L J10"), phase="MOVEMENT"))
    assert "F5" not in _moves(state, "A1")
    gone = msgspec.structs.replace(state, units=tuple(u for u in state.units if u.id != "D1"))
    assert "F5" in _moves(gone, "A1")
    assert legal_actions(gone) == fresh_listing(gone)


def test_a_move_next_to_a_unit_changes_its_kept_moves_and_the_listing_matches_a_fresh_one() -> None:
    state = start(units=("A1 L E5", "A2 L H5", "D1 L J10"), phase="MOVEMENT")
    assert "F5" in _moves(state, "A1")
    after = play(state, MoveUnit(unit_id="A2", to="F5"))
    assert "F5" not in _moves(after, "A1")
    assert legal_actions(after) == fresh_listing(after)
    back = msgspec.structs.replace(after, units=state.units)  # the unit objects of the first position again
    assert "F5" in _moves(back, "A1")


def test_the_same_unit_objects_on_another_board_are_derived_for_that_board() -> None:
    state = _listed(start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT"))
    assert "G5" in _moves(state, "A1")
    walled = start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT", terrain="\n".join([".....w...."] * 10))
    moved = msgspec.structs.replace(state, board=walled.board)  # a wall of water on column F
    assert moved.units[0] is state.units[0]
    assert not {cell for cell in _moves(moved, "A1") if cell[0] >= "F"}
    assert legal_actions(moved) == fresh_listing(moved)


def test_a_random_game_lists_what_a_fresh_listing_lists_at_every_position() -> None:
    state = new_game(GameConfig(seed=5))
    rng = 12345
    for _ in range(400):
        legal = legal_actions(state)
        if not legal:
            break
        assert legal == fresh_listing(state)
        rng = (rng * 1103515245 + 12345) % 2**31
        state = reduce(state, legal[rng % len(legal)])


def test_listings_with_every_variant_card_in_play_agree_with_fresh_ones_along_a_game() -> None:
    from tests.engine.test_allowance import positions

    listed = 0
    for state in positions(4)[:400]:
        kept = legal_actions(state)
        assert kept == fresh_listing(state)
        listed += 1
        legal_actions(state)  # kept again for the next position, as a game does
    assert listed > 100


def test_an_allowance_that_counts_enemies_is_asked_again_when_an_enemy_comes_near() -> None:
    from engine.analysis import add_card_effects
    from engine.data import DECK_SOURCES

    encircled = next(card for card in DECK_SOURCES["field_manual"][0] if card.id == "encircled")
    state = start(units=("A1 M E5", "D1 L J10", "D2 L J9"), phase="MOVEMENT")
    state, _ = add_card_effects(state, encircled, Side.ATTACKER, ())
    free = _moves(state, "A1")  # listed: kept under this effects tuple
    cells = {"D1": "G5", "D2": "G6"}
    near = msgspec.structs.replace(
        state, units=tuple(msgspec.structs.replace(u, cell=cells[u.id]) if u.id in cells else u for u in state.units)
    )
    assert near.effects is state.effects and near.units[0] is state.units[0]
    assert _moves(near, "A1") < free  # two enemies within 3: Encircled takes hold
    assert legal_actions(near) == fresh_listing(near)


def test_a_movement_effect_that_says_something_else_is_asked_again_for_the_same_unit_object() -> None:
    state = start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT")
    plus_one = _listed(_with(state, effect(Hook.MODIFY_MOVEMENT, "add", 2, scope="own_units")))
    plus_two = _with(state, effect(Hook.MODIFY_MOVEMENT, "add", 4, scope="own_units"))
    counted_down = _with(state, msgspec.structs.replace(plus_one.effects[0], remaining_turn_ends=3))
    assert _moves(plus_two, "A1") > _moves(plus_one, "A1")
    assert _moves(counted_down, "A1") == _moves(plus_one, "A1")  # a countdown alone changes no allowance
    assert legal_actions(plus_two) == fresh_listing(plus_two)


def test_an_allowance_that_reads_the_terrain_is_asked_again_on_another_board() -> None:
    from engine.analysis import add_card_effects
    from engine.data import DECK_SOURCES

    road_march = next(card for card in DECK_SOURCES["field_manual"][0] if card.id == "road_march")
    road = "\n".join(["=" * 10 if y == 4 else "." * 10 for y in range(10)])
    state = start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT", terrain=road)
    state, _ = add_card_effects(state, road_march, Side.ATTACKER, ())
    on_road = _moves(state, "A1")  # kept with Road March's extra MP
    plain = msgspec.structs.replace(state, board=start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT").board)
    assert plain.units[0] is state.units[0] and plain.effects is state.effects
    assert _moves(plain, "A1") < on_road  # no road under it: no extra MP
    assert legal_actions(plain) == fresh_listing(plain)


def test_a_derivation_made_again_for_a_moved_neighbour_keeps_its_allowance_until_an_enemy_comes_near() -> None:
    from engine.analysis import add_card_effects
    from engine.data import DECK_SOURCES

    encircled = next(card for card in DECK_SOURCES["field_manual"][0] if card.id == "encircled")
    state = start(units=("A1 M E5", "A2 L E8", "D1 L J10", "D2 L J9"), phase="MOVEMENT")
    state, _ = add_card_effects(state, encircled, Side.ATTACKER, ())
    free = _moves(state, "A1")  # listed: A1's allowance is kept with its derivation

    def placed(state: GameState, **cells: str) -> GameState:
        units = tuple(msgspec.structs.replace(u, cell=cells[u.id]) if u.id in cells else u for u in state.units)
        return msgspec.structs.replace(state, units=units)

    blocked = placed(state, A2="E6")  # a friend steps into A1's search: derived again, allowance kept
    assert blocked.units[0] is state.units[0]
    assert "E6" not in _moves(blocked, "A1") and "E6" in free and "E8" in _moves(blocked, "A1")
    assert legal_actions(blocked) == fresh_listing(blocked)
    legal_actions(blocked)  # kept again, from the cache-emptied listing
    far = placed(blocked, D1="J2")  # an enemy moves far from A1: its count stands
    assert legal_actions(far) == fresh_listing(far)
    legal_actions(far)
    near = placed(far, D1="G5", D2="G6")  # two enemies within 3 of A1: Encircled takes hold
    assert _moves(near, "A1") < _moves(far, "A1")
    assert legal_actions(near) == fresh_listing(near)
