"""`taktik selfplay --bots mcts,greedy --games N --seed S --out DIR`: bots play a series.

Game ``i`` uses config seed ``S + i`` and the bots swap sides every game. Every game is
written to ``DIR/game-NNNN.json`` as a `GameRecord` (replay it with ``taktik replay``),
the results table (wins per bot and side, win rates with 95 % Wilson intervals, average
length) is printed and saved as ``DIR/summary.txt``. A plain progress line is updated on
stderr. ``--jobs N`` plays games in N processes, ``--ray [ADDRESS]`` as Ray tasks on a
local Ray or a cluster (`lab.runner`); records and the table do not depend on either.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from engine import encode_record
from lab.bots import BOTS
from lab.runner import run_games
from lab.selfplay import GameResult, format_summary, play_spec, schedule, summarize

from .backend_options import add_backend_options
from .bot_choice import parse_bot_options, parse_bot_pair
from .errors import CommandError, output_dir
from .game_options import add_config_options, game_from_args, whole_number
from .progress import Progress

__all__ = ["add_parser", "run"]


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("selfplay", help="let bots play each other and report results")
    add_config_options(parser)
    parser.add_argument(
        "--bots",
        required=True,
        metavar="A,B",
        help=f"two registered bots, first and second ({', '.join(sorted(BOTS))})",
    )
    parser.add_argument("--games", type=whole_number(1, 1_000_000), default=10,
                        help="number of games (sides alternate)")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help="write every game record here")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help="a bot option, e.g. mcts.iterations=400 (repeatable)",
    )
    add_backend_options(parser)
    parser.set_defaults(handler=run)


def run(
    args: argparse.Namespace, stream: TextIO | None = None, on_result: Callable[[GameResult], Any] | None = None
) -> int:
    names = parse_bot_pair(args.bots, "mcts,greedy")
    options = parse_bot_options(args.option, list(names))
    seed = args.seed if args.seed is not None else 1
    config, _ = game_from_args(args)
    specs = schedule(names, args.games, seed, config, options)
    if args.out is not None:
        output_dir(args.out)
    progress = Progress(args.games, "games", stream)
    progress.update(0)
    results: list[GameResult] = []
    try:
        for result in run_games(specs, play_spec, jobs=args.jobs, ray_address=args.ray,
                                on_decisions=progress.decisions):
            results.append(result)
            if args.out is not None:
                (args.out / f"game-{result.index:04d}.json").write_bytes(encode_record(result.record))
            if on_result is not None:
                on_result(result)
            progress.update(len(results), f"last: {result.winner_name()} ({result.reason})")
    except (ValueError, RuntimeError) as err:  # a bad scenario; Ray missing or unreachable
        progress.finish()
        raise CommandError(str(err), code=1) from None
    except OSError as err:
        progress.finish()
        raise CommandError(f"cannot write to {args.out}: {err.strerror or err}", code=1) from None
    progress.finish()
    table = format_summary(summarize(results))
    header = f"{args.games} games, bots {names[0]} vs {names[1]}, seeds {seed}..{seed + args.games - 1}" + (
        f", options {json.dumps(options, sort_keys=True)}" if options else ""
    )
    print(f"{header}\n{table}")
    if args.out is not None:
        try:
            (args.out / "summary.txt").write_text(f"{header}\n{table}\n")
        except OSError as err:
            raise CommandError(f"cannot write {args.out / 'summary.txt'}: {err.strerror or err}", code=1) from None
        print(f"records written to {args.out}")
    return 0
