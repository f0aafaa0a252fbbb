"""`taktik map`: text output, PNG preview and argument errors."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from PIL import Image

from cli import cmd_map
from engine import GameConfig, new_game
from engine.data import GeneratedTerrain, game_terrain


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="taktik")
    cmd_map.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["map", *argv])


def run(*argv: str) -> int:
    args = parse(*argv)
    code: int = args.handler(args)
    return code


def test_map_prints_every_row_under_column_letters(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--seed", "7") == 0
    out = capsys.readouterr().out.splitlines()
    board = generated(7, 20, 30)[0].board
    assert "   ABCDEFGHIJKLMNOPQRST" in out
    header = out.index("   ABCDEFGHIJKLMNOPQRST")
    assert out[header + 1 : header + 31] == [f"{y + 1:>2} {row}" for y, row in enumerate(board.rows)]


def test_map_prints_the_legend_and_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--seed", "7", "--size", "24x16") == 0
    out = capsys.readouterr().out
    terrain, after = generated(7, 24, 16)
    for char, name in cmd_map.LEGEND:
        assert f"{char} {name}" in out
    for entry in terrain.stats.terrain:
        assert f"{entry.terrain.value.lower():<12}{entry.cells:>7}{entry.regions:>9}" in out
    assert f"roads:   {terrain.stats.road_cells} cells" in out
    assert f"bridges: {len(terrain.stats.bridges)}" in out
    assert f"next seed {after}" in out


def generated(seed: int, width: int, height: int) -> tuple[GeneratedTerrain, int]:
    return game_terrain(GameConfig(seed=seed, width=width, height=height))


def test_the_map_of_a_seed_is_the_board_of_the_game_with_that_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--seed", "7") == 0
    out = capsys.readouterr().out
    assert all(row in out for row in new_game(GameConfig(seed=7)).board.rows)


def test_map_defaults_to_seed_1_on_the_20x30_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert run() == 0
    out = capsys.readouterr().out
    assert out.startswith("Map 20x30 of game seed 1\n")
    assert generated(1, 20, 30)[0].board.rows[0] in out


def test_wide_maps_label_columns_past_z_with_two_letters(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--size", "30x8") == 0
    out = capsys.readouterr().out.splitlines()
    first = out.index(" " * 2 + " " * 26 + "AAAA")
    assert out[first + 1] == " " * 2 + "ABCDEFGHIJKLMNOPQRSTUVWXYZABCD"
    assert out[first + 2] == "1 " + generated(1, 30, 8)[0].board.rows[0]


def test_png_is_written_and_shows_terrain_roads_rivers_and_bridges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "map.png"
    assert run("--seed", "7", "--png", str(path)) == 0
    assert f"wrote {path}" in capsys.readouterr().out
    board = generated(7, 20, 30)[0].board
    with Image.open(path) as image:
        assert image.format == "PNG"
        cell = image.width // board.width
        assert image.size == (board.width * cell, board.height * cell)
        assert cell >= 3
        picture = image.convert("RGB")

    def centre(x: int, y: int) -> tuple[int, int, int]:
        pixel = picture.getpixel((x * cell + cell // 2, y * cell + cell // 2))
        assert isinstance(pixel, tuple)
        return pixel[0], pixel[1], pixel[2]

    def corner(x: int, y: int) -> tuple[int, int, int]:
        pixel = picture.getpixel((x * cell, y * cell))
        assert isinstance(pixel, tuple)
        return pixel[0], pixel[1], pixel[2]

    seen = set()
    for y in range(board.height):
        for x in range(board.width):
            char = board.char_at(x, y)
            seen.add(char)
            if char in "=#":
                assert centre(x, y) == cmd_map.ROAD_COLOUR
            elif char == "~":
                assert centre(x, y) == cmd_map.RIVER_COLOUR
            else:
                assert centre(x, y) == cmd_map.BASE_COLOURS[board.terrain_at(x, y).value]
            if char == "#":
                assert cmd_map.BRIDGE_COLOUR in {
                    picture.getpixel((x * cell + dx, y * cell + dy)) for dx in range(cell) for dy in range(cell)
                }
            elif char not in "=~":
                assert corner(x, y) == cmd_map.BASE_COLOURS[board.terrain_at(x, y).value]
    assert {"=", "~", "#"} <= seen


def test_png_is_the_same_for_the_same_seed(tmp_path: Path) -> None:
    first, second = tmp_path / "a.png", tmp_path / "b.png"
    assert run("--seed", "3", "--png", str(first)) == 0
    assert run("--seed", "3", "--png", str(second)) == 0
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("size", ["20by30", "20x", "x30", "-8x8", "20x30x2"])
def test_size_that_is_not_w_x_h_exits_with_a_message(size: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(f"--size={size}")
    assert exit_info.value.code == 2
    assert "is not a size like 20x30" in capsys.readouterr().err


@pytest.mark.parametrize(("size", "message"), [("7x30", "width 7"), ("20x301", "height 301"), ("0x0", "width 0")])
def test_size_out_of_range_exits_with_a_message(size: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--size", size) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "outside 8..300" in captured.err
    assert captured.out == ""


def test_run_rejects_an_out_of_range_size_given_directly(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(seed=1, size=(5, 40), png=None)
    assert cmd_map.run(args) == 2
    captured = capsys.readouterr()
    assert "width 5 is outside 8..300" in captured.err
    assert captured.out == ""


def test_bad_seed_exits_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse("--seed", "4294967296")
    assert exit_info.value.code == 2
    assert "outside 0..4294967295" in capsys.readouterr().err


def test_unwritable_png_path_fails_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--png", str(tmp_path / "missing" / "map.png")) == 1
    assert "cannot write" in capsys.readouterr().err
