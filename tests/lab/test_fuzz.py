"""The fuzzer: clean runs pass, planted bugs are found, shrunk and written as failing tests."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from engine import DiscardBonus, GameState, IllegalAction, MoveUnit, Side, decode_record, encode_record
from engine.pages import APPLY
from lab.bots import RandomBot
from lab.fuzz import (
    INVALID,
    FuzzOptions,
    check_record,
    check_sequence,
    ddmin,
    fuzz_game,
    pytest_source,
    random_config,
    shrink,
)
from lab.fuzz.mutate import mutations
from lab.selfplay import play_game
from tests.support import plant_card_loss, start


def first_failure(games: int = 12) -> tuple[Any, Any]:
    for seed in range(games):
        outcome = fuzz_game(random_config(seed), seed)
        if outcome.failure is not None:
            return outcome, seed
    raise AssertionError(f"no failure in {games} games")


def load_test(path: Path) -> Callable[[], None]:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tests = [getattr(module, name) for name in dir(module) if name.startswith("test_")]
    assert len(tests) == 1
    return tests[0]  # type: ignore[no-any-return]


def test_a_short_clean_fuzz_run_passes() -> None:
    for seed in (1, 2, 3):
        outcome = fuzz_game(random_config(seed), seed)
        assert outcome.failure is None, outcome.failure.describe()
        assert outcome.actions, "a fuzz game plays actions"
        assert check_record(outcome.record()) is None


def test_random_configs_are_valid_and_varied() -> None:
    configs = [random_config(seed) for seed in range(12)]
    assert len({c.terrain for c in configs}) == 12
    assert {c.deployment for c in configs} == {"auto", "manual"}
    assert all(c.terrain is not None and "#" in c.terrain for c in configs)


def test_planted_card_loss_is_found_shrunk_and_written_as_a_failing_test(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    plant_card_loss(monkeypatch)
    outcome, seed = first_failure()
    assert outcome.failure.check == "cards_conserved"
    shrunk = shrink(outcome.config, outcome.actions, outcome.failure)
    assert shrunk.failure.check == "cards_conserved"
    assert len(shrunk.record.actions) <= outcome.failure.step + 1
    assert isinstance(shrunk.record.actions[-1], DiscardBonus)
    path = tmp_path / "test_planted.py"
    path.write_text(pytest_source(shrunk, f"seed {seed}"))
    regression = load_test(path)
    with pytest.raises(AssertionError, match="cards_conserved"):
        regression()
    monkeypatch.undo()
    regression()  # the bug is gone: the written test passes


def test_planted_legality_bug_is_caught_by_rejecting_unlisted_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    original = APPLY[MoveUnit]

    def moves_anywhere(state: GameState, action: MoveUnit) -> GameState:
        try:
            return original(state, action)
        except IllegalAction as err:
            if err.code != "unreachable":
                raise
            units = tuple(
                replace(u, cell=action.to, has_moved=True) if u.id == action.unit_id else u for u in state.units
            )
            return replace(state, units=units, moves_this_turn=state.moves_this_turn + 1)

    monkeypatch.setitem(APPLY, MoveUnit, moves_anywhere)
    outcome, _ = first_failure()
    assert outcome.failure.check in {"rejects_unlisted", "units_sane"}
    shrunk = shrink(outcome.config, outcome.actions, outcome.failure, budget=150)
    assert shrunk.failure.check == outcome.failure.check
    assert check_record(decode_record(encode_record(shrunk.record))) is not None
    monkeypatch.undo()
    assert check_record(shrunk.record) is None


def test_check_sequence_reports_an_illegal_sequence_as_invalid_not_as_a_bug() -> None:
    config = random_config(4)
    actions = fuzz_game(config, 4).actions
    assert check_sequence(config, actions[1:2] + actions[0:1]) in (INVALID, None)
    assert check_sequence(config, actions[:5]) is None


def test_ddmin_finds_a_minimal_failing_subsequence() -> None:
    items: list[Any] = list(range(40))
    smallest, tests = ddmin(items, lambda xs: 3 in xs and 31 in xs, budget=500)
    assert smallest == [3, 31]
    assert tests < 200


def test_mutations_are_well_formed_and_unlisted() -> None:
    state = start(units=("A1 L C3", "A2 M E3", "D1 L C6", "D2 M F6"), phase="MOVEMENT")
    from engine import legal_actions

    legal = legal_actions(state)
    found = mutations(state, legal, 12, seed=5)
    assert len(found) >= 12
    assert not set(found) & set(legal)
    for action in found:
        with pytest.raises(IllegalAction):
            from engine import reduce

            reduce(state, action)


def test_every_step_check_can_be_run_alone() -> None:
    config = random_config(6)
    outcome = fuzz_game(config, 6, FuzzOptions(unlisted=2, only=frozenset({"cards_conserved"})))
    assert outcome.failure is None


def test_a_bot_game_record_passes_every_check() -> None:
    record, _ = play_game(
        replace(random_config(8), deployment="auto"),
        {Side.ATTACKER: RandomBot(by_type=True), Side.DEFENDER: RandomBot()},
    )
    assert check_record(record, FuzzOptions(unlisted=4)) is None
