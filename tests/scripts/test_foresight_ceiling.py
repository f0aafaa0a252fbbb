"""scripts/foresight_ceiling.py: `strong` searching in the real state (a measurement), against greedy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from msgspec.structs import replace

from engine import GameConfig, legal_actions, new_game, player_view, reduce
from lab.bots import sample_world
from lab.bots.greedy import GreedyBot
from lab.bots.strong import StrongBot
from tests.support import run_script

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from foresight_ceiling import Seer, elo


def test_the_fair_bot_searches_in_worlds_sampled_from_its_view_and_the_seer_in_the_real_state() -> None:
    state = new_game(GameConfig(seed=75001))
    assert state.to_act is not None
    view = player_view(state, state.to_act)
    sampled = StrongBot().world(view, 7)
    assert sampled == sample_world(view, 7)[0] and sampled.rng != state.rng
    seer = Seer(truth=[state])
    assert seer.world(view, 7) is state and seer.world(view, 8) is state
    cards = Seer(truth=[state], dice=False)  # the real cards, dice of its own
    worlds = [cards.world(view, seed) for seed in (7, 8)]
    assert worlds[0].rng != worlds[1].rng and state.rng not in (worlds[0].rng, worlds[1].rng)
    assert all(replace(world, rng=state.rng) == state for world in worlds)


def test_the_seer_refuses_a_position_it_was_not_shown() -> None:
    state = new_game(GameConfig(seed=75002))
    later = reduce(state, GreedyBot().choose(player_view(state, state.to_act), legal_actions(state), 1)[0])  # type: ignore[arg-type]
    assert later.to_act is not None
    with pytest.raises(RuntimeError, match="not shown"):
        Seer(truth=[state]).world(player_view(later, later.to_act), 1)


def test_a_score_reads_as_an_elo_difference() -> None:
    assert elo(0.5) == 0 and round(elo(0.76)) == 200 and round(elo(0.24)) == -200
    assert elo(1.0) > 1000 and elo(0.0) < -1000  # clamped, not infinite


@pytest.mark.parametrize(
    ("sees", "named"),
    [("all", "strong seeing the real state"), ("cards", "strong seeing the real cards, not the dice")],
)
def test_the_script_plays_a_series_and_prints_the_seers_score(sees: str, named: str) -> None:
    done = run_script("foresight_ceiling.py", "--sees", sees, "--games", "1", "--seed", "75001", "--iterations", "6")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"seer ({named}) against greedy, seeds 75001..75001")
    assert "/1 = " in done.stdout and "95 % CI" in done.stdout and " Elo [" in done.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--games", "0"], "must be at least 1"),
        (["--jobs", "0"], "must be at least 1"),
        (["--iterations", "0"], "must be at least 1"),
        (["--seed", "-1"], "a 32-bit seed"),
        (["--sees", "dice"], "invalid choice: 'dice'"),
    ],
)
def test_bad_arguments_get_a_short_message_and_no_traceback(args: list[str], named: str) -> None:
    done = run_script("foresight_ceiling.py", *args)
    assert done.returncode == 2
    assert named in done.stderr and "Traceback" not in done.stderr
