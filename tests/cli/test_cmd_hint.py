"""`taktik hint RECORD --step N`: the Hint button's advice at one step of a recorded game."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from engine import (
    GameConfig,
    Side,
    VictoryConfig,
    decode_action,
    decode_record,
    encode_record,
    legal_actions,
    replay,
)
from lab.bots import GreedyBot, RandomBot
from lab.selfplay import play_game

SMALL = GameConfig(seed=3, terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=300))


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record, _ = play_game(SMALL, {Side.ATTACKER: GreedyBot(), Side.DEFENDER: RandomBot()})
    path = tmp_path_factory.mktemp("hint") / "game.json"
    path.write_bytes(encode_record(record))
    return path


def lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().out.strip().splitlines()


def test_a_hint_names_the_deciding_seat_the_action_the_reason_and_what_was_played(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = decode_record(record_file.read_bytes())
    states = list(replay(record))
    step = next(i for i, s in enumerate(states) if s.phase.value == "MOVEMENT" and len(legal_actions(s)) > 2)
    assert main(["hint", str(record_file), "--step", str(step)]) == 0
    head, hint, why, played = lines(capsys)
    assert head == f"step {step}: turn {states[step].turn}, MOVEMENT, {states[step].to_act.value} decides (move)"
    action = decode_action(hint.removeprefix("hint: "))
    assert action in legal_actions(states[step])
    assert why.startswith("why: ") and "% to win" in why
    assert played.startswith("played: ")
    assert decode_action(played.removeprefix("played: ").removesuffix(" (the same)")) == record.actions[step]


def test_the_first_step_is_the_start_and_the_hint_is_repeatable(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hint", str(record_file), "--step", "0"]) == 0
    first = lines(capsys)
    assert first[0].startswith("step 0: turn 1, CARD_DRAW, ATTACKER decides")
    assert main(["hint", str(record_file), "--step", "0"]) == 0
    assert lines(capsys) == first


@pytest.mark.parametrize(("args", "message"), [
    (["--step", "100000"], "is past the end: the record has"),
    (["--step", "-1"], "is outside 0..10000000"),
])
def test_a_step_outside_the_record_is_one_line(
    record_file: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["hint", str(record_file), *args])
    except SystemExit as stopped:
        code = stopped.code  # type: ignore[assignment]
    assert code == 2
    assert message in capsys.readouterr().err


def test_the_last_step_of_a_finished_game_has_no_decision(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    end = len(decode_record(record_file.read_bytes()).actions)
    assert main(["hint", str(record_file), "--step", str(end)]) == 2
    err = capsys.readouterr().err
    assert f"at step {end} the game is over" in err and f"try a step below {end}" in err


def test_a_file_that_is_not_a_record_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    assert main(["hint", str(bad), "--step", "0"]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["hint", str(tmp_path / "missing.json"), "--step", "0"]) == 2
    assert "cannot read" in capsys.readouterr().err
