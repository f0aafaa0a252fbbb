"""`taktik new --seed N`: print the starting position of a game."""

from __future__ import annotations

import argparse

from engine import encode_text, new_game

from .game_options import add_config_options, config_from_args


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("new", help="print the starting position of a game")
    add_config_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    print(encode_text(new_game(config)))
    return 0
