"""RL environment benchmark: agent steps per second of `TaktikEnv` against the random bot.

    python scripts/bench_rl.py [--episodes 4] [--repeat 3] [--clock cpu]

The agent picks uniformly among the masked actions (numpy's generator, seeded), on the
default game (20x30 generated map); ``reset`` (building a new game) is not timed. One
figure per configuration, as a median over the repeats: the default env (mask in the
observation), and the env with the mask kept out of the observation and forced steps
auto-played. A third line times the engine alone on the default env's games: the same
listings, draws and ``reduce`` calls without the env (no observation, mask or indexing),
the floor the env's own work adds to. Target (2-core machine): >= 5,000 steps/s.

The agent reads the mask through a boolean view: ``np.flatnonzero`` of the int8 mask
itself scans 36,130 bytes at about 65 us, as long as a third of a whole step, and that
is the agent's cost, not the environment's. The picks are the same either way.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
from msgspec.structs import replace

from engine import Action, GameConfig, legal_actions, new_game, reduce
from lab.bots import RandomBot, seat_seed
from lab.rl import TaktikEnv

_clock = time.perf_counter


def _pick(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    """A uniform legal index (the same as ``rng.choice(np.flatnonzero(mask))``)."""
    legal = np.flatnonzero(mask.view(np.bool_))
    return int(legal[rng.integers(len(legal))])


def steps_per_second(episodes: int, **options: bool) -> float:
    """Agent steps per second over ``episodes`` whole games (``reset``, a new game, excluded)."""
    return timed_games(episodes, **options)[0]


def timed_games(episodes: int, **options: bool) -> tuple[float, float]:
    """Agent steps per second and milliseconds per game over ``episodes`` whole games (``reset`` excluded).

    With ``auto_forced`` the agent plays the same games (a pick among one legal action
    draws nothing from the generator) but is not asked at the forced decisions: fewer,
    dearer steps for the same game, so the time a game takes is the figure to compare.
    """
    env = TaktikEnv(opponent="random", **options)
    rng = np.random.default_rng(0)
    steps, elapsed = 0, 0.0
    for episode in range(episodes):
        _, info = env.reset(seed=episode + 1)
        start = _clock()
        while True:
            _, _, terminated, truncated, info = env.step(_pick(info["action_mask"], rng))
            steps += 1
            if terminated or truncated:
                break
        elapsed += _clock() - start
    return steps / elapsed, elapsed / episodes * 1000


def agent_games(episodes: int) -> list[list[Action]]:
    """The agent's actions in each game `steps_per_second` plays with the default options (not timed)."""
    env = TaktikEnv(opponent="random")
    rng = np.random.default_rng(0)
    games = []
    for episode in range(episodes):
        _, info = env.reset(seed=episode + 1)
        played: list[Action] = []
        while True:
            index = _pick(info["action_mask"], rng)
            played.append(env.space.action_at(index, env.state))
            _, _, terminated, truncated, info = env.step(index)
            if terminated or truncated:
                break
        games.append(played)
    return games


def engine_alone(games: list[list[Action]]) -> float:
    """Agent steps per second of the engine calls a default env step makes, replaying ``games``.

    Per agent step: one `legal_actions` of the agent's position and its `reduce`; the
    random opponent's draws and `reduce` calls in between, as the env makes them.
    """
    agent = TaktikEnv().agent_side
    opponent = RandomBot()
    steps, elapsed = 0, 0.0
    for episode, played in enumerate(games):
        state = new_game(replace(GameConfig(), seed=episode + 1))
        seed = seat_seed(episode + 1, agent.other)
        moves = iter(played)
        start = _clock()
        while state.to_act is not None:
            if state.to_act is not agent:
                action, seed = opponent.draw(state, seed)
            else:
                legal_actions(state)
                action = next(moves)
                steps += 1
            state = reduce(state, action)
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
    configs: tuple[tuple[str, dict[str, bool]], ...] = (
        ("default (mask in the observation)", {}),
        ("mask out of the observation, forced steps auto-played", {"mask_in_observation": False, "auto_forced": True}),
    )
    for name, options in configs:
        rates, games = zip(*(timed_games(args.episodes, **options) for _ in range(args.repeat)), strict=True)
        print(f"TaktikEnv vs random, {name}: median {statistics.median(rates):,.0f} steps/s, "
              f"{statistics.median(games):,.1f} ms a game ({args.episodes} games x {args.repeat} runs)")
    games = agent_games(args.episodes)
    rates = [engine_alone(games) for _ in range(args.repeat)]
    print(f"engine alone on the default env's games (the floor): median {statistics.median(rates):,.0f} steps/s "
          f"({args.episodes} games x {args.repeat} runs)")


if __name__ == "__main__":
    main()
