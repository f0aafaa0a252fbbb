"""Bot benchmark: the CPU time of a planning bot's searches and of every decision it makes in play.

Random playouts are measured by scripts/bench_engine.py and the RL environment by
scripts/bench_rl.py: one figure per claim.

    python scripts/bench_bots.py [--bots strong,mcts] [--games 4] [--seed 1] [--size 20x30]
                                 [--option strong.KEY=VALUE] [--played 2] [--wall] [--think SECONDS]

For each bot of ``--bots`` (a planning bot: it searches once per turn and then follows its
plan) it prints

* **search**: the median and the maximum time of one search, over the first MOVEMENT decision
  of every turn from turn 3 on (the turns with attacks: rules §6.1's truce keeps turns 1 and 2
  quiet) of ``--games`` greedy self-play games, where a planning bot searches;
* **in play**: the median, 90th percentile and maximum time of *every* decision the bot makes
  in ``--played`` games against greedy (searches, the decisions that follow a plan, cards,
  dice), and the searches per game;

and the greedy bot's decisions a second at the same positions. Times are the process's CPU
time (the load of a shared machine does not inflate it the way it does the wall clock;
``--wall`` times the wall clock instead). ``--option BOT.KEY=VALUE`` (repeatable, the value
read as JSON) sets a bot option exactly as ``taktik selfplay --option`` does. ``--think SECONDS``
gives a bot that can think within a time that many seconds of the wall clock per decision, as
``taktik serve --bot-think`` gives its seats (without it, the bots run as in the lab: no clock).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from cli.bot_choice import parse_bot_options
from cli.errors import CommandError
from engine import GameConfig, GameState, Phase, Side, legal_actions, new_game, player_view, reduce
from lab.bots import Bot, GreedyBot, get_bot, seat_seed

Clock = Callable[[], float]


def search_positions(config: GameConfig, wanted: int) -> list[GameState]:
    """The first MOVEMENT decision of each turn from turn 3 on, in a greedy-vs-greedy game."""
    state = new_game(config)
    bot = GreedyBot()
    seeds = {side: seat_seed(config.seed or 1, side) for side in Side}
    found: list[GameState] = []
    turns: set[int] = set()
    while state.to_act is not None and len(found) < wanted:
        side = state.to_act
        legal = legal_actions(state)
        if state.phase is Phase.MOVEMENT and side is state.active and state.turn >= 3 and state.turn not in turns:
            turns.add(state.turn)
            if len(legal) > 2:
                found.append(state)
        action, seeds[side] = bot.choose(player_view(state, side), legal, seeds[side])
        state = reduce(state, action)
    return found


def search_times(positions: Sequence[GameState], make: Callable[[], Any], clock: Clock) -> list[float]:
    """Seconds of one fresh search at each position."""
    seconds = []
    for state in positions:
        bot = make()
        view, legal = player_view(state, state.to_act), legal_actions(state)
        start = clock()
        bot.search(view, legal, 7)
        seconds.append(clock() - start)
    return seconds


def decision_times(make: Callable[[], Bot], configs: Sequence[GameConfig], clock: Clock) -> tuple[list[float], int]:
    """Seconds of every decision ``make()``'s bot takes in games against greedy (sides alternating),
    and how many of them searched."""
    seconds: list[float] = []
    searched = 0
    for n, config in enumerate(configs):
        bot, greedy = make(), GreedyBot()
        mine = Side.ATTACKER if n % 2 == 0 else Side.DEFENDER
        counter = _Counted(getattr(bot, "search", None))
        if counter.search is not None:
            object.__setattr__(bot, "search", counter)  # the bot's own calls to search go through the counter
        state = new_game(config)
        seeds = {side: seat_seed(config.seed or 1, side) for side in Side}
        while state.to_act is not None:
            side = state.to_act
            legal = legal_actions(state)
            view = player_view(state, side)
            if side is mine:
                start = clock()
                action, seeds[side] = bot.choose(view, legal, seeds[side])
                seconds.append(clock() - start)
            else:
                action, seeds[side] = greedy.choose(view, legal, seeds[side])
            state = reduce(state, action)
        searched += counter.calls
    return seconds, searched


class _Counted:
    """A bot's ``search``, counting its calls."""

    def __init__(self, search: Any) -> None:
        self.search = search
        self.calls = 0

    def __call__(self, view: GameState, legal: Sequence[Any], rng: int) -> Any:
        self.calls += 1
        return self.search(view, legal, rng)


def greedy_rates(positions: Sequence[GameState], clock: Clock) -> list[float]:
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
    parser.add_argument("--bots", default="strong", help="planning bots to time, comma-separated (default strong)")
    parser.add_argument("--games", type=int, default=4, help="greedy games the search positions come from")
    parser.add_argument("--played", type=int, default=2,
                        help="games each bot plays against greedy, every decision timed")
    parser.add_argument("--size", default="20x30", help="board size WxH (default 20x30, generated terrain)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="BOT.KEY=VALUE",
                        help="a bot option (JSON value), as taktik selfplay takes it")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock, not the process's CPU clock")
    parser.add_argument("--think", type=float, default=None, metavar="SECONDS",
                        help="wall-clock seconds per decision for a bot that can think within a time "
                             "(as taktik serve --bot-think gives them; default: no limit)")
    args = parser.parse_args()
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    try:
        options = parse_bot_options(args.option, names)
        for name in names:
            get_bot(name, **options.get(name, {}))
    except (CommandError, ValueError) as error:
        parser.error(str(error))
    clock: Clock = time.perf_counter if args.wall else time.process_time
    width, height = (int(v) for v in args.size.lower().split("x"))
    configs = [GameConfig(seed=args.seed + i, width=width, height=height) for i in range(args.games)]
    positions = [p for c in configs for p in search_positions(c, 8)]
    timing = "wall clock" if args.wall else "CPU time"
    thinking = f", thinking within {args.think} s of the wall clock" if args.think is not None else ""
    for name in names:
        chosen = options.get(name, {})

        def make(name: str = name, chosen: dict[str, object] = chosen) -> Any:
            bot = get_bot(name, **chosen)
            within = getattr(bot, "within", None)
            return within(args.think, time.perf_counter) if args.think is not None and callable(within) else bot

        if not callable(getattr(make(), "search", None)):
            print(f"{name}: not a planning bot (no search); its decisions are timed below as in play")
        else:
            seconds = search_times(positions, make, clock)
            shown = f", options {json.dumps(chosen)}" if chosen else ""
            print(f"{name} search:    median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s  "
                  f"({len(seconds)} positions, turns 3 on, {timing}{shown}{thinking})")
        played = [GameConfig(seed=args.seed + 1000 + i, width=width, height=height) for i in range(args.played)]
        if played:
            seconds, searched = decision_times(make, played, clock)
            ranked = sorted(seconds)
            tenth = ranked[int(0.9 * (len(ranked) - 1))]
            print(f"{name} in play:   median {statistics.median(ranked):.3f} s, 90% {tenth:.3f} s, "
                  f"max {ranked[-1]:.2f} s per decision  ({len(ranked)} decisions in {args.played} games against "
                  f"greedy, {searched / args.played:.0f} searches a game{thinking})")
    rates = greedy_rates(positions, clock)
    print(f"greedy decision: median {statistics.median(rates):9.1f} decisions/s  ({len(rates)} positions)")


if __name__ == "__main__":
    main()
