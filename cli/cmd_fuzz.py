"""`taktik fuzz --games N --seed S [--out DIR]`: random legal playouts checking every invariant.

Game ``i`` plays a random small scenario (`lab.fuzz.random_config`) with random legal
choices, both from seed ``S + i``, and checks every engine invariant at every step (see
`lab.fuzz`). On a failure the game is shrunk to a minimal failing record and written
to ``DIR`` (default ``fuzz-failures``) as a ready-to-run pytest file plus the record;
the exit code is then 1. ``--maps default`` fuzzes full default games instead.

Games run where ``--jobs``/``--ray`` say (`lab.runner`) and are judged in game order, so
the output does not depend on it. The run ends with its rule coverage (`lab.fuzz.coverage`):
which cards, tactics, effects, phases, windows, victory conditions and refusal codes
it reached and which it never did; ``--guided`` steers later games toward the unreached.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from msgspec.structs import replace

from engine import GameConfig, encode_record
from lab.fuzz import FuzzOptions, game_seed, pytest_source, random_config, shrink
from lab.fuzz.batch import GUIDE_WAVE, FuzzJob, FuzzResult, play_fuzz
from lab.fuzz.coverage import Coverage, Guide, format_coverage
from lab.runner import in_order, run_games

from .backend_options import add_backend_options
from .errors import CommandError, output_dir
from .game_options import parse_seed, parse_size, start, whole_number
from .progress import Progress

__all__ = ["add_parser", "run"]


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("fuzz", help="random legal playouts that check every engine invariant")
    parser.add_argument("--games", type=whole_number(1, 1_000_000), default=20, help="number of games")
    parser.add_argument("--seed", type=parse_seed, default=1, help="first seed (game i uses seed + i)")
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
    parser.add_argument("--unlisted", type=whole_number(0, 1000), default=8, help="unlisted actions tried per step")
    parser.add_argument("--shrink-budget", type=whole_number(1, 1_000_000), default=400,
                        help="replays spent shrinking a failure")
    parser.add_argument("--keep-going", action="store_true", help="continue after a failure")
    parser.add_argument(
        "--guided",
        action="store_true",
        help=f"steer play toward cards not reached yet (in waves of {GUIDE_WAVE} games; deterministic)",
    )
    add_backend_options(parser)
    parser.set_defaults(handler=run)


def _config(args: argparse.Namespace, seed: int) -> GameConfig:
    if args.maps == "random":
        return random_config(seed)
    config = GameConfig(seed=seed)
    if args.size is not None:
        config = replace(config, width=args.size[0], height=args.size[1])
    return config


def _results(
    args: argparse.Namespace, options: FuzzOptions, total: Coverage, progress: Progress
) -> Iterator[FuzzResult]:
    """Every game's result in game order; a guided run plays in waves, each guided by ``total`` so far."""
    wave = GUIDE_WAVE if args.guided else args.games
    decided = 0

    def count(n: int) -> None:  # decisions of this wave, on top of the waves before
        progress.decisions(decided + n)

    for first in range(0, args.games, wave):
        guide = Guide.toward(total) if args.guided else None
        jobs = []
        for i in range(first, min(first + wave, args.games)):
            seed = game_seed(args.seed, i)
            jobs.append(FuzzJob(i, seed, _config(args, seed), options, guide))
        played = run_games(jobs, play_fuzz, jobs=args.jobs, ray_address=args.ray, on_decisions=count)
        yield from in_order(played, lambda r: r.index, first)
        decided = progress.decided


def run(args: argparse.Namespace) -> int:
    if args.size is not None and args.maps != "default":
        raise CommandError("--size goes with --maps default (random scenarios choose their own size)")
    out = output_dir(args.out if args.out is not None else Path("fuzz-failures"), keep=False)
    if args.maps == "default":
        start(_config(args, args.seed))  # bad input is the user's to fix, not an engine failure to report
    options = FuzzOptions(unlisted=args.unlisted)
    progress = Progress(args.games, "games")
    coverage = Coverage()
    failures = 0
    actions = 0
    try:
        for result in _results(args, options, coverage, progress):
            outcome, i, seed = result.outcome, result.index, result.seed
            coverage.merge(result.coverage)
            actions += len(outcome.actions)
            if outcome.failure is not None:
                failures += 1
                progress.finish()
                print(f"game {i} (seed {seed}): {outcome.failure.describe()}")
                _write_failure(args, out, result)
                if not args.keep_going:
                    print(format_coverage(coverage))
                    return 1
                progress = Progress(args.games - i - 1, "games")
            progress.update(i + 1 if failures == 0 else progress.done + 1)
    except RuntimeError as err:  # Ray missing or unreachable
        progress.finish()
        raise CommandError(str(err), code=1) from None
    progress.finish()
    print(
        f"fuzzed {args.games} games, {actions} actions: "
        + (f"{failures} failing game(s), see {out}" if failures else "every invariant held")
    )
    print(format_coverage(coverage))
    return 1 if failures else 0


def _write_failure(args: argparse.Namespace, out: Path, result: FuzzResult) -> None:
    """Shrink a failing game and write it as a pytest file plus its record."""
    outcome = result.outcome
    assert outcome.failure is not None
    shrunk = shrink(result.config, outcome.actions, outcome.failure, args.shrink_budget)
    stem = f"test_fuzz_seed{result.seed}_{shrunk.failure.check}"
    source = pytest_source(shrunk, f"taktik fuzz --seed {args.seed}, game {result.index}")
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{stem}.py").write_text(source)
        (out / f"{stem}.json").write_bytes(encode_record(shrunk.record))
    except OSError as err:
        raise CommandError(f"cannot write the failing game to {out}: {err.strerror or err}", code=1) from None
    print(
        f"shrunk from {len(outcome.actions)} to {len(shrunk.record.actions)} actions in {shrunk.tests} "
        f"replays: {shrunk.failure.describe()}\nwritten {out / stem}.py (run it with pytest)"
    )
