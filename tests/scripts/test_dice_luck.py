"""scripts/dice_luck.py: each side's dice luck in recorded games, and how much it decided them."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from msgspec.structs import replace

from engine import RollDice, Side, decode_record, new_game, reduce
from engine.analysis import attack_preview
from lab.bots.greedy import DIE_SEEDS
from tests.support import run_script

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from dice_luck import Game, dice_luck, logistic_fit, report, roll_luck

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two short greedy games on a small board, as `taktik selfplay --out` writes them."""
    out = tmp_path_factory.mktemp("selfplay")
    command = [sys.executable, "-m", "cli", "selfplay", "--bots", "greedy,greedy", "--games", "2"]
    done = subprocess.run(
        [*command, "--size", "10x12", "--seed", "5", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out


def test_luck_is_nothing_on_average_over_the_six_faces_of_every_roll(records: Path) -> None:
    rolls = 0
    for path in sorted(records.glob("game-*.json")):
        record = decode_record(path.read_bytes())
        state = new_game(record.config)
        for action in record.actions:
            if isinstance(action, RollDice):
                assert state.pending_attack is not None
                if attack_preview(state, state.pending_attack).odds.rerolls == 0:  # one die: six equal faces
                    faces = [roll_luck(replace(state, rng=seed), action) for seed in DIE_SEEDS]
                    assert {side for side, _, _ in faces} == {state.active}
                    assert math.isclose(sum(luck for _, luck, _ in faces), 0.0, abs_tol=1e-9)
                    rolls += 1
            state = reduce(state, action)
    assert rolls > 5


def test_a_game_counts_each_sides_rolls_and_replays_to_its_end(records: Path) -> None:
    for path in sorted(records.glob("game-*.json")):
        record = decode_record(path.read_bytes())
        luck, rolls, final = dice_luck(record)
        state, counted = new_game(record.config), dict.fromkeys(Side, 0)
        for action in record.actions:
            if isinstance(action, RollDice):
                counted[state.active] += 1
            state = reduce(state, action)
        assert final == state and rolls == counted
        assert all(abs(luck[side]) <= 10 * rolls[side] for side in Side)  # no roll is worth more than a unit


def test_the_fit_finds_the_model_the_results_were_drawn_from() -> None:
    xs = [(i % 41 - 20) / 5 for i in range(4000)]  # luck from -4 to +4 VP
    a, b = 0.3, 0.6
    ys = [int((i * 0.6180339887) % 1 < 1 / (1 + math.exp(-(a + b * x)))) for i, x in enumerate(xs)]
    fit = logistic_fit(xs, ys)
    assert abs(fit.a - a) < 0.15 and abs(fit.b - b) < 2 * fit.b_error and fit.b_error < 0.05
    with pytest.raises(ValueError, match="cannot be fitted"):
        logistic_fit([-1.0, 1.0, 2.0], [0, 1, 1])  # the luckier side always won
    with pytest.raises(ValueError, match="cannot be fitted"):
        logistic_fit([0.0, 0.0], [0, 1])  # no luck varied


def _game(luck: float, won: bool, names: tuple[str, str] = ("ATTACKER", "DEFENDER")) -> Game:
    return Game(
        luck={Side.ATTACKER: luck, Side.DEFENDER: 0.0},
        rolls={Side.ATTACKER: 9, Side.DEFENDER: 8},
        winner=Side.ATTACKER if won else Side.DEFENDER,
        names=dict(zip(Side, names, strict=True)),
    )


def test_the_report_says_how_much_the_dice_decided() -> None:
    games = [_game(x, won) for x in (-2.0, -1.0, 1.0, 2.0) for won in (True, False)]
    games += [_game(x, x > 0) for x in (-3.0, -1.5, 1.5, 3.0) * 5]
    lines = report(games, "ATTACKER")
    assert lines[0] == "28 games (28 decided), 17.0 attack rolls a game"
    assert lines[1] == "dice luck, ATTACKER minus the other, in VP: mean +0.00, sd 2.18, median |difference| 1.75"
    assert lines[2] == "the luckier side won 24 of 28 games with a difference (85.7%)"
    assert lines[3] == "ATTACKER won 14 of 28 (50.0%)"
    # luck explains much of these results: the score less its share has the narrower interval
    assert lines[4] == "ATTACKER at equal dice: 50.0% ± 12.7% (95% CI; the raw score 50.0% ± 18.9%)"
    assert lines[5].startswith("fit: each VP of dice luck multiplies ATTACKER's odds by ")
    assert lines[6].startswith("so one VP of dice luck a game is worth +") and "VP of dice luck every game" in lines[6]
    by_bot = [_game(1.0, True, ("strong", "greedy")), _game(-1.0, True, ("greedy", "strong"))]
    lines = report([*by_bot, _game(-2.0, False, ("strong", "greedy"))], "strong")
    assert lines[1].startswith("dice luck, strong minus the other, in VP: mean +0.00")  # +1, +1, -2 from strong's side
    unlucky = [_game(x, x < 0) for x in (-2.0, -1.0, 1.0)]
    unlucky += [_game(x, won) for x in (-1.0, 1.0) for won in (True, False)]
    assert report(unlucky, "ATTACKER")[-1] == "the dice did not measurably decide these games"
    assert report([_game(1.0, True)], "ATTACKER") == ["1 games, 1 decided: too few to say what the dice decide"]


def test_the_script_reads_a_selfplay_directory_and_a_two_bot_ladder(records: Path, tmp_path: Path) -> None:
    done = run_script("dice_luck.py", str(records))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games (") and "dice luck, ATTACKER minus the other" in done.stdout
    ladder = tmp_path / "ladder"
    (ladder / "games").mkdir(parents=True)
    games = []
    for index, path in enumerate(sorted(records.glob("game-*.json"))):
        (ladder / "games" / path.name).write_bytes(path.read_bytes())
        bots = ("strong", "greedy")[:: 1 if index % 2 == 0 else -1]
        games.append({"record": f"games/{path.name}", "attacker": bots[0], "defender": bots[1]})
    run = {"anchor": "greedy", "entries": [{"label": "greedy"}, {"label": "strong"}], "games": games}
    (ladder / "ladder.json").write_text(json.dumps(run))
    done = run_script("dice_luck.py", str(ladder))
    assert done.returncode == 0, done.stderr
    assert "dice luck, strong minus the other" in done.stdout and "strong won " in done.stdout


def test_bad_directories_get_a_message_and_exit_2(records: Path, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "game-0000.json").write_text('{"config": 5}')
    (tmp_path / "three").mkdir()
    three = {"anchor": "a", "entries": [{"label": n} for n in "abc"], "games": []}
    (tmp_path / "three" / "ladder.json").write_text(json.dumps(three))
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "ladder.json").write_text('{"anchor": "a"}')
    cases = {
        str(tmp_path / "odd"): "not a ladder's ladder.json",
        str(tmp_path / "missing"): "not a directory",
        str(tmp_path / "empty"): "no game records",
        str(tmp_path / "bad"): "not a game record",
        str(tmp_path / "three"): "a ladder of 3 bots",
    }
    for directory, problem in cases.items():
        done = run_script("dice_luck.py", directory)
        assert done.returncode == 2 and problem in done.stderr and "Traceback" not in done.stderr, done.stderr
    done = run_script("dice_luck.py")
    assert done.returncode == 2 and "DIR" in done.stderr
