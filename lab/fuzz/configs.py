"""Random but valid game configs for fuzzing: small maps with every terrain feature.

Small boards keep the legal-action lists short (every listed action is played out at
every step), short round limits and action caps keep games short, and the options the
rules allow (manual deployment, the 90-card deck, every deck source, every victory
condition) are switched on at random so that every rule page and every card gets exercised.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import (
    CaptureAndHold,
    GameConfig,
    Leaders,
    RoundLimit,
    TerritorialControl,
    TimedResistance,
    VictoryConfig,
    VictoryPoints,
    draw_index,
    mix_seed,
    new_game,
)
from engine.data import DECK_SOURCES, label

__all__ = ["random_config", "random_terrain"]

_TERRAIN_CHARS = "....." + ".." + "rfuih" + "w"  # mostly plain, some of everything


def _chance(percent: int, rng: int) -> tuple[bool, int]:
    roll, rng = draw_index(100, rng)
    return roll < percent, rng


def random_terrain(width: int, height: int, rng: int) -> tuple[str, int]:
    """An ASCII map (`engine.board`) with a river row, a road column and a bridge where they cross."""
    rows = []
    for _ in range(height):
        row = []
        for _ in range(width):
            index, rng = draw_index(len(_TERRAIN_CHARS), rng)
            row.append(_TERRAIN_CHARS[index])
        rows.append(row)
    river_y, rng = draw_index(height, rng)
    span, rng = draw_index(width, rng)
    road_x, rng = draw_index(span + 1, rng)  # the road crosses the river: one bridge
    for x in range(span + 1):
        rows[river_y][x] = "~"
    for y in range(height):
        rows[y][road_x] = "#" if rows[y][road_x] == "~" else "="
    return "\n".join("".join(r) for r in rows), rng


def _cells(width: int, height: int, count: int, rng: int) -> tuple[tuple[str, ...], int]:
    cells: list[str] = []
    for _ in range(count):
        x, rng = draw_index(width, rng)
        y, rng = draw_index(height, rng)
        cell = label(x, y)
        if cell not in cells:
            cells.append(cell)
    return tuple(cells), rng


def _victory(width: int, height: int, rng: int) -> tuple[VictoryConfig, int]:
    rounds, rng = draw_index(5, rng)
    cap, rng = draw_index(800, rng)
    victory = VictoryConfig(round_limit=RoundLimit(max_rounds=2 + rounds), max_actions=200 + cap)
    use, rng = _chance(20, rng)
    if use:
        points, rng = _cells(width, height, 3, rng)
        threshold, rng = draw_index(6, rng)
        victory = _with(victory, victory_points=VictoryPoints(threshold=1 + threshold, points=points))
    use, rng = _chance(15, rng)
    if use:
        objectives, rng = _cells(width, height, 2, rng)
        hold, rng = draw_index(3, rng)
        victory = _with(victory, capture_and_hold=CaptureAndHold(objectives=objectives, hold_turns=1 + hold))
    use, rng = _chance(15, rng)
    if use:
        points, rng = _cells(width, height, 3, rng)
        victory = _with(victory, territorial_control=TerritorialControl(points=points, after_rounds=2))
    use, rng = _chance(15, rng)
    if use:
        victory = _with(victory, timed_resistance=TimedResistance(rounds=3))
    use, rng = _chance(10, rng)
    if use:
        victory = _with(victory, leaders=Leaders(attacker="A10", defender="D1"))
    return victory, rng


def _with(victory: VictoryConfig, **changes: object) -> VictoryConfig:
    return replace(victory, **changes)


_DECK_STREAM = 0xDEC5
"""Mixed into a game's seed to draw its deck source."""


def random_config(seed: int) -> GameConfig:
    """A valid random config for fuzz game ``seed`` (full forces, auto or manual deployment).

    Retries with a derived seed until `new_game` accepts it (a map can, rarely, leave
    too few deployment cells), so the result always starts a game.
    """
    # the deck source is drawn apart from the rest, so adding a source changes no map
    # (the shipped sources only: a variant a balance run registered in this process is not one)
    sources = sorted(DECK_SOURCES)
    source, _ = draw_index(len(sources), mix_seed(seed, _DECK_STREAM))
    cards = sources[source]
    rng = seed
    for _ in range(32):
        width, rng = draw_index(6, rng)
        height, rng = draw_index(7, rng)
        width, height = 7 + width, 9 + height
        terrain, rng = random_terrain(width, height, rng)
        manual, rng = _chance(25, rng)
        large, rng = _chance(25, rng)
        victory, rng = _victory(width, height, rng)
        config = GameConfig(
            seed=seed,
            terrain=terrain,
            deployment="manual" if manual else "auto",
            deck=90 if large else 60,
            cards=cards,
            victory=victory,
        )
        try:
            new_game(config)
        except ValueError:
            continue
        return config
    return GameConfig(seed=seed, terrain="\n".join(["." * 10] * 12))
