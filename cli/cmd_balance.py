"""`taktik balance VARIANT.json --games N --bots A,B --out DIR`: the standard rules against a variant.

Plays ``N`` games under the base rules and ``N`` under the variant, on the same seeds
(``S, S + 1, ...``), the bots swapping sides every game, in this process, in ``--jobs``
processes or on Ray (``--ray [ADDRESS]``); the numbers do not depend on where games run.
The base config comes from ``--config``/``--size`` (the default game otherwise); the variant
applies its scenario, cards and tables on top (`lab.variant`). Writes into ``DIR``:

- ``base/game-NNNN.json`` and ``variant/game-NNNN.json``: every game's record;
- ``balance.json``: the comparison and every game's numbers;
- ``balance.txt``: the table printed on the terminal;
- ``balance.html``: the report with plots (needs ``taktik[reports]``), opens offline.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import encode_record
from lab.balance import BalanceGame, compare, play_balance_game, schedule_balance
from lab.bots import BOTS
from lab.changes import rule_changes
from lab.report import comparison_json, format_comparison, html_report, require_plotting
from lab.runner import run_games
from lab.variant import VariantError, apply_variant, load_variant

from .backend_options import add_backend_options
from .bot_choice import parse_bot_pair
from .errors import CommandError, output_dir
from .game_options import add_config_options, config_from_args, start, whole_number
from .progress import Progress

__all__ = ["add_parser", "run"]


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("balance", help="compare the standard rules with a variant file")
    parser.add_argument("variant", type=Path, metavar="VARIANT.json", help="the variant file (see docs/lab.md)")
    add_config_options(parser)
    parser.add_argument("--games", type=whole_number(1, 1_000_000), default=20,
                        help="games per rule set (sides alternate)")
    parser.add_argument("--bots", default="greedy,greedy", metavar="A,B",
                        help=f"two registered bots ({', '.join(sorted(BOTS))}); default greedy,greedy")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where records and reports go")
    parser.add_argument("--no-html", action="store_true", help="skip the HTML report (no matplotlib needed)")
    add_backend_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    bots = parse_bot_pair(args.bots, "greedy,greedy")
    try:
        variant = load_variant(args.variant)
    except VariantError as err:
        raise CommandError(f"invalid variant {err}", hint="see docs/lab.md for the variant file") from None
    base = config_from_args(args)
    changed = apply_variant(base, variant)
    start(base)  # refuse a config the engine refuses, before any game is played
    start(changed)
    if not args.no_html:
        try:
            require_plotting()
        except RuntimeError as err:
            raise CommandError(str(err), hint="or pass --no-html") from None
    seed = args.seed if args.seed is not None else 1
    out: Path = output_dir(args.out)
    for rules in ("base", "variant"):
        output_dir(out / rules)
    items = schedule_balance(bots, args.games, seed, base, changed)
    progress = Progress(len(items), "games")
    progress.update(0)
    games: list[BalanceGame] = []
    try:
        for game, record in run_games(
            items, play_balance_game, jobs=args.jobs, ray_address=args.ray, on_decisions=progress.decisions
        ):
            games.append(game)
            (out / game.rules / f"game-{game.index:04d}.json").write_bytes(encode_record(record))
            progress.update(len(games), f"last: {game.rules} {game.reason}")
    except RuntimeError as err:  # Ray missing or unreachable
        progress.finish()
        raise CommandError(str(err), code=1) from None
    except OSError as err:
        progress.finish()
        raise CommandError(f"cannot write to {out}: {err.strerror or err}", code=1) from None
    progress.finish()
    comparison = compare(
        games, variant=variant.name, bots=bots, seed=seed, changed_cards=variant.changed_cards,
        changed_rules=rule_changes(base, variant),
    )
    table = format_comparison(comparison)
    print(table)
    try:
        (out / "balance.txt").write_text(table + "\n")
        (out / "balance.json").write_bytes(comparison_json(comparison, games))
        if not args.no_html:
            (out / "balance.html").write_text(html_report(comparison))
    except OSError as err:
        raise CommandError(f"cannot write the reports into {out}: {err.strerror or err}", code=1) from None
    print(f"records and reports written to {out}")
    return 0
