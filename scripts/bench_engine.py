"""Engine benchmark: prints medians for new_game, legal_actions (by phase), reduce, random
playouts (actions/s, listing every legal action, and drawing one with random_legal_action)
and replay+verify of a 2,000-action record.

    python scripts/bench_engine.py [--games 20] [--repeat 5] [--clock cpu]

Targets (2-core machine): random playouts >= 30,000 actions/s including legal_actions;
replay+verify of 2,000 actions < 100 ms. Both playout figures play the same games (the
same seeded index source), so they differ only in how the action is found.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable

from engine import (
    GameConfig,
    GameRecord,
    VictoryConfig,
    draw_index,
    legal_actions,
    new_game,
    random_legal_action,
    reduce,
    replay,
    state_hash,
)

_clock = time.perf_counter


def timed(fn: Callable[[], object]) -> float:
    start = _clock()
    fn()
    return _clock() - start


def random_game(config: GameConfig, choice_seed: int) -> tuple[list[object], dict[str, list[float]], list[float]]:
    """Play one random game; returns (actions, legal_actions seconds by phase, reduce seconds)."""
    state = new_game(config)
    actions: list[object] = []
    by_phase: dict[str, list[float]] = defaultdict(list)
    reduce_times: list[float] = []
    while True:
        t0 = _clock()
        legal = legal_actions(state)
        t1 = _clock()
        by_phase[state.phase.value].append(t1 - t0)
        if not legal:
            return actions, by_phase, reduce_times
        index, choice_seed = draw_index(len(legal), choice_seed)
        t2 = _clock()
        state = reduce(state, legal[index])
        reduce_times.append(_clock() - t2)
        actions.append(legal[index])


class SeedSource:
    """The engine's `draw_index` as an index source for `random_legal_action`."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randrange(self, stop: int, /) -> int:
        index, self.seed = draw_index(stop, self.seed)
        return index


def throughput(configs: list[GameConfig], *, draw: bool) -> float:
    """Actions per second of random playouts, new_game excluded.

    Listing: each action is picked from `legal_actions`. Drawing: `random_legal_action`
    builds only the chosen one. Same seeds, so the same games.
    """
    total_actions, total_time = 0, 0.0
    for i, config in enumerate(configs):
        state = new_game(config)
        source = SeedSource(i + 1)
        start = _clock()
        count = 0
        while True:
            if draw:
                action = random_legal_action(state, source)
                if action is None:
                    break
            else:
                legal = legal_actions(state)
                if not legal:
                    break
                action = legal[source.randrange(len(legal))]
            state = reduce(state, action)
            count += 1
        total_time += _clock() - start
        total_actions += count
    return total_actions / total_time


def bench_playouts(configs: list[GameConfig], repeat: int) -> None:
    for draw, how in ((False, "listing legal_actions"), (True, "drawing random_legal_action")):
        rates = [throughput(configs, draw=draw) for _ in range(repeat)]
        print(f"random playouts, {how}: median {statistics.median(rates):,.0f} actions/s "
              f"({len(configs)} games x {repeat} runs)")


def bench_new_game(configs: list[GameConfig]) -> None:
    new_game_ms = statistics.median(timed(lambda c=c: new_game(c)) for c in configs[:10] for _ in range(2)) * 1000
    print(f"new_game (default 20x30, generated terrain): median {new_game_ms:.2f} ms")


def bench_calls(configs: list[GameConfig]) -> None:
    phase_times: dict[str, list[float]] = defaultdict(list)
    reduce_times: list[float] = []
    for i, config in enumerate(configs[:5]):
        _, by_phase, reduces = random_game(config, i + 1)
        for phase, values in by_phase.items():
            phase_times[phase].extend(values)
        reduce_times.extend(reduces)
    print("legal_actions per call, by phase (median µs, calls):")
    for phase, values in sorted(phase_times.items()):
        print(f"  {phase:<16} {statistics.median(values) * 1e6:8.1f} µs  ({len(values)} calls)")
    print(f"reduce per action: median {statistics.median(reduce_times) * 1e6:.1f} µs "
          f"({len(reduce_times)} actions)")


def bench_replay(repeat: int) -> None:
    long_config = GameConfig(seed=2024, victory=VictoryConfig(round_limit=None, max_actions=2000))
    actions, _, _ = random_game(long_config, 99)
    state = new_game(long_config)
    hashes = []
    for action in actions:
        state = reduce(state, action)  # type: ignore[arg-type]
        hashes.append(state_hash(state))
    record = GameRecord(config=long_config, actions=tuple(actions), hashes=tuple(hashes))  # type: ignore[arg-type]

    def verify() -> None:
        for _ in replay(record):
            pass

    replay_ms = statistics.median(timed(verify) for _ in range(repeat)) * 1000
    print(f"replay+verify of a {len(actions)}-action record: median {replay_ms:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per throughput run")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions for each median")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time (default), or this process's CPU time on a machine shared with other work")
    args = parser.parse_args()
    if args.clock == "cpu":
        global _clock
        _clock = time.process_time

    configs = [GameConfig(seed=seed) for seed in range(1, args.games + 1)]
    bench_new_game(configs)
    bench_calls(configs)
    bench_playouts(configs, args.repeat)
    bench_replay(args.repeat)


if __name__ == "__main__":
    main()
