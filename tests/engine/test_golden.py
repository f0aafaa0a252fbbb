"""Golden games pin the engine's behaviour: every state hash and legal-action count.

Each file in ``tests/data/golden/`` holds a `GameRecord` (config, actions, the state hash
after every action) and, perft-style, the number of legal actions in every position. A
change in rules, move generation, rng use or state layout shows up here as the first step
that differs. When a change is intended, regenerate the files and review the diff:

    python -m tests.engine.test_golden --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NamedTuple

import msgspec
import pytest

from engine import (
    CaptureAndHold,
    GameConfig,
    GameRecord,
    VictoryConfig,
    VictoryPoints,
    encode_action,
    legal_actions,
    new_game,
    reduce,
    replay,
    state_hash,
)
from engine.rng import draw_index

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"

class Golden(NamedTuple):
    config: GameConfig
    chooser_seed: int
    uniform: bool = False  # True: uniform among legal actions; False: uniform type, then action


GAMES: dict[str, Golden] = {
    "default_seed_1": Golden(GameConfig(seed=1), 22),
    "uniform_seed_4": Golden(GameConfig(seed=4), 44, uniform=True),
    "manual_deployment_large_deck": Golden(GameConfig(seed=2, deck=90, deployment="manual"), 22),
    "victory_conditions": Golden(
        GameConfig(
            seed=3,
            width=12,
            height=15,
            victory=VictoryConfig(
                victory_points=VictoryPoints(threshold=12, points=("F6", "G8", "C12")),
                capture_and_hold=CaptureAndHold(objectives=("F8",), hold_turns=2),
            ),
        ),
        33,
    ),
}


def play_golden(game: Golden) -> tuple[list[object], list[int]]:
    """Play a golden game: returns its actions and the legal-action count of every position.

    The type-balanced chooser picks an action type uniformly, then an action of that type,
    so rare types get played; the uniform chooser plays long turns of moves and attacks.
    """
    state = new_game(game.config)
    actions: list[object] = []
    counts: list[int] = []
    seed = game.chooser_seed
    while True:
        legal = legal_actions(state)
        counts.append(len(legal))
        if not legal:
            return actions, counts
        if not game.uniform:
            kinds = sorted({type(a).__struct_config__.tag for a in legal})
            kind_index, seed = draw_index(len(kinds), seed)
            legal = [a for a in legal if type(a).__struct_config__.tag == kinds[kind_index]]
        index, seed = draw_index(len(legal), seed)
        state = reduce(state, legal[index])
        actions.append(legal[index])


def write() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, game in GAMES.items():
        config = game.config
        actions, counts = play_golden(game)
        state, hashes = new_game(config), []
        for action in actions:
            state = reduce(state, action)  # type: ignore[arg-type]
            hashes.append(state_hash(state))
        lines = [
            "{",
            f'"config": {msgspec.json.encode(config).decode()},',
            f'"legal_counts": {json.dumps(counts)},',
            '"steps": [',
            ",\n".join(json.dumps([json.loads(encode_action(a)), h]) for a, h in zip(actions, hashes, strict=True)),  # type: ignore[arg-type]
            "]}",
        ]
        (GOLDEN / f"{name}.json").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(actions)} actions, winner {state.winner}, by {state.victory_reason}")


def load(name: str) -> tuple[GameRecord, list[int]]:
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    record = msgspec.convert(
        {"config": data["config"], "actions": [s[0] for s in data["steps"]], "hashes": [s[1] for s in data["steps"]]},
        GameRecord,
    )
    return record, data["legal_counts"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_replays_with_every_hash(name: str) -> None:
    record, _ = load(name)
    assert record.config == GAMES[name].config
    states = list(replay(record))  # raises ReplayMismatch naming the first differing step
    assert states[-1].winner is not None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_legal_action_counts(name: str) -> None:
    record, counts = load(name)
    assert [len(legal_actions(s)) for s in replay(record)] == counts


def test_golden_games_cover_every_action_type() -> None:
    played = set()
    for name in GAMES:
        record, _ = load(name)
        played |= {type(a).__struct_config__.tag for a in record.actions}
    assert len(played) == 19


if __name__ == "__main__" and "--write" in sys.argv:
    write()
