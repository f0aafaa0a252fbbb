"""`taktik ladder --bots random,greedy,mcts,strong --games N --seed S --out DIR`: rate bots in a round robin.

Every pair of entries plays ``N`` games on seeds ``S .. S+N-1``, sides alternating, so every
pair meets on the same deals (`lab.ladder`); the results are fitted into ratings on the Elo
scale with 95 % intervals (`lab.rating`). An entry is a registered bot (``greedy``), the same
bot under a label with options (``wide=mcts`` and ``--option wide.wide=true``), or an outside
program (``--outside mine='python my_bot.py'``) that plays its seat of a live match on
``--server``: it is handed the seat's link on stdin (`cli.ladder_wire`). Prints the table and
writes into ``DIR``: ``games/game-NNNN.json`` (every record; ``taktik replay`` verifies it),
``ladder.txt``, ``ladder.json`` and ``ladder.html``.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from pathlib import Path
from typing import TextIO

import msgspec

from engine import RULES_VERSION, Side, encode_record
from lab.bots import BOTS, bot_options, get_bot
from lab.ladder import Entry, play_ladder_game, schedule_ladder, standings
from lab.ladder_report import format_standings, standings_html, standings_json
from lab.runner import run_games
from lab.selfplay import GameResult

from .backend_options import add_backend_options
from .errors import CommandError, output_dir
from .game_options import add_config_options, game_from_args, whole_number
from .ladder_wire import WireOptions, play_over_the_wire
from .progress import Progress

__all__ = ["add_parser", "parse_entries", "run"]

_LABEL = re.compile(r"[a-z][a-z0-9_-]{0,31}")
DEFAULT_ANCHOR = "greedy"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("ladder", help="rate bots (and outside programs) in a round robin")
    add_config_options(parser)
    parser.add_argument("--bots", required=True, metavar="ENTRIES",
                        help="comma-separated entries: a bot name, or LABEL=BOT for a bot with its own options "
                             f"(bots: {', '.join(sorted(BOTS))})")
    parser.add_argument("--option", action="append", default=[], metavar="LABEL.KEY=VALUE",
                        help="an option of one entry's bot, e.g. wide.wide=true (repeatable; the value read as JSON)")
    parser.add_argument("--outside", action="append", default=[], metavar="LABEL=COMMAND",
                        help="an outside program as an entry: COMMAND plays one seat, given its link on stdin "
                             "(e.g. mine='taktik join - --bot greedy'); needs --server")
    parser.add_argument("--server", default=None, metavar="URL",
                        help="a taktik serve where the outside entries' games are played (http://HOST:PORT)")
    parser.add_argument("--rate", type=float, default=2.0, metavar="ACTIONS_PER_SECOND",
                        help="over the wire, pace the lab bots' actions after a burst of 10 (default 2, the "
                             "server's limit; 0: no pacing, for a server whose limits were lifted)")
    parser.add_argument("--games", type=whole_number(1, 100_000), default=10, help="games per pair (sides alternate)")
    parser.add_argument("--anchor", default=None, metavar="LABEL",
                        help=f"the entry rated 0 (default {DEFAULT_ANCHOR} if it plays, else the first entry)")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help="write records, JSON and HTML here")
    add_backend_options(parser)
    parser.set_defaults(handler=run)


def parse_entries(bots: str, options: list[str], outside: list[str]) -> list[Entry]:
    """The entries the arguments name, each checked (a bad name, label or option is a `CommandError`)."""
    named: list[tuple[str, str]] = []
    for item in (part.strip() for part in bots.split(",")):
        label, sep, bot = item.partition("=")
        named.append((label.strip(), (bot if sep else label).strip()))
    commands: dict[str, tuple[str, ...]] = {}
    for item in outside:
        label, sep, text = item.partition("=")
        try:
            command = tuple(shlex.split(text))
        except ValueError as err:
            raise CommandError(f"--outside {item!r}: {err}") from None
        if not sep or not command:
            raise CommandError(f"--outside {item!r} is not LABEL=COMMAND", hint="e.g. --outside mine='python bot.py'")
        commands[label.strip()] = command
    labels = [label for label, _ in named] + list(commands)
    for label in labels:
        if not _LABEL.fullmatch(label):
            raise CommandError(f"{label!r} is not an entry label: lower-case letters, digits, - and _, "
                               "starting with a letter")
    if len(set(labels)) != len(labels):
        raise CommandError(f"every entry needs its own label: {', '.join(labels)}")
    if len(labels) < 2:
        raise CommandError("a ladder needs at least two entries", hint="e.g. --bots random,greedy")
    chosen: dict[str, dict[str, object]] = {label: {} for label, _ in named}
    bot_of = dict(named)
    for bot in bot_of.values():
        if bot not in BOTS:
            raise CommandError(f"unknown bot {bot!r}; known bots: {', '.join(sorted(BOTS))}")
    for item in options:
        key, sep, text = item.partition("=")
        label, dot, option = key.partition(".")
        if not sep or not dot or label not in chosen:
            raise CommandError(f"--option {item!r} is not LABEL.OPTION=VALUE for one of {', '.join(chosen)}")
        if option not in bot_options(bot_of[label]):
            known = ", ".join(bot_options(bot_of[label])) or "none"
            raise CommandError(f"{label} ({bot_of[label]}) has no option {option!r} (options: {known})")
        try:
            value: object = json.loads(text)
        except json.JSONDecodeError:
            value = text
        chosen[label][option] = value
    entries = []
    for label, bot in named:
        try:
            get_bot(bot, **chosen[label])  # refuse a bad value now, not in the middle of the ladder
        except (TypeError, ValueError) as err:
            raise CommandError(f"bad options for {label} ({bot}, {json.dumps(chosen[label])}): {err}") from None
        entries.append(Entry(label, bot, chosen[label]))
    entries += [Entry(label, command=command) for label, command in commands.items()]
    return entries


def run(args: argparse.Namespace, stream: TextIO | None = None) -> int:
    entries = parse_entries(args.bots, args.option, args.outside)
    labels = [e.label for e in entries]
    anchor = args.anchor or (DEFAULT_ANCHOR if DEFAULT_ANCHOR in labels else labels[0])
    if anchor not in labels:
        raise CommandError(f"--anchor {anchor!r} is not an entry ({', '.join(labels)})")
    if any(e.outside for e in entries) and args.server is None:
        raise CommandError("--outside entries play on a server: give --server http://HOST:PORT",
                           hint="start one with taktik serve")
    if args.rate < 0 or args.rate != args.rate:
        raise CommandError(f"--rate {args.rate} is not a number from 0 up")
    seed = args.seed if args.seed is not None else 1
    config, _ = game_from_args(args)
    games = schedule_ladder(entries, args.games, seed, config)
    if args.out is not None:
        output_dir(args.out / "games")
    local = [g for g in games if not g.over_the_wire]
    wired = [g for g in games if g.over_the_wire]
    progress = Progress(len(games), "games", stream)
    progress.update(0)
    results: list[GameResult] = []

    def keep(result: GameResult) -> None:
        results.append(result)
        if args.out is not None:
            try:
                (args.out / "games" / f"game-{result.index:04d}.json").write_bytes(encode_record(result.record))
            except OSError as err:
                raise CommandError(f"cannot write to {args.out}: {err.strerror or err}", code=1) from None
        winner = result.attacker if result.winner is Side.ATTACKER else result.defender
        progress.update(len(results), f"last: {result.attacker} vs {result.defender}, {winner} won ({result.reason})")

    try:
        for result in run_games(local, play_ladder_game, jobs=args.jobs, ray_address=args.ray,
                                on_decisions=progress.decisions):
            keep(result)
        wire = WireOptions(server=args.server or "", action_rate=args.rate or None)
        for game in wired:
            keep(play_over_the_wire(game, wire))
    except (ValueError, RuntimeError) as err:  # a bad scenario; Ray missing or unreachable
        progress.finish()
        raise CommandError(str(err), code=1) from None
    except CommandError:
        progress.finish()
        raise
    progress.finish()
    table = standings(entries, results, anchor)
    title = (f"ladder: {len(entries)} entries, {args.games} games per pair, seeds {seed}..{seed + args.games - 1}, "
             f"{config.width or 20}x{config.height or 30}")
    text = format_standings(table, title)
    print(text)
    if args.out is not None:
        run_info = {"entries": [e.describe() for e in entries], "games_per_pair": args.games, "seed": seed,
                    "config": msgspec.to_builtins(config), "rules_version": RULES_VERSION, "anchor": anchor,
                    "server": args.server}
        try:
            (args.out / "ladder.txt").write_text(text + "\n")
            (args.out / "ladder.json").write_bytes(standings_json(table, results, run_info))
            (args.out / "ladder.html").write_text(standings_html(table, title))
        except OSError as err:
            raise CommandError(f"cannot write to {args.out}: {err.strerror or err}", code=1) from None
        print(f"records, ladder.json and ladder.html written to {args.out}")
    return 0
