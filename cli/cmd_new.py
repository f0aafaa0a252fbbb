"""`taktik new --seed N`: print the starting position of a game."""

from __future__ import annotations

import argparse

from engine.analysis import encode_text

from .game_options import add_config_options, game_from_args


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("new", help="print the starting position of a game")
    add_config_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    _, state = game_from_args(args)
    print(encode_text(state))
    return 0
