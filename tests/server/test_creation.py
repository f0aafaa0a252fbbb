"""Creating matches (server/creation.py): the board budget is measured from the config alone."""

from __future__ import annotations

import pytest

from engine import GameConfig, new_game
from server.creation import board_cells


@pytest.mark.parametrize("config", [
    GameConfig(seed=1),
    GameConfig(seed=1, width=12),
    GameConfig(seed=1, height=12),
    GameConfig(seed=1, width=9, height=14),
    GameConfig(seed=1, terrain="\n    ..........\n    ..........\n\n    ..........\n"),
])
def test_board_cells_counts_the_board_the_engine_builds(config: GameConfig) -> None:
    board = new_game(config).board
    assert board_cells(config) == board.width * board.height


def test_board_cells_does_not_build_a_huge_board() -> None:
    assert board_cells(GameConfig(width=300, height=300)) == 90_000
    assert board_cells(GameConfig(terrain="\n".join(["." * 300] * 300))) == 90_000
    assert board_cells(GameConfig(terrain="\n \n")) == 0  # the engine's to refuse
