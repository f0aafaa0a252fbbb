"""Terrain generation (rules §11): invariants over many seeds, sizes and densities.

Some §11 invariants hold by construction of the `Board` format (a road or river cell is
PLAIN, a bridge is exactly a road-and-river cell, URBAN/INDUSTRIAL are never overlay
cells: each cell has one character); `board_from_layers` refuses anything else, so a
generator breaking them would raise, which every test here would catch. The tests below
check the invariants that a valid board can still violate.

Golden maps live in ``tests/data/maps``; after an intended change to the generator,
rewrite them with ``python tests/engine/test_mapgen.py --rewrite-golden`` and review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board.terrain_map import Board
from engine.mapgen import GeneratedTerrain, TerrainParams, TerrainStats, generate_terrain
from engine.rng import next_seed
from engine.types import TerrainType

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "data" / "maps"
GOLDEN_SEEDS = (7, 20240611)
ORTHOGONAL = ((0, -1), (1, 0), (0, 1), (-1, 0))
RULE_MINIMUM_FLOORS = (8, 10, 18)  # HILL, ROUGH, FOREST on boards of up to 1200 cells

seeds = st.integers(min_value=0, max_value=2**32 - 1)
sides = st.integers(min_value=8, max_value=44)
densities = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@st.composite
def maps(draw: st.DrawFn) -> GeneratedTerrain:
    """A generated map for a random seed, size and pair of densities."""
    params = TerrainParams(road_density=draw(densities), river_density=draw(densities))
    terrain, _ = generate_terrain(draw(seeds), draw(sides), draw(sides), params)
    return terrain


def cells(board: Board) -> list[tuple[int, int]]:
    return [(x, y) for y in range(board.height) for x in range(board.width)]


def is_edge(board: Board, x: int, y: int) -> bool:
    return x in (0, board.width - 1) or y in (0, board.height - 1)


def river_neighbours(board: Board, x: int, y: int) -> list[tuple[int, int]]:
    return [(dx, dy) for dx, dy in ORTHOGONAL if board.contains(x + dx, y + dy) and board.is_river(x + dx, y + dy)]


def rule_minimums(width: int, height: int) -> tuple[int, int, int]:
    """§11 step 8, written out independently of the generator."""
    area = width * height
    return (
        max(8, int(area / 150 + 0.5)),
        max(10, int(area / 120 + 0.5)),
        max(18, int(area / 70 + 0.5)),
    )


def expected_minimums(board: Board) -> tuple[int, int, int]:
    """The rule minimums, scaled down only when the interior land pool cannot hold them."""
    pool = sum(
        1
        for x, y in cells(board)
        if not is_edge(board, x, y)
        and not board.is_road(x, y)
        and not board.is_river(x, y)
        and board.terrain_at(x, y) in (TerrainType.PLAIN, TerrainType.ROUGH, TerrainType.FOREST, TerrainType.HILL)
    )
    wanted = rule_minimums(board.width, board.height)
    if sum(wanted) <= pool:
        return wanted
    hill, rough, forest = (m * pool // sum(wanted) for m in wanted)
    return hill, rough, forest


def count(board: Board, terrain: TerrainType) -> int:
    return sum(1 for x, y in cells(board) if board.terrain_at(x, y) is terrain)


def assert_invariants(terrain: GeneratedTerrain) -> None:
    """Every §11 invariant, for the big-board and budget tests."""
    board = terrain.board
    assert_no_river_square(board)
    assert_water_beside_river(board)
    assert_edges(board)
    assert any(board.is_road(x, y) for x, y in cells(board))
    hill, rough, forest = expected_minimums(board)
    assert count(board, TerrainType.HILL) >= hill
    assert count(board, TerrainType.ROUGH) >= rough
    assert count(board, TerrainType.FOREST) >= forest
    assert_bridges_crossable(board)


def assert_no_river_square(board: Board) -> None:
    for x, y in cells(board):
        if x + 1 < board.width and y + 1 < board.height:
            block = [board.is_river(x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)]
            assert not all(block), f"2x2 river block at ({x}, {y})"


def assert_water_beside_river(board: Board) -> None:
    for x, y in cells(board):
        if board.terrain_at(x, y) is TerrainType.WATER:
            assert river_neighbours(board, x, y), f"WATER at ({x}, {y}) has no river neighbour"


def assert_edges(board: Board) -> None:
    allowed = (TerrainType.PLAIN, TerrainType.WATER, TerrainType.URBAN, TerrainType.INDUSTRIAL)
    for x, y in cells(board):
        if is_edge(board, x, y):
            assert board.terrain_at(x, y) in allowed, f"edge cell ({x}, {y}) is {board.terrain_at(x, y)}"


def assert_bridges_crossable(board: Board) -> None:
    for x, y in cells(board):
        if board.is_bridge(x, y):
            wet = river_neighbours(board, x, y)
            assert len(wet) == 2 and wet[0] == (-wet[1][0], -wet[1][1]), f"bridge ({x}, {y}) is not straight"
            for dx, dy in ORTHOGONAL:
                if (dx, dy) not in wet:
                    assert board.is_road(x + dx, y + dy), f"bridge ({x}, {y}) has no road towards ({dx}, {dy})"


# --- invariants over random seeds, sizes and densities ---------------------------------


@settings(max_examples=40, deadline=None)
@given(maps())
def test_no_2x2_block_is_all_river(terrain: GeneratedTerrain) -> None:
    assert_no_river_square(terrain.board)


@settings(max_examples=40, deadline=None)
@given(maps())
def test_every_water_cell_touches_a_river_cell(terrain: GeneratedTerrain) -> None:
    assert_water_beside_river(terrain.board)


@settings(max_examples=40, deadline=None)
@given(maps())
def test_edge_cells_are_plain_water_urban_or_industrial(terrain: GeneratedTerrain) -> None:
    assert_edges(terrain.board)


@settings(max_examples=40, deadline=None)
@given(maps())
def test_forest_rough_and_hill_meet_their_minimums(terrain: GeneratedTerrain) -> None:
    board, stats = terrain.board, terrain.stats
    hill, rough, forest = expected_minimums(board)
    assert (stats.minimum_hill, stats.minimum_rough, stats.minimum_forest) == (hill, rough, forest)
    assert count(board, TerrainType.HILL) >= hill
    assert count(board, TerrainType.ROUGH) >= rough
    assert count(board, TerrainType.FOREST) >= forest


@settings(max_examples=40, deadline=None)
@given(maps())
def test_road_set_is_never_empty(terrain: GeneratedTerrain) -> None:
    assert any(terrain.board.is_road(x, y) for x, y in cells(terrain.board))


@settings(max_examples=40, deadline=None)
@given(maps())
def test_every_bridge_is_a_straight_river_cell_with_road_on_both_banks(terrain: GeneratedTerrain) -> None:
    assert_bridges_crossable(terrain.board)


@settings(max_examples=40, deadline=None)
@given(maps())
def test_river_runs_from_one_edge_to_the_opposite_edge(terrain: GeneratedTerrain) -> None:
    board = terrain.board
    north = any(board.is_river(x, 0) for x in range(board.width))
    south = any(board.is_river(x, board.height - 1) for x in range(board.width))
    west = any(board.is_river(0, y) for y in range(board.height))
    east = any(board.is_river(board.width - 1, y) for y in range(board.height))
    assert (north and south) or (west and east)


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=3))
def test_river_walks_never_zig_zag(seed: int, min_axis_run: int) -> None:
    # A-B-A-B is four moves alternating between two perpendicular directions: a staircase
    # of five river cells whose three middle cells are bends of degree 2.
    board = generate_terrain(seed, 24, 24, TerrainParams(min_axis_run=min_axis_run))[0].board
    for x, y in cells(board):
        for a in ORTHOGONAL:
            for b in ORTHOGONAL:
                if a[0] * b[0] + a[1] * b[1] != 0:
                    continue
                stair = [(x, y), (x + a[0], y + a[1]), (x + a[0] + b[0], y + a[1] + b[1])]
                stair += [
                    (x + 2 * a[0] + b[0], y + 2 * a[1] + b[1]),
                    (x + 2 * a[0] + 2 * b[0], y + 2 * a[1] + 2 * b[1]),
                ]
                if all(board.contains(*c) and board.is_river(*c) for c in stair):
                    middle_degrees = [len(river_neighbours(board, *c)) for c in stair[1:4]]
                    assert middle_degrees != [2, 2, 2], f"zig-zag river through {stair}"


@settings(max_examples=30, deadline=None)
@given(maps())
def test_stats_count_what_the_board_shows(terrain: GeneratedTerrain) -> None:
    board, stats = terrain.board, terrain.stats
    assert [entry.terrain for entry in stats.terrain] == list(TerrainType)
    for entry in stats.terrain:
        assert entry.cells == count(board, entry.terrain)
        assert (entry.regions == 0) == (entry.cells == 0)
        assert entry.largest_region <= entry.cells
    assert sum(entry.cells for entry in stats.terrain) == board.width * board.height
    assert stats.road_cells == sum(1 for x, y in cells(board) if board.is_road(x, y))
    assert stats.river_cells == sum(1 for x, y in cells(board) if board.is_river(x, y))
    bridges = [(x, y) for x, y in cells(board) if board.is_bridge(x, y)]
    assert [board.cell_of(b) for b in stats.bridges] == bridges


def test_region_counts_follow_orthogonal_connectivity() -> None:
    terrain, _ = generate_terrain(3, 20, 30)
    board = terrain.board
    for entry in terrain.stats.terrain:
        seen: set[tuple[int, int]] = set()
        regions = 0
        for start in cells(board):
            if start in seen or board.terrain_at(*start) is not entry.terrain:
                continue
            regions += 1
            stack = [start]
            seen.add(start)
            while stack:
                x, y = stack.pop()
                for dx, dy in ORTHOGONAL:
                    n = (x + dx, y + dy)
                    if board.contains(*n) and n not in seen and board.terrain_at(*n) is entry.terrain:
                        seen.add(n)
                        stack.append(n)
        assert entry.regions == regions, entry.terrain


# --- determinism and the rng contract --------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(seeds, sides, sides)
def test_same_seed_gives_the_same_map_and_next_seed(seed: int, width: int, height: int) -> None:
    assert generate_terrain(seed, width, height) == generate_terrain(seed, width, height)


@settings(max_examples=20, deadline=None)
@given(seeds, sides, sides)
def test_next_seed_is_the_input_seed_advanced_rng_steps_times(seed: int, width: int, height: int) -> None:
    terrain, after = generate_terrain(seed, width, height)
    expected = seed
    for _ in range(terrain.stats.rng_steps):
        expected = next_seed(expected)
    assert after == expected
    assert terrain.stats.rng_steps > 0


def test_different_seeds_give_different_maps() -> None:
    boards = {generate_terrain(seed, 20, 30)[0].board.rows for seed in range(20)}
    assert len(boards) == 20


def test_default_params_are_the_rules_table() -> None:
    params = TerrainParams()
    assert (params.road_density, params.river_density) == (0.3, 0.2)
    assert (params.max_bridges, params.extra_bridge_every, params.extra_bridge_min_spacing) == (20, 14, 6)
    assert (params.min_axis_run, params.trunk_turn_prob, params.tributary_turn_prob) == (2, 0.40, 0.45)
    assert params.tributary_attempts_per_cell == 6
    assert params.road_search_budget_per_cell == 520
    assert (params.trunk_step_budget_per_cell, params.tributary_step_budget_per_side) == (4, 5)
    assert (params.road_square_penalty_new, params.road_square_penalty_touching) == (3.5, 8.5)
    assert (params.dense_crossing_penalty, params.road_turn_penalty, params.near_river_penalty) == (3.5, 1.15, 1.4)
    assert (params.adjacent_road_penalty, params.adjacent_road_penalty_per_neighbour) == (0.55, 0.25)
    assert params.bridge_bonus == 1.2
    assert (params.arterial_min_length, params.collector_min_length) == (0.35, 0.18)
    assert (params.noise_base_scale, params.smoothing_passes) == (0.4, 2)


def test_passing_default_params_equals_passing_none() -> None:
    assert generate_terrain(11, 20, 30, TerrainParams()) == generate_terrain(11, 20, 30)


# --- densities, sizes and budgets --------------------------------------------------------


@pytest.mark.parametrize(("given_density", "clamped"), [(0.0, 0.01), (1.0, 0.6)])
def test_road_density_is_clamped(given_density: float, clamped: float) -> None:
    assert generate_terrain(5, 20, 30, TerrainParams(road_density=given_density)) == generate_terrain(
        5, 20, 30, TerrainParams(road_density=clamped)
    )


@pytest.mark.parametrize(("given_density", "clamped"), [(0.0, 0.01), (1.0, 0.6)])
def test_river_density_is_clamped(given_density: float, clamped: float) -> None:
    assert generate_terrain(5, 20, 30, TerrainParams(river_density=given_density)) == generate_terrain(
        5, 20, 30, TerrainParams(river_density=clamped)
    )


def test_higher_densities_give_more_road_and_river() -> None:
    low = generate_terrain(9, 30, 30, TerrainParams(road_density=0.01, river_density=0.01))[0].stats
    high = generate_terrain(9, 30, 30, TerrainParams(road_density=0.6, river_density=0.6))[0].stats
    assert high.road_cells > low.road_cells
    assert high.river_cells > low.river_cells
    assert (low.road_target, low.river_target, high.road_target, high.river_target) == (9, 9, 540, 540)


@pytest.mark.parametrize(("width", "height"), [(8, 8), (8, 60), (60, 8), (9, 31), (200, 300)])
def test_invariants_hold_on_extreme_shapes(width: int, height: int) -> None:
    for seed in (1, 77) if width * height < 10_000 else (1,):
        terrain, _ = generate_terrain(seed, width, height)
        assert (terrain.board.width, terrain.board.height) == (width, height)
        assert_invariants(terrain)


@pytest.mark.parametrize(("road", "river"), [(0.6, 0.6), (0.01, 0.6), (0.6, 0.01), (0.01, 0.01)])
def test_invariants_hold_at_density_extremes_on_small_boards(road: float, river: float) -> None:
    for seed, (width, height) in zip(range(6), [(8, 8), (8, 9), (10, 8), (12, 12), (8, 20), (16, 8)], strict=True):
        assert_invariants(
            generate_terrain(seed, width, height, TerrainParams(road_density=road, river_density=river))[0]
        )


def test_rule_minimums_apply_unscaled_on_the_default_board() -> None:
    for seed in range(10):
        stats = generate_terrain(seed, 20, 30)[0].stats
        assert (stats.minimum_hill, stats.minimum_rough, stats.minimum_forest) == RULE_MINIMUM_FLOORS
        assert stats.count(TerrainType.HILL) >= 8
        assert stats.count(TerrainType.ROUGH) >= 10
        assert stats.count(TerrainType.FOREST) >= 18


def test_rule_minimums_grow_with_area_on_large_boards() -> None:
    stats = generate_terrain(4, 100, 120)[0].stats
    assert (stats.minimum_hill, stats.minimum_rough, stats.minimum_forest) == (80, 100, 171)
    assert stats.count(TerrainType.FOREST) >= 171


def test_minimums_shrink_to_fit_an_8x8_board() -> None:
    # 36 interior cells cannot hold 8 + 10 + 18 minimum cells once a river crosses them
    stats = generate_terrain(1, 8, 8)[0].stats
    assert stats.minimum_hill + stats.minimum_rough + stats.minimum_forest < sum(RULE_MINIMUM_FLOORS)


def test_tiny_budgets_still_give_a_valid_map() -> None:
    params = TerrainParams(
        road_search_budget_per_cell=1,
        trunk_step_budget_per_cell=1,
        tributary_step_budget_per_side=1,
        tributary_attempts_per_cell=1,
        tributary_work_per_side=1,
    )
    for seed in range(5):
        assert_invariants(generate_terrain(seed, 20, 30, params)[0])


def test_tributary_work_budget_bounds_attempts_however_many_are_allowed() -> None:
    width, height = 20, 30
    params = TerrainParams(river_density=0.6, tributary_attempts_per_cell=1_000_000)
    terrain, _ = generate_terrain(3, width, height, params)
    assert_invariants(terrain)
    # each attempt makes at most 5 draws before walking and 2 per cell walked, and
    # attempts plus walked cells share the work budget; everything else is far smaller
    work = params.tributary_work_per_side * (width + height)
    assert terrain.stats.rng_steps <= 7 * work + 4 * width * height + 2_000


def test_unsatisfiable_river_target_stops_within_the_attempt_count() -> None:
    terrain, _ = generate_terrain(3, 20, 30, TerrainParams(river_density=0.6, tributary_attempts_per_cell=1))
    assert terrain.stats.river_cells < terrain.stats.river_target
    assert_invariants(terrain)


@pytest.mark.parametrize(("width", "height"), [(7, 30), (20, 7), (0, 0), (301, 20), (20, 301)])
def test_sizes_outside_8_to_300_are_rejected(width: int, height: int) -> None:
    with pytest.raises(ValueError, match=r"outside 8\.\.300"):
        generate_terrain(1, width, height)


@pytest.mark.parametrize("seed", [-1, 2**32])
def test_seed_must_be_a_uint32(seed: int) -> None:
    with pytest.raises(ValueError, match="unsigned 32-bit"):
        generate_terrain(seed, 20, 30)


def test_hand_built_params_out_of_range_are_rejected() -> None:
    with pytest.raises(ValueError, match="min_axis_run"):
        generate_terrain(1, 20, 30, TerrainParams(min_axis_run=0))


def test_params_decode_strictly() -> None:
    with pytest.raises(msgspec.ValidationError, match="road_desnity"):
        msgspec.json.decode(b'{"road_desnity": 0.2}', type=TerrainParams)


def test_terrain_round_trips_through_json() -> None:
    terrain, _ = generate_terrain(21, 20, 30)
    data = msgspec.json.encode(terrain)
    assert msgspec.json.decode(data, type=GeneratedTerrain) == terrain
    assert msgspec.json.decode(msgspec.json.encode(terrain.stats), type=TerrainStats) == terrain.stats


# --- golden maps ------------------------------------------------------------------------


def golden_text(seed: int) -> str:
    """The pinned form of a default 20x30 map: rows, then stats and next seed as JSON."""
    terrain, after = generate_terrain(seed, 20, 30)
    stats = msgspec.json.format(msgspec.json.encode(terrain.stats).decode(), indent=2)
    return f"{terrain.board.to_text()}\n\n{stats}\nnext_seed: {after}\n"


@pytest.mark.parametrize("seed", GOLDEN_SEEDS)
def test_golden_maps_are_unchanged(seed: int) -> None:
    path = GOLDEN_DIR / f"seed-{seed}-20x30.txt"
    assert golden_text(seed) == path.read_text(encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--rewrite-golden"]:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for golden_seed in GOLDEN_SEEDS:
        (GOLDEN_DIR / f"seed-{golden_seed}-20x30.txt").write_text(golden_text(golden_seed), encoding="utf-8")
