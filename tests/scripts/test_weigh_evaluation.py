"""scripts/weigh_evaluation.py: greedy with one change of its evaluation, against greedy as shipped."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import GameConfig, GameState, legal_actions, new_game, player_view, reduce
from lab.bots import evaluate, position
from lab.bots.greedy import GreedyBot
from tests.support import run_script

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import weigh_evaluation
from weigh_evaluation import ChangedGreedy, describe, parse_change


def decisions(seed: int, count: int) -> Iterator[tuple[GameState, list[Any], int]]:
    """The first ``count`` decisions of a greedy-vs-greedy game: the seat's view, its legal actions, a seed."""
    state, bot = new_game(GameConfig(seed=seed)), GreedyBot()
    for step in range(count):
        if state.to_act is None:
            return
        legal = legal_actions(state)
        yield player_view(state, state.to_act), legal, 1000 + step
        state = reduce(state, bot.choose(player_view(state, state.to_act), legal, 1000 + step)[0])


def test_a_change_is_parsed_and_written_back() -> None:
    change = parse_change("threat=0.8, approach=3,travel=true,damage_share=0.6,TIE_BIAS=1,move_limit=48")
    assert change == (
        ("threat", 0.8),
        ("approach", 3.0),
        ("travel", True),
        ("damage_share", 0.6),
        ("TIE_BIAS", 1.0),
        ("move_limit", 48),
    )
    assert describe(change) == "threat=0.8,approach=3,travel=true,damage_share=0.6,TIE_BIAS=1,move_limit=48"
    assert ChangedGreedy(change).move_limit == 48 and ChangedGreedy(()).move_limit == GreedyBot().move_limit


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("bogus=1", "'bogus' is neither a Style field nor an evaluation weight"),
        ("threat", "'threat' is not NAME=VALUE"),
        ("threat=", "is not NAME=VALUE"),
        ("threat=lots", "threat needs a number, not 'lots'"),
        ("threat=nan", "threat needs a finite number"),
        ("travel=1", "travel is true or false, not '1'"),
        ("damage_share=1.5", "damage_share must be a number from 0 to 1, not 1.5"),
        ("move_limit=0", "move_limit is a whole number of moves >= 1, not '0'"),
        ("move_limit=2.5", "move_limit is a whole number"),
        ("threat=0.8,,approach=1", "'' is not NAME=VALUE"),
    ],
)
def test_a_bad_change_is_refused_with_its_reason(text: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        parse_change(text)


def test_no_change_plays_exactly_as_the_shipped_greedy_bot() -> None:
    shipped, unchanged = GreedyBot(), ChangedGreedy(())
    for view, legal, rng in decisions(seed=60001, count=60):
        assert unchanged.choose(view, legal, rng) == shipped.choose(view, legal, rng)


def test_a_weight_is_set_for_the_changed_bots_decision_only(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[float, float, float]] = []
    real = weigh_evaluation.greedy_action

    def watching(*args: Any) -> Any:
        seen.append((position.REACH_WEIGHT, evaluate.REACH_WEIGHT, evaluate.STORED_VALUE))
        return real(*args)

    monkeypatch.setattr(weigh_evaluation, "greedy_action", watching)
    before = (position.REACH_WEIGHT, evaluate.REACH_WEIGHT, evaluate.STORED_VALUE)
    bot = ChangedGreedy(parse_change("REACH_WEIGHT=0.25,STORED_VALUE=2"))
    for view, legal, rng in decisions(seed=60002, count=8):
        bot.choose(view, legal, rng)
        assert before == (position.REACH_WEIGHT, evaluate.REACH_WEIGHT, evaluate.STORED_VALUE)
    assert seen and all(values == (0.25, 0.25, 2.0) for values in seen)


def test_a_change_of_the_evaluation_changes_decisions() -> None:
    shipped, careless = GreedyBot(), ChangedGreedy(parse_change("damage_share=0,threat=0"))
    differ = [
        careless.choose(view, legal, rng) != shipped.choose(view, legal, rng)
        for view, legal, rng in decisions(seed=60003, count=120)
    ]
    assert any(differ)


def test_the_script_plays_a_series_and_prints_the_changed_bots_score() -> None:
    done = run_script("weigh_evaluation.py", "threat=0.15", "--games", "2", "--seed", "60001")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("greedy with each change against greedy as shipped, 2 games each, seeds 60001..60002")
    assert lines[1].startswith("threat=0.15: ") and "/2 = " in lines[1] and "95 % CI" in lines[1]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["bogus=1"], "'bogus' is neither a Style field"),
        (["threat=0.2", "--games", "0"], "--games and --jobs must be at least 1"),
        (["threat=0.2", "--jobs", "0"], "--games and --jobs must be at least 1"),
        (["threat=0.2", "--seed", "-1"], "a 32-bit seed"),
    ],
)
def test_bad_arguments_get_a_short_message_and_no_traceback(args: list[str], named: str) -> None:
    done = run_script("weigh_evaluation.py", *args)
    assert done.returncode == 2
    assert named in done.stderr and "Traceback" not in done.stderr
