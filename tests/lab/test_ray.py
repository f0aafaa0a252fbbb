"""Games on a real local Ray: the same records and tables as one process and the pool,
and a game whose worker dies is re-run once, never duplicated.

Ray starts once for the module (two CPUs) and stops at the end; under load it is slow to
start, so nothing here looks at the clock.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from cli.main import main
from engine import GameConfig, VictoryConfig, encode_record
from lab.runner import LOCAL_RAY, Tick, run_games
from lab.selfplay import GameResult, GameSpec, format_summary, play_spec, schedule, summarize

ray = pytest.importorskip("ray")

SMALL = GameConfig(terrain="\n".join(["." * 8] * 10), victory=VictoryConfig(max_actions=150))


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    yield
    ray.shutdown()


def specs(games: int = 4) -> list[GameSpec]:
    return schedule(("random", "greedy"), games, seed=21, config=SMALL)


def by_index(results: list[GameResult]) -> list[GameResult]:
    return sorted(results, key=lambda r: r.index)


def test_ray_one_process_and_the_pool_give_byte_identical_records_and_tables(local_ray: None) -> None:
    decisions: list[int] = []
    alone = by_index(list(run_games(specs(), play_spec)))
    pooled = by_index(list(run_games(specs(), play_spec, jobs=2)))
    on_ray = by_index(list(run_games(specs(), play_spec, ray_address=LOCAL_RAY, on_decisions=decisions.append)))
    assert [r.index for r in on_ray] == [0, 1, 2, 3]
    for results in (pooled, on_ray):
        assert [encode_record(r.record) for r in results] == [encode_record(r.record) for r in alone]
        assert format_summary(summarize(results)) == format_summary(summarize(alone))
    assert decisions and decisions[-1] == sum(r.actions for r in alone)  # every decision counted once


def test_a_killed_worker_has_its_game_re_run_without_duplicates(local_ray: None, tmp_path: Path) -> None:
    marker = tmp_path / "killed"

    def die_once(spec: GameSpec, tick: Tick) -> GameResult:
        if spec.index == 2 and not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)  # the worker process dies mid-run, as a lost node would
        return play_spec(spec, tick)

    results = list(run_games(specs(), die_once, ray_address=LOCAL_RAY))
    assert marker.exists()  # the game really was cut off once
    assert sorted(r.index for r in results) == [0, 1, 2, 3]
    alone = by_index(list(run_games(specs(), play_spec)))
    assert [encode_record(r.record) for r in by_index(results)] == [encode_record(r.record) for r in alone]


def test_taktik_selfplay_writes_the_same_files_with_ray_jobs_and_one_process(local_ray: None, tmp_path: Path) -> None:
    config = tmp_path / "small.json"
    config.write_bytes(msgspec.json.encode(SMALL))
    outputs = {}
    for name, backend in (("one", []), ("jobs", ["--jobs", "2"]), ("ray", ["--ray"])):
        out = tmp_path / name
        args = ["selfplay", "--bots", "greedy,random", "--games", "3", "--seed", "7", "--config", str(config)]
        assert main([*args, "--out", str(out), *backend]) == 0
        outputs[name] = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
    assert sorted(outputs["one"]) == ["game-0000.json", "game-0001.json", "game-0002.json", "summary.txt"]
    assert outputs["jobs"] == outputs["one"] and outputs["ray"] == outputs["one"]


def test_taktik_fuzz_prints_the_same_with_ray_and_one_process(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = []
    for backend in ([], ["--ray"]):
        assert main(["fuzz", "--games", "4", "--seed", "3", "--guided", "--out", str(tmp_path), *backend]) == 0
        printed.append(capsys.readouterr().out)
    assert "rule coverage" in printed[0]
    assert printed[1] == printed[0]
