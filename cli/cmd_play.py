"""`taktik play --seed N`: play a random legal game, printing every step.

Random play is the only mode, so there is nothing to choose; ``--random`` is still
accepted (and changes nothing) for scripts written when it was required.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import draw_index, encode_action, encode_record, legal_actions, record_game, reduce
from engine.analysis import encode_text

from .errors import CommandError, output_file
from .game_options import add_config_options, add_rules_option, game_from_args, parse_seed


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "play", help="play a random legal game headless and write its record",
        description="Both sides pick uniformly among the legal actions, from --player-seed.",
    )
    add_config_options(parser)
    add_rules_option(parser)
    parser.add_argument("--random", action="store_true", help=argparse.SUPPRESS)  # once required; now the only mode
    parser.add_argument(
        "--player-seed", type=parse_seed, default=None,
        help="seed of the random players' choices (default: the game seed)",
    )
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="write the game record here")
    parser.add_argument("--quiet", action="store_true", help="print only the final position")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    out = output_file(args.out) if args.out is not None else None
    config, state = game_from_args(args)
    choice_seed = args.player_seed if args.player_seed is not None else (config.seed or 1)
    actions = []
    if not args.quiet:
        print(f"== start\n{encode_text(state)}\n")
    while True:
        options = legal_actions(state)
        if not options:
            break
        index, choice_seed = draw_index(len(options), choice_seed)
        action = options[index]
        actor = state.to_act.value if state.to_act else "?"
        state = reduce(state, action)
        actions.append(action)
        if not args.quiet:
            print(f"== step {len(actions) - 1}: {actor} {encode_action(action)}\n{encode_text(state)}\n")
    if args.quiet:
        print(encode_text(state))
    print(
        f"game over after {len(actions)} actions: {state.winner.value if state.winner else '?'} wins by "
        f"{state.victory_reason}"
    )
    if out is not None:
        try:
            out.write_bytes(encode_record(record_game(config, actions)))
        except OSError as err:
            raise CommandError(f"cannot write the record to {out}: {err.strerror or err}", code=1) from None
        print(f"record written to {out}")
    return 0
