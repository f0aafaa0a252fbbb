"""`taktik fuzz --games N --seed S [--out DIR]`: random legal playouts checking every invariant.

Game ``i`` plays a random small scenario (`lab.fuzz.random_config`) with random legal
choices, both from seed ``S + i``, and checks every engine invariant at every step (see
`lab.fuzz`). On a failure the game is shrunk to a minimal failing record and written
to ``DIR`` (default ``fuzz-failures``) as a ready-to-run pytest file plus the record;
the exit code is then 1. ``--maps default`` fuzzes full default games instead.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from msgspec.structs import replace

from engine import GameConfig, encode_record
from lab.fuzz import FuzzOptions, fuzz_game, game_seed, pytest_source, random_config, shrink

from .cmd_selfplay import Progress
from .game_options import parse_size

__all__ = ["add_parser", "run"]


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("fuzz", help="random legal playouts that check every engine invariant")
    parser.add_argument("--games", type=int, default=20, help="number of games")
    parser.add_argument("--seed", type=int, default=1, help="first seed (game i uses seed + i)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="where failing games go as pytest files (default: fuzz-failures)",
    )
    parser.add_argument(
        "--maps",
        choices=("random", "default"),
        default="random",
        help="random small scenarios (default) or default generated games",
    )
    parser.add_argument("--size", type=parse_size, default=None, metavar="WxH", help="board size for --maps default")
    parser.add_argument("--unlisted", type=int, default=8, help="unlisted actions tried per step")
    parser.add_argument("--shrink-budget", type=int, default=400, help="replays spent shrinking a failure")
    parser.add_argument("--keep-going", action="store_true", help="continue after a failure")
    parser.set_defaults(handler=run)


def _config(args: argparse.Namespace, seed: int) -> GameConfig:
    if args.maps == "random":
        return random_config(seed)
    config = GameConfig(seed=seed)
    if args.size is not None:
        config = replace(config, width=args.size[0], height=args.size[1])
    return config


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise SystemExit("taktik fuzz: --games must be at least 1")
    out: Path = args.out if args.out is not None else Path("fuzz-failures")
    options = FuzzOptions(unlisted=args.unlisted)
    progress = Progress(args.games, "games")
    failures = 0
    actions = 0
    for i in range(args.games):
        seed = game_seed(args.seed, i)
        try:
            config = _config(args, seed)
        except ValueError as err:
            raise SystemExit(f"taktik fuzz: invalid config: {err}") from None
        outcome = fuzz_game(config, seed, options)
        actions += len(outcome.actions)
        if outcome.failure is not None:
            failures += 1
            progress.finish()
            print(f"game {i} (seed {seed}): {outcome.failure.describe()}")
            shrunk = shrink(config, outcome.actions, outcome.failure, args.shrink_budget)
            out.mkdir(parents=True, exist_ok=True)
            stem = f"test_fuzz_seed{seed}_{shrunk.failure.check}"
            source = pytest_source(shrunk, f"taktik fuzz --seed {args.seed}, game {i}")
            (out / f"{stem}.py").write_text(source)
            (out / f"{stem}.json").write_bytes(encode_record(shrunk.record))
            print(
                f"shrunk from {len(outcome.actions)} to {len(shrunk.record.actions)} actions in {shrunk.tests} "
                f"replays: {shrunk.failure.describe()}\nwritten {out / stem}.py (run it with pytest)"
            )
            if not args.keep_going:
                return 1
            progress = Progress(args.games - i - 1, "games")
        progress.update(i + 1 if failures == 0 else progress.done + 1)
    progress.finish()
    print(
        f"fuzzed {args.games} games, {actions} actions: "
        + (f"{failures} failing game(s), see {out}" if failures else "every invariant held")
    )
    return 1 if failures else 0
