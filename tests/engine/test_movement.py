"""Movement (§5): step costs, reachability, limits and MOVE_UNIT's reasons."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    GameConfig,
    IllegalAction,
    MoveUnit,
    Phase,
    legal_actions,
    new_game,
    reduce,
)
from engine.board.grid import chebyshev
from engine.data import label
from engine.movement.search import reachable_cells
from engine.state import Conditions, Effect
from engine.types import Hook, Side, UnitType
from tests.support import OPEN_10, abilities, config, fresh_listing, play, replace, snapshot, start, unit


def reach(state: object, unit_id: str) -> set[str]:
    return {m.to for m in legal_actions(state) if isinstance(m, MoveUnit) and m.unit_id == unit_id}  # type: ignore[arg-type]


def test_light_infantry_reaches_every_cell_within_two_on_open_plain() -> None:
    state = start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT")
    cells = reach(state, "A1")
    assert len(cells) == 24
    assert all(chebyshev(state.board.cell_of(c), (4, 4)) <= 2 for c in cells)


def test_a_straight_road_carries_light_infantry_four_cells() -> None:
    terrain = "\n".join([".........."] * 4 + ["=========="] + [".........."] * 5)
    state = start(terrain=terrain, units=("A1 L A5", "D1 L J10"), phase="MOVEMENT")
    cells = reach(state, "A1")
    assert {"B5", "C5", "D5", "E5"} <= cells and "F5" not in cells
    # leaving the road pays full price: C5 costs 1 MP, then a plain step to D4 costs 1 MP more
    assert _cost(state, "A1", "C5") == 2 and _cost(state, "A1", "D4") == 4
    assert "E4" not in cells


def test_diagonal_steps_between_road_cells_get_no_discount() -> None:
    rows = ["." * 10 for _ in range(10)]
    for i in range(5):
        rows[i] = "." * i + "=" + "." * (9 - i)
    state = start(terrain="\n".join(rows), units=("A1 L A1", "D1 L J10"), phase="MOVEMENT")
    assert "C3" in reach(state, "A1") and "D4" not in reach(state, "A1")


RIVER = "\n".join(["....~....."] * 10)


def test_light_infantry_can_never_ford_a_river() -> None:
    state = start(terrain=RIVER, units=("A1 L D2", "D1 L J10"), phase="MOVEMENT")
    assert not any(c.startswith(("E", "F")) for c in reach(state, "A1"))


def test_a_bridge_lets_light_infantry_cross() -> None:
    terrain = "\n".join(["....~....."] * 4 + ["====#====="] + ["....~....."] * 5)
    state = start(terrain=terrain, units=("A1 L D5", "D1 L J10"), phase="MOVEMENT")
    assert {"E5", "F5", "G5"} <= reach(state, "A1")  # road discount holds on the bridge
    assert "E4" not in reach(state, "A1")  # the river beside the bridge is still a river


def test_mechanized_fords_a_one_cell_river_and_steps_out() -> None:
    state = start(terrain=RIVER, units=("A7 M D2", "D1 L J10"), phase="MOVEMENT")
    cells = reach(state, "A7")
    assert "E2" in cells and "F2" in cells and "G2" not in cells


def test_special_enters_a_river_but_cannot_leave_it_in_the_same_move() -> None:
    state = start(terrain=RIVER, units=("A10 S D2", "D1 L J10"), phase="MOVEMENT")
    cells = reach(state, "A10")
    assert "E2" in cells and "F2" not in cells


def test_following_a_river_costs_one_extra_mp() -> None:
    state = start(terrain=RIVER, units=("A7 M E2", "D1 L J10"), phase="MOVEMENT")
    found = reachable_cells(state, unit(state, "A7"))
    index = {name: i for i, name in enumerate(_labels(state))}
    assert found[index["E3"]] == 4  # 1 MP plain + 1 MP following = 2 MP = 4 half-points
    assert found[index["E4"]] == 8
    assert index["E5"] not in found


def _labels(state: object) -> list[str]:
    from engine.board.info import board_info

    return list(board_info(state.board).labels)  # type: ignore[attr-defined]


def test_water_is_never_entered() -> None:
    terrain = "\n".join(["....w....."] * 10)
    state = start(terrain=terrain, units=("A7 M D2", "D1 L J10"), phase="MOVEMENT")
    assert not any(c.startswith("E") for c in reach(state, "A7"))


def test_no_diagonal_slip_between_two_barrier_corners() -> None:
    terrain = "\n".join([".........."] * 3 + ["....w....."] + ["...w......"] + [".........."] * 5)
    state = start(terrain=terrain, units=("A7 M D4", "D1 L J10"), phase="MOVEMENT")
    assert _cost(state, "A7", "E5") == 6  # around the corner: D4 → E3 → F4 → E5, not the 1 MP diagonal
    state = start(terrain=terrain, units=("A1 L D4", "D1 L J10"), phase="MOVEMENT")
    assert "E5" not in reach(state, "A1")
    rivers = terrain.replace("w", "~")
    state = start(terrain=rivers, units=("A7 M D4", "D1 L J10"), phase="MOVEMENT")
    assert _cost(state, "A7", "E5") == 6
    one_corner = terrain.replace("...w......", "..........")
    state = start(terrain=one_corner, units=("A7 M D4", "D1 L J10"), phase="MOVEMENT")
    assert _cost(state, "A7", "E5") == 2  # a single barrier corner does not block the diagonal


def _cost(state: object, unit_id: str, cell: str) -> int:
    index = _labels(state).index(cell)
    return reachable_cells(state, unit(state, unit_id))[index]  # type: ignore[arg-type]


def test_units_never_pass_through_other_units() -> None:
    terrain = "\n".join(["..w......."] * 4 + ["=========="] + ["..w......."] * 5)
    state = start(terrain=terrain, units=("A1 L A5", "A2 L B5", "D1 L J10"), phase="MOVEMENT")
    # C5 is the only gap in the water wall, but A2 blocks the road at B5: A1 must go round through B4/B6
    assert "B5" not in reach(state, "A1")
    assert all(not c.startswith(("D", "E")) for c in reach(state, "A1"))


def test_enemy_units_block_too() -> None:
    state = start(units=("A1 L B2", "D1 L C2"), phase="MOVEMENT")
    assert "C2" not in reach(state, "A1")


def test_forest_costs_two_mp() -> None:
    terrain = "\n".join([".........."] * 4 + ["....ff...."] + [".........."] * 5)
    state = start(terrain=terrain, units=("A1 L D5", "D1 L J10"), phase="MOVEMENT")
    assert "E5" in reach(state, "A1") and "F5" not in reach(state, "A1")


def test_each_unit_moves_once_per_turn() -> None:
    state = play(start(units=("A1 L B2", "D1 L J10"), phase="MOVEMENT"), MoveUnit(unit_id="A1", to="B3"))
    assert unit(state, "A1").has_moved and state.moves_this_turn == 1
    assert reach(state, "A1") == set()
    with pytest.raises(IllegalAction, match="A1 has already moved this turn") as caught:
        reduce(state, MoveUnit(unit_id="A1", to="B4"))
    assert caught.value.code == "already_moved"


def test_at_most_five_units_move_per_turn() -> None:
    cells = ["A1", "C1", "E1", "G1", "I1", "A3"]
    state = start(units=(*tuple(f"A{i + 1} L {c}" for i, c in enumerate(cells)), "D1 L J10"), phase="MOVEMENT")
    for i in range(5):
        state = play(state, MoveUnit(unit_id=f"A{i + 1}", to=cells[i][0] + "2"))
    assert not any(isinstance(a, MoveUnit) for a in legal_actions(state))
    with pytest.raises(IllegalAction, match="you have moved 5 of 5 units this turn"):
        reduce(state, MoveUnit(unit_id="A6", to="A4"))


def test_move_unit_rejections_name_the_problem() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="MOVEMENT")
    before = snapshot(state)
    cases = [
        (MoveUnit(unit_id="A5", to="B3"), "there is no unit A5", "unknown_unit"),
        (MoveUnit(unit_id="D1", to="B7"), "D1 belongs to DEFENDER", "not_your_unit"),
        (MoveUnit(unit_id="A1", to="Z99"), "Z99 is off the board", "off_board"),
        (MoveUnit(unit_id="A1", to="B5"), r"B5 is not reachable for A1 from B2 \(allowance 2 MP", "unreachable"),
        (MoveUnit(unit_id="A1", to="B2"), "B2 is not reachable", "unreachable"),
    ]
    for action, message, code in cases:
        with pytest.raises(IllegalAction, match=message) as caught:
            reduce(state, action)
        assert caught.value.code == code
    assert snapshot(state) == before


def test_a_denied_unit_cannot_move() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="MOVEMENT")
    deny = Effect(
        effect_id=1,
        play_id=1,
        source_card="enemy_disinformation",
        source_kind="malus",
        controller=Side.ATTACKER,
        hook=Hook.CAN_MOVE_UNIT,
        op="deny",
        value=0,
        scope="targets",
        targets=("A1",),
        remaining_turn_ends=1,
    )
    state = replace(state, effects=(deny,))
    assert reach(state, "A1") == set()
    with pytest.raises(IllegalAction, match="A1 cannot move this turn") as caught:
        reduce(state, MoveUnit(unit_id="A1", to="B3"))
    assert caught.value.code == "cannot_move"


def test_allowance_never_goes_negative() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="MOVEMENT")
    slow = Effect(
        effect_id=1,
        play_id=1,
        source_card="supply_interruption",
        source_kind="malus",
        controller=Side.ATTACKER,
        hook=Hook.MODIFY_MOVEMENT,
        op="add",
        value=-10,
        scope="own_units",
        conditions=Conditions(),
        remaining_turn_ends=1,
    )
    assert reach(replace(state, effects=(slow,)), "A1") == set()


def test_moves_are_listed_in_unit_then_cell_order() -> None:
    state = start(units=("A1 L B2", "A7 M C2", "D1 L J10"), phase="MOVEMENT")
    moves = [a for a in legal_actions(state) if isinstance(a, MoveUnit)]
    keys = [(int(m.unit_id[1:]), state.board.cell_of(m.to)[::-1]) for m in moves]
    assert keys == sorted(keys)


def test_a_move_event_reports_the_cheapest_cost() -> None:
    state = play(start(units=("A7 M B2", "D1 L J10"), phase="MOVEMENT"), MoveUnit(unit_id="A7", to="E2"))
    moved = [e for e in state.events if e.kind == "unit_moved"]
    assert moved and (moved[0].from_cell, moved[0].cell, moved[0].value) == ("B2", "E2", 6)
    assert unit(state, "A7").cell == "E2" and state.phase is Phase.MOVEMENT


def test_step_cost_abilities_add_cost_or_block() -> None:
    muddy = {
        "id": "mud",
        "unit": "MECHANIZED",
        "hook": "step_cost",
        "op": "add",
        "value": 0.5,
        "when": {"if": "terrain_tag", "is": ["open"]},
    }
    state = new_game(config(unit_specs=("A7 M E5", "D1 L J10"), phase="MOVEMENT", rules=abilities(muddy)))
    assert max(chebyshev(state.board.cell_of(c), (4, 4)) for c in reach(state, "A7")) == 2  # 1.5 MP a step
    wall = {"id": "no_forest", "hook": "step_cost", "op": "block", "when": {"if": "terrain_tag", "is": ["cover"]}}
    terrain = "\n".join(["....f....."] * 10)
    state = new_game(
        config(terrain=terrain, unit_specs=("A7 M D5", "D1 L J10"), phase="MOVEMENT", rules=abilities(wall))
    )
    assert not any(c.startswith(("E", "F")) for c in reach(state, "A7"))


def test_a_default_config_game_uses_the_move_rules_of_its_map() -> None:
    state = new_game(GameConfig(seed=3, terrain=OPEN_10.replace(".", "f")))
    assert state.phase is Phase.CARD_DRAW


def _least_costs(steps: object, start: int, allowance: int, occupied: frozenset[int]) -> dict[int, int]:
    """A plain heap Dijkstra over the same step table: the oracle for the engine's bucket search."""
    import heapq

    best = {start: 0}
    heap = [(0, start)]
    while heap:
        spent, cell = heapq.heappop(heap)
        if spent > best[cell]:
            continue
        for neighbour, cost in steps[cell]:  # type: ignore[index]
            total = spent + cost
            if total <= allowance and neighbour not in occupied and total < best.get(neighbour, allowance + 1):
                best[neighbour] = total
                heapq.heappush(heap, (total, neighbour))
    del best[start]
    return best


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_one_search_finds_least_costs_and_paths_that_cost_exactly_that(seed: int) -> None:
    rnd = random.Random(seed)
    terrain = "\n".join("".join(rnd.choice("....=~~#rfhw") for _ in range(12)) for _ in range(12))
    free = [(x, y) for y in range(12) for x in range(12) if terrain.splitlines()[y][x] != "w"]
    rnd.shuffle(free)
    specs = [f"A{i + 1} {rnd.choice('LMS')} {label(*free[i])}" for i in range(6)]
    specs += [f"D{i + 1} {rnd.choice('LMS')} {label(*free[6 + i])}" for i in range(6)]
    state = start(terrain=terrain, units=specs, phase="MOVEMENT", draw=[])
    from engine.board.info import board_info
    from engine.movement.allowance import movement_allowance
    from engine.movement.search import occupied_cells, unit_reach

    info = board_info(state.board)
    occupied = occupied_cells(state)
    for piece in state.units:
        steps = info.steps(piece.type, ())
        start_cell, allowance = info.index[piece.cell], movement_allowance(state, piece)
        found = unit_reach(state, piece)
        assert found.costs == _least_costs(steps, start_cell, allowance, occupied), piece.id
        for cell, cost in found.costs.items():
            path = found.path(cell)
            assert path[-1] == cell and not occupied & set(path)
            spent, at = 0, start_cell
            for step in path:
                spent += dict(steps[at])[step]  # a real step of the table
                at = step
            assert spent == cost, (piece.id, cell)


def test_the_search_returns_its_pooled_cost_list_unreached_and_never_reads_a_stale_one() -> None:
    """The search reuses its cost lists (`movement._SCRATCH`): each must come back all "not reached",
    whatever the board size, so that the next search, on this board or another, finds its own costs."""
    import engine.movement.search as movement_module
    from engine.board.info import board_info
    from engine.movement.search import search_reachable

    rnd = random.Random(7)
    boards = []
    for size in (12, 7):
        rows = ["." * size] + ["".join(rnd.choice("....=~#rf") for _ in range(size)) for _ in range(size - 1)]
        boards.append(board_info(start(terrain="\n".join(rows), units=("A1 L A1", "D1 L B1"), draw=[]).board))
    for _ in range(40):  # alternate boards of two sizes, starts and allowances
        info = rnd.choice(boards)
        steps = info.steps(rnd.choice(list(UnitType)), ())
        occupied = {rnd.randrange(info.size) for _ in range(rnd.randrange(8))}
        start_cell = rnd.choice([cell for cell in range(info.size) if cell not in occupied])
        allowance = rnd.randrange(1, 12)
        flags = bytes(1 if cell in occupied else 0 for cell in range(info.size))
        costs, _ = search_reachable(steps, start_cell, allowance, flags)
        assert costs == _least_costs(steps, start_cell, allowance, frozenset(occupied))
        assert list(costs) == sorted(costs)
        assert movement_module._SCRATCH
        assert all(cost == movement_module._UNREACHED for kept in movement_module._SCRATCH for cost in kept)


# --- What the listing keeps between positions never goes stale ------------------------------

_GAP = "\n".join([".....", "ww.ww", ".....", ".....", "....."])
"""A wall of water on row 2 with one gap, at C2."""


def test_a_move_into_the_only_gap_blocks_the_path_of_a_unit_listed_before() -> None:
    state = start(units=("A1 L C1", "A2 M E1", "D1 L A5"), terrain=_GAP, phase="MOVEMENT")
    assert "C3" in reach(state, "A1")
    blocked = play(state, MoveUnit(unit_id="A2", to="C2"))
    assert not reach(blocked, "A1") & {"A3", "B3", "C3", "D3", "E3"}
    assert legal_actions(blocked) == fresh_listing(blocked)


def test_a_unit_leaving_the_gap_opens_the_path_of_a_unit_listed_before() -> None:
    state = start(units=("A1 L C1", "A2 M C2", "D1 L A5"), terrain=_GAP, phase="MOVEMENT")
    assert not reach(state, "A1") & {"A3", "B3", "C3", "D3", "E3"}
    opened = play(state, MoveUnit(unit_id="A2", to="E4"))
    assert {"B3", "C3", "D3"} <= reach(opened, "A1")
    assert legal_actions(opened) == fresh_listing(opened)


def _movement_effect(hook: Hook, op: str, value: int) -> Effect:
    return Effect(
        effect_id=1, play_id=1, source_card="supply_interruption", source_kind="malus", controller=Side.ATTACKER,
        hook=hook, op=op, value=value, scope="own_units", conditions=Conditions(), remaining_turn_ends=1,
    )  # fmt: skip


def test_an_effect_that_changes_the_allowance_or_forbids_moving_is_seen_by_a_unit_listed_before() -> None:
    state = start(units=("A1 L E5", "D1 L J10"), phase="MOVEMENT")
    assert len(reach(state, "A1")) == 24
    faster = replace(state, effects=(_movement_effect(Hook.MODIFY_MOVEMENT, "add", 2),))
    assert len(reach(faster, "A1")) == 48
    assert len(reach(state, "A1")) == 24
    denied = replace(state, effects=(_movement_effect(Hook.CAN_MOVE_UNIT, "deny", 0),))
    assert reach(denied, "A1") == set()
    assert len(reach(state, "A1")) == 24


def test_moves_listed_on_one_board_are_not_offered_on_another() -> None:
    narrow = start(units=("A1 L B2", "D1 L B8"), phase="MOVEMENT")
    wide = start(units=("A1 L B2", "D1 L B8"), terrain="\n".join(["." * 12] * 10), phase="MOVEMENT")
    assert "B4" in reach(narrow, "A1") and "D2" in reach(wide, "A1")
    assert legal_actions(wide) == fresh_listing(wide)
    assert legal_actions(narrow) == fresh_listing(narrow)


def test_the_listing_agrees_with_one_made_afresh_along_random_games() -> None:
    from engine import draw_index

    for seed in (3, 4):
        state = new_game(GameConfig(seed=seed))
        choice = seed
        while True:
            legal = legal_actions(state)
            if not legal:
                break
            if state.phase is Phase.MOVEMENT:
                assert legal == fresh_listing(state)
            index, choice = draw_index(len(legal), choice)
            state = reduce(state, legal[index])


def test_each_cells_steps_come_cheapest_first() -> None:
    from engine.data import board_info
    from engine.types import UnitType

    state = new_game(GameConfig(seed=5))
    table = board_info(state.board).steps(UnitType.MECHANIZED, ())
    assert all(list(row) == sorted(row, key=lambda step: (step[1], step[0])) for row in table)


def test_the_occupancy_a_move_derives_is_the_one_built_from_scratch() -> None:
    import engine.movement.search as movement_module
    from engine.movement.search import occupancy

    state = start(units=("A1 L E5", "A2 L H5", "D1 L J10"), phase="MOVEMENT")
    occupancy(state)  # remembered: the move derives the next one from it
    after = reduce(state, MoveUnit(unit_id="A2", to="F6"))
    derived = occupancy(after)
    movement_module._last_occupancy = None
    assert occupancy(after) == derived
    assert derived.flags[after.board.width * 5 + 5] == 1 and derived.flags[after.board.width * 4 + 7] == 0


def test_search_results_and_the_memo_entries_holding_them_are_not_tracked_by_the_collector() -> None:
    """A server keeps thousands of search results: the cyclic collector must not scan them at every collection."""
    import gc

    import engine.movement.listing as move_lists
    import engine.movement.search as movement_module

    state = new_game(GameConfig(seed=5))
    chooser = random.Random(5)
    for _ in range(300):  # a few turns of a random game: searches, kept derivations, memo entries
        legal = legal_actions(state)
        if not legal:
            break
        state = reduce(state, chooser.choice(legal))
    entries = [entry for entries in movement_module._MEMO.values() for entry in entries]
    assert entries and move_lists._KEPT
    assert not any(gc.is_tracked(e) or gc.is_tracked(e.reach) for e in entries)
    assert not any(gc.is_tracked(found) for found in move_lists._KEPT.values())
    gc.collect()  # tuples of untracked objects leave the collector at the first collection they meet
    assert not any(gc.is_tracked(held) for held in movement_module._MEMO.values())
    kinds = (movement_module.Reach, movement_module.SearchEntry, move_lists.Derivation)
    assert sum(isinstance(o, kinds) for o in gc.get_objects()) == 0
