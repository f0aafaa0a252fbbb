"""`taktik join SEAT_URL --bot NAME [--option K=V]` (or ``--policy MODULE:CALLABLE``): play one seat of a live match.

The seat is played to the end over the server's WebSocket (`client.play_seat`): the bot
or policy decides whenever the seat must, within the time its clock leaves; the socket is
reopened after a drop or a server restart; the result is printed and is the exit code:

    0  the game is over and this seat won        4  the server cannot be reached, or did not come back
    1  the game is over and this seat lost       5  the policy raised, or chose an action that is not legal
    2  bad arguments, or a wrong link             6  the server speaks another protocol or rules version
    3  the seat cannot be played (over, read-only, played by another client, refused)

The link carries the seat's secret token: it is never printed or logged (``-`` reads the
link from stdin, so it stays out of the process list). docs/client-api.md is the manual.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from client import BotPolicy, ClientError, JoinOptions, Policy, fetch_record, parse_seat_link, play_seat
from engine import encode_record
from lab.bots import BOTS, get_bot

from .bot_choice import parse_bot_options
from .errors import CommandError, output_file
from .game_options import nonnegative_number, parse_seed

__all__ = ["add_parser", "load_policy", "run"]

DEFAULT_BOT = "greedy"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("join", help="play one seat of a live match with a bot or your own policy")
    parser.add_argument("link", metavar="SEAT_URL",
                        help="the seat's link, .../play/<match>#<token> (secret; - reads it from stdin)")
    player = parser.add_mutually_exclusive_group()
    player.add_argument("--bot", metavar="NAME", default=None,
                        help=f"a lab bot: {', '.join(sorted(BOTS))} (default {DEFAULT_BOT})")
    player.add_argument("--policy", metavar="MODULE:CALLABLE", default=None,
                        help="your policy: policy(turn) -> action, or a bot with choose(view, legal, seed)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a bot option as for taktik selfplay, e.g. iterations=400 (repeatable)")
    parser.add_argument("--bot-seed", type=parse_seed, default=None, metavar="N",
                        help="the bot's own seed (default: one drawn from the match id and seat)")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE",
                        help="write the match's record here at the end")
    parser.add_argument("--reconnect-for", type=nonnegative_number, default=300.0, metavar="SECONDS",
                        help="keep reconnecting this long after the connection is lost (default 300)")
    parser.add_argument("--rate", type=nonnegative_number, default=2.0, metavar="ACTIONS_PER_SECOND",
                        help="pace actions after a burst of 10 (default 2, the server's limit; 0: no pacing)")
    parser.add_argument("--no-claim", action="store_true",
                        help="do not claim the win when the other seat abandons the game")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        link = parse_seat_link(sys.stdin.readline() if args.link == "-" else args.link)
    except ClientError as err:
        raise CommandError(str(err), code=err.exit_code) from None
    out = output_file(args.out) if args.out is not None else None
    policy = _policy(args)
    _log_to_stderr(quiet=args.quiet)
    options = JoinOptions(reconnect_for=args.reconnect_for, action_rate=args.rate or None, claim=not args.no_claim)
    try:
        result = play_seat(link, policy, options)
        print(result.describe())
        record = fetch_record(link, result.seed_commitment) if out is not None else None
    except ClientError as err:
        if os.environ.get("TAKTIK_DEBUG") and err.__cause__ is not None:
            traceback.print_exception(err.__cause__)
        raise CommandError(str(err), code=err.exit_code) from None
    if out is not None and record is not None:
        try:
            out.write_bytes(encode_record(record))
        except OSError as err:  # checked before the game (output_file); a full disk, say, since
            raise CommandError(f"cannot write the record to {out}: {err.strerror or err}") from None
        print(f"record written to {out}")
    return 0 if result.won else 1


def _policy(args: argparse.Namespace) -> Policy:
    if args.policy is not None:
        if args.option:
            raise CommandError("--option goes with --bot; a --policy takes no options")
        return load_policy(args.policy, args.bot_seed)
    name = args.bot or DEFAULT_BOT
    if name not in BOTS:
        raise CommandError(f"unknown bot {name!r}; choose one of {', '.join(sorted(BOTS))}")
    items = [item if "." in item.partition("=")[0] else f"{name}.{item}" for item in args.option]
    options = parse_bot_options(items, [name]).get(name, {})
    return BotPolicy(get_bot(name, **options), args.bot_seed)


def load_policy(spec: str, seed: int | None = None) -> Policy:
    """``MODULE:CALLABLE`` (the module importable from the current folder) as a policy.

    The object may be a policy (``policy(turn) -> action``) or a bot (``choose(view, legal,
    seed) -> (action, seed)``, e.g. ``lab.rl.ModelBot``), which plays through `BotPolicy`.
    """
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise CommandError(f"--policy {spec!r} is not MODULE:CALLABLE", hint="for example --policy my_bot:choose")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` would: the user's own module, from where they run
    try:
        found: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is not None and module_name.startswith(err.name):
            raise CommandError(f"--policy: no module {module_name!r} here or on the path") from None
        raise CommandError(f"--policy: module {module_name!r} needs {err.name!r}, which is not installed") from None
    except Exception as err:
        raise CommandError(f"--policy: importing {module_name!r} failed ({type(err).__name__}: {err})") from None
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise CommandError(f"--policy: {module_name!r} has no {attribute!r}")
        found = getattr(found, part)
    if callable(getattr(found, "choose", None)):
        return BotPolicy(found, seed)
    if not callable(found):
        raise CommandError(f"--policy: {spec} is a {type(found).__name__}, not a policy or a bot")
    policy: Policy = found
    return policy


def _log_to_stderr(*, quiet: bool) -> None:
    logger = logging.getLogger("taktik.client")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("taktik join: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.WARNING if quiet else logging.INFO)
    logger.propagate = False
