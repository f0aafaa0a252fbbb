"""Series benchmark: the CPU time a self-play game takes, and what a series costs on a 2-core machine.

    python scripts/bench_series.py [--bots mcts,greedy] [--games 10] [--seed 1] [--series 100]
                                   [--size WxH] [--option mcts.KEY=VALUE]

Plays the first ``--games`` games of the series ``taktik selfplay --bots A,B --seed S`` plays
(the same specs: `lab.selfplay.schedule`), one after another in this process, and times each
by the process's CPU clock, which the load of a shared machine does not inflate the way it
does the wall clock. Prints the CPU time per game (median and mean), how long these games
take in one process and with ``--jobs 2`` (each game in order to whichever of two processes
is free first, as the process pool hands them out), and an estimate for a ``--series``-game
run from the mean. The docs quote it where they say how long a series takes.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cli.bot_choice import parse_bot_options, parse_bot_pair
from engine import GameConfig
from lab.selfplay import play_spec, schedule


def two_processes(seconds: list[float]) -> float:
    """How long ``seconds`` of games take on two processes, each game going to the first one free."""
    free = [0.0, 0.0]
    for cost in seconds:
        free[free.index(min(free))] += cost
    return max(free)


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 600 else f"{seconds:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="mcts,greedy")
    parser.add_argument("--games", type=int, default=10, help="games played and timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--series", type=int, default=100, help="the series size to estimate")
    parser.add_argument("--size", default=None, help="board size WxH (default: the default game's)")
    parser.add_argument("--option", action="append", default=[], metavar="BOT.KEY=VALUE")
    args = parser.parse_args()
    bots = parse_bot_pair(args.bots, "mcts,greedy")
    options = parse_bot_options(args.option, list(bots))
    config = GameConfig()
    if args.size:
        width, height = (int(n) for n in args.size.lower().split("x"))
        config = GameConfig(width=width, height=height)
    seconds: list[float] = []
    actions: list[int] = []
    for spec in schedule(bots, args.games, args.seed, config, options):
        start = time.process_time()
        result = play_spec(spec)
        seconds.append(time.process_time() - start)
        actions.append(result.actions)
    board = args.size or "default 20x30"
    print(f"series: {bots[0]} vs {bots[1]}, seeds {args.seed}..{args.seed + args.games - 1}, {board} board"
          + (f", options {options}" if options else ""))
    print(f"CPU per game: median {statistics.median(seconds):.1f} s, mean {statistics.mean(seconds):.1f} s "
          f"(min {min(seconds):.1f}, max {max(seconds):.1f}); {statistics.mean(actions):.1f} actions a game")
    print(f"these {args.games} games: {minutes(sum(seconds))} in one process, "
          f"{minutes(two_processes(seconds))} with --jobs 2 on 2 cores")
    total = statistics.mean(seconds) * args.series
    print(f"{args.series} games, from the mean: about {minutes(total)} in one process, "
          f"{minutes(total / 2)} with --jobs 2 on 2 cores")


if __name__ == "__main__":
    main()
