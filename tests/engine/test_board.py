"""Cell labels, the ASCII map format and board lookups (§2.1, §2.2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.board.grid import chebyshev, quadrant_of
from engine.board.terrain_map import board_from_layers
from engine.data import label, parse_label, parse_terrain_map
from engine.types import Quadrant, TerrainType


def test_label_examples_from_the_rules() -> None:
    assert label(0, 0) == "A1"
    assert label(19, 29) == "T30"
    assert label(10, 15) == "K16"


def test_wide_boards_use_spreadsheet_letters() -> None:
    assert [label(x, 0) for x in (25, 26, 27, 51, 52)] == ["Z1", "AA1", "AB1", "AZ1", "BA1"]


@given(st.integers(0, 299), st.integers(0, 299))
def test_parse_label_inverts_label(x: int, y: int) -> None:
    assert parse_label(label(x, y)) == (x, y)


@pytest.mark.parametrize("bad", ["", "K", "16", "k16", "K0", "K-1", "K16 ", "1K", "K01"])
def test_parse_label_rejects_malformed_labels(bad: str) -> None:
    with pytest.raises(ValueError, match="not a cell label"):
        parse_label(bad)


def test_chebyshev_distance() -> None:
    assert chebyshev((0, 0), (3, 1)) == 3
    assert chebyshev((5, 5), (5, 5)) == 0


def test_quadrants_split_at_half_width_and_height() -> None:
    assert quadrant_of(9, 14, 20, 30) is Quadrant.NW
    assert quadrant_of(10, 14, 20, 30) is Quadrant.NE
    assert quadrant_of(9, 15, 20, 30) is Quadrant.SW
    assert quadrant_of(10, 15, 20, 30) is Quadrant.SE


def test_ascii_map_layers() -> None:
    board = parse_terrain_map("""
        .rfuihw
        =~#....
    """)
    assert (board.width, board.height) == (7, 2)
    assert [board.terrain_at(x, 0) for x in range(7)] == [
        TerrainType.PLAIN,
        TerrainType.ROUGH,
        TerrainType.FOREST,
        TerrainType.URBAN,
        TerrainType.INDUSTRIAL,
        TerrainType.HILL,
        TerrainType.WATER,
    ]
    assert board.is_road(0, 1) and not board.is_river(0, 1)
    assert board.is_river(1, 1) and not board.is_road(1, 1)
    assert board.is_bridge(2, 1) and board.is_road(2, 1) and board.is_river(2, 1)
    assert board.terrain_at(2, 1) is TerrainType.PLAIN


def test_ascii_map_names_the_bad_character() -> None:
    with pytest.raises(ValueError, match=r"cell C2 \(row 2, column 3\) has unknown character 'x'"):
        parse_terrain_map("....\n..x.")


def test_ascii_map_names_the_short_row() -> None:
    with pytest.raises(ValueError, match="row 2 has 3 cells, expected 4"):
        parse_terrain_map("....\n...")


def test_empty_or_oversized_maps_are_rejected() -> None:
    with pytest.raises(ValueError, match="empty"):
        parse_terrain_map("\n  \n")
    with pytest.raises(ValueError, match="outside"):
        parse_terrain_map("." * 301)


def test_board_round_trips_through_text() -> None:
    text = "..f=\n~~#."
    assert parse_terrain_map(text).to_text() == text


def test_cell_of_rejects_off_board_labels() -> None:
    board = parse_terrain_map("....\n....")
    assert board.cell_of("D2") == (3, 1)
    with pytest.raises(ValueError, match="off the board"):
        board.cell_of("E1")


def test_board_from_layers_marks_bridges_and_requires_plain_overlays() -> None:
    base = [TerrainType.PLAIN] * 9
    board = board_from_layers(3, 3, base, roads=[(0, 1), (1, 1), (2, 1)], rivers=[(1, 0), (1, 1), (1, 2)])
    assert board.rows == (".~.", "=#=", ".~.")
    base[0] = TerrainType.FOREST
    with pytest.raises(ValueError, match="roads and rivers need PLAIN"):
        board_from_layers(3, 3, base, roads=[(0, 0)], rivers=[])


def test_board_tables_live_exactly_as_long_as_their_board() -> None:
    import gc

    from engine.board.info import _CACHE, board_info

    boards = [parse_terrain_map("\n".join(["." * (4 + i % 5)] * 6)) for i in range(300)]
    infos = [board_info(b) for b in boards]
    assert all(board_info(b) is info for b, info in zip(boards, infos, strict=True))  # none evicted
    ids = {id(b) for b in boards}
    del boards, infos
    gc.collect()
    assert not ids & set(_CACHE)
