"""Bot benchmark: prints medians for MCTS iterations/s and seconds per search, and greedy decisions/s.

Random playouts are measured by scripts/bench_engine.py and the RL environment by
scripts/bench_rl.py: one figure per claim.

    python scripts/bench_bots.py [--games 5] [--size 20x30] [--iterations 48] [--option mcts.march=1] [--cpu]

``--option mcts.KEY=VALUE`` (repeatable, the value read as JSON) sets an MCTS option, exactly as
``taktik selfplay --option`` does (the same parser); ``--cpu`` times with the process's CPU
clock instead of the wall clock, for comparisons on a machine whose load changes.

Positions for the MCTS and greedy figures are the MOVEMENT and ATTACK decisions of greedy
self-play, where the search actually runs. An MCTS iteration is one simulation: a turn plan
played in a sampled world through two more turns of greedy play. A search also drafts the plans,
so seconds per search are printed too, median and max (a bot searches once per turn and then
follows its plan).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from cli.bot_choice import parse_bot_options
from cli.errors import CommandError
from engine import GameConfig, GameState, Phase, Side, legal_actions, new_game, player_view, reduce
from lab.bots import GreedyBot, MCTSBot, get_bot, seat_seed


def search_positions(config: GameConfig, wanted: int) -> list[GameState]:
    """MOVEMENT/ATTACK decisions (with choices) from a greedy-vs-greedy game."""
    state = new_game(config)
    bot = GreedyBot()
    seeds = {side: seat_seed(config.seed or 1, side) for side in Side}
    found: list[GameState] = []
    while state.to_act is not None and len(found) < wanted:
        side = state.to_act
        legal = legal_actions(state)
        if state.phase in (Phase.MOVEMENT, Phase.ATTACK) and side is state.active and len(legal) > 2:
            found.append(state)
        action, seeds[side] = bot.choose(player_view(state, side), legal, seeds[side])
        state = reduce(state, action)
    return found


def mcts_rates(
    positions: list[GameState], bot: MCTSBot, clock: Callable[[], float] = time.perf_counter
) -> tuple[list[float], list[float]]:
    """Simulations per second and seconds per search, for each position with several plans."""
    rates, seconds = [], []
    for state in positions:
        view = player_view(state, state.to_act)
        start = clock()
        _, stats = bot.search(view, legal_actions(state), 7)
        elapsed = clock() - start
        if stats.iterations:
            rates.append(stats.iterations / elapsed)
            seconds.append(elapsed)
    return rates, seconds


def greedy_rates(positions: list[GameState], clock: Callable[[], float] = time.perf_counter) -> list[float]:
    bot = GreedyBot()
    rates = []
    for state in positions:
        view, legal = player_view(state, state.to_act), legal_actions(state)
        start = clock()
        bot.choose(view, legal, 7)
        rates.append(1 / max(clock() - start, 1e-9))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games (and positions per game) to sample")
    parser.add_argument("--size", default="20x30", help="board size WxH (default 20x30, generated terrain)")
    parser.add_argument("--iterations", type=int, default=MCTSBot.iterations, help="MCTS iterations per search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--option", action="append", default=[], metavar="mcts.KEY=VALUE", help="an MCTS option (JSON value)"
    )
    parser.add_argument("--cpu", action="store_true", help="time with the process's CPU clock, not the wall clock")
    args = parser.parse_args()
    try:
        options = parse_bot_options(args.option, ["mcts"]).get("mcts", {})
        bot = get_bot("mcts", **{"iterations": args.iterations, **options})
    except CommandError as error:
        parser.error(str(error))
    assert isinstance(bot, MCTSBot)
    clock = time.process_time if args.cpu else time.perf_counter
    width, height = (int(v) for v in args.size.lower().split("x"))
    configs = [GameConfig(seed=args.seed + i, width=width, height=height) for i in range(args.games)]

    positions = [p for c in configs for p in search_positions(c, 6)]
    rates, seconds = mcts_rates(positions, bot, clock)
    extra = (f", options {json.dumps(options)}" if options else "") + (", CPU time" if args.cpu else "")
    print(
        f"MCTS search:     median {statistics.median(rates):9.1f} iterations/s  "
        f"{statistics.median(seconds):.2f} s/search (max {max(seconds):.2f} s)  "
        f"({len(rates)} positions, {args.iterations} iterations each{extra})"
    )
    decisions = greedy_rates(positions, clock)
    print(f"greedy decision: median {statistics.median(decisions):9.1f} decisions/s  ({len(decisions)} positions)")


if __name__ == "__main__":
    main()
