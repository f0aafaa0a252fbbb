"""RL environment benchmark: agent steps per second of `TaktikEnv` against the random bot.

    python scripts/bench_rl.py [--episodes 4] [--repeat 3] [--clock cpu]

The agent picks uniformly among the masked actions (numpy's generator, seeded), on the
default game (20x30 generated map); ``reset`` (building a new game) is not timed. One
figure per configuration, as a median over the repeats: the default env (mask in the
observation), and the env with the mask kept out of the observation and forced steps
auto-played. Target (2-core machine): >= 5,000 steps/s.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from lab.rl import TaktikEnv

_clock = time.perf_counter


def steps_per_second(episodes: int, **options: bool) -> float:
    """Agent steps per second over ``episodes`` whole games (``reset``, a new game, excluded)."""
    env = TaktikEnv(opponent="random", **options)
    rng = np.random.default_rng(0)
    steps, elapsed = 0, 0.0
    for episode in range(episodes):
        _, info = env.reset(seed=episode + 1)
        start = _clock()
        while True:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        elapsed += _clock() - start
    return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4, help="whole games per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements for each median")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time (default), or this process's CPU time on a machine shared with other work")
    args = parser.parse_args()
    if args.clock == "cpu":
        global _clock
        _clock = time.process_time
    configs = (
        ("default (mask in the observation)", {}),
        ("mask out of the observation, forced steps auto-played", {"mask_in_observation": False, "auto_forced": True}),
    )
    for name, options in configs:
        rates = [steps_per_second(args.episodes, **options) for _ in range(args.repeat)]
        print(f"TaktikEnv vs random, {name}: median {statistics.median(rates):,.0f} steps/s "
              f"({args.episodes} games x {args.repeat} runs)")


if __name__ == "__main__":
    main()
