"""Bulk-play benchmark: greedy-vs-greedy games/s in one process, with ``--jobs 2`` and on Ray,
Ray's overhead per game, and what a cluster would move per game.

    python scripts/bench_lab.py [--games 8] [--size 12x14] [--ray-cpus 2] [--address ADDRESS]

Each backend plays the same series through `lab.runner.run_games`, so the figures compare
the backends, not different work. Ray's overhead per game is the median, over games played
one at a time, of (task round trip − time spent playing inside the task): scheduling,
argument and result transfer, and the decisions counter. Tasks per game: one Ray task
plus one counter message per `lab.runner.COUNTER_BATCH` decisions; bytes per record is the
median size of the encoded `GameRecord` (what a run writes), and of the whole pickled
result a task sends back.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time

from msgspec.structs import replace

from engine import GameConfig, encode_record
from lab.runner import COUNTER_BATCH, LOCAL_RAY, Tick, run_games
from lab.selfplay import GameResult, GameSpec, play_spec, schedule


def games_per_second(specs: list[GameSpec], **backend: object) -> tuple[float, list[GameResult]]:
    """Games/s of the whole series on one backend (``jobs=`` or ``ray_address=``)."""
    start = time.perf_counter()
    results = list(run_games(specs, play_spec, **backend))  # type: ignore[arg-type]
    return len(results) / (time.perf_counter() - start), results


def timed_play(spec: GameSpec, tick: Tick) -> tuple[float, GameResult]:
    """Play ``spec`` and say how long the playing itself took (inside the task)."""
    start = time.perf_counter()
    result = play_spec(spec, tick)
    return time.perf_counter() - start, result


def ray_overhead(specs: list[GameSpec], address: str) -> float:
    """Median seconds per game Ray adds around the playing, games sent one at a time."""
    overheads = []
    for spec in specs:
        start = time.perf_counter()
        [(inside, _)] = list(run_games([spec], timed_play, ray_address=address))
        overheads.append(time.perf_counter() - start - inside)
    return statistics.median(overheads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--size", default="12x14", help="board size WxH (small keeps the run short)")
    parser.add_argument("--ray-cpus", type=int, default=2, help="CPUs of the local Ray")
    parser.add_argument("--address", default=None, help="join this Ray cluster instead of a local Ray")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x"))
    config = replace(GameConfig(), width=width, height=height)
    specs = schedule(("greedy", "greedy"), args.games, seed=1, config=config)

    one, results = games_per_second(specs)
    print(f"{args.games} greedy-vs-greedy games on {args.size}")
    print(f"one process : {one:6.2f} games/s")
    two, _ = games_per_second(specs, jobs=2)
    print(f"--jobs 2    : {two:6.2f} games/s")

    import ray

    ray.init(address=args.address, num_cpus=None if args.address else args.ray_cpus, include_dashboard=False,
             log_to_driver=False, logging_level="WARNING")
    try:
        games_per_second(specs[:1], ray_address=LOCAL_RAY)  # warm the workers: start-up is not per game
        on_ray, ray_results = games_per_second(specs, ray_address=LOCAL_RAY)
        print(f"--ray       : {on_ray:6.2f} games/s ({ray.cluster_resources().get('CPU', 0):.0f} CPUs)")
        overhead = ray_overhead(specs[: min(5, len(specs))], LOCAL_RAY)
        print(f"Ray overhead: {overhead * 1000:6.1f} ms per game (median, games sent one at a time)")
    finally:
        ray.shutdown()
    assert sorted(encode_record(r.record) for r in ray_results) == sorted(encode_record(r.record) for r in results)

    decisions = statistics.median(r.actions for r in results)
    record = statistics.median(len(encode_record(r.record)) for r in results)
    pickled = statistics.median(len(pickle.dumps(r)) for r in results)
    messages = decisions / COUNTER_BATCH
    print(f"per game    : 1 task + {messages:.0f} counter messages ({decisions:.0f} decisions, median)")
    print(f"per record  : {record:,.0f} bytes encoded, {pickled:,.0f} bytes returned by the task (medians)")


if __name__ == "__main__":
    main()
