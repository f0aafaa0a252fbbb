"""`taktik play --seed N --random`: play a random legal game, printing every step."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import draw_index, encode_action, encode_record, encode_text, legal_actions, new_game, record_game, reduce

from .game_options import add_config_options, config_from_args


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("play", help="play a game headless and write its record")
    add_config_options(parser)
    parser.add_argument(
        "--random", action="store_true", required=True, help="both sides pick uniformly among the legal actions"
    )
    parser.add_argument(
        "--player-seed", type=int, default=None, help="seed of the random players' choices (default: the game seed)"
    )
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="write the game record here")
    parser.add_argument("--quiet", action="store_true", help="print only the final position")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    try:
        state = new_game(config)
    except ValueError as err:
        raise SystemExit(f"taktik: invalid config: {err}") from None
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
    if args.out is not None:
        record = record_game(config, actions)
        args.out.write_bytes(encode_record(record))
        print(f"record written to {args.out}")
    return 0
